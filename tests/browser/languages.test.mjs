// Browser tests of the five languages: a link's lang=, the browser's languages, the menu and its
// memory, and an embed inside a Spanish lesson page. Expected texts come from the locale files.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ID, KEYS, VERSION } from "../../scripts/catalog.mjs";
import { ARTIFACTS, openPage, useLab, linkOf } from "./harness.mjs";

const lab = useLab();
const LOCALES = ["es", "pt-BR", "zh-CN", "tr"];

/** The texts of a locale file, key → text (the lab's TOML subset: one "key" = "text" a line). */
function catalog(tag) {
  const texts = {};
  const file = new URL(`../../locales/${tag}.toml`, import.meta.url);
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = line.match(/^"([^"]+)" = "((?:[^"\\]|\\.)*)"/);
    if (m) texts[m[1]] = JSON.parse(`"${m[2]}"`);
  }
  return texts;
}

async function openIn(url, options = {}) {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (err) => page.problems.push(String(err)));
  page.on("console", (msg) => {
    // A lesson page of the test's own has no icon: the browser's favicon request is not the lab's.
    if (msg.type() === "error" && !msg.location()?.url?.endsWith("/favicon.ico")) page.problems.push(msg.text());
  });
  await page.goto(url);
  return page;
}

const htmlLang = (page) => page.evaluate(() => document.documentElement.lang);
const waitForLang = (page, tag) =>
  page.waitForFunction((t) => document.documentElement.lang === t && document.querySelector("main.scene [data-testid]"), tag, { timeout: 20000 });
const textOf = (texts, key) => texts[key].split("{")[0].trim();

for (const tag of LOCALES) {
  test(`every scene opened with lang=${tag} speaks ${tag}`, async () => {
    const texts = catalog(tag);
    const page = await openIn(`${lab.server.url}?scene=overview&lang=${tag}`);
    for (const scene of ["overview", "log", "replication", "groups", "partitioner", "timer", "transactions"]) {
      await page.goto(`${lab.server.url}?scene=${scene}&lang=${tag}`);
      await waitForLang(page, tag);
      const body = await page.locator("body").innerText();
      for (const key of ["shell.play", "shell.step", `scene.${scene}`, "shell.log.title"]) {
        assert.ok(body.includes(textOf(texts, key)), `${scene} in ${tag} shows ${key} = ${texts[key]}`);
      }
      assert.ok(body.includes(textOf(texts, `${scene}.intro`).slice(0, 24)), `${scene} intro in ${tag}`);
      assert.match(await linkOf(page), new RegExp(`lang=${tag}`), "the address keeps the language");
      await page.screenshot({ path: `${ARTIFACTS}lang-${tag}-${scene}.png` });
    }
    assert.deepEqual(page.problems, []);
  });
}

test("with no lang=, the browser's languages choose (pt → pt-BR), and English otherwise", async () => {
  const pt = await openIn(`${lab.server.url}?scene=log`, { locale: "pt-PT" });
  await waitForLang(pt, "pt-BR");
  const de = await openIn(`${lab.server.url}?scene=log`, { locale: "de-DE" });
  await de.waitForSelector("main.scene [data-testid]");
  assert.equal(await htmlLang(de), "en");
  assert.deepEqual([...pt.problems, ...de.problems], []);
});

test("the menu switches the language, keeps the state, and is remembered across scenes", async () => {
  const page = await openIn(`${lab.server.url}?scene=overview&seed=3&a=s5`, { locale: "en-US" });
  await page.waitForSelector("main.scene [data-testid]");
  const before = await page.getByTestId("trace-hash").innerText();
  await page.getByTestId("language").selectOption("tr");
  await waitForLang(page, "tr");
  assert.match(await linkOf(page), /a=s5/);
  assert.equal(await page.getByTestId("trace-hash").innerText(), before, "the same state, now in Turkish");
  await page.goto(`${lab.server.url}?scene=timer`);
  await waitForLang(page, "tr");
  assert.deepEqual(page.problems, []);
});

test("switching the language redraws the event log's lines already shown", async () => {
  const page = await openIn(`${lab.server.url}?scene=overview&preset=leader-crash`, { locale: "en-US" });
  await page.waitForSelector("main.scene [data-testid]");
  const rows = () => page.locator('[data-testid="event-log"] tbody tr').allInnerTexts();
  for (let i = 0; i < 40 && !(await rows()).some((r) => r.includes("crashed (no controlled shutdown)")); i++) {
    await page.keyboard.press("ArrowRight");
  }
  assert.ok((await rows()).some((r) => r.includes("crashed (no controlled shutdown)")), "broker-1's crash is in the log");
  await page.getByTestId("language").selectOption("tr");
  await waitForLang(page, "tr");
  const turkish = await rows();
  assert.ok(turkish.some((r) => r.includes("çöktü (controlled shutdown yok)")), turkish.join("\n"));
  assert.ok(!turkish.some((r) => r.includes("crashed (no controlled shutdown)")), turkish.join("\n"));
  assert.deepEqual(page.problems, []);
});

test("a Spanish lesson embeds the acks=1 preset in Spanish", async () => {
  const texts = catalog("es");
  // A lesson page on the same host as the lab, with the README's snippet.
  const lesson = `${lab.server.url}leccion.html`;
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  await context.route(lesson, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html>
    <html lang="es"><head><meta charset="utf-8"><title>Lección 2</title></head><body><h1>Lección 2: acks</h1>
    <iframe class="kafka-lab" title="Kafka Lab" style="width:100%;border:0"
      src="./?scene=replication&preset=lab2-acks-1&embed=1&lang=es"></iframe>
    <script src="./embed.js" defer></script></body></html>` }));
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (err) => page.problems.push(String(err)));
  await page.goto(lesson);
  const frame = page.frameLocator("iframe.kafka-lab");
  await frame.locator('html[lang="es"] main.scene [data-testid]').first().waitFor({ timeout: 20000 });
  const body = await frame.locator("body").innerText();
  assert.ok(body.includes(textOf(texts, "shell.play")), "Play in Spanish");
  // The embed is the stage alone: its result card says what to watch, in Spanish.
  const card = await frame.locator("[data-testid=result-card]").textContent();
  assert.ok(card.includes(textOf(texts, "replication.story.lab2.watch").slice(0, 24)), "the story's card in Spanish");
  await page.screenshot({ path: `${ARTIFACTS}lang-es-embed.png` });
  assert.deepEqual(page.problems, []);
});

test("a page reads its language's texts from one file: without the Turkish file it draws in English, without any it still draws", async () => {
  const english = catalog("en");
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  // The wasm carries no texts of any language, English included: each comes from the page's file.
  const asked = [];
  await context.route(/\/locales\/.*\.toml$/, (route) => {
    asked.push(new URL(route.request().url()).pathname);
    return route.request().url().endsWith("/tr.toml") ? route.fulfill({ status: 404, body: "" }) : route.continue();
  });
  const page = await context.newPage();
  await page.goto(`${lab.server.url}overview/?embed=1&lang=tr`);
  await page.waitForSelector('html[lang="en"] main.scene [data-testid]', { timeout: 20000 });
  assert.ok((await page.locator("body").innerText()).includes(textOf(english, "shell.play")), "Play in English");
  assert.ok(asked.some((path) => path.endsWith(`/locales/overview-embed-${VERSION}/tr.toml`)), `asked ${asked}`);
  assert.ok(asked.some((path) => path.endsWith(`/locales/overview-embed-${VERSION}/en.toml`)), `asked ${asked}`);
  // No file at all (a broken deploy): no blank page, the transport is there to use.
  await context.unroute(/\/locales\/.*\.toml$/);
  await context.route(/\/locales\/.*\.toml$/, (route) => route.fulfill({ status: 404, body: "" }));
  await page.goto(`${lab.server.url}?scene=log`);
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  assert.equal(await page.getByTestId("position").count(), 1, "the transport is drawn");
  await context.close();
});

// One story per scene, as the course notes' first presets.
const PRESET = {
  overview: "leader-crash", log: "find-368500", replication: "lab2-acks-1",
  groups: "rebalance-loop", partitioner: "cliente-42", timer: "hierarchy-350", transactions: "zombie-fencing",
};

test("no page shows a text's key instead of its text: each scene's page and embed in Turkish at its story's end, the front page and the notebook once it has run every experiment", async () => {
  // A page's locale file holds only the keys its code names (scripts/site.mjs): a key missing
  // from it would show as the key itself, which the site's wasm knows by its short id (`^0A`,
  // scripts/catalog.mjs). No text has a `^`.
  const shownKeys = (page) => page.evaluate((all) => {
    const attributes = [...document.querySelectorAll("[aria-label], [title], [placeholder]")]
      .flatMap((el) => ["aria-label", "title", "placeholder"].map((name) => el.getAttribute(name) ?? ""));
    const words = [document.body.innerText, ...attributes].join("\n").match(/[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+|\^\w\w/g) ?? [];
    return words.filter((word) => all.includes(word));
  }, [...KEYS, ...ID.values()]);
  const page = await openIn(`${lab.server.url}?lang=tr`);
  await page.waitForFunction(() => document.documentElement.lang === "tr" && document.querySelector(".scene-cards li"), null, { timeout: 20000 });
  assert.deepEqual(await shownKeys(page), [], "the front page");
  for (const [scene, preset] of Object.entries(PRESET)) {
    for (const embed of ["", "&embed=1"]) {
      await page.goto(`${lab.server.url}${scene}/?preset=${preset}&lang=tr${embed}`);
      await waitForLang(page, "tr");
      await page.keyboard.press("End");
      await page.waitForFunction(() => {
        const el = document.querySelector('[data-testid="position"]');
        return el && el.dataset.position === el.dataset.total;
      }, null, { timeout: 20000 });
      assert.deepEqual(await shownKeys(page), [], `${scene}${embed}`);
    }
  }
  // The notebook with every experiment run: its cells show answers of every scene's model.
  await page.goto(`${lab.server.url}notebook/?lang=tr`);
  await waitForLang(page, "tr");
  await page.getByTestId("run-all").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.dataset.ms, null, { timeout: 120000 });
  assert.deepEqual(await shownKeys(page), [], "the notebook, every experiment run");
  assert.deepEqual(page.problems, []);
});

test("in a 700 px embed, every language's transport shows its buttons' whole words, its clock and its step count", async () => {
  // Spanish was the tight one: "Reproducir" cut to "Reproduc", the clock under the timeline and
  // "paso 1 de 8" past the bar's edge, in the timer's slow-motion story.
  const stories = { ...PRESET, timer: "purgatory-isr" };
  for (const tag of ["en", ...LOCALES]) {
    const page = await openIn(`${lab.server.url}?lang=${tag}`, { viewport: { width: 700, height: 900 } });
    for (const [scene, preset] of Object.entries(stories)) {
      await page.goto(`${lab.server.url}${scene}/?preset=${preset}&embed=1&lang=${tag}`);
      await waitForLang(page, tag);
      const cut = await page.evaluate(() => {
        const bar = document.querySelector(".transport").getBoundingClientRect();
        const found = [];
        for (const button of document.querySelectorAll(".transport button")) {
          if (button.offsetParent && button.scrollWidth > button.clientWidth + 1) found.push(`button "${button.innerText}"`);
        }
        const box = (id) => document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
        const [clock, position] = [box("clock"), box("position")];
        const timeline = document.querySelector(".transport .timeline").getBoundingClientRect();
        if (clock && clock.right > timeline.left + 1) found.push("the clock runs under the timeline");
        if (position && position.right > bar.right + 1) found.push("the step count runs past the bar");
        return found;
      });
      assert.deepEqual(cut, [], `${scene} embed in ${tag}`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
