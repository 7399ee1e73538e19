// Browser tests of the "Consumer groups" scene: what a learner opens, clicks and reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, clockMs, openPage, text, useLab, atEnd, openAtEnd, linkOf } from "./harness.mjs";

const lab = useLab();

const open = (query) => openAtEnd(lab.browser, `${lab.server.url}?scene=groups&${query}`);
const seconds = (shown) => Number(shown.replace(/\s*s$/, ""));

test("eager (Range) stops the survivors for the session timeout; CooperativeSticky does not stop them", async () => {
  const eager = await open("preset=eager-restart");
  assert.equal(await text(eager, "group-state"), "Stable");
  assert.equal(await text(eager, "generation"), "2");
  // The model's figures (tests/group_scenarios.rs checks their range): C1 and C2 wait for the
  // dead C3 to expire (session.timeout.ms=45000) with every partition revoked.
  assert.equal(await text(eager, "stop-total"), "83.854 s");
  assert.equal(await text(eager, "stop-C1"), "41.947 s");
  assert.equal(await text(eager, "stop-C2"), "41.907 s");
  await eager.screenshot({ path: `${ARTIFACTS}groups-eager-restart.png`, fullPage: true });

  const coop = await open("preset=cooperative-restart");
  assert.equal(await text(coop, "group-state"), "Stable");
  assert.equal(await text(coop, "stop-total"), "0.000 s");
  assert.match(await text(coop, "stop-none"), /No member has stopped/);
  await coop.screenshot({ path: `${ARTIFACTS}groups-cooperative-restart.png`, fullPage: true });

  assert.ok(seconds(await text(eager, "stop-total")) > seconds(await text(coop, "stop-total")));
  assert.deepEqual([...eager.problems, ...coop.problems], []);
});

test("12 members on 6 partitions: 6 members are idle and --describe lists them with \"-\"", async () => {
  const page = await open("preset=twelve-on-six");
  assert.equal(await text(page, "member-count"), "12");
  assert.equal(await text(page, "idle-count"), "6");
  const idle = page.locator('[data-testid="describe-idle"]');
  assert.equal(await idle.count(), 6);
  for (const row of await idle.all()) {
    const cells = await row.locator("td").allInnerTexts();
    assert.deepEqual(cells.slice(1, 6), ["-", "-", "-", "-", "-"]);
    assert.match(cells[6], /^consumer-lab-group-\d+-/);
  }
  const owners = await page.locator('[data-testid^="describe-"]:not([data-testid="describe-idle"]) [data-testid="consumer-id"]').allInnerTexts();
  assert.equal(new Set(owners).size, 6, `each partition has its own consumer: ${owners}`);
  await page.screenshot({ path: `${ARTIFACTS}groups-twelve-on-six.png`, fullPage: true });
  assert.deepEqual(page.problems, []);
});

test("killing a member from its card: the group leaves Stable only after session.timeout.ms", async () => {
  // Ten recorded seconds bring the group to Stable; the kill is clicked on the card.
  const page = await open("seed=1&a=w1000x10");
  assert.equal(await text(page, "group-state"), "Stable");
  const killedAt = (await clockMs(page)) / 1000;

  await page.getByTestId("member-C2").click();
  await page.getByRole("button", { name: "Kill C2 (kill -9)" }).click();
  assert.match(await linkOf(page), /kill-2/);
  assert.match(await text(page, "member-C2"), /down/);
  assert.equal(await text(page, "group-state"), "Stable", "a crash sends no LeaveGroup");

  // Play until a minute after the kill: a condition on the page, not a sleep. The rebalance
  // that follows may be over within one tick, so the event log says when the group left Stable.
  await page.getByRole("button", { name: "Play" }).click();
  await page.waitForFunction((until) => Number(document.querySelector('[data-testid="clock"]')?.dataset.ms) >= until,
    (killedAt + 60) * 1000, { timeout: 30000 });
  await page.getByRole("button", { name: "Pause" }).click();
  await page.getByTestId("log-filter").fill("Stable to PreparingRebalance");
  const rows = await page.locator('[data-testid="event-log"] tbody tr').allInnerTexts();
  assert.ok(rows.length >= 1, "the group left Stable");
  const left = Number(rows[0].split("\t")[0].replace(/\s*s$/, ""));
  assert.ok(left - killedAt >= 42, `left Stable ${left - killedAt} s after the kill (last heartbeat + 45 s)`);
  assert.ok(left - killedAt <= 47, `left Stable ${left - killedAt} s after the kill, not much later`);
  await page.screenshot({ path: `${ARTIFACTS}groups-kill.png`, fullPage: true });
  assert.deepEqual(page.problems, []);
});

test("every other preset opens by its link with the coordinator, lanes and --describe shown", async () => {
  const others = ["slow-consumer", "rebalance-loop", "fix-fewer-records", "fix-longer-interval", "static-restart", "handoff-loss", "poison-pill"];
  const page = await open(`preset=${others[0]}`);
  for (const preset of others) {
    await page.goto(`${lab.server.url}?scene=groups&preset=${preset}`);
    await page.waitForSelector('[data-testid="timeline"]');
    await atEnd(page);
    assert.match(await text(page, "group-state"), /^(Empty|PreparingRebalance|CompletingRebalance|Stable|Dead)$/, preset);
    assert.ok(await page.locator('[data-testid^="describe-"]').count() >= 6, preset);
    await page.screenshot({ path: `${ARTIFACTS}groups-${preset}.png`, fullPage: true });
  }
  assert.equal(await text(page, "generation"), "1", "poison-pill: the stall causes no rebalance");
  assert.match(await text(page, "lag-2"), /☠ poison pill at offset/);
  assert.deepEqual(page.problems, []);
});

test("assignor examples (seed 003): Range gives C0 four partitions; after C1 leaves Sticky keeps C0's owned ones", async () => {
  const page = await open("preset=eager-restart");
  assert.equal(await text(page, "assign-range-range-C0"), "t0-0, t0-1, t1-0, t1-1");
  assert.equal(await text(page, "assign-range-range-C1"), "t0-2, t1-2");
  assert.equal(await text(page, "assign-leave-roundrobin-C0"), "t0-0, t0-2, t1-1");
  assert.equal(await text(page, "assign-leave-sticky-C0"), "t0-0, t0-1, t1-0");
  assert.match(await text(page, "assign-leave-sticky-C1"), /left the group/);
  assert.deepEqual(page.problems, []);
});

test("a focused member card keeps keyboard focus while the run steps", async () => {
  const page = await open("preset=eager-restart&t=2");
  await page.getByTestId("member-C1").focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
  assert.match(await text(page, "position"), /step 6 of 12/);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "member-C1");
  assert.deepEqual(page.problems, []);
});

test("the stage: each lane is labelled by its member's button, text ≥ 12 px, labels clear of the marks, the full legend in the panels", async () => {
  const page = await open("preset=twelve-on-six");
  // One button per lane, on the lane's own row (the drawing is measured, not stretched).
  const rows = await page.evaluate(() => {
    const lanes = [...document.querySelectorAll("svg.lanes-svg g.lane:not(.coordinator-lane) .lane-bg")].map((r) => r.getBoundingClientRect());
    const buttons = [...document.querySelectorAll(".lane-labels button.member")].map((b) => b.getBoundingClientRect());
    return { lanes: lanes.map((r) => [r.top, r.bottom]), buttons: buttons.map((r) => [r.top, r.bottom]) };
  });
  assert.equal(rows.buttons.length, 12);
  assert.equal(rows.lanes.length, 12);
  rows.buttons.forEach(([top, bottom], i) => {
    const [laneTop, laneBottom] = rows.lanes[i];
    assert.ok(top >= laneTop - 1 && bottom <= laneBottom + 1, `C${i + 1}'s button ${top}–${bottom} sits on its lane ${laneTop}–${laneBottom}`);
  });
  const check = await page.evaluate(() => {
    const small = [];
    for (const el of document.querySelectorAll(".picture svg text")) {
      const px = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(el.getScreenCTM().a, el.getScreenCTM().b);
      if (px < 12) small.push(`${el.textContent} ${px.toFixed(1)} px`);
    }
    // A label's ink (caps above the baseline, descenders below it) never meets the strips of
    // ticks and bars of its lane (the font's em box is taller than its ink, so it is not used).
    const overlaps = [];
    for (const lane of document.querySelectorAll("svg.lanes-svg g.lane")) {
      const marks = [...lane.querySelectorAll("path.process, path.hb")].map((p) => p.getBBox());
      for (const label of lane.querySelectorAll("text.band-text")) {
        const b = label.getBBox();
        const [baseline, size] = [Number(label.getAttribute("y")), parseFloat(getComputedStyle(label).fontSize)];
        const [top, bottom] = [baseline - 0.75 * size, baseline + 0.25 * size];
        for (const m of marks) {
          const ys = Math.min(bottom, m.y + m.height) - Math.max(top, m.y);
          const xs = Math.min(b.x + b.width, m.x + m.width) - Math.max(b.x, m.x);
          if (ys > 0 && xs > 0) overlaps.push(`${label.textContent} over a mark by ${ys.toFixed(1)}`);
        }
      }
    }
    return { small, overlaps, legend: document.querySelectorAll(".panels .groups-legend li").length };
  });
  assert.deepEqual(check.small, [], "no SVG text under 12 px at 1280 px");
  assert.deepEqual(check.overlaps, [], "labels stay between the ticks and the bars");
  assert.equal(check.legend, 9, "the full legend is in the panels");
  assert.match(await text(page, "state-hint"), /^Stable: /);

  // The lane labels link to the group's actions in the panels.
  await page.getByRole("button", { name: /Change the group/ }).click();
  assert.equal(await page.evaluate(() => document.activeElement?.closest("#group-actions") !== null), true);
  assert.deepEqual(page.problems, []);
});

test("embedded at 700 px, twelve members' lanes fit the 560 px picture", async () => {
  const context = await lab.browser.newContext({ viewport: { width: 700, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  await page.goto(`${lab.server.url}?scene=groups&preset=twelve-on-six&embed=1`);
  await page.waitForSelector('[data-testid="timeline"]');
  await atEnd(page);
  const height = await page.locator(".picture").evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(height <= 560, `the picture is ${height} px tall`);
  assert.equal(await page.locator(".lane-labels button.member").count(), 12);
  await context.close();
});

test("\"Configuration in force\" stays inside its box: on a laptop, a narrow window, a projector and a phone, where each row reads name, value and what it does", async () => {
  for (const [width, dress] of [[1280, ""], [1000, ""], [900, ""], [1600, "&present=1"], [1920, "&present=1"], [390, ""]]) {
    const context = await lab.browser.newContext({ viewport: { width, height: 900 }, locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${lab.server.url}groups/?preset=rebalance-loop&t=12${dress}`);
    await page.waitForSelector("section.config table tr", { timeout: 20000 });
    const where = `${width} px${dress}`;
    const box = await page.locator("section.config").evaluate((s) => ({ inner: s.clientWidth, content: s.scrollWidth }));
    assert.ok(box.content <= box.inner + 1, `${where}: the table is ${box.content} px in a ${box.inner} px box`);
    // No name or value squeezed to a few letters a line: the assignors' list keeps a whole word.
    const row = page.getByTestId("config-partition.assignment.strategy");
    const widths = await row.evaluate((tr) => [...tr.children].slice(0, 2).map((cell) => cell.getBoundingClientRect().width));
    assert.ok(Math.min(...widths) >= 120, `${where}: the name and value cells are ${widths} px wide`);
    await context.close();
  }
});
