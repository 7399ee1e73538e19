// Every preset tells its story: it opens at its start, the result card answers with the
// model's figure (the same as the native model's, from tests/golden/stories.txt), the caption
// changes as you step, `]` jumps to the next key moment, Play reaches the outcome, and a `t=`
// link still opens exactly where it points.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ARTIFACTS, openPage, text, useLab } from "./harness.mjs";

const lab = useLab();

/** scene/preset → { start, len, mark, answer } from the native run. */
const STORIES = readFileSync(new URL("../golden/stories.txt", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line && !line.startsWith("#"))
  .map((line) => {
    const [name, start, len, mark, ...answer] = line.split(" | ");
    const [scene, preset] = name.split("/");
    return { scene, preset, start: Number(start), len: Number(len), mark: mark === "-" ? null : Number(mark), answer: answer.join(" | ") };
  });

const PRESETS = STORIES.filter((s) => s.preset !== "-");

async function position(page) {
  const el = page.getByTestId("position");
  return { at: Number(await el.getAttribute("data-position")), of: Number(await el.getAttribute("data-total")) };
}

/** The card's answer text as a learner reads it (whitespace collapsed). */
async function answer(page) {
  return (await text(page, "result-answer")).replace(/\s+/g, " ");
}

test("every preset opens at its story's start, and End shows the model's answer", async () => {
  for (const story of PRESETS) {
    const page = await openPage(lab.browser, `${lab.server.url}?scene=${story.scene}&preset=${story.preset}`);
    const name = `${story.scene}/${story.preset}`;
    assert.deepEqual(await position(page), { at: story.start, of: story.len }, `${name} opens at its start`);
    const card = page.getByTestId("result-card");
    assert.equal(await card.evaluate((el) => el.classList.contains("reached")), false, `${name}: no answer before the story reaches it`);
    const caption = await text(page, "caption");
    if (story.mark !== null) {
      await page.keyboard.press("]");
      assert.equal((await position(page)).at, story.mark, `${name}: ] jumps to the next key moment`);
      assert.notEqual(await text(page, "caption"), caption, `${name}: the caption changes at the key moment`);
    }
    await page.keyboard.press("End");
    assert.equal((await position(page)).at, story.len, `${name}: End goes to the end`);
    assert.equal(await answer(page), story.answer.replace(/\s+/g, " "), `${name}: the card shows the native model's answer`);
    await page.keyboard.press("Home");
    assert.equal((await position(page)).at, story.start, `${name}: Home goes back to the story's start`);
    assert.deepEqual(page.problems, [], name);
    await page.context().close();
  }
});

test("Play tells a story with captions and reaches its answer", async () => {
  // One preset per scene (all of them are held to 20 s of Play by the native story tests).
  const chosen = ["overview/leader-crash", "log/find-368500", "replication/loss-acks-1", "groups/eager-restart", "partitioner/megacorp", "timer/hierarchy-350", "transactions/zombie-fencing"];
  for (const name of chosen) {
    const story = STORIES.find((s) => `${s.scene}/${s.preset}` === name);
    assert.ok(story, `${name} is in tests/golden/stories.txt`);
    const page = await openPage(lab.browser, `${lab.server.url}?scene=${story.scene}&preset=${story.preset}`);
    const captions = new Set([await text(page, "caption")]);
    await page.getByRole("button", { name: "Play" }).click();
    const deadline = Date.now() + 30000;
    while (!(await page.getByTestId("result-card").evaluate((el) => el.classList.contains("reached")))) {
      assert.ok(Date.now() < deadline, `${name}: Play reaches the answer within 30 s`);
      captions.add(await text(page, "caption"));
      await page.waitForTimeout(250);
    }
    captions.add(await text(page, "caption"));
    assert.ok(captions.size >= 2, `${name}: the caption changed while playing: ${[...captions]}`);
    await page.screenshot({ path: `${ARTIFACTS}story-${story.scene}-${story.preset}.png` });
    assert.deepEqual(page.problems, [], name);
    await page.context().close();
  }
});

test("a link with t= still opens exactly at t, and markers say what they mark", async () => {
  const story = STORIES.find((s) => s.scene === "overview" && s.preset === "leader-crash");
  const page = await openPage(lab.browser, `${lab.server.url}?scene=overview&preset=leader-crash&t=${story.len}`);
  assert.deepEqual(await position(page), { at: story.len, of: story.len });
  assert.equal(await answer(page), story.answer);
  const marker = page.locator('[data-testid="markers"] .marker:not([data-moment="beat"])').first();
  assert.match(await marker.getAttribute("aria-label"), /·/);
  await marker.click();
  assert.equal((await position(page)).at, Number(await marker.getAttribute("data-position")));
  await page.context().close();
  const early = await openPage(lab.browser, `${lab.server.url}?scene=overview&preset=leader-crash&t=2`);
  assert.equal((await position(early)).at, 2);
  await early.context().close();
});

test("at 1280×800 every preset shows the result card, the caption, the transport and the picture without scrolling", async () => {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  for (const story of STORIES) {
    const preset = story.preset === "-" ? "" : `&preset=${story.preset}`;
    await page.goto(`${lab.server.url}?scene=${story.scene}${preset}`);
    await page.waitForSelector("main.scene [data-testid]");
    const box = await page.evaluate(() => {
      const bottom = (sel) => document.querySelector(sel).getBoundingClientRect().bottom;
      const picture = document.querySelector("main.scene section, main.scene svg");
      return {
        card: bottom('[data-testid="result-card"]'),
        caption: bottom('[data-testid="caption"]'),
        transport: bottom(".transport"),
        picture: picture.getBoundingClientRect().top,
        scrolled: window.scrollY,
      };
    });
    const name = `${story.scene}/${story.preset}`;
    assert.equal(box.scrolled, 0, name);
    for (const part of ["card", "caption", "transport"]) assert.ok(box[part] <= 800, `${name}: the ${part} ends at ${box[part]} px`);
    assert.ok(box.picture <= 560, `${name}: the picture starts at ${box.picture} px, with at least 240 px of it in the first screen`);
  }
  await context.close();
});
