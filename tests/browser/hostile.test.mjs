// A link that asks for too much work (issue 18's reproducers) opens within seconds with a
// banner saying how far it got, the link it then writes reopens there, and Step still answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { clockMs, linkOf, useLab } from "./harness.mjs";

const lab = useLab();

for (const query of [
  "scene=groups&c=heartbeat.interval.ms:1&a=w3600000",
  "scene=overview&c=lab.producer.records.per.sec:1000,lab.producer.distinct.keys:100000&a=w3600000",
]) {
  test(`${query} opens part of the way, says so, and Step still answers`, async () => {
    const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto(`${lab.server.url}?${query}`);
    const banner = page.getByTestId("error-banner").filter({ hasText: "opened part of the way" });
    await banner.waitFor({ timeout: 15000 });
    assert.match(await banner.innerText(), /1 of 1 actions replayed, up to/);
    const stoppedAt = await clockMs(page);
    assert.ok(stoppedAt > 0 && stoppedAt < 3_600_000, `stopped at ${stoppedAt} ms`);
    // The link the lab writes reopens where it stopped, with no banner.
    const again = await context.newPage();
    await again.goto(await linkOf(page));
    await again.waitForSelector("main.scene [data-testid]");
    assert.equal(await again.getByTestId("error-banner").count(), 0, "the written link is within the budget");
    assert.equal(await clockMs(again), stoppedAt, "and opens at the same time");
    const before = await page.getByTestId("position").getAttribute("data-position");
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((p) => document.querySelector('[data-testid="position"]').dataset.position !== p, before);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("embed.js resizes only Kafka Lab iframes, and only within its clamp", async () => {
  // A lesson page with a Kafka Lab embed and another widget; both frames post a height.
  const lesson = `${lab.server.url}lesson-widgets.html`;
  const widget = `${lab.server.url}widget.html`;
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  await context.route(widget, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html><title>w</title>
    <script>setInterval(() => parent.postMessage({ type: "kafka-lab:height", height: 20000 }, "*"), 50);</script>` }));
  await context.route(lesson, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>Lesson</title></head><body>
    <iframe id="widget" title="A widget" style="height:150px" src="./widget.html"></iframe>
    <iframe id="lab" class="kafka-lab" title="Kafka Lab" style="width:100%;border:0;height:150px"
      src="./?scene=timer&preset=hierarchy-350&embed=1"></iframe>
    <script src="./embed.js"></script></body></html>` }));
  const page = await context.newPage();
  await page.goto(lesson);
  await page.waitForFunction(() => parseInt(document.getElementById("lab").style.height, 10) > 300, null, { timeout: 20000 });
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => document.getElementById("widget").style.height), "150px", "the widget keeps its height");
  // The lab's own frame asking for 20,000 px gets the clamp's 4,000.
  await page.evaluate(() => {
    const lab = document.getElementById("lab");
    window.dispatchEvent(new MessageEvent("message", { data: { type: "kafka-lab:height", height: 20000 }, source: lab.contentWindow, origin: location.origin }));
  });
  assert.equal(await page.evaluate(() => document.getElementById("lab").style.height), "4000px");
  await context.close();
});

test("a lesson page on another site embeds a scene: every page sends frame-ancestors * and the embed runs", async () => {
  const sceneUrl = `${lab.server.url}?scene=timer&preset=hierarchy-350&embed=1`;
  const response = await fetch(sceneUrl);
  assert.equal(response.headers.get("content-security-policy"), "frame-ancestors *");
  // The lesson is served from another port: another origin, as a course site would be (a real
  // server, so Chromium sees a local page, not a public one reaching into the local network).
  const lessonHtml = `<!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>Lesson</title></head><body>
    <iframe id="lab" class="kafka-lab" title="Kafka Lab" style="width:100%;border:0;height:600px"
      src="${sceneUrl}"></iframe></body></html>`;
  const lessonServer = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(lessonHtml);
  });
  await new Promise((listening) => lessonServer.listen(0, "127.0.0.1", listening));
  const lesson = `http://127.0.0.1:${lessonServer.address().port}/lesson.html`;
  assert.notEqual(new URL(lesson).origin, new URL(sceneUrl).origin, "the lesson is another origin");
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  await page.goto(lesson);
  const frame = page.frameLocator("#lab");
  await frame.getByTestId("position").waitFor({ timeout: 20000 });
  await context.close();
  await new Promise((closed) => lessonServer.close(closed));
});
