// Browser tests of the Partitioner scene: type keys, add partitions, read what a learner reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, openPage, text, useLab, atEnd, openAtEnd, linkOf } from "./harness.mjs";

const lab = useLab();

const PRESETS = [
  "cliente-42",
  "megacorp",
  "orderid-6-12",
  "sticky",
  "sticky-full-batches",
  "sticky-linger-0",
  "adaptive-slow-broker",
  "adaptive-availability-timeout",
];

async function typeKey(page, key) {
  await page.getByLabel("Record key").fill(key);
  await page.getByLabel("Record key").press("Enter");
}

async function alterTo(page, partitions) {
  await page.getByLabel("New partition count").fill(String(partitions));
  await page.getByRole("button", { name: /kafka-topics --alter/ }).click();
}

async function waitForText(page, testid, expected) {
  await page.waitForFunction(
    ([id, want]) => document.querySelector(`[data-testid="${id}"]`)?.innerText.trim() === want,
    [testid, expected],
    { timeout: 5000 },
  );
}

test("a typed key shows murmur2's steps and its partition, before and after adding partitions", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=partitioner&c=partitions=12`);
  await typeKey(page, "cliente-42");
  await waitForText(page, "key-partition", "5");
  assert.equal(await text(page, "key-bytes"), "63 6c 69 65 6e 74 65 2d 34 32");
  const hash = Number(await text(page, "key-murmur2"));
  assert.equal(Number(await text(page, "key-positive")), hash & 0x7fffffff);
  await alterTo(page, 24);
  await waitForText(page, "key-partition", "17");
  assert.equal(await text(page, "num-partitions"), "24");
  assert.match(await text(page, "moved-percent"), /^\d+\.\d %$/);
  assert.match(await text(page, "alter-summary"), /12 → 24 partitions: \d+ of 1,000 keys/);
  await alterTo(page, 6);
  assert.match(await text(page, "error-banner"), /The topic orders currently has 24 partition\(s\); 6 would not be an increase\./);
  assert.equal(await text(page, "num-partitions"), "24");
  assert.match(await linkOf(page), /key-636c69656e74652d3432\.alter-24/);
  assert.deepEqual(page.problems, []);
});

test("a key typed as 0x… hex is hashed as raw bytes; bad hex is refused with the reason", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=partitioner&c=partitions=24`);
  await typeKey(page, "0x636c69656e74652d3432");
  await waitForText(page, "key-partition", "17");
  assert.equal(await text(page, "key-bytes"), "63 6c 69 65 6e 74 65 2d 34 32");
  await typeKey(page, "0x00ff");
  await waitForText(page, "key-bytes", "00 ff");
  await typeKey(page, "0x0g");
  assert.match(await text(page, "error-banner"), /"0x0g" is not valid hex: 'g' at position 3/);
  assert.equal(await text(page, "key-bytes"), "00 ff");
  assert.deepEqual(page.problems, []);
});

test("preset cliente-42 replays the order break: cancelled processed before created", async () => {
  const page = await openAtEnd(lab.browser, `${lab.server.url}?scene=partitioner&preset=cliente-42`);
  assert.match(await text(page, "order-verdict"), /Order broken for cliente-42: cancelled was processed before created, updated/);
  const row = async (event) => page.locator(`[data-testid="order-row-${event}"]`).innerText();
  assert.match(await row("cancelled"), /orders-17.*#1/s);
  assert.match(await row("created"), /orders-5.*#2/s);
  assert.equal(await text(page, "key-partition"), "17");
  await page.screenshot({ path: `${ARTIFACTS}partitioner-cliente-42.png`, fullPage: true });
  assert.deepEqual(page.problems, []);
});

test("preset megacorp: offsets per partition before and after, the hot key in one partition until the composite key", async () => {
  const page = await openAtEnd(lab.browser, `${lab.server.url}?scene=partitioner&preset=megacorp`);
  const offsets = (await text(page, "get-offsets")).split("\n");
  assert.equal(offsets.length, 12);
  assert.match(offsets[0], /^orders:0:\d+$/);
  const burst = async (i) => page.locator(`[data-testid="round-${i}"]`).innerText();
  const perPartition = async (i) => (await page.locator(`[data-testid="round-${i}"] [data-testid="round-offsets"]`).innerText()).split(/\s+/);
  assert.equal((await perPartition(0)).length, 6);
  assert.equal((await perPartition(1)).length, 12);
  assert.match(await burst(0), /on 6 partitions .*MEGACORP in 1 partition/s);
  assert.match(await burst(1), /on 12 partitions .*MEGACORP in 1 partition/s);
  const spread = Number((await burst(2)).match(/MEGACORP in (\d+) partition/)[1]);
  assert.ok(spread > 1, `composite key spreads MEGACORP over ${spread} partitions`);
  await page.screenshot({ path: `${ARTIFACTS}partitioner-megacorp.png`, fullPage: true });
  assert.deepEqual(page.problems, []);
});

test("the other presets open by link, the sticky ones draw batches, and none logs a console error", async () => {
  for (const id of PRESETS.filter((p) => !["cliente-42", "megacorp"].includes(p))) {
    const page = await openAtEnd(lab.browser, `${lab.server.url}?scene=partitioner&preset=${id}`);
    if (id.startsWith("sticky") || id.startsWith("adaptive")) {
      assert.match(await text(page, "sticky-summary"), /records in \d+ batches/);
      assert.ok(await page.locator('[data-testid="sticky-timeline"] rect.batch').count() > 0);
    } else {
      assert.equal(await page.locator('[data-testid="sticky-empty"]').count(), 1);
    }
    await page.screenshot({ path: `${ARTIFACTS}partitioner-${id}.png`, fullPage: true });
    assert.deepEqual(page.problems, [], id);
    await page.context().close();
  }
});

test("the stage shows what each preset's story is about; every other part is below it, once", async () => {
  // The picture holds the story's part; the panels hold the rest, so every test id is on the page exactly once.
  const staged = {
    "": ["key-input", "population"],
    "cliente-42": ["order-empty"],
    megacorp: ["distribution"],
    sticky: ["send-unkeyed"],
    "adaptive-slow-broker": ["send-unkeyed"],
  };
  for (const [preset, ids] of Object.entries(staged)) {
    const page = await openPage(lab.browser, `${lab.server.url}?scene=partitioner${preset ? `&preset=${preset}` : ""}`);
    for (const id of ids) assert.equal(await page.locator(`.picture [data-testid="${id}"]`).count(), 1, `${preset || "default"}: ${id} on the stage`);
    for (const id of ["key-input", "population", "distribution", "send-unkeyed", "event-input"]) {
      assert.equal(await page.locator(`[data-testid="${id}"]`).count(), 1, `${preset || "default"}: ${id} once on the page`);
    }
    assert.deepEqual(page.problems, [], preset);
    await page.context().close();
  }
});
