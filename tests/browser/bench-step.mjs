// Benchmark (not a test): what one step costs in the browser — from the → key to the DOM
// update and to the next frame — over many steps of the heaviest links, with the renderer's
// CPU time per step beside the wall time (the machines are shared and noisy: compare ratios).
//   node tests/browser/bench-step.mjs [DIST ...]   (default dist; several builds compare)
//   ONLY=replication measures only the links that contain that text.
import { launch, serve } from "./harness.mjs";

const STEPS = Number(process.env.STEPS ?? 150);
const LINKS = [
  "?scene=overview&preset=leader-crash",
  "?scene=log&preset=lab1-segments",
  "?scene=replication&c=lab.brokers:7,replication.factor:7,lab.producer.records.per.sec:1000&a=w1000x30&t=0",
  "?scene=groups&preset=rebalance-loop",
  "?scene=partitioner&preset=megacorp",
  "?scene=timer&preset=purgatory-isr",
];

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function measure(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("main.scene [data-testid]", { timeout: 60000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const cpu = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value;
  const before = await cpu();
  const timings = await page.evaluate(async (steps) => {
    const position = document.querySelector('[data-testid="position"]');
    const out = [];
    for (let i = 0; i < steps; i++) {
      if (position.dataset.position === position.dataset.total) break;
      const was = position.dataset.position;
      let dom = NaN;
      const changed = new Promise((done) => {
        const observer = new MutationObserver(() => {
          if (position.dataset.position === was) return;
          dom = performance.now() - t0;
          observer.disconnect();
          done();
        });
        observer.observe(position, { attributes: true });
        setTimeout(() => { observer.disconnect(); done(); }, 2000);
      });
      const t0 = performance.now();
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
      await changed;
      await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      out.push({ dom, frame: performance.now() - t0 });
    }
    return out;
  }, STEPS);
  const cpuMsPerStep = ((await cpu()) - before) * 1000 / Math.max(1, timings.length);
  await context.close();
  return { steps: timings.length, dom: timings.map((t) => t.dom), frame: timings.map((t) => t.frame), cpuMsPerStep };
}

const browser = await launch({ asShipped: true });
const builds = process.argv.slice(2).length ? process.argv.slice(2) : ["dist"];
console.log(`step → DOM update and → next frame over up to ${STEPS} steps, 1280×800 (ms; cpu: renderer task time per step)`);
for (const dist of builds) {
  process.env.DIST = dist;
  const server = await serve("/");
  for (const link of LINKS.filter((l) => l.includes(process.env.ONLY ?? ""))) {
    const r = await measure(browser, server.url + link);
    const f = (xs, q) => (quantile(xs.filter((x) => !Number.isNaN(x)), q) ?? NaN).toFixed(1);
    console.log(`${dist.padEnd(16)} ${link.slice(0, 60).padEnd(60)} steps ${String(r.steps).padStart(3)}  dom median ${f(r.dom, 0.5)} p99 ${f(r.dom, 0.99)}  frame median ${f(r.frame, 0.5)} p99 ${f(r.frame, 0.99)}  cpu ${r.cpuMsPerStep.toFixed(1)}`);
  }
  await server.close();
}
await browser.close();
