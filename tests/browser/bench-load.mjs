// Benchmark (not a test): a cold load of scene pages on a slow connection, as a classroom
// phone sees it — files served gzip'd, CDP network throttling (150 ms latency, 1.6 Mbit/s
// down) and 4× CPU slowdown in headless Chromium. Prints, per page, the median over runs of
// the time to the scene's first paint (its picture on screen, in the link's language) and until
// Step answers, both from this script's request to open the page. Beside them, "in page": the
// first paint from the page's own navigation start, as the page's clock says (what a learner
// waits after a click; without the time the driver takes to open a tab and send the request).
//   node tests/browser/bench-load.mjs [DIST ...]   (default dist; several builds compare)
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { launch } from "./harness.mjs";

const RUNS = Number(process.env.RUNS ?? 5);
// PAGES="link link" measures other links; a link with lang= counts the first paint in that language.
const PAGES = process.env.PAGES?.split(" ") ?? [
  "?scene=overview&embed=1", "?scene=timer&preset=hierarchy-350&embed=1", "?scene=groups&embed=1", "?scene=groups&embed=1&lang=zh-CN",
];
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".toml": "text/plain", ".svg": "image/svg+xml" };

/** A static server that gzips every response, as GitHub Pages does. */
function gzipServer(dist) {
  const root = resolve(dist);
  const cache = new Map();
  const server = createServer(async (req, res) => {
    let rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (rel.endsWith("/")) rel += "index.html";
    const file = normalize(join(root, rel));
    const ok = file.startsWith(root) && (await stat(file).catch(() => null))?.isFile();
    if (!ok) return res.writeHead(404).end();
    if (!cache.has(file)) cache.set(file, gzipSync(await readFile(file), { level: 9 }));
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-encoding": "gzip", "cache-control": "no-store" });
    res.end(cache.get(file));
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done({ url: `http://127.0.0.1:${server.address().port}/`, server })));
}

async function coldLoad(browser, url) {
  const context = await browser.newContext({ viewport: { width: 700, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const lang = new URL(url).searchParams.get("lang") ?? "en";
  const picture = `html[lang="${lang}"] [data-testid="picture"] *`;
  // The page's clock when the picture is first in the document (a mutation, before it paints).
  await context.addInitScript((selector) => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector(selector)) return;
      window.labPictureAt = performance.now();
      observer.disconnect();
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["lang"] });
  }, picture);
  const start = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForSelector(picture, { timeout: 60000 });
  const paintMs = Date.now() - start;
  const inPageMs = await page.evaluate(() => window.labPictureAt);
  const before = await page.getByTestId("position").getAttribute("data-position");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((p) => document.querySelector('[data-testid="position"]').dataset.position !== p, before, { timeout: 60000 });
  const stepMs = Date.now() - start;
  await context.close();
  return { paintMs, stepMs, inPageMs };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launch({ asShipped: true });
const builds = process.argv.slice(2).length ? process.argv.slice(2) : ["dist"];
console.log(`cold loads, median of ${RUNS}: 150 ms latency, 1.6 Mbit/s, 4× CPU slowdown, gzip`);
for (const dist of builds) {
  const { url, server } = await gzipServer(dist);
  for (const path of PAGES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await coldLoad(browser, url + path));
    const paint = median(runs.map((r) => r.paintMs));
    const step = median(runs.map((r) => r.stepMs));
    const inPage = median(runs.map((r) => r.inPageMs));
    console.log(`${dist.padEnd(18)} ${path.padEnd(44)} first paint ${(paint / 1000).toFixed(2)} s   Step answers ${(step / 1000).toFixed(2)} s   first paint in page ${(inPage / 1000).toFixed(2)} s`);
  }
  server.close();
}
await browser.close();
