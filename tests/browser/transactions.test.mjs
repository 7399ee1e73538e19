// Browser tests of the "Exactly once" scene: each preset played through the UI, its figure read
// off the screen — the log's cells and their LSO/HW edges, the producer cards, the coordinator's
// table, the two consumers, the processor and the database — as a learner would read them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, atEnd, openPage, settled, text, useLab } from "./harness.mjs";

const lab = useLab();
const open = (query) => openPage(lab.browser, `${lab.server.url}?scene=transactions&${query}`);
const num = async (page, testid) => Number(await text(page, testid));

/** "LEO 77 · HW 77 · LSO 2" under the log's title. */
async function offsets(page) {
  const [leo, hw, lso] = (await text(page, "log-figures")).match(/\d+/g).map(Number);
  return { leo, hw, lso };
}

/** The drawn cells: offset, status (committed, aborted, control-commit, …), record id, duplicate mark. */
const cells = (page) =>
  page.$$eval('[data-testid="txn-log"] .cells .cell[data-offset]', (els) =>
    els.map((el) => ({
      offset: Number(el.dataset.offset),
      status: el.dataset.status ?? "next",
      id: el.querySelector(".id")?.textContent ?? null,
      duplicate: el.classList.contains("duplicate"),
      held: el.classList.contains("held"),
    })),
  );

/** Every producer card: its label, state, epoch (if it has a producer id) and zombie note. */
const producers = (page) =>
  page.$$eval('article[data-testid^="producer-"]', (els) =>
    els.map((el) => ({
      label: el.querySelector("h3").textContent.trim(),
      state: el.querySelector(".state")?.dataset.state,
      epoch: Number(el.querySelector('[data-testid$="-epoch"]')?.textContent ?? NaN),
      zombie: el.querySelector(".zombie-note") !== null,
    })),
  );

/** A consumer pane's figures: `uncommitted` or `committed`. */
async function consumer(page, id) {
  const figure = (name) => num(page, `${id}-${name}`);
  return { position: await figure("position"), lag: await figure("lag"), received: await figure("received"), aborted: await figure("aborted") };
}

async function position(page) {
  const el = page.getByTestId("position");
  return { at: Number(await el.getAttribute("data-position")), of: Number(await el.getAttribute("data-total")) };
}

/** Screenshots of the first screen at 1280×800, a 700 px embed and a 390 px phone's stage. */
async function shots(name, query) {
  const sizes = [
    ["1280", { viewport: { width: 1280, height: 800 } }, ""],
    ["embed-700", { viewport: { width: 700, height: 900 } }, "&embed=1"],
    ["phone-390", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, ""],
  ];
  for (const [size, options, suffix] of sizes) {
    const context = await lab.browser.newContext({ locale: "en-US", ...options });
    const page = await context.newPage();
    await page.goto(`${lab.server.url}?scene=transactions&${query}${suffix}`);
    await page.waitForSelector('[data-testid="txn-log"]');
    await page.waitForTimeout(200);
    await settled(page);
    const path = `${ARTIFACTS}transactions-${name}-${size}.png`;
    if (size.startsWith("phone")) await page.locator(".picture").screenshot({ path });
    else await page.screenshot({ path, fullPage: size.startsWith("embed") });
    await context.close();
  }
}

test("zombie fencing: epoch 4 pauses, epoch 5 initializes, and the zombie's write is refused and fenced", async () => {
  const page = await open("preset=zombie-fencing");
  let sawZombie = false;
  for (let i = 0; i < 12; i++) {
    const cards = await producers(page);
    sawZombie ||= cards.some((c) => c.zombie && c.epoch === 4);
    if (cards.some((c) => c.state === "fenced")) break;
    await page.keyboard.press("]");
  }
  assert.ok(sawZombie, "the paused epoch-4 incarnation is marked as a zombie while epoch 5 runs");
  const [old, current] = await producers(page);
  assert.deepEqual([old.label, old.epoch, old.state], ["payments-processor-0", 4, "fenced"]);
  assert.deepEqual([current.label, current.epoch, current.state], ["payments-processor-0", 5, "running"]);
  assert.equal(await text(page, "coord-epoch"), "5", "the coordinator holds epoch 5");
  assert.match(await page.locator("body").innerText(), /PRODUCER_FENCED|INVALID_PRODUCER_EPOCH/);
  await atEnd(page);
  assert.equal((await producers(page))[0].state, "fenced");
  const drawn = await cells(page);
  assert.ok(drawn.some((c) => c.status === "control-commit"), "the epoch-4 transaction's COMMIT marker is in the log");
  assert.deepEqual(page.problems, []);
  await shots("zombie-fencing", `preset=zombie-fencing&t=${(await position(page)).at}`);
});

test("hung transaction: the LSO stays put while the HW grows and read_committed falls behind, until the timeout aborts it", async () => {
  const page = await open("preset=hung-transaction&t=0");
  const seen = [];
  for (let guard = 0; guard < 120; guard++) {
    const { hw, lso } = await offsets(page);
    seen.push({ hw, lso, lag: (await consumer(page, "committed")).lag, at: (await position(page)).at });
    const { at, of } = await position(page);
    if (at === of) break;
    await page.keyboard.press("ArrowRight");
  }
  const frozen = seen.filter((s) => s.lso < s.hw);
  assert.ok(frozen.length >= 3, `the LSO lags the HW for several steps: ${JSON.stringify(seen.slice(0, 5))}`);
  const first = frozen[0];
  const last = frozen[frozen.length - 1];
  assert.equal(last.lso, first.lso, "the LSO is frozen at the open transaction's first offset");
  assert.ok(last.hw > first.hw + 10, `the HW moves on (${first.hw} → ${last.hw})`);
  assert.ok(last.lag > first.lag + 10, `read_committed's lag grows (${first.lag} → ${last.lag})`);
  const end = seen[seen.length - 1];
  assert.equal(end.lso, end.hw, "after transaction.timeout.ms the LSO catches up with the HW");
  assert.ok((await cells(page)).some((c) => c.status === "control-abort"), "the coordinator's ABORT marker is in the log");
  assert.equal(await text(page, "coord-state"), "CompleteAbort");
  // The frozen moment as a learner sees it: the bracket between the two edges, the held cells.
  const frozenAt = frozen[Math.floor(frozen.length / 2)].at;
  await page.goto(`${lab.server.url}?scene=transactions&preset=hung-transaction&t=${frozenAt}`);
  await page.waitForSelector('[data-testid="lso-gap"]');
  assert.match(await text(page, "lso-gap"), /between LSO and HW: read_committed cannot read them yet/);
  assert.ok((await cells(page)).some((c) => c.held), "the offsets past the LSO are marked as held back");
  assert.deepEqual(page.problems, []);
  await shots("hung-transaction", `preset=hung-transaction&t=${frozenAt}`);
});

test("aborted records: they stay in the log, read_uncommitted receives them, read_committed does not", async () => {
  const page = await atEnd(await open("preset=aborted-records"));
  const drawn = await cells(page);
  const aborted = drawn.filter((c) => c.status === "aborted").length;
  assert.ok(aborted > 0, "aborted records occupy offsets");
  assert.ok(drawn.some((c) => c.status === "control-abort") && drawn.some((c) => c.status === "control-commit"));
  const ru = await consumer(page, "uncommitted");
  const rc = await consumer(page, "committed");
  assert.equal(ru.aborted, aborted, "read_uncommitted received every aborted record");
  assert.equal(rc.aborted, 0, "read_committed received none");
  assert.equal(await page.locator('[data-testid="committed-chips"] .chip.aborted').count(), 0);
  assert.ok(ru.received > rc.received);
  const { hw, lso } = await offsets(page);
  assert.equal(lso, hw, "no transaction is open at the end");
  assert.deepEqual(page.problems, []);
});

test("a crash between produce and offset commit: duplicates without transactions, none for read_committed with them", async () => {
  const plain = await atEnd(await open("preset=crash-no-txn"));
  const plainDuplicates = (await cells(plain)).filter((c) => c.duplicate).length;
  assert.ok(plainDuplicates > 0, "without transactions the reprocessed records are written again");
  assert.match(await text(plain, "processor-mode"), /no transaction/);
  const eos = await atEnd(await open("preset=crash-eos"));
  const drawn = await cells(eos);
  assert.equal(drawn.filter((c) => c.duplicate).length, 0, "with transactions no committed record is written twice");
  assert.ok(drawn.some((c) => c.status === "aborted"), "the crashed incarnation's records are aborted");
  assert.equal((await consumer(eos, "committed")).aborted, 0);
  assert.deepEqual([...plain.problems, ...eos.problems], []);
});

test("exactly-once on, and the database insert is still duplicated", async () => {
  const page = await atEnd(await open("preset=eos-database"));
  assert.equal((await cells(page)).filter((c) => c.duplicate).length, 0, "Kafka's output has no duplicate");
  const duplicates = await num(page, "sink-duplicates");
  assert.ok(duplicates > 0, "the database has rows inserted twice");
  assert.equal(await page.locator('[data-testid="sink-table"] .row.dup').count() > 0, true, "the duplicated rows are marked");
  assert.deepEqual(page.problems, []);
});

test("idempotence off: a lost response duplicates and a failed batch reorders; idempotence on: neither", async () => {
  const appIds = async (page) =>
    (await cells(page)).filter((c) => c.id && c.status !== "aborted").map((c) => Number(c.id.slice(1)));
  const duplicate = await atEnd(await open("preset=retry-duplicate"));
  assert.ok((await cells(duplicate)).some((c) => c.duplicate), "the retried batch is written twice");
  assert.match(await text(duplicate, "producer-0-id"), /no producerId/);
  const reorder = await atEnd(await open("preset=retry-reorder"));
  const ids = await appIds(reorder);
  assert.ok(ids.some((id, i) => i > 0 && id < ids[i - 1]), `a retried batch lands after a later one: ${ids}`);
  const safe = await atEnd(await open("preset=idempotent-retry"));
  const safeIds = await appIds(safe);
  assert.ok(!(await cells(safe)).some((c) => c.duplicate), "no duplicate with idempotence");
  assert.deepEqual(safeIds, [...safeIds].sort((a, b) => a - b), "the records stay in order");
  assert.deepEqual([...duplicate.problems, ...reorder.problems, ...safe.problems], []);
});

test("the producer's buttons are keyed: the focused button keeps its focus while the run steps on", async () => {
  const page = await open("seed=1");
  await page.getByTestId("action-produce").click();
  await page.getByTestId("action-produce").focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "action-produce");
  assert.ok((await offsets(page)).leo >= 1, "the produced record is in the log");
  assert.deepEqual(page.problems, []);
});

test("the Faults fold stays open while the run steps, keeps the focus, and reopens with the restarted app", async () => {
  const page = await open("preset=crash-eos&t=0");
  const fold = () => page.getByTestId("faults").first();
  const isOpen = () => fold().evaluate((d) => d.open);
  await fold().locator("summary").click();
  await fold().locator("summary").focus();
  await page.evaluate(() => { document.querySelector('[data-testid="faults"]').dataset.first = "yes"; });
  await page.keyboard.press("ArrowRight");
  assert.equal(await isOpen(), true, "a step leaves the fold open");
  const focused = () => page.evaluate(() => document.activeElement?.tagName === "SUMMARY" && document.activeElement.closest('[data-testid="faults"]') !== null);
  assert.equal(await focused(), true, "and the focus on it");
  // The app crashes (only Restart is left) and comes back: its buttons are new, the fold opens again.
  const rebuilt = () => page.evaluate(() => { const d = document.querySelector('[data-testid="faults"]'); return d !== null && d.dataset.first !== "yes"; });
  for (let i = 0; i < 40 && !(await rebuilt()); i++) await page.keyboard.press("ArrowRight");
  assert.equal(await rebuilt(), true, "the app crashed and restarted under the fold");
  assert.equal(await isOpen(), true, "the restarted app's fold is open as the learner left it");
  await page.keyboard.press("ArrowRight");
  assert.equal(await isOpen(), true);
  assert.deepEqual(page.problems, []);
});

/** Where the LSO's label and the first cell it holds back are, against the strip's visible box. */
async function lsoInView(page) {
  return page.evaluate(() => {
    const box = document.querySelector(".tx-scroll").getBoundingClientRect();
    const label = document.querySelector('[data-testid="lso-edge"] .label, [data-testid="lso-hw"] .label');
    const lso = Number(document.querySelector('[data-testid="log-figures"]').textContent.match(/LSO (\d+)/)[1]);
    const cell = document.querySelector(`[data-testid="txn-log"] .cell[data-offset="${lso}"]`);
    const inside = (el) => {
      const r = el.getBoundingClientRect();
      return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
    };
    return { label: label.textContent, labelIn: inside(label), cellIn: cell ? inside(cell) : null };
  });
}

test("the strip keeps the LSO's label and the first held-back cell in view: presenting, on a desk, embedded, on a phone", async () => {
  const sizes = [
    ["present", { viewport: { width: 1280, height: 800 } }, "&present=1"],
    ["1280", { viewport: { width: 1280, height: 800 } }, ""],
    ["embed-700", { viewport: { width: 700, height: 900 } }, "&embed=1"],
    ["phone-390", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, ""],
  ];
  const end = (await position(await open("preset=hung-transaction&t=0"))).of;
  const failures = [];
  for (const [size, options, suffix] of sizes) {
    const context = await lab.browser.newContext({ locale: "en-US", ...options });
    const page = await context.newPage();
    for (const t of [0, 40, end]) {
      await page.goto(`${lab.server.url}?scene=transactions&preset=hung-transaction&t=${t}${suffix}`);
      await page.waitForSelector('[data-testid="txn-log"]');
      await page.waitForTimeout(200);
      await settled(page);
      const seen = await lsoInView(page);
      if (!seen.labelIn || seen.cellIn === false) failures.push(`${size} t=${t}: ${JSON.stringify(seen)}`);
      await page.screenshot({ path: `${ARTIFACTS}transactions-lso-${size}-t${t}.png` });
    }
    await context.close();
  }
  assert.deepEqual(failures, []);
});

test("on a 390 px phone the bracket's words between LSO and HW wrap inside the visible strip", async () => {
  const context = await lab.browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-US" });
  const page = await context.newPage();
  for (const t of [20, 40]) {
    await page.goto(`${lab.server.url}?scene=transactions&preset=hung-transaction&t=${t}`);
    await page.waitForSelector('[data-testid="lso-gap"] .label');
    await settled(page);
    const { label, box } = await page.evaluate(() => ({
      label: document.querySelector('[data-testid="lso-gap"] .label').getBoundingClientRect().toJSON(),
      box: document.querySelector(".tx-scroll").getBoundingClientRect().toJSON(),
    }));
    assert.ok(label.left >= box.left - 0.5 && label.right <= box.right + 0.5, `t=${t}: the words run ${label.left}–${label.right}, the strip shows ${box.left}–${box.right}`);
  }
  await context.close();
});
