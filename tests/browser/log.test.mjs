// Browser tests of the "Log & index" scene: a learner reads lookups, retention and the directory.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, openPage, text, useLab, atEnd, openAtEnd, linkOf } from "./harness.mjs";

const lab = useLab();

const open = (preset) => openAtEnd(lab.browser, `${lab.server.url}?scene=log&preset=${preset}`);
const shot = (page, preset) => page.screenshot({ path: `${ARTIFACTS}log-${preset}.png`, fullPage: true });

test("find-368500: the lookup goes file name → .index → short scan, and a typed offset changes it", async () => {
  const page = await open("find-368500");
  assert.match(await text(page, "lookup-summary"), /Offset 368500 → 00000000000000368421\.log/);
  const phases = await text(page, "lookup-phases");
  assert.match(phases, /1\. Binary search over segment base offsets: compared 368421 → segment 00000000000000368421\.log/);
  assert.match(phases, /2\. \.index binary search: \d+ probes of 66 entries .* → entry \(offset 3684\d\d, position \d+\)/);
  assert.match(phases, /3\. Scan from position \d+: \d+ batch headers?, [\d,]+ bytes stepped over → offset 368500 at position \d+/);
  assert.match(await text(page, "lookup-compare"), /Dense index[\s\S]*No index: scan from the log start/);
  assert.match(await text(page, "dump-log"), /baseOffset: 3684\d\d lastOffset: 3685\d\d .*◀ found by the lookup/);
  await shot(page, "find-368500");

  await page.getByLabel("Offset or timestamp (ms)").fill("1000");
  await page.getByRole("button", { name: "Find offset" }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="lookup-summary"]')?.innerText.includes("Offset 1000 "));
  assert.match(await text(page, "lookup-summary"), /Offset 1000 → 00000000000000000000\.log/);
  assert.match(await text(page, "lookup-phases"), /compared 368421, 0 → segment 00000000000000000000\.log[\s\S]*→ offset 1000 at position/);
  assert.match(await linkOf(page), /lookup-1000/);

  await page.getByLabel("Offset or timestamp (ms)").fill("40050");
  await page.getByRole("button", { name: "Find timestamp (offsetsForTimes)" }).click();
  assert.match(await text(page, "lookup-summary"), /offsetsForTimes\(40050\) = offset 3689\d\d \(CreateTime 40050\)/);
  assert.match(await text(page, "lookup-phases"), /2\. \.timeindex binary search: \d+ probes[\s\S]*4\. Scan from position/);

  await page.getByLabel("Offset or timestamp (ms)").fill("999999");
  await page.getByRole("button", { name: "Find offset" }).click();
  assert.match(await text(page, "lookup-error"), /OffsetOutOfRangeException .*only have log segments upto 369421/);
  assert.deepEqual(page.problems, []);
});

test("low traffic: with 1 GiB segments nothing is deleted; with segment.ms = 10 min whole segments go", async () => {
  const trap = await open("low-traffic-trap");
  assert.match(await text(trap, "retention-verdict"), /No segment deleted/);
  assert.equal(await text(trap, "log-start-offset"), "0");
  assert.equal(await trap.locator(".log-card").count(), 1);
  assert.match(await text(trap, "segment-00000000000000000000"), /✎ active/);
  await shot(trap, "low-traffic-trap");

  const fixed = await open("low-traffic-fixed");
  assert.match(await text(fixed, "retention-verdict"), /Segments were deleted: the log start offset is \d+/);
  const start = Number(await text(fixed, "log-start-offset"));
  assert.ok(start > 0, `log start offset moved: ${start}`);
  const first = await fixed.locator(".log-card .log-file b").first().innerText();
  assert.equal(first, `${String(start).padStart(20, "0")}.log`);
  await shot(fixed, "low-traffic-fixed");
  assert.deepEqual([...trap.problems, ...fixed.problems], []);
});

test("lab 1 keeps ~100 segments readable, a bad config is refused in the banner, the tombstone comes back", async () => {
  const lab1 = await open("lab1-segments");
  assert.match(await text(lab1, "dir-summary"), /^101 segments/);
  assert.ok(await lab1.locator('[data-testid="segment-00000000000000000000"]').isVisible());
  assert.match(await text(lab1, "segment-00000000000000000000"), /98\.9 MiB/);
  await shot(lab1, "lab1-segments");
  await lab1.getByTestId("segment-00000000000000000000").click();
  assert.match(await lab1.locator("#log-detail-title").innerText(), /Segment 00000000000000000000/);
  assert.match(await text(lab1, "dump-log"), /Log starting offset: 0\nbaseOffset: 0 lastOffset: 14 count: 15 position: 0/);
  await lab1.getByTestId("log-cfg-segment-bytes").fill("1000");
  await lab1.getByTestId("log-cfg-segment-bytes").press("Enter");
  assert.match(await text(lab1, "error-banner"), /segment\.bytes/);

  const tomb = await open("tombstone-resurrection");
  assert.match(await text(tomb, "resurrected"), /key-426/);
  await shot(tomb, "tombstone-resurrection");
  assert.deepEqual([...lab1.problems, ...tomb.problems], []);
});

test("a focused segment card keeps keyboard focus while the run steps", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=log&preset=lab1-segments&t=1`);
  const card = page.locator('[data-testid^="segment-"]').first();
  const id = await card.getAttribute("data-testid");
  await card.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  assert.match(await text(page, "position"), /step 4 of 5/);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), id);
  assert.deepEqual(page.problems, []);
});

test("the directory opens with the focused segment whole and no card cut at its left edge; dump lines wrap in their box", async () => {
  for (const width of [1280, 700]) {
    const page = await openAtEnd(lab.browser, `${lab.server.url}?scene=log&preset=lab1-segments`);
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("segment-00000000000000198490").click();
    await page.waitForTimeout(200);
    const cut = await page.getByTestId("strip").evaluate((strip) => {
      const box = strip.getBoundingClientRect();
      const selected = strip.querySelector(".log-card.selected").getBoundingClientRect();
      const cutAtLeft = [...strip.children].some((li) => {
        const r = li.getBoundingClientRect();
        return r.left < box.left - 0.5 && r.right > box.left + 0.5;
      });
      return { cutAtLeft, whole: selected.left >= box.left - 0.5 && selected.right <= box.right + 0.5 };
    });
    assert.deepEqual(cut, { cutAtLeft: false, whole: true }, `at ${width} px`);
    const dump = page.getByTestId("dump-log");
    assert.ok(await dump.evaluate((el) => el.scrollWidth <= el.clientWidth), `the dump's lines wrap at ${width} px`);
    assert.match(await dump.innerText(), /baseOffset: 198490 lastOffset: 198504 count: 15 position: 0 CreateTime: \d+ size: \d+ magic: 2/);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
