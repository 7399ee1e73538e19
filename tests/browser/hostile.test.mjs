// A link that asks for too much work (issue 18's reproducers) opens within seconds with a
// banner saying how far it got, the link it then writes reopens there, and Step still answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockMs, linkOf, useLab } from "./harness.mjs";

const lab = useLab();

for (const query of [
  "scene=groups&c=heartbeat.interval.ms:1&a=w3600000",
  "scene=overview&c=lab.producer.records.per.sec:1000,lab.producer.distinct.keys:100000&a=w3600000",
]) {
  test(`${query} opens part of the way, says so, and Step still answers`, async () => {
    const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto(`${lab.server.url}?${query}`);
    const banner = page.getByTestId("error-banner").filter({ hasText: "opened part of the way" });
    await banner.waitFor({ timeout: 15000 });
    assert.match(await banner.innerText(), /1 of 1 actions replayed, up to/);
    const stoppedAt = await clockMs(page);
    assert.ok(stoppedAt > 0 && stoppedAt < 3_600_000, `stopped at ${stoppedAt} ms`);
    // The link the lab writes reopens where it stopped, with no banner.
    const again = await context.newPage();
    await again.goto(await linkOf(page));
    await again.waitForSelector("main.scene [data-testid]");
    assert.equal(await again.getByTestId("error-banner").count(), 0, "the written link is within the budget");
    assert.equal(await clockMs(again), stoppedAt, "and opens at the same time");
    const before = await page.getByTestId("position").getAttribute("data-position");
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((p) => document.querySelector('[data-testid="position"]').dataset.position !== p, before);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
