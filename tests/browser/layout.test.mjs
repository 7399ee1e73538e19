// Picture first on every screen (issue 13): every scene's default page and every preset, measured
// embedded in a 700 px lesson column, at 1280×800, on a 390×844 phone and presenting at 1920×1080.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve } from "./harness.mjs";
import { everyPage, measureAll, pagesBySize, problems } from "./stage-metrics.mjs";

const SCENES = ["overview", "log", "replication", "groups", "partitioner", "timer", "transactions"];
// Scenes whose stage does not fit yet (issue 13 stays open for it): measured and reported, not failed.
const NOT_YET = new Set([]);
let browser, server, pages;
before(async () => {
  browser = await launch();
  server = await serve("/");
  pages = await pagesBySize(browser);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

for (const scene of SCENES) {
  const todo = NOT_YET.has(scene) ? "the stage does not fit yet (issue 13)" : false;
  test(`${scene}: every page's stage fits a lesson column, the first screen, a phone and a projector`, { todo }, async () => {
    const failures = [];
    for (const query of await everyPage(browser, server.url, [scene])) {
      const found = problems(await measureAll(pages, server.url, query));
      failures.push(...found.map((f) => `${query}: ${f}`));
    }
    assert.deepEqual(failures, []);
    for (const page of Object.values(pages)) assert.deepEqual(page.problems, []);
  });
}
