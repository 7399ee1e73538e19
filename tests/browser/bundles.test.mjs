// One bundle per page: a scene's page, at the root (`?scene=X`, the links course pages hold)
// or its own (`X/`), fetches that scene's bundle and no other; both open the same state; the
// bare root is the front page, whose cards open the scenes; a scene page handed another
// scene's link passes it to the root.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { ID } from "../../scripts/catalog.mjs";
import { text, useLab } from "./harness.mjs";

const lab = useLab();
const manifest = JSON.parse(readFileSync(`${process.env.DIST ?? "dist"}/manifest.json`, "utf8"));
// The pages that are not scenes: the front page and the lab notebook (its own test below); a
// scene's embed (`X-embed`) and comparison (`X-compare`) are bundles of that scene's page.
const SCENES = Object.keys(manifest).filter((id) => id !== "home" && id !== "notebook" && !id.includes("-"));
// One story per scene: the preset menu's first entries of the course notes.
const PRESET = {
  overview: "leader-crash", log: "find-368500", replication: "lab2-acks-1",
  groups: "rebalance-loop", partitioner: "cliente-42", timer: "hierarchy-350", transactions: "zombie-fencing",
};

/** What must match for "the same state": position, clock, trace hash, caption and result card. */
async function snapshot(page) {
  const ids = ["position", "clock", "trace-hash", "caption", "result-card"];
  return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await text(page, id)])));
}

/** Opens `path` and returns the bundle ids whose files the page fetched, the stylesheets and
 *  wasm files it fetched (in request order), and the page. `before` runs in the page first. */
async function open(path, ready = "main.scene [data-testid]", before = undefined) {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  if (before) await context.addInitScript(before);
  const page = await context.newPage();
  const bundles = new Set();
  const styles = [];
  const wasms = [];
  const problems = [];
  page.on("pageerror", (err) => problems.push(String(err)));
  page.on("request", (request) => {
    const file = new URL(request.url()).pathname.split("/").pop();
    for (const [id, assets] of Object.entries(manifest)) {
      if (file === assets.js || file === assets.wasm || file === assets.plain) bundles.add(id);
    }
    if (file.endsWith(".css")) styles.push(file);
    if (file.includes("_bg.wasm")) wasms.push(file);
  });
  await page.goto(`${lab.server.url}${path}`);
  await page.waitForSelector(ready, { timeout: 20000 });
  return { page, bundles: [...bundles].sort(), styles, wasms, problems };
}

test("an embedded scene fetches its embed's bundle and no other, at the root and on its own page", async () => {
  for (const id of SCENES) {
    for (const path of [`?scene=${id}&preset=${PRESET[id]}&embed=1`, `${id}/?preset=${PRESET[id]}&embed=1`]) {
      const { page, bundles, styles, problems } = await open(path);
      assert.deepEqual(bundles, [`${id}-embed`], `${path} fetched the bundles ${bundles}`);
      // Its own stylesheet: the shared rules and the scene's, not the page's (header, preset menu, panels).
      assert.deepEqual(styles, manifest[`${id}-embed`].css, `${path} fetched the stylesheets ${styles}`);
      const sheet = await page.evaluate(() => [...document.styleSheets].flatMap((s) => [...s.cssRules]).map((r) => r.cssText).join("\n"));
      assert.ok(sheet.includes(".scene"), `${path}: its stylesheet has no shared rules`);
      assert.ok(!sheet.includes("header.top"), `${path} has the page's rules (header.top)`);
      assert.deepEqual(problems, [], `${path}: ${problems}`);
      await page.context().close();
    }
  }
});

test("a scene's page fetches its own bundle; a comparison (vs=) its comparison's; no other", async () => {
  for (const id of SCENES) {
    for (const [path, bundle] of [
      [`?scene=${id}&preset=${PRESET[id]}`, id],
      [`${id}/?preset=${PRESET[id]}`, id],
      [`?scene=${id}&vs=seed:7`, `${id}-compare`],
      [`${id}/?vs=seed:7`, `${id}-compare`],
    ]) {
      const { page, bundles, styles, problems } = await open(path);
      assert.deepEqual(bundles, [bundle], `${path} fetched the bundles ${bundles}`);
      assert.deepEqual([...styles].sort(), [...manifest[bundle].css].sort(), `${path} fetched the stylesheets ${styles}`);
      // In cascade order: the shared rules, the page's, then the scene's.
      const order = await page.evaluate(() =>
        [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute("href").split("/").pop()),
      );
      assert.deepEqual(order, manifest[bundle].css, `${path} links its stylesheets in the order ${order}`);
      assert.deepEqual(problems, [], `${path}: ${problems}`);
      await page.context().close();
    }
  }
});

test("a page fetches its wasm gzip'd and unpacks it; a browser that cannot unpack fetches the plain one", async () => {
  const path = `timer/?preset=${PRESET.timer}&embed=1`;
  const packed = await open(path);
  assert.deepEqual(packed.wasms, [manifest["timer-embed"].wasm], `${path} fetched ${packed.wasms}`);
  assert.match(manifest["timer-embed"].wasm, /_bg\.wasm\.gzip$/);
  const plain = await open(path, undefined, () => delete window.DecompressionStream);
  assert.deepEqual(plain.wasms, [manifest["timer-embed"].plain], `without DecompressionStream, ${path} fetched ${plain.wasms}`);
  // Both open the same state, without a problem.
  assert.deepEqual(await snapshot(plain.page), await snapshot(packed.page));
  for (const { page, problems } of [packed, plain]) {
    assert.deepEqual(problems, []);
    await page.context().close();
  }
});

test("an embed shows the state of the scene's page, without its header, menu, panels or notebook buttons", async () => {
  for (const id of SCENES) {
    const embed = await open(`${id}/?preset=${PRESET[id]}&embed=1`);
    for (const absent of ["header.top", '[data-testid="preset"]', ".panels", '[data-testid="record"]']) {
      assert.equal(await embed.page.locator(absent).count(), 0, `${id}: the embed shows ${absent}`);
    }
    const full = await open(`${id}/?preset=${PRESET[id]}`);
    // The page's result card also holds the notebook's buttons, which an embed never shows.
    await full.page.evaluate(() => document.querySelector(".record-run").remove());
    assert.deepEqual(await snapshot(embed.page), await snapshot(full.page), `${id}: the embed differs from the page`);
    await embed.page.context().close();
    await full.page.context().close();
  }
});

test("the lab notebook's page fetches its own bundle alone, at the root and on its own page", async () => {
  for (const path of ["?scene=notebook", "notebook/"]) {
    const { page, bundles, problems } = await open(path, '[data-testid="notebook-table"]');
    assert.deepEqual(bundles, ["notebook"], `${path} fetched the bundles ${bundles}`);
    assert.deepEqual(problems, [], `${path}: ${problems}`);
    await page.context().close();
  }
});

test("an old root link and the scene's own page open the same state", async () => {
  for (const id of SCENES) {
    const root = await open(`?scene=${id}&preset=${PRESET[id]}`);
    const own = await open(`${id}/?scene=${id}&preset=${PRESET[id]}`);
    assert.deepEqual(await snapshot(own.page), await snapshot(root.page), `${id}: the two pages differ`);
    await root.page.context().close();
    await own.page.context().close();
  }
});

test("the bare root is the front page: six scenes to pick, each card opens its scene", async () => {
  const { page, bundles, problems } = await open("", ".scene-cards");
  assert.deepEqual(bundles, ["home"], "the front page loads no scene");
  assert.deepEqual(problems, []);
  assert.equal(await page.locator(".scene-cards li").count(), SCENES.length);
  await page.getByTestId("open-timer").click();
  await page.waitForSelector("main.scene [data-testid]");
  assert.match(page.url(), /\?scene=timer/);
  assert.ok((await page.locator('nav [aria-current="page"]').innerText()).includes("Timing wheel"));
  await page.context().close();
});

test("a link that names only the language stays on the front page, in that language", async () => {
  const { page, bundles } = await open("?lang=es", ".scene-cards");
  assert.deepEqual(bundles, ["home"]);
  await page.waitForFunction(() => document.documentElement.lang === "es");
  assert.equal(await page.locator("main.front h2").innerText(), "Elige una escena");
  await page.context().close();
});

test("a scene's page given another scene's link hands it to the root, which opens that scene", async () => {
  const { page } = await open("timer/?scene=log&preset=find-368500");
  await page.waitForURL(/\/\?scene=log/);
  assert.ok((await page.locator('nav [aria-current="page"]').innerText()).includes("Log"));
  await page.context().close();
});

test("no bundle carries English texts: every page reads its language, English too, from its locale file", () => {
  const dist = process.env.DIST ?? "dist";
  const tagline = JSON.parse(/^"shell\.tagline" = (".*")$/m.exec(readFileSync("locales/en.toml", "utf8"))[1]);
  const keys = (file) => readFileSync(file, "utf8").split("\n").map((line) => /^"([^"]+)" = /.exec(line)?.[1]).filter(Boolean).sort();
  for (const [id, assets] of Object.entries(manifest)) {
    // The file a page fetches is gzip'd (scripts/site.mjs, `pack`); it unpacks to the plain one.
    const wasm = gunzipSync(readFileSync(`${dist}/assets/${assets.wasm}`));
    assert.ok(wasm.equals(readFileSync(`${dist}/assets/${assets.plain}`)), `${id}'s packed wasm unpacks to its plain one`);
    assert.equal(wasm.indexOf(tagline), -1, `${id}'s wasm holds the English tagline`);
    // Nor keys: it knows them by their short ids (scripts/catalog.mjs).
    assert.equal(wasm.indexOf("shell.panic.title"), -1, `${id}'s wasm holds a catalog key`);
    assert.notEqual(wasm.indexOf(ID.get("shell.panic.title")), -1, `${id}'s wasm lacks the failure overlay's id`);
    // Each language's file of a bundle holds the same keys, the failure overlay's among them.
    const english = keys(`${dist}/locales/${assets.texts}/en.toml`);
    assert.ok(english.includes(ID.get("shell.panic.title")), `${assets.texts}/en.toml has the shell's texts`);
    for (const tag of ["es", "pt-BR", "zh-CN", "tr"]) {
      assert.deepEqual(keys(`${dist}/locales/${assets.texts}/${tag}.toml`), english, `${assets.texts}/${tag}.toml`);
    }
  }
});
