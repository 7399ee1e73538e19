import { readFileSync } from "node:fs";
// Accessibility: axe-core (node_modules/axe-core, pinned in package.json) finds no serious or
// critical violation on any scene — at the start, at a preset's key moment (`]` twice), in embed
// mode, at the end of the preset in the dark theme (the system's, as the lab follows it) — nor
// with the keyboard-help dialog open.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { ARTIFACTS, useLab } from "./harness.mjs";

const lab = useLab();
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** One preset per scene, each with key moments to step to with `]`. */
const SCENES = {
  overview: "leader-crash",
  log: "find-368500",
  replication: "loss-unclean",
  groups: "handoff-loss",
  partitioner: "cliente-42",
  timer: "purgatory-isr",
  transactions: "zombie-fencing",
};

// One context per colour scheme, made on first use and reused by every case (a new page per case).
const contexts = {};
after(async () => {
  for (const context of Object.values(contexts)) await context.close();
});

async function open(url, colorScheme = "light") {
  // Every panel drawn (`launch`), so that axe checks all of them, not only the first screen's.
  contexts[colorScheme] ??= await lab.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US", colorScheme });
  const page = await contexts[colorScheme].newPage();
  page.problems = [];
  page.on("pageerror", (err) => page.problems.push(String(err)));
  await page.goto(url);
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  return page;
}

/** The serious and critical violations axe finds on the page, one readable line each. */
async function audit(page, name) {
  // Evaluated through the DevTools protocol: the page's CSP (no inline script) stays in force.
  await page.evaluate(readFileSync(AXE, "utf8"));
  // No transition may be half-way (a colour fading in would be measured mid-fade).
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"), null, { timeout: 5000 }).catch(() => {});
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")), summary: v.nodes[0]?.failureSummary ?? "" }));
  });
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  if (bad.length) await page.screenshot({ path: `${ARTIFACTS}a11y-${name.replace(/\W+/g, "-")}.png`, fullPage: true });
  return bad.map((v) => `${name}: ${v.id} (${v.impact}) ×${v.targets.length} at ${v.targets.slice(0, 3).join(" | ")} — ${v.summary.split("\n").slice(1, 2).join(" ").trim()}`);
}

async function press(page, key, times = 1) {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

for (const [scene, preset] of Object.entries(SCENES)) {
  test(`${scene}: no serious or critical axe violation (start, key moment, embed, dark at the end)`, async () => {
    const found = [];
    const cases = [
      { name: `${scene} start`, url: `?scene=${scene}` },
      { name: `${scene}/${preset} after ]]`, url: `?scene=${scene}&preset=${preset}`, steps: 2 },
      { name: `${scene}/${preset} embed after ]]`, url: `?scene=${scene}&preset=${preset}&embed=1`, steps: 2 },
      { name: `${scene}/${preset} dark at the end`, url: `?scene=${scene}&preset=${preset}`, end: true, colorScheme: "dark" },
    ];
    for (const c of cases) {
      const page = await open(`${lab.server.url}${c.url}`, c.colorScheme);
      if (c.steps) await press(page, "]", c.steps);
      if (c.end) await press(page, "End");
      found.push(...(await audit(page, c.name)));
      assert.deepEqual(page.problems, [], c.name);
      await page.close();
    }
    assert.deepEqual(found, [], `axe-core found serious or critical violations:\n${found.join("\n")}`);
  });
}

test("the keyboard-help dialog: no serious or critical axe violation, light and dark", async () => {
  const found = [];
  for (const colorScheme of ["light", "dark"]) {
    const page = await open(`${lab.server.url}?scene=replication`, colorScheme);
    await press(page, "?");
    await page.waitForSelector("dialog[open], [role=dialog]", { timeout: 5000 });
    found.push(...(await audit(page, `keyboard help (${colorScheme})`)));
    await page.close();
  }
  assert.deepEqual(found, [], `axe-core found serious or critical violations:\n${found.join("\n")}`);
});

test("the lab notebook after Run all, and a comparison: no serious or critical axe violation", async () => {
  const found = [];
  for (const colorScheme of ["light", "dark"]) {
    const page = await open(`${lab.server.url}?scene=notebook`, colorScheme);
    await page.getByTestId("run-all").click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notebook-row"].measured').length > 0
      && !document.querySelector('[data-testid="run-all"]').disabled, null, { timeout: 30000 });
    found.push(...(await audit(page, `notebook after Run all (${colorScheme})`)));
    assert.deepEqual(page.problems, [], `notebook (${colorScheme})`);
    await page.close();
  }
  const compare = await open(`${lab.server.url}?scene=replication&preset=lab2-acks-1&vs=acks:all,min.insync.replicas:2`);
  await press(compare, "End");
  found.push(...(await audit(compare, "comparison acks=1 | acks=all")));
  assert.deepEqual(compare.problems, [], "comparison");
  await compare.close();
  assert.deepEqual(found, [], `axe-core found serious or critical violations:\n${found.join("\n")}`);
});
