// Browser tests of the "Topic overview" picture: what a learner notices in the broker boxes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, openPage, text, useLab } from "./harness.mjs";

const lab = useLab();

/** Every replica tile: which broker box it sits in, its partition, role, offset, marks. */
const tiles = (page) =>
  page.$$eval('[data-testid^="broker-"] [data-testid^="replica-"]', (els) =>
    els.map((el) => ({
      broker: el.closest('[data-testid^="broker-"]').dataset.testid,
      partition: el.querySelector(".name").textContent,
      role: el.dataset.role,
      offset: el.querySelector('[data-testid="tile-leo"]').textContent,
      changed: el.classList.contains("changed"),
      plus: el.querySelector(".plus")?.textContent ?? null,
    })),
  );

/** The leader tiles by partition: { "orders-0": { broker, offset, ... } }. */
const leaders = async (page) =>
  Object.fromEntries((await tiles(page)).filter((t) => t.role === "leader").map((t) => [t.partition, t]));

const position = (page) => page.getByTestId("position").getAttribute("data-position");

test("leader crash: once broker-1 is fenced, its tiles lead nothing and each of its partitions leads on another broker, ringed", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=overview&preset=leader-crash`);
  const before = await leaders(page);
  const led = Object.keys(before).filter((p) => before[p].broker === "broker-1");
  assert.ok(led.length > 0, "broker-1 leads partitions before the crash");
  assert.match(await page.getByTestId("broker-1").innerText(), /running/);

  // `]` to the next key moment: the crash. broker-1 is dashed and still leads (the controller is not told yet).
  await page.keyboard.press("]");
  const crashed = page.getByTestId("broker-1");
  assert.match(await crashed.getAttribute("class"), /\bcrashed\b/);
  assert.match(await crashed.innerText(), /crashed — controller not told yet/);
  assert.deepEqual(Object.keys(await leaders(page)).filter((p) => before[p].broker === "broker-1"), led);

  // Then to the fence: its partitions' leadership moves.
  for (let i = 0; i < 5 && !/\bfenced\b/.test(await crashed.getAttribute("class")); i++) await page.keyboard.press("]");
  assert.match(await crashed.getAttribute("class"), /\bfenced\b/);
  assert.match(await crashed.innerText(), /crashed and fenced/);
  const mine = (await tiles(page)).filter((t) => t.broker === "broker-1");
  assert.ok(mine.length > 0 && mine.every((t) => t.role === "out"), JSON.stringify(mine));
  const after = await leaders(page);
  for (const partition of led) {
    const now = after[partition];
    assert.ok(now, `${partition} has a leader tile`);
    assert.notEqual(now.broker, "broker-1", `${partition} leads on another broker`);
    assert.ok(now.changed, `${partition}'s new leader tile is marked as changed at this step`);
    assert.ok(Number(now.offset) >= Number(before[partition].offset), `${partition} kept its offsets`);
  }
  for (const [partition, tile] of Object.entries(after)) {
    if (!led.includes(partition)) assert.equal(tile.broker, before[partition].broker, `${partition} kept its leader`);
  }
  await page.screenshot({ path: `${ARTIFACTS}overview-fenced.png` });

  // Restarted, broker-1 leads again only at the preferred-leader check: its ★ come back, ringed.
  const leadsAgain = async () => Object.values(await leaders(page)).filter((t) => t.broker === "broker-1");
  for (let i = 0; i < 10 && (await leadsAgain()).length < led.length; i++) await page.keyboard.press("]");
  const back = await leadsAgain();
  assert.deepEqual(back.map((t) => t.partition).sort(), [...led].sort(), "the preferred replicas lead again");
  assert.ok(back.every((t) => t.changed), "the returning leader tiles are marked");
  assert.match(await crashed.innerText(), /running/);
  assert.deepEqual(page.problems, []);
});

test("records arriving: Play grows the leaders' offsets, and each Step's appends show as +N on the leader that took them", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=overview&seed=3`);
  const start = await leaders(page);
  assert.equal(Object.keys(start).length, 6, "every partition has a leader tile");
  await page.getByRole("button", { name: "Play" }).click();
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-role="leader"] [data-testid="tile-leo"]')].some((el) => Number(el.textContent) > 0),
    null,
    { timeout: 20000 },
  );
  await page.getByRole("button", { name: "Pause" }).click();
  const played = await leaders(page);
  const grown = Object.keys(start).filter((p) => Number(played[p].offset) > Number(start[p].offset));
  assert.ok(grown.length > 0, `leader offsets grew while playing: ${JSON.stringify(played)}`);
  assert.match(await text(page, "producer-stats"), /sent\s*[1-9]/);

  let seen = 0;
  for (let i = 0; i < 12; i++) {
    const was = await leaders(page);
    const at = await position(page);
    await page.getByRole("button", { name: "Step", exact: true }).click();
    await page.waitForFunction((p) => document.querySelector('[data-testid="position"]').dataset.position !== p, at);
    const now = await leaders(page);
    for (const [partition, tile] of Object.entries(now)) {
      const growth = Number(tile.offset) - Number(was[partition]?.offset ?? tile.offset);
      if (tile.broker === was[partition]?.broker && growth > 0) {
        seen++;
        assert.equal(tile.plus, `+${growth}`, `${partition} shows the records it appended at this step`);
        const box = page.getByTestId(tile.broker);
        assert.match(await box.getAttribute("class"), /\bfed\b/, "an arrow runs from the producer to its broker");
      } else {
        assert.equal(tile.plus, null, `${partition} appended nothing at this step`);
      }
    }
  }
  assert.ok(seen > 0, "some step appended a record");
  assert.deepEqual(page.problems, []);
});

test("a tile whose role changed is ringed without motion when the learner asks for reduced motion", async () => {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US", reducedMotion: "reduce" });
  const page = await context.newPage();
  await page.goto(`${lab.server.url}?scene=overview&preset=leader-crash&t=11`);
  await page.waitForSelector('[data-testid="replica-1-0"]');
  await page.keyboard.press("ArrowRight"); // the fence
  const ring = page.locator(".ov-tile.changed").first();
  await ring.waitFor();
  const style = await ring.evaluate((el) => ({ outline: getComputedStyle(el).outlineStyle, animation: getComputedStyle(el).animationName }));
  assert.equal(style.outline, "solid");
  assert.equal(style.animation, "none");
  await context.close();
});
