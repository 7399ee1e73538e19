// The shell's settings a lesson page and a presenter rely on: the theme (from the link, or the
// learner's remembered choice), clicker keys right after picking a preset, and an embed that
// shrinks as well as grows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage, useLab, linkOf } from "./harness.mjs";

const lab = useLab();
const theme = (page) => page.evaluate(() => document.documentElement.getAttribute("data-theme"));

test("theme=dark in a link fixes the theme and stays in the link; the ◐ choice is remembered across scenes", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=overview&theme=dark`);
  assert.equal(await theme(page), "dark");
  await page.keyboard.press("ArrowRight");
  assert.match(await linkOf(page), /theme=dark/);
  await page.context().close();

  const learner = await openPage(lab.browser, `${lab.server.url}?scene=log`);
  assert.equal(await theme(learner), null, "the system's theme when nothing was chosen");
  await learner.getByTestId("theme").click();
  assert.equal(await theme(learner), "light");
  await learner.goto(`${lab.server.url}?scene=timer`);
  await learner.waitForSelector("main.scene [data-testid]");
  assert.equal(await theme(learner), "light", "remembered on another scene");
  await learner.reload();
  await learner.waitForSelector("main.scene [data-testid]");
  assert.equal(await theme(learner), "light", "remembered after a reload");
  await learner.getByTestId("theme").click();
  assert.equal(await theme(learner), "dark");
  await learner.getByTestId("theme").click();
  assert.equal(await theme(learner), null, "back to the system's theme");
  assert.deepEqual(learner.problems, []);
  await learner.context().close();
});

test("after picking a preset, a clicker's → steps the story instead of choosing the next preset", async () => {
  const page = await openPage(lab.browser, `${lab.server.url}?scene=overview`);
  await page.getByTestId("preset").selectOption("leader-crash");
  const position = () => page.getByTestId("position").getAttribute("data-position");
  const start = Number(await position());
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.getByTestId("preset").inputValue(), "leader-crash");
  assert.equal(Number(await position()), start + 1);
  await page.keyboard.press("PageDown");
  assert.equal(Number(await position()), start + 2);
  await page.context().close();
});

test("an embedded scene's iframe grows and shrinks with its content", async () => {
  const context = await lab.browser.newContext({ viewport: { width: 760, height: 900 } });
  const host = await context.newPage();
  await host.goto(`${lab.server.url}embed-example.html`);
  const frame = host.frameLocator("iframe").first();
  // Shows `query` in the lesson's iframe; resolves with the iframe's height once it fits the content.
  const show = async (query) => {
    await host.evaluate((q) => { document.querySelector("iframe").src = `./?${q}&embed=1`; }, query);
    await frame.locator("main.scene [data-testid]").first().waitFor();
    const own = await frame.locator("body").evaluate((b) => b.offsetHeight);
    await host.waitForFunction((h) => Math.abs(parseInt(document.querySelector("iframe").style.height || "0", 10) - h) <= 1, own, { timeout: 10000 });
    return own;
  };
  // Twelve lanes, then one lane, then twelve again: the iframe shrinks and grows with its content.
  const a = await show("scene=groups&preset=twelve-on-six");
  const b = await show("scene=groups&preset=slow-consumer");
  const again = await show("scene=groups&preset=twelve-on-six");
  assert.ok(a - b > 100, `the iframe shrank from ${a} px to ${b} px`);
  assert.equal(again, a, "the same page, the same height");
  await context.close();
});
