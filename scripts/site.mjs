// Assembles the static site from the release wasm of every bundle (src/bin/*.rs):
//   node scripts/site.mjs DIST
// Each bundle gets wasm-bindgen's JS, a wasm-opt'd wasm, its CSS and, per locale, a file
// with only the texts it shows; file names carry a content hash. Pages:
//   DIST/index.html          the loader: `?scene=X&…` links open scene X's bundle in place,
//                            the bare root opens the front page (the `home` bundle);
//   DIST/<scene>/index.html  a scene's own page, for new embeds (no loader on the way).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const DIST = process.argv[2] || "dist";
const WASM_DIR = "target/wasm32-unknown-unknown/release";
const WORK = "target/site";
const LOCALES = ["es", "pt-BR", "zh-CN", "tr"];
// Navigation order, as the registry (src/scenes.rs) lists the scenes.
const SCENES = ["overview", "log", "replication", "groups", "partitioner", "timer"];
const BUNDLES = ["home", ...SCENES];
// The key prefixes every bundle shows (the shell, the scene names, link and actor texts).
const SHARED_PREFIXES = ["shell", "scene", "link", "moment", "actor", "config"];
// Parameters that only dress the page: with nothing else, the root shows the front page.
const DRESS = ["lang", "theme", "present"];

const hash = (bytes) => createHash("sha256").update(bytes).digest("hex").slice(0, 16);

function emit(dir, name, ext, bytes) {
  const file = `${name}-${hash(bytes)}${ext}`;
  writeFileSync(join(dir, file), bytes);
  return file;
}

/** wasm-bindgen then wasm-opt for one bundle; returns the JS and wasm bytes. */
async function bindAndOptimise(id) {
  const out = join(WORK, id);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", out, "--out-name", id, join(WASM_DIR, `${id}.wasm`)]);
  if (existsSync(join(out, "snippets"))) throw new Error(`${id}: wasm-bindgen wrote snippets/, which the site does not copy`);
  const raw = join(out, `${id}_bg.wasm`);
  const optimised = join(out, `${id}.opt.wasm`);
  await run("wasm-opt", ["-Oz", "--strip-debug", "--strip-producers", "--output", optimised, raw]);
  return { js: readFileSync(join(out, `${id}.js`)), wasm: readFileSync(optimised) };
}

/** Runs `work` over `items`, two at a time (the machines have two cores). */
async function twoAtATime(items, work) {
  const results = new Map();
  const queue = [...items];
  const worker = async () => {
    for (let item; (item = queue.shift()) !== undefined; ) results.set(item, await work(item));
  };
  await Promise.all([worker(), worker()]);
  return results;
}

/** The locale file's entries whose keys start with one of `prefixes`, and the comments. */
function localeSubset(text, prefixes) {
  const keep = (line) => {
    const match = /^"([^".]+)\./.exec(line);
    return match ? prefixes.includes(match[1]) : !line.startsWith('"');
  };
  return text.split("\n").filter(keep).join("\n");
}

function css(dir, names) {
  return names.map((name) => emit(dir, name, ".css", readFileSync(`www/${name}.css`)));
}

function headTags(prefix, assets) {
  const links = assets.css.map((file) => `<link rel="stylesheet" href="${prefix}assets/${file}">`);
  return [
    ...links,
    `<link rel="modulepreload" href="${prefix}assets/${assets.js}">`,
    `<link rel="preload" href="${prefix}assets/${assets.wasm}" as="fetch" type="application/wasm" crossorigin>`,
  ].join("\n  ");
}

function page({ root, title, head, script }) {
  const rootAttr = root ? ` data-root="${root}"` : "";
  return `<!DOCTYPE html>
<html lang="en"${rootAttr}>
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="description" content="Kafka Lab: watch Apache Kafka's internals work, then break them on purpose.">
  <title>${title}</title>
  <link rel="icon" href="${root}favicon.svg">
  ${head}
  <script type="module">${script}</script>
</head>
<body>
  <noscript>Kafka Lab runs in your browser and needs JavaScript and WebAssembly.</noscript>
</body>
</html>
`;
}

// A scene's page hands a link to another scene to the root before loading anything.
const startScript = (id, prefix, assets) => `
const named = new URLSearchParams(location.search).get("scene");
if (named !== null && named !== "${id}") location.replace("${prefix}" + location.search);
else (await import("${prefix}assets/${assets.js}")).default({ module_or_path: "${prefix}assets/${assets.wasm}" });
`;

// The loader: picks the bundle a link names and starts it without leaving the page.
const loaderScript = (manifest) => `
const manifest = ${JSON.stringify(manifest)};
const params = new URLSearchParams(location.search);
const named = params.get("scene");
const dressOnly = [...params.keys()].every((k) => ${JSON.stringify(DRESS)}.includes(k));
const id = named !== null ? (manifest[named] ? named : "${SCENES[0]}") : dressOnly ? "home" : "${SCENES[0]}";
const assets = manifest[id];
const add = (attrs) => document.head.appendChild(Object.assign(document.createElement("link"), attrs));
for (const file of assets.css) add({ rel: "stylesheet", href: "assets/" + file });
add({ rel: "modulepreload", href: "assets/" + assets.js });
add({ rel: "preload", href: "assets/" + assets.wasm, as: "fetch", type: "application/wasm", crossOrigin: "anonymous" });
const { default: init } = await import("./assets/" + assets.js);
await init({ module_or_path: "assets/" + assets.wasm });
`;

async function main() {
  rmSync(DIST, { recursive: true, force: true });
  const assetsDir = join(DIST, "assets");
  mkdirSync(assetsDir, { recursive: true });
  const built = await twoAtATime(BUNDLES, bindAndOptimise);
  const manifest = {};
  for (const id of BUNDLES) {
    const { js, wasm } = built.get(id);
    const wasmFile = emit(assetsDir, id, "_bg.wasm", wasm);
    manifest[id] = {
      js: emit(assetsDir, id, ".js", js),
      wasm: wasmFile,
      css: css(assetsDir, id === "home" ? ["style"] : ["style", id]),
    };
    const prefixes = [...SHARED_PREFIXES, id];
    mkdirSync(join(DIST, "locales", id), { recursive: true });
    for (const locale of LOCALES) {
      const text = readFileSync(`locales/${locale}.toml`, "utf8");
      writeFileSync(join(DIST, "locales", id, `${locale}.toml`), localeSubset(text, prefixes));
    }
  }
  for (const id of SCENES) {
    mkdirSync(join(DIST, id), { recursive: true });
    const assets = manifest[id];
    const html = page({ root: "../", title: "Kafka Lab", head: headTags("../", assets), script: startScript(id, "../", assets) });
    writeFileSync(join(DIST, id, "index.html"), html);
  }
  writeFileSync(join(DIST, "index.html"), page({ root: "", title: "Kafka Lab", head: "", script: loaderScript(manifest) }));
  for (const file of ["embed.js", "404.html", "embed-example.html", "favicon.svg"]) copyFileSync(`www/${file}`, join(DIST, file));
  writeFileSync(join(DIST, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
  console.log(`site: ${BUNDLES.length} bundles in ${DIST}/ (${readdirSync(assetsDir).length} assets)`);
}

await main();
