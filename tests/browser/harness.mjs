// Shared set-up for the browser tests: the release build served on 127.0.0.1
// and Debian's headless Chromium driven by playwright-core.
import { before, after } from "node:test";
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startServer } from "./serve.mjs";

export const ARTIFACTS = new URL("./artifacts/", import.meta.url).pathname;
mkdirSync(ARTIFACTS, { recursive: true });

const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/**
 * The browser. Panels out of view are not drawn (`content-visibility: auto` in style.css), and an
 * undrawn element's `innerText` is empty; tests read panels' text wherever the page is scrolled,
 * so by default every context draws all of them, as if the learner had scrolled through the page
 * (`drawEveryPanel`). Benchmarks and screenshots take the page as shipped
 * (`launch({ asShipped: true })`), and so does a context made with `{ asShipped: true }`: the
 * skipping itself is tested in shell.test.mjs.
 */
export async function launch({ asShipped = false } = {}) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: FLAGS });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async ({ asShipped: shipped = asShipped, ...options } = {}) => {
    const context = await newContext(options);
    if (!shipped) await context.addInitScript(drawEveryPanel);
    return context;
  };
  return browser;
}

export async function serve(base = "/") {
  return startServer(process.env.DIST ?? "dist", { base });
}

/** Draws every panel, in view or not (an init script; see `launch`). */
export function drawEveryPanel() {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(".panels > *, .panels > * > * { content-visibility: visible !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** A new page that records console errors and uncaught exceptions in `page.problems`. */
export async function openPage(browser, url) {
  // English unless a test asks otherwise: the browser's language would pick the lab's.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  page.problems = [];
  page.on("console", (msg) => { if (msg.type() === "error") page.problems.push(msg.text()); });
  page.on("pageerror", (err) => page.problems.push(String(err)));
  await page.goto(url);
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  return page;
}

export async function text(page, testid) {
  return (await page.locator(`[data-testid="${testid}"]`).first().innerText()).trim();
}

/** Position, trace hash and the describe output: what must match for "the same state". */
export async function snapshot(page) {
  return {
    position: await text(page, "position"),
    trace: await text(page, "trace-hash"),
    clock: await text(page, "clock"),
    describe: await text(page, "describe"),
  };
}

/** Registers a test file's hooks: one browser and the build served at `/`, closed at the end. */
export function useLab() {
  const lab = {};
  before(async () => {
    lab.browser = await launch();
    lab.server = await serve("/");
  });
  after(async () => {
    await lab.browser?.close();
    await lab.server?.close();
  });
  return lab;
}

/** Resolves when no CSS transition or animation is running (for a screenshot after a move). */
export async function settled(page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"), null, { timeout: 5000 });
}

/** The transport clock's exact virtual time in milliseconds (the text reads as a human duration). */
export async function clockMs(page) {
  return Number(await page.getByTestId("clock").getAttribute("data-ms"));
}

/** Goes to the end of the recorded tape (a preset opens at its story's start): the End key. */
export async function atEnd(page) {
  await page.keyboard.press("End");
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid="position"]');
    return el && el.dataset.position === el.dataset.total;
  }, null, { timeout: 20000 });
  return page;
}

/** Opens a link; a preset link without `t=` is taken to the end of its tape, where the checks look. */
export async function openAtEnd(browser, url) {
  const page = await openPage(browser, url);
  if (url.includes("preset=") && !/[?&]t=/.test(url)) await atEnd(page);
  return page;
}

/** The address bar once the run has rested: the lab writes it 250 ms after the last change. */
export async function linkOf(page) {
  await page.waitForTimeout(450);
  return page.url();
}
