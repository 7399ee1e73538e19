// Browser tests of the "Replication" scene: a learner opens presets, plays one, injects a fault,
// and reads the durability ledger.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, openPage, text, useLab, atEnd, openAtEnd, linkOf } from "./harness.mjs";

const lab = useLab();

const open = (query) => openAtEnd(lab.browser, `${lab.server.url}?scene=replication&${query}`);
const shot = (page, name) => page.screenshot({ path: `${ARTIFACTS}replication-${name}.png`, fullPage: true });

test("acks=1: the ledger shows the three acknowledged records the dead leader took with it", async () => {
  const page = await open("preset=loss-acks-1");
  assert.equal(await text(page, "acked-lost"), "3");
  assert.equal(await text(page, "ledger-lost"), "3");
  assert.equal(await text(page, "ledger-acked"), "3");
  assert.match(await text(page, "ledger-headline"), /acknowledged records are gone/);
  assert.match(await text(page, "describe"), /Leader: 2\t/);
  assert.equal(await text(page, "config-acks"), "1");
  await shot(page, "loss-acks-1");
  assert.deepEqual(page.problems, []);
});

test("min.insync.replicas=2: the same faults are refused and nothing acknowledged is lost", async () => {
  const page = await open("preset=safe-min-isr-2");
  assert.equal(await text(page, "acked-lost"), "0");
  assert.equal(await text(page, "ledger-acked"), "0");
  assert.equal(await text(page, "config-min.insync.replicas"), "2");
  await shot(page, "safe-min-isr-2");
  assert.deepEqual(page.problems, []);
});

test("playing the acks=1 loss from the start fills the ledger through the UI", async () => {
  const page = await open("preset=loss-acks-1&t=0");
  assert.equal(await text(page, "ledger-sent"), "0");
  assert.match(await text(page, "position"), /step 0 of 7/);
  await page.getByRole("button", { name: "Play", exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="acked-lost"]')?.textContent.trim() === "3", null, { timeout: 10000 });
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  assert.equal(await text(page, "ledger-sent"), "3");
  assert.equal(await text(page, "ledger-lost"), "3");
  assert.match(await text(page, "broker-1-state"), /down/);
  await shot(page, "loss-acks-1-played");
  assert.deepEqual(page.problems, []);
});

test("stepping the HW/LEO preset shows fetches moving and the follower's HW one round behind", async () => {
  const page = await open("preset=hw-leo-steps&t=1");
  let sawMessage = false;
  let sawLag = false;
  for (let i = 0; i < 12; i++) {
    await page.getByRole("button", { name: "Step", exact: true }).click();
    sawMessage ||= (await page.locator("svg.wire .msg").count()) > 0;
    const leader = await page.locator('[data-testid="log-1"] .who .num').innerText();
    const follower = await page.locator('[data-testid="log-2"] .who .num').innerText();
    sawLag ||= leader === "LEO 1 · HW 1" && follower === "LEO 1 · HW 0";
  }
  assert.ok(sawMessage, "a message was drawn on the wire");
  assert.ok(sawLag, "the follower had the record while its HW still said 0");
  await shot(page, "hw-leo-steps");
  assert.deepEqual(page.problems, []);
});

test("clicking Kill on a broker takes it down, and a 1000-record log is drawn folded", async () => {
  const page = await open("seed=1");
  assert.match(await text(page, "broker-2-state"), /running/);
  await page.getByRole("button", { name: "Kill broker-2" }).click();
  assert.match(await text(page, "broker-2-state"), /down/);
  assert.match(await linkOf(page), /kill-2/);
  await page.getByRole("button", { name: "Restart broker-2" }).click();
  assert.match(await text(page, "broker-2-state"), /running/);
  const big = await open("preset=lab2-acks-1");
  assert.ok((await big.locator('[data-testid="log-1"] .slot').count()) <= 20, "at most 20 offset cells per replica");
  assert.ok(Number(await text(big, "acked-lost")) > 0);
  await shot(big, "lab2-acks-1");
  assert.deepEqual([...page.problems, ...big.problems], []);
});

test("in a 700 px embed the stage fits whole: every node's card in view, a message's details on tap and on focus", async () => {
  const url = `${lab.server.url}?scene=replication&preset=loss-acks-1&embed=1`;
  const desk = await openPage(lab.browser, url);
  await desk.setViewportSize({ width: 700, height: 900 });
  const picture = await desk.locator(".picture").boundingBox();
  assert.ok(picture.height <= 560, `the picture is ${picture.height} px tall`);
  await desk.context().close();
  // A touch screen of the same width (its buttons are taller, for fingers).
  const context = await lab.browser.newContext({ viewport: { width: 700, height: 900 }, hasTouch: true, locale: "en-US" });
  const page = await context.newPage();
  const problems = [...desk.problems];
  page.on("pageerror", (err) => problems.push(String(err)));
  await page.goto(url);
  await page.waitForSelector("svg.wire .msg");
  // The fifth column (the controller) is not cut off: the cluster does not scroll at 700 px.
  const cluster = page.getByRole("region", { name: /Network: producer, brokers and controller/ });
  assert.ok(await cluster.evaluate((el) => el.scrollWidth <= el.clientWidth), "the cluster box does not scroll");
  const box = await cluster.boundingBox();
  const controller = await page.getByTestId("controller").boundingBox();
  assert.ok(controller.x + controller.width <= box.x + box.width + 0.5, "the controller's card is in view");
  // Tapping a message shows its details under the cards; focusing another shows its own.
  const messages = page.locator("svg.wire .msg");
  await messages.first().tap();
  const first = await messages.first().getAttribute("aria-label");
  assert.equal(await page.locator('[data-testid="in-flight"] li.picked').innerText(), `${first} · 0%`);
  await messages.nth(1).focus();
  const second = await messages.nth(1).getAttribute("aria-label");
  assert.notEqual(second, first);
  assert.match(await page.locator('[data-testid="in-flight"] li.picked').innerText(), new RegExp(`^${second.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  assert.equal(await messages.nth(1).getAttribute("aria-pressed"), "true");
  // The replica logs scroll in their own box, which the keyboard can reach.
  assert.equal(await page.getByRole("group", { name: "Replica logs of orders-0" }).getAttribute("tabindex"), "0");
  assert.deepEqual(problems, []);
  await context.close();
});

test("seven brokers at 1,000 records a second: every record id fits its cell, and presenting keeps the controller on screen", async () => {
  const link = "c=lab.brokers:7,replication.factor:7,lab.producer.records.per.sec:1000&a=w1000x30";
  const page = await open(link);
  // Five-digit ids ("#29964"): a clipped id is a record a learner cannot read.
  const clipped = await page.$$eval('[data-testid="logs"] .rec .id', (ids) =>
    ids.filter((id) => id.getBoundingClientRect().width > id.parentElement.getBoundingClientRect().width + 0.5).map((id) => id.textContent));
  assert.ok((await page.locator('[data-testid="logs"] .rec .id').count()) >= 17, "the window's records are drawn");
  assert.deepEqual(clipped, [], "ids wider than their cells");
  // The fold's ▲HW and △LEO stay inside its box.
  const spill = await page.$$eval('[data-testid="logs"] .fold', (folds) => folds.filter((f) => f.scrollWidth > f.clientWidth + 1).length);
  assert.equal(spill, 0, "fold cells whose marks run out of them");
  const presenting = await openPage(lab.browser, `${lab.server.url}?scene=replication&${link}&present=1`);
  await presenting.setViewportSize({ width: 1280, height: 800 });
  const card = await presenting.locator(".node-card.controller").boundingBox();
  assert.ok(card && card.x + card.width <= 1280, `the controller card ends at ${card?.x + card?.width} px`);
  assert.deepEqual([...page.problems, ...presenting.problems], []);
  await presenting.context().close();
});

// The scene's logs, cards and panels are patched in place as the run moves (only the nodes that
// differ change; src/ui/markup.rs, `PatchedMarkup`). What a learner sees after stepping must be exactly
// what the same link draws when opened there: every element, attribute and text.
test("stepping through a story draws exactly what its link draws when opened at that step", async () => {
  const drawn = (page) => page.evaluate(() => {
    const walk = (node) => node.nodeType === 3 ? node.nodeValue
      : node.nodeType !== 1 ? ""
      : `<${node.localName} ${node.getAttributeNames().sort().map((n) => `${n}="${node.getAttribute(n)}"`).join(" ")}>${[...node.childNodes].map(walk).join("")}</${node.localName}>`;
    return [...document.querySelectorAll("main.scene .replication")].map(walk).join("\n");
  });
  const link = (t) => `${lab.server.url}?scene=replication&preset=kip101-divergence-epoch-off&t=${t}`;
  const stepped = await openPage(lab.browser, link(0));
  const total = Number(await stepped.locator('[data-testid="position"]').getAttribute("data-total"));
  assert.ok(total >= 4, `the story has ${total} steps`);
  for (const t of [1, 2, Math.ceil(total / 2), total]) {
    while (Number(await stepped.locator('[data-testid="position"]').getAttribute("data-position")) < t) {
      await stepped.getByRole("button", { name: "Step", exact: true }).click();
    }
    const opened = await openPage(lab.browser, link(t));
    assert.equal(await drawn(stepped), await drawn(opened), `step ${t} of ${total}`);
    assert.deepEqual(opened.problems, []);
    await opened.context().close();
  }
  assert.deepEqual(stepped.problems, []);
  await stepped.context().close();
});
