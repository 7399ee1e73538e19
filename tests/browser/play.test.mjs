// Play never holds the page for more than a frame, even on a config that makes every
// millisecond busy; it stops at the work budget with a banner, the link it writes reopens
// there; and the heavy links stay within 128 MB of wasm memory (issue 18).
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockMs, linkOf, useLab } from "./harness.mjs";
import { memoryProbe, wasmMemoryBytes, MB } from "./memory.mjs";

const lab = useLab();

async function open(query) {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") page.problems.push(m.text()); });
  await page.goto(`${lab.server.url}?${query}`);
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  return { context, page };
}

/** Starts a requestAnimationFrame loop that keeps the longest gap between two frames. */
async function watchFrames(page) {
  await page.evaluate(() => {
    window.__frames = { last: performance.now(), worst: 0, count: 0 };
    const frame = (now) => {
      const f = window.__frames;
      f.worst = Math.max(f.worst, now - f.last);
      f.last = now;
      f.count += 1;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

async function play(page, speed) {
  await page.locator(".speed select").selectOption(speed);
  await page.locator("#transport button.primary").click();
}

for (const query of ["scene=groups&c=heartbeat.interval.ms:1", "scene=groups&c=lab.poll.timeout.ms:1"]) {
  test(`Play at the fastest speed on ${query} never leaves a frame gap over 200 ms`, async () => {
    const { context, page } = await open(query);
    await watchFrames(page);
    await play(page, "3600");
    await page.waitForTimeout(6000);
    const frames = await page.evaluate(() => window.__frames);
    await page.locator("#transport button.primary").click();
    assert.ok(await clockMs(page) > 0, "the clock moved");
    assert.ok(frames.count > 100, `frames were drawn: ${frames.count}`);
    assert.ok(frames.worst <= 200, `the longest gap between two frames was ${frames.worst.toFixed(0)} ms`);
    assert.deepEqual(page.problems, []);
    await context.close();
  });
}

test("Play stops at the work budget with a banner, and the link it writes reopens there", async () => {
  const { context, page } = await open("scene=overview&c=lab.producer.records.per.sec:1000");
  await watchFrames(page);
  await play(page, "3600");
  const banner = page.getByTestId("error-banner").filter({ hasText: "Play stopped here" });
  await banner.waitFor({ timeout: 60000 });
  assert.match(await banner.innerText(), /as much as a link may hold/);
  assert.equal(await page.locator("#transport button.primary").getAttribute("aria-pressed"), "false");
  const frames = await page.evaluate(() => window.__frames);
  assert.ok(frames.worst <= 200, `the longest gap between two frames was ${frames.worst.toFixed(0)} ms`);
  const stoppedAt = await clockMs(page);
  const again = await context.newPage();
  await again.goto(await linkOf(page));
  await again.waitForSelector("main.scene [data-testid]");
  assert.equal(await again.getByTestId("error-banner").count(), 0, "the written link opens whole");
  assert.equal(await clockMs(again), stoppedAt, "at the same time");
  assert.deepEqual(page.problems, []);
  await context.close();
});

for (const query of [
  "scene=overview&a=w1000x200000",
  "scene=overview&a=s200000",
  "scene=overview&a=w1600x20000",
  "scene=overview&c=lab.producer.records.per.sec:1000,lab.producer.distinct.keys:100000&a=w3600000",
]) {
  test(`${query} opens within 128 MB of wasm memory`, async () => {
    const { context, page } = await open(query);
    const cdp = await memoryProbe(page);
    const bytes = await wasmMemoryBytes(cdp);
    console.log(`# ${query}: wasm memory ${(bytes / MB).toFixed(1)} MB`);
    assert.ok(bytes <= 128 * MB, `${(bytes / MB).toFixed(1)} MB`);
    assert.deepEqual(page.problems, []);
    await context.close();
  });
}
