// Browser tests of the app shell on the release build: what a user does and sees.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { ARTIFACTS, launch, openPage, serve, snapshot, text, linkOf } from "./harness.mjs";

let browser, root, sub;

before(async () => {
  browser = await launch();
  root = await serve("/");
  sub = await serve("/kafka-lab/");
});

after(async () => {
  await browser?.close();
  await root?.close();
  await sub?.close();
});

test("the first scene starts with no console errors and shows brokers and partitions", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview`);
  assert.equal(await page.locator('[data-testid^="broker-"]').count(), 3);
  assert.equal(await page.locator('[data-testid^="partition-"]').count(), 6);
  await page.getByRole("button", { name: "Play" }).click();
  // Play runs until the producer's records show up on the leaders (a condition, not a sleep).
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid="leo"]')].some((cell) => Number(cell.textContent) > 0),
    null,
    { timeout: 20000 },
  );
  await page.getByRole("button", { name: "Pause" }).click();
  const offsets = await page.locator('[data-testid="leo"]').allInnerTexts();
  assert.ok(offsets.some((o) => Number(o) > 0), `offsets grew while playing: ${offsets}`);
  await page.screenshot({ path: `${ARTIFACTS}overview.png`, fullPage: true });
  assert.deepEqual(page.problems, []);
});

test("step and step back change what is shown, and back restores it exactly", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&seed=3`);
  const start = await snapshot(page);
  for (let i = 0; i < 5; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
  const after5 = await snapshot(page);
  assert.match(after5.position, /step 5 of 5/);
  assert.notEqual(after5.trace, start.trace);
  await page.keyboard.press("ArrowRight");
  assert.match(await text(page, "position"), /step 6 of 6/);
  await page.keyboard.press("ArrowLeft");
  await page.getByRole("button", { name: "Back" }).click();
  const back = await snapshot(page);
  assert.match(back.position, /step 4 of 6/);
  await page.keyboard.press("PageDown");
  assert.equal((await snapshot(page)).trace, after5.trace);
  assert.deepEqual(page.problems, []);
});

test("a copied link reproduces the same state in a new page", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&seed=9`);
  for (let i = 0; i < 30; i++) await page.keyboard.press("ArrowRight");
  await page.getByRole("button", { name: "Crash broker-2" }).click();
  for (let i = 0; i < 20; i++) await page.keyboard.press("ArrowRight");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  const state = await snapshot(page);
  const link = await linkOf(page);
  assert.match(link, /kill-2/);
  const copy = await openPage(browser, link);
  assert.deepEqual(await snapshot(copy), state);
  assert.deepEqual([...page.problems, ...copy.problems], []);
});

test("after going back and crashing another broker, the event log shows only what happened in the new run", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&seed=9`);
  const rows = () => page.locator('[data-testid="event-log"] tbody tr').allInnerTexts();
  for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
  await page.getByRole("button", { name: "Crash broker-2" }).click();
  const first = await rows();
  assert.ok(first.some((r) => /broker-2\s+crashed/.test(r)), first.join("\n"));
  await page.keyboard.press("ArrowLeft");
  const back = await rows();
  assert.ok(!back.some((r) => /crashed/.test(r)), back.join("\n"));
  // The same line of the log now holds another broker's crash: it must not be drawn as before.
  await page.getByRole("button", { name: "Crash broker-3" }).click();
  const second = await rows();
  assert.ok(second.some((r) => /broker-3\s+crashed/.test(r)), second.join("\n"));
  assert.ok(!second.some((r) => /broker-2\s+crashed/.test(r)), second.join("\n"));
  assert.deepEqual(page.problems, []);
});

test("the event log can be narrowed to the controller's decisions", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&preset=leader-crash&t=14`);
  await page.getByTestId("log-filter").fill("controller");
  const rows = await page.locator('[data-testid="event-log"] tbody tr').allInnerTexts();
  assert.ok(rows.length > 0 && rows.every((r) => r.includes("controller")), rows.join("\n"));
  assert.ok(rows.some((r) => r.includes("fenced broker-1")), rows.join("\n"));
  assert.deepEqual(page.problems, []);
});

test("the log filter ignores case in every language (ENCARNACIÓN finds encarnación)", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&preset=leader-crash&lang=es`);
  await page.waitForFunction(() => document.documentElement.lang === "es");
  await page.locator("body").press("End");
  await page.getByTestId("log-filter").fill("ENCARNACIÓN");
  const rows = await page.locator('[data-testid="event-log"] tbody tr').allInnerTexts();
  assert.ok(rows.length > 0 && rows.every((r) => r.includes("encarnación")), rows.join("\n"));
  await page.getByTestId("log-filter").fill("Encarnación 2");
  const exact = await page.locator('[data-testid="event-log"] tbody tr').allInnerTexts();
  assert.ok(exact.length > 0 && exact.length <= rows.length, exact.join("\n"));
  assert.deepEqual(page.problems, []);
});

test("the config panel applies Kafka properties and refuses impossible ones with Kafka's message", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&seed=4`);
  await page.locator(".config-panel summary").click();
  await page.getByLabel("replication.factor", { exact: true }).fill("4");
  await page.getByRole("button", { name: "Apply and restart" }).click();
  assert.match(await text(page, "error-banner"), /The target replication factor of 4 cannot be reached because only 3 broker\(s\) are registered\./);
  assert.equal(await page.locator('[data-testid^="partition-"]').count(), 6, "nothing changed");
  await page.getByLabel("replication.factor", { exact: true }).fill("2");
  await page.getByLabel("partitions", { exact: true }).fill("12");
  await page.getByRole("button", { name: "Apply and restart" }).click();
  assert.equal(await page.locator('[data-testid^="partition-"]').count(), 12);
  assert.match(await linkOf(page), /c=partitions:12,replication.factor:2/);
  assert.deepEqual(page.problems, []);
});

test("the browser computes the same trace hash as the native model", async () => {
  const tape = "w500x4.kill-2.w1000x12.produce-50.restart-2.s40";
  const native = execFileSync("cargo", ["run", "--quiet", "--example", "trace_hash", "--", tape, "1", "2", "3"], { encoding: "utf8" });
  for (const line of native.trim().split("\n")) {
    const [seed, hash] = line.split(" ");
    const page = await openPage(browser, `${root.url}?scene=overview&seed=${seed}&a=${tape}`);
    assert.equal(await text(page, "trace-hash"), hash, `seed ${seed}`);
  }
});

test("a malformed link shows what was wrong and starts from defaults", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&seed=abc`);
  assert.match(await text(page, "error-banner"), /seed "abc" is not a whole number/);
  assert.equal(await page.locator('[data-testid^="partition-"]').count(), 6);
  const bad = await openPage(browser, `${root.url}?scene=overview&a=s3.kill-9`);
  assert.match(await text(bad, "error-banner"), /There is no broker 9/);
  const hostile = await openPage(browser, `${root.url}?scene=%3Cscript%3E&a=s999999999`);
  assert.match(await text(hostile, "error-banner"), /unknown scene "<script>"/);
  assert.deepEqual([...page.problems, ...bad.problems, ...hostile.problems], []);
});

test("embed mode shows only the scene and posts its height to the host page", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&embed=1`);
  assert.equal(await page.locator("header.top").count(), 0);
  assert.equal(await page.locator(".log-panel").count(), 0);
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const host = await context.newPage();
  await host.goto(`${root.url}embed-example.html`);
  await host.waitForFunction(() => parseInt(document.querySelector("iframe").style.height || "0", 10) > 400, null, { timeout: 20000 });
  const height = await host.evaluate(() => parseInt(document.querySelector("iframe").style.height, 10));
  assert.ok(height > 400, `iframe resized to ${height}px`);
  await host.screenshot({ path: `${ARTIFACTS}embed.png`, fullPage: true });
});

test("the same build loads under a sub-path", async () => {
  const page = await openPage(browser, `${sub.url}?scene=overview&preset=leader-crash`);
  assert.equal(await page.locator('[data-testid^="partition-"]').count(), 6);
  assert.match(await linkOf(page), /\/kafka-lab\/\?scene=overview/);
  assert.deepEqual(page.problems, []);
});

test("keyboard focus stays on a broker's button while the run steps, and Enter crashes it", async () => {
  const page = await openPage(browser, `${root.url}?scene=overview&seed=3`);
  await page.getByTestId("action-broker-2").focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
  assert.match(await text(page, "position"), /step 5 of 5/);
  const focused = () => page.evaluate(() => document.activeElement?.dataset.testid);
  assert.equal(await focused(), "action-broker-2");
  await page.keyboard.press("Enter");
  await page.waitForURL(/kill-2/);
  assert.equal(await focused(), "action-broker-2");
  assert.match(await page.getByTestId("action-broker-2").innerText(), /Restart broker-2/);
  assert.deepEqual(page.problems, []);
});
