// Benchmark (not a test): how long a seek takes in the browser over a 10k-step history.
//   node tests/browser/bench-seek.mjs   (after scripts/build-static)
import { launch, openPage, serve, text } from "./harness.mjs";

const browser = await launch({ asShipped: true });
const server = await serve("/");
const page = await openPage(browser, `${server.url}?scene=overview&seed=1&a=s10000&t=0`);
const total = await text(page, "position");
const timings = await page.evaluate(async () => {
  const scrubber = document.querySelector("input.scrubber");
  const targets = [9999, 17, 5000, 10000, 2500, 7777, 1, 9000, 4321, 6000, 128, 8191];
  const results = [];
  for (const target of targets) {
    const t0 = performance.now();
    scrubber.value = String(target);
    scrubber.dispatchEvent(new Event("input", { bubbles: true }));
    const t1 = performance.now();
    await new Promise((done) => requestAnimationFrame(() => done()));
    const t2 = performance.now();
    results.push({ target, seekMs: t1 - t0, seekAndPaintMs: t2 - t0 });
  }
  return results;
});
const worst = (key) => Math.max(...timings.map((t) => t[key])).toFixed(1);
const median = (key) => {
  const sorted = timings.map((t) => t[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)].toFixed(1);
};
console.log(`history: ${total}`);
console.log(`seek (model + reactive update): median ${median("seekMs")} ms, worst ${worst("seekMs")} ms`);
console.log(`seek until next frame:          median ${median("seekAndPaintMs")} ms, worst ${worst("seekAndPaintMs")} ms`);
console.log(`goal: ≤ 50 ms`);
await browser.close();
await server.close();
