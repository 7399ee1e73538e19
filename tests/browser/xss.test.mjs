// No script injection through a link or a form: every parameter and input the lab shows back
// to the learner (in an error banner, a caption, the event log, a card) is text, not markup.
// Each probe would set window.__xss if the browser ran it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useLab } from "./harness.mjs";

const lab = useLab();
const PAYLOADS = [
  `<img src=x onerror="window.__xss=1">`,
  `"><svg onload="window.__xss=1">`,
  `'><script>window.__xss=1</script>`,
  `</textarea><iframe srcdoc="<script>parent.__xss=1</script>">`,
  `javascript:window.__xss=1`,
];
const enc = encodeURIComponent;
const links = PAYLOADS.flatMap((p) => [
  `?scene=${enc(p)}`,
  `?scene=overview&preset=${enc(p)}`,
  `?scene=overview&c=${enc(p)}:3`,
  `?scene=overview&c=partitions:${enc(p)}`,
  `?scene=replication&a=w100.${enc(p)}`,
  `?scene=partitioner&a=key-${enc(p)}`,
  `?scene=groups&seed=${enc(p)}`,
  `?scene=timer&lang=${enc(p)}&theme=${enc(p)}&t=${enc(p)}`,
  `?scene=log&c=cleanup.policy:${enc(p)}`,
]);

test(`${links.length} hostile links run no script and show their text as text`, async () => {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  for (const link of links) {
    await page.goto(`${lab.server.url}${link}`);
    await page.waitForSelector("main [data-testid], .scene-cards", { timeout: 20000 });
    await page.waitForTimeout(100);
    const found = await page.evaluate(() => ({
      ran: window.__xss === 1,
      injected: document.querySelectorAll("main img[onerror], main svg[onload], main script, main iframe[srcdoc], .banner img, .banner svg").length,
    }));
    assert.deepEqual(found, { ran: false, injected: 0 }, link);
  }
  await context.close();
});

test("a record key typed into the partitioner's form stays text", async () => {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  await page.goto(`${lab.server.url}?scene=partitioner`);
  await page.waitForSelector("main.scene [data-testid]");
  for (const payload of PAYLOADS) {
    await page.getByLabel("Record key").fill(payload);
    await page.getByLabel("Record key").press("Enter");
    await page.waitForTimeout(150);
  }
  assert.equal(await page.evaluate(() => window.__xss === 1), false);
  assert.ok((await page.locator("main").innerText()).includes("onerror"), "the key is shown as the text it is");
  await context.close();
});
