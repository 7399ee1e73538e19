// No failure leaves a blank page, and the page's Content-Security-Policy holds: a panic, an abort
// that runs no hook (as running out of memory does) and a tampered wasm each end in an overlay
// that says so and links the same scene with its defaults; no scene, page or preset trips the policy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useLab } from "./harness.mjs";

const lab = useLab();

/** A page that counts the policy's violation reports. */
async function watched(query, { path = "", locale = "en-US" } = {}) {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  await context.addInitScript(() => {
    window.violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  await page.goto(`${lab.server.url}${path}?${query}`);
  return { context, page };
}

for (const [query, path, kind] of [
  ["scene=overview&preset=leader-crash&t=3&debug=panic", "", "a panic"],
  ["scene=groups&seed=2&a=w10000.pause-2-50000&c=lab.members:4&debug=trap", "", "an abort without a hook"],
  ["preset=sticky&debug=trap", "partitioner/", "an abort on a scene's own page"],
]) {
  test(`${kind} shows the overlay with a link to the scene's defaults (${path}?${query})`, async () => {
    const { context, page } = await watched(query, { path });
    const overlay = page.locator("#panic-overlay");
    await overlay.waitFor({ timeout: 5000 });
    assert.match(await overlay.innerText(), /Kafka Lab hit a bug and stopped/);
    const href = await overlay.getByRole("link").getAttribute("href");
    const params = new URL(href, page.url()).searchParams;
    for (const gone of ["a", "c", "t", "debug"]) assert.equal(params.has(gone), false, `${gone}= dropped from ${href}`);
    assert.equal(new URL(href, page.url()).pathname, `/${path}`, "the same page");
    await overlay.getByRole("link").click();
    await page.waitForSelector("main.scene [data-testid]", { timeout: 10000 });
    assert.equal(await page.locator("#panic-overlay").count(), 0, "the defaults open cleanly");
    assert.deepEqual(await page.evaluate(() => window.violations), []);
    await context.close();
  });
}

test("the overlay speaks the page's language once the page does", async () => {
  const { context, page } = await watched("scene=log&lang=es");
  await page.waitForSelector("html[lang=es] main.scene [data-testid]", { timeout: 10000 });
  // The overlay is drawn by the bootstrap from the texts the app left on <html>.
  await page.evaluate(() => setTimeout(() => { throw new WebAssembly.RuntimeError("unreachable"); }));
  const overlay = page.locator("#panic-overlay");
  await overlay.waitFor({ timeout: 5000 });
  assert.match(await overlay.innerText(), /Kafka Lab ha encontrado un bug y se ha detenido/);
  assert.match(await overlay.getByRole("link").innerText(), /Abrir esta escena con sus valores por defecto/);
  await context.close();
});

test("a tampered wasm is refused by its integrity hash and the page says it could not start", async () => {
  const context = await lab.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.route(/_bg\.wasm(\.gzip)?$/, async (route) => {
    const response = await route.fetch();
    const body = Buffer.from(await response.body());
    body[body.length - 1] ^= 0xff;
    await route.fulfill({ response, body });
  });
  await page.goto(`${lab.server.url}?scene=timer`);
  await page.locator("#panic-overlay").waitFor({ timeout: 10000 });
  assert.match(await page.locator("#panic-overlay").innerText(), /could not start/);
  assert.equal(await page.locator("main.scene").count(), 0, "the tampered module never ran");
  await context.close();
});

test("no scene, preset, front page or scene page trips the Content-Security-Policy", async () => {
  const scenes = ["overview", "log", "replication", "groups", "partitioner", "timer", "transactions"];
  const visits = [["", ""], ["lang=zh-CN", ""], ["scene=log&preset=find-368500&embed=1", ""], ["present=1&theme=dark", "groups/"]];
  for (const id of scenes) visits.push([`scene=${id}`, ""], ["embed=1", `${id}/`]);
  for (const [query, path] of visits) {
    const { context, page } = await watched(query, { path });
    await page.waitForSelector("main.scene [data-testid], .scene-cards", { timeout: 20000 });
    for (let step = 0; step < 3 && (await page.getByTestId("position").count()) > 0; step++) await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(300);
    assert.deepEqual(await page.evaluate(() => window.violations), [], `${path}?${query}`);
    await context.close();
  }
  for (const file of ["embed-example.html", "nowhere/at/all"]) {
    const { context, page } = await watched("", { path: file });
    await page.waitForTimeout(1500);
    assert.deepEqual(await page.evaluate(() => window.violations), [], file);
    await context.close();
  }
});
