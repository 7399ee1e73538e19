// The shell's promises around the stage (issue 13): a skip link to the transport, focus never
// hidden under the sticky transport, and presenter mode (the p key, present=1, clicker keys,
// the key-moment counter).
import { test } from "node:test";
import assert from "node:assert/strict";
import { useLab, linkOf, openPage } from "./harness.mjs";

const lab = useLab();

async function open(query, options = {}) {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US", ...options });
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(String(e)));
  await page.goto(`${lab.server.url}?${query}`);
  await page.waitForSelector("main.scene [data-testid]");
  return page;
}

test("panels below the first screen are drawn once scrolled to, and then show the current step", async () => {
  const page = await open("scene=groups&preset=rebalance-loop&t=6", { asShipped: true });
  const drawn = (testid) => page.getByTestId(testid).evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }));
  assert.equal(await drawn("picture"), true, "the stage's picture, in view, is drawn");
  assert.equal(await drawn("event-log"), false, "out of view, the event log is not laid out or painted");
  // A step while it is out of view, then the learner scrolls down to it.
  await page.keyboard.press("ArrowRight");
  await page.getByTestId("event-log").scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid="event-log"]').checkVisibility({ contentVisibilityAuto: true }));
  const rows = await page.locator('[data-testid="event-log"] tbody tr').allInnerTexts();
  // The same lines as a page opened at that step with every panel drawn.
  const drawnPage = await openPage(lab.browser, `${lab.server.url}?scene=groups&preset=rebalance-loop&t=7`);
  const expected = await drawnPage.locator('[data-testid="event-log"] tbody tr').allInnerTexts();
  assert.ok(expected.length > 1 && expected.every((row) => row.trim() !== ""), expected.join("\n"));
  assert.deepEqual(rows, expected);
  assert.deepEqual([...page.problems, ...drawnPage.problems], []);
});

test("the first Tab reaches a skip link that takes the keyboard to the transport", async () => {
  const page = await open("scene=groups&preset=eager-restart");
  await page.keyboard.press("Tab");
  const first = await page.evaluate(() => ({ text: document.activeElement.textContent, visible: document.activeElement.getBoundingClientRect().top >= 0 }));
  assert.match(first.text, /Skip to the transport/);
  assert.ok(first.visible, "the focused skip link is on screen");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.closest(".transport") !== null), true, "the next Tab stop is in the transport");
  assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), "▶Play");
  await page.context().close();
});

test("a control reached with Tab far down the page is never hidden under the sticky transport", async () => {
  const page = await open("scene=replication&preset=loss-acks-1");
  const hidden = [];
  const controls = await page.evaluate(() => {
    const all = [...document.querySelectorAll(".panels button, .panels input, .panels summary, .panels select")];
    all.forEach((el, i) => { el.dataset.walk = String(i); });
    return all.length;
  });
  assert.ok(controls > 10, `${controls} controls below the stage`);
  for (let i = 1; i < controls; i += 3) {
    // The learner scrolled so that this control sits just under the top of the window (under the
    // sticky transport), then reaches it with Tab from the control before it.
    const where = await page.evaluate((i) => {
      const el = document.querySelector(`[data-walk="${i}"]`);
      const previous = document.querySelector(`[data-walk="${i - 1}"]`);
      scrollTo(0, el.getBoundingClientRect().top + scrollY - 20);
      previous.focus({ preventScroll: true });
      return el.getClientRects().length > 0;
    }, i);
    if (!where) continue;
    await page.keyboard.press("Tab");
    const seen = await page.evaluate(() => {
      const el = document.activeElement;
      const bar = document.querySelector(".transport").getBoundingClientRect();
      return { name: `${el.tagName} ${el.textContent.trim().slice(0, 30)}`, top: el.getBoundingClientRect().top, barBottom: bar.bottom, inPanels: el.closest(".panels") !== null };
    });
    if (seen.inPanels && seen.top < seen.barBottom) hidden.push(seen);
  }
  assert.deepEqual(hidden, []);
  await page.context().close();
});

test("presenter mode: the p key and present=1, the stage fills the screen, clicker keys step, a key-moment counter", async () => {
  const page = await open("scene=groups&preset=eager-restart", { viewport: { width: 1920, height: 1080 } });
  assert.equal(await page.locator(".moments").isVisible(), false, "no counter outside presenter mode");
  await page.keyboard.press("p");
  await page.waitForFunction(() => document.documentElement.classList.contains("present"));
  assert.match(await linkOf(page), /present=1/, "the link keeps presenter mode");
  assert.equal(await page.locator("header.top").isVisible(), false, "the header gives its room to the stage");
  const counter = async () => (await page.getByTestId("moments").textContent()).match(/Key moment (\d+) of (\d+)/).slice(1).map(Number);
  const [before, count] = await counter();
  assert.ok(count >= 2 && before < count, `the counter at the start: ${before} of ${count}`);
  await page.keyboard.press("]");
  assert.deepEqual(await counter(), [before + 1, count], "] moves to the next key moment");
  // A presenter picks another preset, then the clicker's PageDown steps it (focus is not kept by the menu).
  await page.getByTestId("preset").selectOption("cooperative-restart");
  const start = Number(await page.getByTestId("position").getAttribute("data-position"));
  await page.keyboard.press("PageDown");
  await page.waitForFunction((s) => Number(document.querySelector("[data-testid=position]").dataset.position) > s, start);
  // A reload keeps it; p again leaves it.
  await page.reload();
  await page.waitForSelector("main.scene [data-testid]");
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains("present")), true);
  await page.keyboard.press("p");
  await page.waitForFunction(() => !document.documentElement.classList.contains("present"));
  assert.doesNotMatch(await linkOf(page), /present=1/);
  assert.equal(await page.locator("header.top").isVisible(), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** Headings on screen whose section shows nothing else (its prose folded away, say). */
function emptyHeadings() {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  for (const fold of document.querySelectorAll("main details")) fold.open = true;
  const drawn = "svg, img, canvas, input, button, select, table, ol, ul";
  return [...document.querySelectorAll("main :is(h1, h2, h3, h4, summary)")]
    .filter((h) => shown(h))
    .filter((h) => {
      const section = h.closest("section, article, details, aside, fieldset") ?? h.parentElement;
      const text = section.innerText.replace(h.innerText, "").trim() !== "";
      const others = [...section.querySelectorAll(drawn)].filter((el) => !h.contains(el) && shown(el));
      return !text && !others.some((el) => el.getBoundingClientRect().height > 0);
    })
    .map((h) => `${h.tagName.toLowerCase()} "${h.textContent.trim().slice(0, 40)}"`);
}

test("presenter mode folds a heading together with its prose: no scene or preset shows an empty heading", async () => {
  const page = await open("scene=overview&present=1", { viewport: { width: 1920, height: 1080 } });
  const found = [];
  for (const scene of ["overview", "log", "replication", "groups", "partitioner", "timer", "transactions", "notebook"]) {
    await page.goto(`${lab.server.url}?scene=${scene}&present=1`);
    await page.waitForSelector("main [data-testid]");
    const presets = await page.$$eval("[data-testid=preset] option", (os) => os.map((o) => o.value).filter(Boolean));
    for (const query of [`scene=${scene}`, ...presets.map((id) => `scene=${scene}&preset=${id}`)]) {
      await page.goto(`${lab.server.url}?${query}&present=1`);
      await page.waitForSelector("main [data-testid]");
      found.push(...(await page.evaluate(emptyHeadings)).map((h) => `${query}: ${h}`));
    }
  }
  assert.deepEqual(found, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("Play leaves the address bar alone; once paused it names the paused step, and so does a hidden page", async () => {
  const page = await open("scene=overview&preset=leader-crash");
  await page.evaluate(() => {
    window.rewrites = 0;
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { window.rewrites += 1; return replace(...args); };
  });
  await page.waitForTimeout(400);
  await page.evaluate(() => { window.rewrites = 0; });
  await page.keyboard.press("Space");
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="position"]').dataset.position) >= 8, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.rewrites), 0, "no rewrite of the address while playing");
  await page.keyboard.press("Space");
  const paused = await page.getByTestId("position").getAttribute("data-position");
  assert.match(await linkOf(page), new RegExp(`[?&]t=${paused}(&|$)`), "the link names the paused step");
  await page.keyboard.press("ArrowRight");
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  assert.match(page.url(), new RegExp(`[?&]t=${Number(paused) + 1}(&|$)`), "hiding the page writes the link at once");
  await page.context().close();
});
