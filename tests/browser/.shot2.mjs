// dev only: node tests/browser/.shot2.mjs "QUERY" OUT.png WIDTH HEIGHT [end|Nsteps] [phone] [dark] [full]
import { launch, serve, settled } from "./harness.mjs";
const [query, out, width = "1280", height = "800", at = "", ...flags] = process.argv.slice(2);
process.env.DIST = "dist";
const browser = await launch();
const server = await serve("/");
const phone = flags.includes("phone");
const context = await browser.newContext({ viewport: { width: Number(width), height: Number(height) }, locale: "en-US",
  isMobile: phone, hasTouch: phone, deviceScaleFactor: 1, colorScheme: flags.includes("dark") ? "dark" : "light" });
const page = await context.newPage();
const problems = [];
page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
page.on("pageerror", (e) => problems.push(String(e)));
await page.goto(`${server.url}${query}`);
await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
if (at === "end") await page.keyboard.press("End");
else if (/^\d+$/.test(at)) for (let i = 0; i < Number(at); i++) await page.keyboard.press("]");
await page.waitForTimeout(400);
await settled(page);
if (flags.includes("pic")) await page.locator(".picture").screenshot({ path: out });
else await page.screenshot({ path: out, fullPage: flags.includes("full") });
const m = await page.evaluate(() => ({ body: document.body.offsetHeight, sw: document.scrollingElement.scrollWidth, iw: innerWidth,
  pic: (() => { const r = document.querySelector(".picture").getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom)]; })() }));
console.log(out, JSON.stringify(m), problems.length ? problems : "");
await browser.close();
await server.close();
