// A classroom with bad Wi-Fi: a scene visited once reopens with the network gone (the service
// worker, www/sw.js), at the same step, and Step still answers; a scene never visited is not
// opened from another's files; the site under a sub-path keeps its worker there; a wasm spoilt
// on the way is never kept; a new deploy drops the last one's files.
// "The network gone" is both the context offline and the server closed: Playwright's offline
// mode does not reach a service worker's own fetches, a closed server does.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, serve, text } from "./harness.mjs";
import { startServer } from "./serve.mjs";

const DIST = process.env.DIST ?? "dist";
const manifest = JSON.parse(readFileSync(`${DIST}/manifest.json`, "utf8"));
const PRESET = "hierarchy-350";
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** What a test opened, closed when it ends even if it fails (last opened first): a server left
 *  open would keep the test process alive. Returns `opened(close)` to register a closer. */
function closer(t) {
  const open = [];
  t.after(async () => { for (const close of open.reverse()) await close().catch(() => {}); });
  return (close) => open.push(close);
}

/** A new context (no worker, no cache yet) on `url`, the scene shown. */
async function visit(url, ready = "main.scene [data-testid]") {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (err) => page.problems.push(String(err)));
  await page.goto(url);
  await page.waitForSelector(ready, { timeout: 20000 });
  return { context, page };
}

/** Every address the page's origin holds in Cache Storage, by cache name. */
const cached = (page) => page.evaluate(async () => {
  const out = {};
  for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
  return out;
});

/** Polls `check` (an async function of `arg`, run in the page) until it holds; waitForFunction
 *  would take its promise for a truthy value. */
async function until(page, check, arg, what) {
  const deadline = Date.now() + 20000;
  while (!(await page.evaluate(check, arg))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(200);
  }
}

/** Waits until the worker has kept `url` (a page is kept after its files). */
async function kept(page, url) {
  const holds = async (want) => {
    for (const name of await caches.keys()) if (await (await caches.open(name)).match(want)) return true;
    return false;
  };
  await until(page, holds, url, `${url} to be kept`);
}

/** What a learner reads: position, clock, caption, result card. */
async function shown(page) {
  const ids = ["position", "clock", "caption", "result-card"];
  return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await text(page, id)])));
}

async function cutNetwork(context, server) {
  await context.setOffline(true);
  await server.close();
}

const bundleFiles = (id) => [manifest[id].js, manifest[id].wasm];

for (const [where, path, pageKey] of [
  ["the root link", `?scene=timer&preset=${PRESET}`, ""],
  ["the scene's own page", `timer/?preset=${PRESET}`, "timer/"],
]) {
  test(`a scene visited once by ${where} reopens offline at the same step, and Step still answers`, async (t) => {
    const opened = closer(t);
    const server = await serve("/");
    opened(server.close);
    const { context, page } = await visit(`${server.url}${path}`);
    opened(() => context.close());
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(450); // the lab writes the link 250 ms after a change
    const link = page.url();
    const online = await shown(page);
    await kept(page, `${server.url}${pageKey}`);
    await cutNetwork(context, server);

    const again = await context.newPage();
    again.on("pageerror", (err) => page.problems.push(String(err)));
    again.on("console", (msg) => { if (msg.type() === "error") page.problems.push(msg.text()); });
    await again.goto(link);
    await again.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
    assert.equal(again.url(), link, "the address keeps its query");
    assert.deepEqual(await shown(again), online, "the same step as online");
    const before = await again.getByTestId("position").getAttribute("data-position");
    await again.getByRole("button", { name: "Step", exact: true }).click();
    await again.waitForFunction((p) => document.querySelector('[data-testid="position"]').dataset.position !== p, before);
    assert.deepEqual(page.problems, []);
  });
}

// The load event does not wait for the files the bootstrap adds: a worker told of the page before
// its wasm arrived kept the page without it, and offline it could not start (seen on a busy
// machine; here the wasm is made slow on purpose).
test("a scene whose wasm arrives well after the page loaded still reopens offline", async (t) => {
  const opened = closer(t);
  const server = await startServer(DIST, { delayMs: (path) => (path.includes("_bg.wasm") ? 1500 : 0) });
  opened(server.close);
  const { context, page } = await visit(`${server.url}?scene=timer&preset=${PRESET}`);
  opened(() => context.close());
  const online = await shown(page);
  await kept(page, server.url);
  await cutNetwork(context, server);
  const again = await context.newPage();
  await again.goto(page.url());
  await again.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  assert.deepEqual(await shown(again), online);
});

test("offline, a scene never visited is not opened from another's files: the cache holds only the visited bundle", async (t) => {
  const opened = closer(t);
  const server = await serve("/");
  opened(server.close);
  const { context, page } = await visit(`${server.url}?scene=timer&preset=${PRESET}`);
  opened(() => context.close());
  await kept(page, server.url);
  const names = Object.keys(await cached(page));
  assert.equal(names.length, 1, `one cache: ${names}`);
  const files = Object.values(await cached(page))[0].map((url) => url.slice(server.url.length));
  for (const file of bundleFiles("timer")) assert.ok(files.includes(`assets/${file}`), `${file} kept: ${files}`);
  for (const id of Object.keys(manifest).filter((id) => id !== "timer")) {
    for (const file of bundleFiles(id)) assert.ok(!files.includes(`assets/${file}`), `${id}'s ${file} was kept`);
  }
  assert.ok(files.every((file) => !file.includes("?")), `pages kept without their query: ${files}`);
  await cutNetwork(context, server);

  // The root page was kept, the log scene's bundle was not: the page says it could not start.
  const root = await context.newPage();
  await root.goto(`${server.url}?scene=log&preset=find-368500`);
  await root.locator("#panic-overlay").waitFor({ timeout: 10000 });
  assert.match(await root.locator("#panic-overlay").innerText(), /could not start/);
  assert.equal(await root.locator("main.scene").count(), 0);
  // The log scene's own page was never fetched: the browser's own offline page, no stale scene.
  const own = await context.newPage();
  await assert.rejects(own.goto(`${server.url}log/`), /ERR_INTERNET_DISCONNECTED|ERR_FAILED|ERR_CONNECTION_REFUSED/);
});

test("under a sub-path (GitHub Pages' /kafka-lab/) the worker's scope is the sub-path and the scene reopens offline", async (t) => {
  const opened = closer(t);
  const server = await serve("/kafka-lab/");
  opened(server.close);
  const { context, page } = await visit(`${server.url}timer/?preset=${PRESET}`);
  opened(() => context.close());
  assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope), server.url);
  await kept(page, `${server.url}timer/`);
  const names = Object.keys(await cached(page));
  assert.ok(names.every((name) => name.startsWith(`kafka-lab ${server.url} `)), `caches named after the scope: ${names}`);
  const online = await shown(page);
  await cutNetwork(context, server);
  await page.reload();
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  assert.deepEqual(await shown(page), online);
});

/** A copy of the build to spoil or redeploy, served at `/`, removed when the test ends. */
async function copyOfBuild(opened) {
  const dir = mkdtempSync(join(tmpdir(), "kafka-lab-offline-"));
  opened(async () => rmSync(dir, { recursive: true, force: true }));
  cpSync(DIST, dir, { recursive: true });
  const server = await startServer(dir);
  opened(server.close);
  return { dir, server };
}

test("a wasm spoilt on the way is never kept: once it arrives intact, the scene opens", async (t) => {
  const opened = closer(t);
  const copy = await copyOfBuild(opened);
  const wasm = join(copy.dir, "assets", manifest.timer.wasm);
  const intact = readFileSync(wasm);
  const spoilt = Buffer.from(intact);
  spoilt[spoilt.length - 1] ^= 0xff;
  writeFileSync(wasm, spoilt);
  const { context, page } = await visit(`${copy.server.url}timer/`, "#panic-overlay");
  opened(() => context.close());
  assert.match(await page.locator("#panic-overlay").innerText(), /could not start/);
  await kept(page, `${copy.server.url}timer/`); // kept after its files were weighed
  const files = Object.values(await cached(page)).flat();
  assert.ok(files.some((url) => url.endsWith(manifest.timer.js)), "the intact JS is kept");
  assert.ok(!files.some((url) => url.endsWith(manifest.timer.wasm)), "the spoilt wasm is not");
  writeFileSync(wasm, intact);
  await page.reload();
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  assert.equal(await page.locator("#panic-overlay").count(), 0);
});

test("a new deploy drops the last one's cache, and the scene still reopens offline", async (t) => {
  const opened = closer(t);
  const copy = await copyOfBuild(opened);
  const { context, page } = await visit(`${copy.server.url}timer/?preset=${PRESET}`);
  opened(() => context.close());
  await kept(page, `${copy.server.url}timer/`);
  const [first] = Object.keys(await cached(page));
  // The next deploy: a new build id in sw.js (as any changed file gives).
  const sw = join(copy.dir, "sw.js");
  const source = readFileSync(sw, "utf8");
  const build = /const BUILD = "([0-9a-f]{16})";/.exec(source)[1];
  writeFileSync(sw, source.replace(build, "0123456789abcdef"));
  await page.reload();
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  const replaced = async (old) => {
    const names = await caches.keys();
    return names.length === 1 && names[0] !== old && names[0].endsWith(" 0123456789abcdef");
  };
  await until(page, replaced, first, "the new deploy's cache alone");
  await kept(page, `${copy.server.url}timer/`);
  await kept(page, `${copy.server.url}assets/${manifest.timer.wasm}`);
  const online = await shown(page);
  await cutNetwork(context, copy.server);
  await page.reload();
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  assert.deepEqual(await shown(page), online);
});
