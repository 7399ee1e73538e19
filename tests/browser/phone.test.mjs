// On a 390×844 phone no scene page pans sideways: for every scene's own page and every preset
// (at its start and at its end) the page is no wider than the screen. A failure names the widest
// elements that stick out past the right edge (the ones shown and not clipped by a scrolling box;
// a closed <details> still lays out its content, unseen).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ARTIFACTS, settled, useLab } from "./harness.mjs";

const lab = useLab();

/** scene/preset pairs from the native story run; "-" is the scene's own page. */
const STORIES = readFileSync(new URL("../golden/stories.txt", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line && !line.startsWith("#"))
  .map((line) => {
    const [scene, preset] = line.split(" | ")[0].split("/");
    return { scene, preset };
  });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: "en-US" };

/** null when the page fits the screen, else what overflows (the widest unclipped elements first). */
// A mobile browser widens its layout viewport to hold content that sticks out (innerWidth then
// reads 506, 690, … instead of 390), so both are held to the phone's own width as well.
async function overflow(page) {
  return page.evaluate((width) => {
    const scrollWidth = document.scrollingElement.scrollWidth;
    if (scrollWidth <= window.innerWidth && window.innerWidth <= width) return null;
    const clipped = (el) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== "visible") return true;
      }
      return false;
    };
    const name = (el) => {
      const classes = typeof el.className === "string" ? el.className.trim().split(/\s+/).filter(Boolean) : [...(el.classList ?? [])];
      const testid = el.getAttribute("data-testid");
      return el.tagName.toLowerCase() + classes.map((c) => `.${c}`).join("") + (testid ? `[data-testid=${testid}]` : "");
    };
    const offenders = [...document.body.querySelectorAll("*")]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ el, box }) => box.right > width + 0.5 && box.width > 0 && el.checkVisibility() && !clipped(el));
    const set = new Set(offenders.map(({ el }) => el));
    const describe = (list) => list
      .sort((a, b) => b.box.right - a.box.right)
      .slice(0, 4)
      .map(({ el, box }) => `${name(el)} (${Math.round(box.width)} px wide, right edge ${Math.round(box.right)} px)`);
    // Where the overflow starts (an offender whose parent fits) and what pushes it (no offending child).
    const wide = [
      ...describe(offenders.filter(({ el }) => !set.has(el.parentElement))),
      ...describe(offenders.filter(({ el }) => ![...el.children].some((c) => set.has(c)))).map((d) => `inner ${d}`),
    ];
    return { scrollWidth, width, innerWidth: window.innerWidth, wide };
  }, PHONE.viewport.width);
}

function report(where, found) {
  return `${where}: the page is ${found.scrollWidth} px wide on a ${found.width} px screen (innerWidth ${found.innerWidth}); widest: ${found.wide.join("; ") || "(none found)"}`;
}

test("on a 390×844 phone no scene page or preset pans sideways, at its start or its end", async () => {
  const context = await lab.browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(String(err)));
  const failures = [];
  const shot = new Set();
  for (const story of STORIES) {
    const preset = story.preset === "-" ? "" : `&preset=${story.preset}`;
    const name = `${story.scene}/${story.preset}`;
    await page.goto(`${lab.server.url}?scene=${story.scene}${preset}`);
    await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
    const start = await overflow(page);
    if (start) failures.push(report(name, start));
    if (story.preset === "-") continue;
    await page.keyboard.press("End");
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="position"]');
      return el && el.dataset.position === el.dataset.total;
    }, null, { timeout: 20000 });
    const end = await overflow(page);
    if (end) failures.push(report(`${name} at its end`, end));
    if (!shot.has(story.scene)) {
      shot.add(story.scene);
      await settled(page);
      await page.screenshot({ path: `${ARTIFACTS}phone-${story.scene}.png` }); // the first screen, as a phone shows it
    }
  }
  await context.close();
  assert.deepEqual(failures, [], failures.join("\n"));
  assert.deepEqual(problems, []);
});
