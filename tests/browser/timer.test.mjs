// Browser tests of the "Timing wheel" scene: what a learner does and reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, clockMs, openPage, settled, text, useLab, linkOf } from "./harness.mjs";

const lab = useLab();

const step = (page) => page.getByRole("button", { name: "Step", exact: true }).click();
const location = (page, id) => page.locator(`[data-testid="pending-${id}"] [data-testid="location"]`).innerText();

test("the 350 ms task starts in level 1 bucket 17, falls into level 0 bucket 10 at 340 ms and runs at 350 ms", async () => {
  // t=1: right after the task is added (the preset's story goes on to the fall and the fire).
  const page = await openPage(lab.browser, `${lab.server.url}?scene=timer&preset=hierarchy-350&t=1`);
  assert.equal(await location(page, 1), "(1, 17)");
  assert.match(await text(page, "wheel-1"), /L1\s+20\s+400 ms\s+0 ms/);
  await page.screenshot({ path: `${ARTIFACTS}timer-hierarchy-350.png`, fullPage: true });

  await step(page); // the next event: the reaper expires level 1 bucket 17 at 340 ms
  assert.equal(await clockMs(page), 340);
  assert.equal(await text(page, "clock"), "340 ms");
  assert.equal(await location(page, 1), "(0, 10)");
  assert.match(await text(page, "moves"), /task #1 \(task350, expires 350 ms\) fell from level 1 bucket 17 → level 0 bucket 10/);
  assert.equal(await page.locator('[data-testid="wheel-0"] td.current').innerText(), "340 ms");
  assert.equal(await page.locator("svg.rings line.fell").count(), 1, "an arrow shows the fall");
  await settled(page); // the dot's move is a 0.6 s transition
  await page.screenshot({ path: `${ARTIFACTS}timer-hierarchy-350-fell.png`, fullPage: true });

  await step(page);
  assert.equal(await clockMs(page), 350);
  assert.equal(await page.locator('[data-testid="pending-1"]').count(), 0);
  assert.match(await text(page, "moves"), /task #1 \(task350\) ran at 350 ms: level 0 bucket 10 expired/);

  // The link keeps the steps: opening it one step back shows the task in level 1 again.
  const back = (await linkOf(page)).replace(/&t=\d+/, "") + "&t=1";
  const again = await openPage(lab.browser, back);
  assert.equal(await location(again, 1), "(1, 17)");
  await again.keyboard.press("ArrowRight");
  assert.equal(await location(again, 1), "(0, 10)");
  assert.deepEqual([...page.problems, ...again.problems], []);
});

test("a task added with the form appears in the pending list with its (level, bucket), and cancel removes it", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=timer&preset=single-wheel&t=4`);
  await page.getByLabel("delay (ms)").fill("50");
  await page.getByLabel("label").fill("mine");
  await page.getByRole("button", { name: "Add task" }).click();
  // Added at 2 ms, it expires at 52 ms: past level 0's 20 ms, so level 1 (tick 20) bucket 52 / 20 % 20 = 2.
  const row = page.locator('[data-testid="pending-4"]');
  assert.match(await row.innerText(), /mine\s+52 ms/);
  assert.equal(await location(page, 4), "(1, 2)");
  await page.getByRole("button", { name: "Advance to the next bucket expiration (10 ms)" }).click();
  assert.equal(await clockMs(page), 10);
  await page.getByRole("button", { name: "Cancel #4" }).click();
  assert.equal(await row.count(), 0);
  assert.match(await text(page, "ops"), /cancels\s+1\s+1/);
  assert.match(await linkOf(page), /add-50-mine/);
  await page.screenshot({ path: `${ARTIFACTS}timer-single-wheel.png`, fullPage: true });
  assert.deepEqual(page.problems, []);
});

test("live purgatory: the acks=all produce waits on the wheel and completes when the ISR has caught up", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=timer&preset=purgatory-isr&t=2`);
  assert.match(await text(page, "produce-1"), /#1\s+HW ≥ 1\s+#7\s+\(3, 3\)\s+31000 ms/);
  await page.screenshot({ path: `${ARTIFACTS}timer-purgatory-isr.png`, fullPage: true });
  for (let i = 0; i < 20 && (await text(page, "completed")) === "0"; i++) await step(page);
  assert.equal(await text(page, "completed"), "1");
  assert.equal(await text(page, "hw"), "1");
  assert.equal(await page.locator('[data-testid="produce-1"]').count(), 0);
  assert.deepEqual(page.problems, []);
});

test("every other preset opens by link without console errors", async () => {
  // Each at the step after its last command, where tasks wait on the wheel.
  for (const [preset, t] of [["third-wheel", 2], ["purgatory-stalled-follower", 3], ["purgatory-crashed-follower", 3]]) {
    const page = await openPage(lab.browser, `${lab.server.url}?scene=timer&preset=${preset}&t=${t}`);
    assert.equal(await page.locator('[data-testid="error-banner"]').count(), 0, preset);
    assert.ok((await page.locator("svg.rings g.task").count()) > 0, `${preset} shows tasks`);
    await page.screenshot({ path: `${ARTIFACTS}timer-${preset}.png`, fullPage: true });
    assert.deepEqual(page.problems, [], preset);
  }
});

test("the rings' task labels sit beside the wheel, whole and apart; the purgatory presets show the replicas beside it", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=timer&a=stream-tasks.w500`);
  const labels = await page.locator("svg.rings text.dot-label").evaluateAll((els) => els.map((el) => {
    const box = el.getBoundingClientRect();
    return { text: el.textContent, top: box.top, bottom: box.bottom, left: box.left, right: box.right };
  }));
  assert.ok(labels.length >= 2, "the stream's tasks are labelled");
  const rings = await page.locator("svg.rings circle.band").last().evaluate((el) => el.getBoundingClientRect().toJSON());
  for (const [i, a] of labels.entries()) {
    assert.doesNotMatch(a.text, /…/, "a label is never cut short");
    assert.ok(a.right <= rings.left + 1 || a.left >= rings.right - 1, `"${a.text}" is outside the rings`);
    for (const b of labels.slice(i + 1)) {
      const apart = a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5 || a.right <= b.left || b.right <= a.left;
      assert.ok(apart, `"${a.text}" and "${b.text}" do not overlap`);
    }
  }
  assert.equal(await page.locator('.picture [data-testid="pending"]').count(), 1, "the sandbox's pending list is beside the wheel");
  const broker = await openPage(lab.browser, `${lab.server.url}?scene=timer&preset=purgatory-isr&t=2`);
  assert.equal(await broker.locator(".picture .pg-replica").count(), 3, "three replicas beside the wheel");
  assert.match(await broker.locator(".picture .pg-waiting").innerText(), /#1 HW ≥ 1 · task #7 at \(3, 3\) · 31000 ms/);
  assert.equal(await broker.locator('.picture [data-testid="replicas"]').count(), 0, "the replica table and its faults are below the stage");
  assert.deepEqual([...page.problems, ...broker.problems], []);
});
