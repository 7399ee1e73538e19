// Takes a screenshot of a page of the lab, for looking at a scene.
//   node tests/browser/shot.mjs DIST "QUERY" OUT.png [WIDTH] [--dark]
//   e.g. node tests/browser/shot.mjs dist "?scene=overview&preset=leader-crash" /tmp/overview.png
import { launch, openPage, serve, settled } from "./harness.mjs";

const [dist, query, out, width = "1280", theme] = process.argv.slice(2);
process.env.DIST = dist;
const browser = await launch();
const server = await serve("/");
const page = await openPage(browser, `${server.url}${query}`);
await page.setViewportSize({ width: Number(width), height: 900 });
if (theme === "--dark") await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
await settled(page);
// A viewport as tall as the page, so the sticky transport bar sits at the bottom as a user sees it.
const height = await page.evaluate(() => document.documentElement.scrollHeight);
await page.setViewportSize({ width: Number(width), height: Math.min(height, 4000) });
await settled(page);
await page.screenshot({ path: out });
if (page.problems.length) console.log("console problems:", page.problems);
console.log(`saved ${out}`);
await browser.close();
await server.close();
