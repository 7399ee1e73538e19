// Benchmark (not a test): the Partitioner scene in the browser, measured through its controls.
//   node tests/browser/bench-partitioner.mjs   (DIST=<release dist>, e.g. after scripts/build-static)
// - opening a 100k-key population (the model hashes every key once for its partition table);
// - `kafka-topics --alter --partitions M` on it, clicked in the UI: the model's repartition
//   analysis of all 100k keys (murmur2 once per key, both partition counts) plus the new
//   partition table (murmur2 again per key) and the redraw of the sampled dots.
// murmur2 for 1M keys of 16 bytes cannot be driven through the UI (a population holds at most
// 100k keys); `cargo bench --bench partitioner` gives that figure natively.
import { launch, openPage, serve, text } from "./harness.mjs";

const KEYS = process.env.KEYS ?? "100000";
const browser = await launch({ asShipped: true });
const server = await serve("/");
const t0 = Date.now();
const page = await openPage(browser, `${server.url}?scene=partitioner&c=partitions=12,lab.distinct.keys=${KEYS}`);
await page.waitForSelector('[data-testid="num-partitions"]');
console.log(`open scene with ${KEYS} keys (incl. wasm load): ${Date.now() - t0} ms`);

const alter = async (to) =>
  page.evaluate(async (to) => {
    const input = document.querySelector('[data-testid="alter-input"]');
    const button = document.querySelector('[data-testid="alter-button"]');
    input.value = String(to);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await new Promise((done) => requestAnimationFrame(() => done()));
    const start = performance.now();
    button.click();
    const handled = performance.now();
    while (document.querySelector('[data-testid="num-partitions"]').innerText.trim() !== String(to)) {
      await new Promise((done) => setTimeout(done, 0));
    }
    const shown = performance.now();
    await new Promise((done) => requestAnimationFrame(() => done()));
    return { to, modelMs: handled - start, shownMs: shown - start, paintedMs: performance.now() - start };
  }, to);

const results = [];
for (const to of [24, 25, 48, 96, 100]) results.push(await alter(to));
for (const r of results) {
  console.log(
    `alter → ${String(r.to).padStart(3)} partitions, ${KEYS} keys: model ${r.modelMs.toFixed(1)} ms, ` +
      `shown ${r.shownMs.toFixed(1)} ms, next frame ${r.paintedMs.toFixed(1)} ms`,
  );
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(1);
console.log(`median: model ${median(results.map((r) => r.modelMs))} ms, until painted ${median(results.map((r) => r.paintedMs))} ms`);
console.log(`moved at the last alter: ${await text(page, "moved-percent")}`);
if (page.problems.length) console.log("console problems:", page.problems);
await browser.close();
await server.close();
