// Measures what a learner sees of the stage: run as a script to print every preset's figures,
//   node tests/browser/stage-metrics.mjs [scene ...]        (DIST=dist by default)
// or import `measure*` from a test.
import { launch, serve } from "./harness.mjs";

/** The smallest rendered text on the page (px), with where it is; SVG text counts its scale. */
export function smallestText(root = "body") {
  return (selector) => {
    const scope = document.querySelector(selector);
    let min = { px: Infinity, where: "" };
    const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
    for (const el of scope.querySelectorAll("*")) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== "");
      if (!own || !visible(el) || el.closest(".sr-only, [aria-hidden='true'] title, title, option, script, style")) continue;
      let px = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGElement && el.getScreenCTM) {
        const m = el.getScreenCTM();
        px *= Math.hypot(m.a, m.b);
      }
      if (px < min.px) min = { px: Math.round(px * 10) / 10, where: `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${el.textContent.trim().slice(0, 30)}"` };
    }
    return min;
  };
}

/** The smallest SVG label inside the picture (px, after scaling). */
export function smallestDiagramLabel() {
  let min = { px: Infinity, where: "" };
  for (const el of document.querySelectorAll(".picture svg text, .picture svg tspan")) {
    if (el.getClientRects().length === 0 || el.textContent.trim() === "") continue;
    const m = el.getScreenCTM();
    const px = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b);
    if (px < min.px) min = { px: Math.round(px * 10) / 10, where: `"${el.textContent.trim().slice(0, 30)}"` };
  }
  return min;
}

/** The smallest tap target (px tall) on the stage: buttons, links, menus and fields a thumb must hit. */
export function smallestTapTarget() {
  let min = { px: Infinity, where: "" };
  for (const el of document.querySelectorAll(".stage-head :is(button, a, select, input), .transport :is(button, a, select, input), .picture :is(button, a, select, input, summary)")) {
    if (el.classList.contains("marker") || el.getClientRects().length === 0) continue;
    // A checkbox or radio is tapped through its label.
    const target = el.matches("input[type=checkbox], input[type=radio]") && el.closest("label") ? el.closest("label") : el;
    const r = target.getBoundingClientRect();
    const px = Math.min(r.height, r.width);
    if (px < min.px) min = { px: Math.round(px), where: `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 30)}"` };
  }
  return min;
}

export function stageBoxes() {
  const box = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height) };
  };
  return {
    body: document.body.offsetHeight,
    scrollWidth: document.scrollingElement.scrollWidth,
    innerWidth,
    innerHeight,
    result: box("[data-testid=result-card]"),
    transport: box(".transport"),
    picture: box(".picture"),
  };
}

async function open(page, url) {
  await page.goto(url);
  await page.waitForSelector("main.scene [data-testid]");
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(150);
}

export const SIZES = {
  embed: { viewport: { width: 700, height: 900 }, suffix: "&embed=1" },
  desk: { viewport: { width: 1280, height: 800 }, suffix: "" },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, suffix: "" },
  present: { viewport: { width: 1920, height: 1080 }, suffix: "&present=1" },
};

/** One page per size, reused for every query. */
export async function pagesBySize(browser) {
  const pages = {};
  for (const [name, { suffix, ...options }] of Object.entries(SIZES)) {
    const context = await browser.newContext({ locale: "en-US", ...options });
    pages[name] = await context.newPage();
    pages[name].problems = [];
    pages[name].on("pageerror", (e) => pages[name].problems.push(String(e)));
  }
  return pages;
}

/** Every figure for one query: embed at 700, desktop 1280×800, phone 390×844, present 1920×1080. */
export async function measureAll(pages, base, query) {
  const out = {};
  for (const [name, page] of Object.entries(pages)) {
    await open(page, `${base}?${query}${SIZES[name].suffix}`);
    out[name] = await page.evaluate(stageBoxes);
    out[name].text = await page.evaluate(`(${smallestText()})("body")`);
    out[name].label = await page.evaluate(smallestDiagramLabel);
    if (name === "phone") out[name].tap = await page.evaluate(smallestTapTarget);
  }
  return out;
}

/** What a learner would notice, as short failure texts (empty: all good). */
export function problems(m) {
  const flags = [];
  if (m.embed.body > 900) flags.push(`embedded at 700 px the page is ${m.embed.body} px tall (> 900)`);
  for (const part of ["result", "transport"]) {
    if (m.desk[part].bottom > 800) flags.push(`at 1280×800 the ${part} ends at ${m.desk[part].bottom} px, below the first screen`);
  }
  if (m.desk.picture.top > 800 - 200) flags.push(`at 1280×800 the picture starts at ${m.desk.picture.top} px (less than 200 px of it in the first screen)`);
  if (m.desk.text.px < 12) flags.push(`at 1280×800 text is ${m.desk.text.px} px: ${m.desk.text.where}`);
  if (m.phone.scrollWidth > m.phone.innerWidth) flags.push(`on a 390 px phone the page is ${m.phone.scrollWidth} px wide`);
  if (m.phone.tap.px < 32) flags.push(`on a 390 px phone a tap target is ${m.phone.tap.px} px: ${m.phone.tap.where}`);
  if (m.present.label.px < 18) flags.push(`presenting at 1920×1080 a diagram label is ${m.present.label.px} px: ${m.present.label.where}`);
  if (m.present.picture.top > 1080 - 300) flags.push(`presenting at 1920×1080 the picture starts at ${m.present.picture.top} px`);
  return flags;
}

/** Every scene's default page and presets, as queries. */
export async function everyPage(browser, base, scenes) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await open(page, `${base}?scene=overview`);
  const queries = [];
  for (const scene of scenes) {
    await open(page, `${base}?scene=${scene}`);
    const ids = await page.$$eval("[data-testid=preset] option", (os) => os.map((o) => o.value).filter(Boolean));
    queries.push(`scene=${scene}`, ...ids.map((id) => `scene=${scene}&preset=${id}`));
  }
  await context.close();
  return queries;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scenes = process.argv.slice(2).length ? process.argv.slice(2) : ["overview", "log", "replication", "groups", "partitioner", "timer", "transactions"];
  const browser = await launch({ asShipped: true });
  const server = await serve("/");
  const pages = await pagesBySize(browser);
  for (const query of await everyPage(browser, server.url, scenes)) {
    const m = await measureAll(pages, server.url, query);
    const flags = problems(m);
    if (m.desk.picture.bottom > 800) flags.push(`(desk picture ends at ${m.desk.picture.bottom})`);
    console.log(`${query.padEnd(50)} embed ${m.embed.body} (picture ${m.embed.picture.height}) desk picture ${m.desk.picture.top}-${m.desk.picture.bottom}  ${flags.join(" · ") || "ok"}`);
  }
  await browser.close();
  await server.close();
}
