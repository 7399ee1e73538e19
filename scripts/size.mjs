// The size report behind scripts/size: gzip bytes per page, as the browser fetches them.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const DIST = process.argv[2] || "dist";
const GOAL_KB = 180;
const manifest = JSON.parse(readFileSync(join(DIST, "manifest.json"), "utf8"));
const gz = (file) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
// The wasm a page fetches is gzip'd already (scripts/site.mjs, `pack`): its bytes as they are.
const fetched = (file) => readFileSync(join(DIST, file)).length;
const kb = (bytes) => (bytes / 1024).toFixed(1);

// A scene's embed and comparison have bundles of their own (`X-embed`, `X-compare`), with the
// scene's texts; their pages are the scene's, asked for the embed or for `vs=`.
const VARIANTS = { embed: "embed=1", compare: "vs=…" };
const variantOf = (id) => Object.keys(VARIANTS).find((v) => id.endsWith(`-${v}`));
const sceneOf = (id) => (variantOf(id) ? id.slice(0, -variantOf(id).length - 1) : id);

const rows = [];
for (const [id, assets] of Object.entries(manifest)) {
  const scene = sceneOf(id);
  // The folder of its texts, as the manifest names it (a comparison reads its scene's).
  const texts = assets.texts;
  const locales = readdirSync(join(DIST, "locales", texts)).map((f) => [f, gz(join("locales", texts, f))]);
  const [localeFile, locale] = locales.reduce((a, b) => (b[1] > a[1] ? b : a));
  const parts = {
    js: gz(join("assets", assets.js)),
    wasm: fetched(join("assets", assets.wasm)),
    css: assets.css.reduce((sum, f) => sum + gz(join("assets", f)), 0),
  };
  const asked = variantOf(id) ? `${VARIANTS[variantOf(id)]}` : "";
  const pages =
    id === "home"
      ? [["/", "index.html"]]
      : [[`/?scene=${scene}${asked && "&" + asked}`, "index.html"], [`/${scene}/${asked && "?" + asked}`, join(scene, "index.html")]];
  // Every page fetches one locale file, English's too (the wasm carries no texts of a language).
  const en = locales.find(([f]) => f === "en.toml")?.[1];
  if (en === undefined) throw new Error(`locales/${texts}/en.toml is missing`);
  for (const [url, html] of pages) {
    const base = gz(html) + parts.js + parts.wasm + parts.css;
    rows.push({ url, html: gz(html), ...parts, locale, localeFile, english: base + en, total: base + locale });
  }
}
const cols = ["html", "js", "wasm", "css", "locale", "english", "total"];
console.log(["page".padEnd(30), ...cols.map((c) => c.padStart(8))].join(" ") + "   (KB gzip; locale: the heaviest file; english: the total with en.toml)");
let worst = 0;
for (const row of rows) {
  worst = Math.max(worst, row.total);
  console.log([row.url.padEnd(30), ...cols.map((c) => kb(row[c]).padStart(8))].join(" ") + `   ${row.localeFile}`);
}
const verdict = worst / 1024 <= GOAL_KB ? "within" : "OVER";
console.log("wasm: the file a page fetches, gzip'd by zopfli at build time, as it is (the others: gzip -9, as a server sends them)");
console.log(`heaviest page: ${kb(worst)} KB gzip with its locale file: ${verdict} the ${GOAL_KB} KB goal`);
