// The long-Play memory check (issue 18; not in CI): plays a scene at a fast speed for N minutes
// and samples the wasm memory and the JS heap through the DevTools protocol every 30 s.
//
//   node tests/browser/soak.mjs [scene ...]        (after `scripts/build-static ./ dist`)
//   SOAK_MINUTES=30  how long each scene plays (default 30)
//   SOAK_SPEED=30    Play's speed; the menu offers 10× and 30× around the 16× (default 30)
//   SOAK_SAMPLE_S=30 seconds between samples;  SOAK_QUERY="c=…"  extra link parameters
//
// Prints one line per sample (minute, virtual time, tape position, wasm MB, JS heap MB, whether
// Play still runs) and each scene's peak. Play stops by itself at the work budget (a banner says
// so); sampling goes on, so the curve shows memory holding after that too.
import { launch, serve } from "./harness.mjs";
import { memoryProbe, wasmMemoryBytes, jsHeapBytes, MB } from "./memory.mjs";

const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const speed = process.env.SOAK_SPEED ?? "30";
const sampleMs = Number(process.env.SOAK_SAMPLE_S ?? 30) * 1000;
const extra = process.env.SOAK_QUERY ? `&${process.env.SOAK_QUERY}` : "";
const scenes = process.argv.slice(2).length ? process.argv.slice(2) : ["overview"];

async function soak(browser, server, scene) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  await page.goto(`${server.url}?scene=${scene}${extra}`);
  await page.waitForSelector("main.scene [data-testid]", { timeout: 20000 });
  const cdp = await memoryProbe(page);
  await page.locator(".speed select").selectOption(speed);
  await page.locator("#transport button.primary").click();
  const started = Date.now();
  const samples = [];
  const sample = async () => {
    const state = await page.evaluate(() => {
      const clock = document.querySelector('[data-testid="clock"]');
      const position = document.querySelector('[data-testid="position"]');
      const play = document.querySelector("#transport button.primary");
      return {
        virtualMs: Number(clock?.dataset.ms ?? 0),
        position: Number(position?.dataset.position ?? 0),
        playing: play?.getAttribute("aria-pressed") === "true",
      };
    });
    const row = {
      minute: (Date.now() - started) / 60000,
      ...state,
      wasmMb: (await wasmMemoryBytes(cdp)) / MB,
      jsMb: (await jsHeapBytes(cdp)) / MB,
    };
    samples.push(row);
    const h = (row.virtualMs / 3_600_000).toFixed(2);
    console.log(
      `${scene.padEnd(12)} ${row.minute.toFixed(1).padStart(5)} min  virtual ${h.padStart(6)} h  ` +
        `position ${String(row.position).padStart(6)}  wasm ${row.wasmMb.toFixed(1).padStart(6)} MB  ` +
        `js ${row.jsMb.toFixed(1).padStart(5)} MB  ${row.playing ? "playing" : "stopped"}`,
    );
  };
  await sample();
  while (Date.now() - started < minutes * 60000) {
    await page.waitForTimeout(Math.min(sampleMs, minutes * 60000 - (Date.now() - started)));
    await sample();
  }
  const banner = await page.getByTestId("error-banner").allInnerTexts();
  const peak = (key) => Math.max(...samples.map((s) => s[key])).toFixed(1);
  console.log(`${scene}: peak wasm ${peak("wasmMb")} MB, peak js ${peak("jsMb")} MB over ${minutes} min at ${speed}×`);
  if (banner.length) console.log(`${scene}: banner: ${banner.join(" | ")}`);
  if (problems.length) console.log(`${scene}: page problems: ${problems.join(" | ")}`);
  await context.close();
  return { scene, samples, problems };
}

const browser = await launch({ asShipped: true });
const server = await serve("/");
try {
  for (const scene of scenes) await soak(browser, server, scene);
} finally {
  await browser.close();
  await server.close();
}
