// Browser tests of the lab notebook (?scene=notebook): Run all fills the deliverable table from
// the model, each row opens its preset at the figure's moment, the Markdown export is the table,
// and a run recorded from a scene's result card stays in the notebook across a reload.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { ARTIFACTS, useLab, text } from "./harness.mjs";

const lab = useLab();

async function newPage(width = 1280, height = 800) {
  const context = await lab.browser.newContext({ viewport: { width, height }, locale: "en-US" });
  const page = await context.newPage();
  page.problems = [];
  page.on("console", (msg) => { if (msg.type() === "error") page.problems.push(msg.text()); });
  page.on("pageerror", (err) => page.problems.push(String(err)));
  return page;
}

async function openNotebook(page, query = "") {
  await page.goto(`${lab.server.url}?scene=notebook${query}`);
  await page.waitForSelector('[data-testid="notebook-table"] tbody tr', { timeout: 20000 });
}

async function runAll(page) {
  await page.getByTestId("run-all").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.dataset.ms, null, { timeout: 120000 });
  return Number(await page.getByTestId("run-status").getAttribute("data-ms"));
}

/** The table's rows as the learner reads them. */
const tableRows = (page) => page.$$eval('[data-testid="notebook-row"]', (rows) => rows.map((tr) => ({
  figure: tr.dataset.figure,
  value: tr.querySelector('[data-testid="notebook-value"]').innerText.trim(),
  label: tr.querySelector(".label").innerText.trim(),
  href: tr.querySelector('[data-testid="notebook-open"]').getAttribute("href"),
})));

test("Run all fills every cell from the model, and each row opens its preset at the figure's moment", async () => {
  const page = await newPage();
  await openNotebook(page);
  const before = await tableRows(page);
  assert.ok(before.length >= 15, `one row a figure: ${before.length}`);
  assert.ok(before.every((r) => r.value === "not run yet"), "nothing measured before Run all");
  const ms = await runAll(page);
  console.log(`Run all: ${ms} ms`);
  writeFileSync(`${ARTIFACTS}notebook-run-all-ms.txt`, `${ms}\n`);
  const rows = await tableRows(page);
  assert.equal(rows.length, before.length);
  for (const row of rows) {
    assert.ok(row.value && row.value !== "not run yet" && row.value !== "not reached", `${row.figure}: ${row.value}`);
  }
  const lost = rows.find((r) => r.figure === "lab2-acks-1/lost/0");
  assert.match(lost.href, /scene=replication&preset=lab2-acks-1&t=\d+/);
  await page.screenshot({ path: `${ARTIFACTS}notebook-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${ARTIFACTS}notebook-390-run-all.png`, fullPage: true });
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(sideways <= 0, `no sideways scroll on a phone: ${sideways}px`);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The row's link: the scene opens at t=, where the result card shows the same figure.
  const t = Number(lost.href.match(/t=(\d+)/)[1]);
  const scene = await newPage();
  await scene.goto(new URL(lost.href, lab.server.url).href);
  await scene.waitForSelector('main.scene [data-testid="result-answer"]', { timeout: 20000 });
  assert.equal(Number(await scene.getByTestId("position").getAttribute("data-position")), t);
  const answer = await text(scene, "result-answer");
  assert.match(answer, new RegExp(`acked and lost: ${lost.value} of`), answer);
  assert.deepEqual([...page.problems, ...scene.problems], []);
  await scene.context().close();

  // The Markdown export is the table, row by row.
  const href = await page.getByTestId("export-markdown").getAttribute("href");
  const markdown = decodeURIComponent(href.slice(href.indexOf(",") + 1));
  writeFileSync(`${ARTIFACTS}notebook-run-all.md`, markdown);
  const lines = markdown.trim().split("\n");
  assert.equal(lines[0], "| Experiment | Run | Figure | Value | Seed | Note | Open |");
  assert.equal(lines.length, rows.length + 2, "a heading, a rule and one line a row");
  rows.forEach((row, i) => {
    const cells = lines[i + 2].split(" | ");
    assert.equal(cells[2], row.label, `row ${i + 1}: the figure's label`);
    assert.equal(cells[3], row.value, `row ${i + 1}: the value`);
  });
  await page.context().close();
});

test("a run recorded from a result card is a row of the notebook, and it survives a reload", async () => {
  const page = await newPage();
  await page.goto(`${lab.server.url}?scene=replication&preset=lab2-acks-1`);
  await page.waitForSelector('main.scene [data-testid="record"]', { timeout: 20000 });
  await page.keyboard.press("End");
  await page.waitForFunction(() => document.querySelector(".result-card.reached"));
  const answer = await text(page, "result-answer");
  await page.getByTestId("record").click();
  await page.getByTestId("record-note").fill("acks=1, leader killed at 2.5 s");
  await page.getByTestId("record-add").click();
  assert.match(await text(page, "recorded"), /the notebook has 1 row/);

  await openNotebook(page);
  const recorded = async () => (await tableRows(page)).filter((r) => !r.figure);
  let mine = await recorded();
  assert.equal(mine.length, 1);
  assert.equal(mine[0].value, answer);
  assert.match(mine[0].href, /scene=replication&preset=lab2-acks-1/);
  assert.equal(await page.locator('[data-testid="notebook-row"]:not([data-figure*="/"]) input').inputValue(), "acks=1, leader killed at 2.5 s");
  await page.reload();
  await page.waitForSelector('[data-testid="notebook-table"] tbody tr');
  mine = await recorded();
  assert.equal(mine.length, 1, "the recorded row is kept in the browser");

  // A shared link carries the rows to another browser; a newer file is refused and changes nothing.
  await page.getByTestId("share").click();
  const shared = await page.getByTestId("share-link").inputValue();
  const other = await newPage(390, 844);
  await other.goto(shared);
  await other.waitForSelector('[data-testid="notebook-table"] tbody tr');
  assert.equal((await tableRows(other)).filter((r) => !r.figure).length, 1);
  await other.screenshot({ path: `${ARTIFACTS}notebook-390.png`, fullPage: true });
  const sideways = await other.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(sideways <= 0, `no sideways scroll on a phone: ${sideways}px`);
  await other.context().close();

  const newer = JSON.stringify({ format: "kafka-lab-notebook", version: 99, rows: [] });
  await page.getByTestId("import").setInputFiles({ name: "newer.json", mimeType: "application/json", buffer: Buffer.from(newer) });
  assert.match(await text(page, "error-banner"), /newer Kafka Lab \(format version 99/);
  assert.equal((await recorded()).length, 1, "nothing changed");
  const json = decodeURIComponent((await page.getByTestId("export-json").getAttribute("href")).split(",").slice(1).join(","));
  page.once("dialog", (d) => d.accept());
  await page.getByTestId("clear").click();
  assert.equal((await recorded()).length, 0);
  await page.getByTestId("import").setInputFiles({ name: "mine.json", mimeType: "application/json", buffer: Buffer.from(json) });
  await page.getByTestId("imported").waitFor();
  assert.equal((await recorded()).length, 1, "the exported file restores the notebook");
  await page.getByTestId("notebook-remove").click();
  assert.equal((await recorded()).length, 0, "a recorded run can be removed");
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("Compare with… puts acks=1 and acks=all side by side: one transport steps both, the difference shows, embedded too", async () => {
  const page = await newPage();
  await page.goto(`${lab.server.url}?scene=replication&preset=lab2-acks-1`);
  await page.getByTestId("compare-with").click();
  assert.equal(await page.getByTestId("compare-config").inputValue(), "acks=all,min.insync.replicas=2");
  await page.getByTestId("compare-open").click();
  await page.waitForSelector('[data-testid="compare"]', { timeout: 20000 });
  assert.match(page.url(), /vs=acks%3Aall%2Cmin\.insync\.replicas%3A2|vs=acks:all,min.insync.replicas:2/);
  const side = (name, what) => page.locator(`[data-testid="compare-${name}"] [data-testid="${what}"]`).innerText();
  const reached = () => page.$$eval('[data-testid="compare"] .result-card', (cards) => cards.map((c) => c.classList.contains("reached")));
  await page.keyboard.press("Home");
  assert.deepEqual(await reached(), [false, false], "both open at the story's start");
  // The next key moment (the leader is killed): both runs are there, with the same caption.
  await page.keyboard.press("]");
  await page.waitForFunction(() => /crashed/.test(document.querySelector('[data-testid="compare-right"] [data-testid="caption-text"]').innerText));
  assert.match(await side("left", "caption-text"), /broker-1 crashed/);
  const position = async () => Number(await page.getByTestId("position").getAttribute("data-position"));
  const at = await position();
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await page.waitForFunction((p) => Number(document.querySelector('[data-testid="position"]').dataset.position) > p, at);
  await page.keyboard.press("End");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare"] .result-card.reached').length === 2);
  assert.match(await side("left", "result-answer"), /^acked and lost: [1-9][\d,]* of 1,000/);
  assert.match(await side("right", "result-answer"), /^acked and lost: 0 of 1,000/);
  assert.match(await page.getByTestId("compare-diff").innerText(), /lost: [1-9][\d,]* → 0/);
  // Every differing figure is named in words (the lost records' ids too), none by its code name.
  assert.match(await page.getByTestId("compare-diff").innerText(), /acknowledged records lost \(ids\): /);
  assert.equal(await page.locator('[data-testid="compare-diff"] code').count(), 0, "no figure named by its argument");
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height: Math.min(height, 4000) });
  await page.screenshot({ path: `${ARTIFACTS}notebook-compare.png` });

  const embed = await newPage(700, 900);
  await embed.goto(`${lab.server.url}?scene=replication&preset=lab2-acks-1&vs=acks:all,min.insync.replicas:2&embed=1`);
  await embed.waitForSelector('[data-testid="compare"]', { timeout: 20000 });
  assert.equal(await embed.locator("header.top").count(), 0, "embedded: the stage alone");
  await embed.keyboard.press("End");
  await embed.waitForFunction(() => document.querySelectorAll('[data-testid="compare"] .result-card.reached').length === 2);
  await embed.screenshot({ path: `${ARTIFACTS}notebook-compare-embed.png`, fullPage: true });
  assert.deepEqual([...page.problems, ...embed.problems], []);
  await page.context().close();
  await embed.context().close();
});
