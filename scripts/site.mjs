// Assembles the static site from the release wasm of every bundle (src/bin/*.rs):
//   node scripts/site.mjs DIST
//   SITE_KEEP_NAMES=1 node scripts/site.mjs DIST   keeps the wasm's function names, for a profile
//                                                  (Chrome's profiler then names Rust functions)
// Each bundle gets wasm-bindgen's JS, a wasm-opt'd wasm (and the same gzip'd by zopfli, which
// the pages fetch), its CSS and, per locale, a file with only the texts it shows; file names
// carry a content hash. Pages:
//   DIST/index.html          the loader: `?scene=X&…` links open scene X's bundle in place,
//                            the bare root opens the front page (the `home` bundle);
//   DIST/<scene>/index.html  a scene's own page, for new embeds (no loader on the way);
//   DIST/sw.js               the service worker every page registers (www/sw.js): what a page
//                            fetched is kept, so a scene visited once reopens offline.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";
import { transformSync } from "esbuild";
import { ID, KEYS, VERSION } from "./catalog.mjs";
import { MINIFY_PASS, shortenGlue } from "./short-names.mjs";
import { dropStreamClasses } from "./stream-classes.mjs";

const run = promisify(execFile);
const DIST = process.argv[2] || "dist";
const WASM_DIR = "target/wasm32-unknown-unknown/release";
const WORK = "target/site";
const LOCALES = ["es", "pt-BR", "zh-CN", "tr"];
// Navigation order, as the registry (src/scenes.rs) lists the scenes.
const SCENES = ["overview", "log", "replication", "groups", "partitioner", "timer", "transactions"];
// A scene's other bundles, picked by its link (VARIANT below): `X-embed`, what an embed shows
// (the stage alone: no header, preset menu, panels or notebook buttons), and `X-compare`, two runs
// side by side (`vs=`). They show the scene's texts and styles.
const VARIANTS = ["embed", "compare"];
const BUNDLES = ["home", ...SCENES, ...SCENES.flatMap((id) => VARIANTS.map((variant) => `${id}-${variant}`))];
/** The scene whose texts and styles a bundle shows (a variant's scene, or the bundle itself). */
const sceneOf = (id) => VARIANTS.reduce((name, variant) => (name.endsWith(`-${variant}`) ? name.slice(0, -variant.length - 1) : name), id);
// Parameters that only dress the page: with nothing else, the root shows the front page.
const DRESS = ["lang", "theme", "present"];
// Pages that are not scenes but have their own bundle and page: the lab notebook (`?scene=notebook`).
const PAGES = ["notebook"];

// An asset's name carries the SHA-256 of its bytes whole, base64url (SHA-256, as the policy's
// script hashes: a third shorter than SHA-384, and digests do not compress). A page takes the
// subresource integrity it asks for from the name (GUARD's `integrity`), so no page lists the
// digests beside the names (the root loader lists every bundle's files: its HTML 6.3 -> 5.0 KB
// gzip), and the service worker checks a file's bytes against its name (www/sw.js, `HASHED`).
const hash = (bytes) => createHash("sha256").update(bytes).digest("base64url");
/** An asset's name: its digest, then how it ends. */
const NAMED = /-([\w-]{43})(?:_bg\.wasm(?:\.gzip)?|\.js|\.css)$/;
/** The integrity a page asks of an asset, read from its name (as GUARD's `integrity`). */
const integrity = (file) => "sha256-" + Buffer.from(NAMED.exec(file)[1], "base64url").toString("base64");

function emit(dir, name, ext, bytes) {
  const file = `${name}-${hash(bytes)}${ext}`;
  writeFileSync(join(dir, file), bytes);
  return file;
}

/** How a packed wasm's name ends (see `pack`; www/sw.js knows it too). */
const PACKED = "_bg.wasm.gzip";

// wasm-opt's passes. -Os gzips 1-3 KB smaller a page than -Oz (-Oz's smaller raw code compresses
// worse), and --low-memory-unused lets it fold constant offsets into loads and stores, which holds
// for Rust's layout: the stack starts at 1 MiB and grows down, and nothing is placed in the first
// 1 KiB. Measured with scripts/size (overview embed 180.9 -> 179.6 KB, groups embed 240.5 -> 238.0,
// groups page 288.4 -> 285.5). SITE_OPT="..." tries other flags without editing this file.
const WASM_OPT_FLAGS = (process.env.SITE_OPT ?? "-Os --low-memory-unused").split(" ");

/** wasm-bindgen then wasm-opt for one bundle; returns the JS and wasm bytes. */
async function bindAndOptimise(id) {
  const out = join(WORK, id);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", out, "--out-name", id, join(WASM_DIR, `${id}.wasm`)]);
  if (existsSync(join(out, "snippets"))) throw new Error(`${id}: wasm-bindgen wrote snippets/, which the site does not copy`);
  const raw = join(out, `${id}_bg.wasm`);
  dropStreamClasses(id, raw, join(out, `${id}.js`));
  const optimised = join(out, `${id}.opt.wasm`);
  const names = process.env.SITE_KEEP_NAMES ? ["-g"] : ["--strip-debug"];
  const { stdout } = await run("wasm-opt", [...WASM_OPT_FLAGS, MINIFY_PASS, ...names, "--strip-producers", "--output", optimised, raw]);
  const wasm = readFileSync(optimised);
  const glue = shortenGlue(id, readFileSync(join(out, `${id}.js`), "utf8"), stdout, wasm);
  // PATCH goes with the bundles that draw through it, in a block of its own, so it runs before the
  // module starts the app and no page's HTML carries it.
  const js = minify(patches(wasm) ? `${glue}\n{${PATCH}}` : glue, "js");
  writeFileSync(join(out, `${id}.short.mjs`), js);
  await run("node", ["--check", join(out, `${id}.short.mjs`)]);
  return { js, wasm, packed: await pack(wasm) };
}

// The wasm as the pages fetch it: gzip'd once here by zopfli, whose exhaustive search finds
// 4.4-4.6 % fewer bytes than gzip -9 (timer embed 172.7 -> 165.0 KB, replication 191.1 -> 182.7;
// more iterations than its default 15 gain under 0.1 KB). A server's own gzip of the plain file,
// made for each response, cannot afford that search. The page unpacks it with the browser's
// DecompressionStream as it arrives and compiles as it unpacks (GUARD's `boot`); a browser
// without one fetches the plain file. The name ends in neither .gz nor .wasm, so no server sends it
// as content-encoded or recompresses it: its bytes arrive as they are, as SRI checks them.
async function pack(wasm) {
  const packed = Buffer.from(await gzipAsync(wasm, { numiterations: 15 }));
  if (!gunzipSync(packed).equals(wasm)) throw new Error("zopfli's output does not unpack to the wasm");
  return packed;
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

/** A locale's texts: its file; English's are two, the interface's and the model's (generated
 *  from its templates, which the site's wasm leaves out: src/model/kernel/keys.rs). */
const localeText = (locale) =>
  locale === "en"
    ? readFileSync("locales/en.toml", "utf8") + "\n" + readFileSync("locales/en.model.toml", "utf8")
    : readFileSync(`locales/${locale}.toml`, "utf8");

const ENTRY = /^"([^"]+)" = /;
/** The scripts every page carries (GUARD, LAUNCH, PATCH, …): this file. */
const PAGE_SCRIPTS = readFileSync(new URL(import.meta.url), "utf8");
/** Every locale's texts, read once: tag → file text. */
const TEXTS = new Map(["en", ...LOCALES].map((locale) => [locale, localeText(locale)]));
/** The keys that the code of `wasms` (the bundles reading one folder of texts) can show. Every
 *  text key is a literal the code names (`i18n::key::*`, the model's `messages!`, `catalog_key!`;
 *  none is put together at run time), which the site's wasm holds as its short id (`^` and two
 *  digits: scripts/catalog.mjs), so a key whose id is in none of those files is never shown there:
 *  an embed's files leave out the panels', the header's and the notebook buttons' texts. Three
 *  bytes may also match by chance elsewhere in the code: that only adds a text. */
function usedKeys(wasms) {
  const code = wasms.map((bytes) => bytes.toString("latin1"));
  return new Set(KEYS.filter((key) => code.some((text) => text.includes(ID.get(key)))));
}

/** A locale file holding only the `used` keys' entries (no comments), each under its short id. */
const localeSubset = (text, used) =>
  text
    .split("\n")
    .flatMap((line) => {
      const key = ENTRY.exec(line)?.[1];
      return used.has(key) ? [`"${ID.get(key)}"${line.slice(key.length + 2)}`] : [];
    })
    .join("\n") + "\n";

/** A bundle's stylesheets, in cascade order: the shared rules, the page's own (header, preset menu,
 *  panels, front page: not an embed's, 1.0 KB gzip less for each), then its scene's. */
const stylesheets = (id) =>
  id === "home" ? ["style", "page"] : id.endsWith("-embed") ? ["style", sceneOf(id)] : ["style", "page", sceneOf(id)];

/** A bundle's stylesheet as shipped: its sheets in cascade order, in one file (one request and one
 *  gzip stream: 0.5 KB gzip less for an embed's two sheets, 1.0 for a page's three), minified
 *  (comments and indentation out: about 1 KB gzip a sheet) and without the rules `code` cannot
 *  draw (see `unusedRulesOut`). */
function stylesheet(dir, id, code) {
  const sheets = stylesheets(id).map((name) => readFileSync(`www/${name}.css`, "utf8"));
  // Named after its scene: a scene's page and comparison show the same classes, so share one file.
  return emit(dir, sceneOf(id), ".css", minify(unusedRulesOut(minify(sheets.join("\n"), "css"), code), "css"));
}

/** Every selector of a (minified) rule list, split at its top-level commas. */
const selectors = (list) => {
  const out = [""];
  let depth = 0;
  for (const c of list) {
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    if (c === "," && depth === 0) out.push("");
    else out[out.length - 1] += c;
  }
  return out;
};

/** Whether `code` (a bundle's wasm and JS, the page's scripts) can give an element the class `name`:
 *  it holds the name, or a part of it up to or from a hyphen, as a class the views put together
 *  (`epoch-{}`, `p-{}`) leaves in the code. Generous on purpose: a rule kept for nothing costs a few
 *  bytes, a rule dropped for an element that has the class would change the picture. */
const mayHaveClass = (code, name) =>
  code.includes(name) || [...name.matchAll(/-/g)].some(({ index }) => code.includes(name.slice(0, index + 1)) || code.includes(name.slice(index)));

/** `css` without the selectors that name a class no element of the bundle can have (the page's
 *  panels' in an embed, the other scenes' widgets in the shared rules), and without the rules and
 *  media blocks left with none. Classes inside parentheses (`:not(.x)`, `:is(…)`, `:has(…)`) do
 *  not count: a selector is dropped only for a class its element itself must have. Measured with
 *  scripts/size: embeds 0.1-0.6 KB gzip less, the front page 1.7, the notebook 1.3. */
function unusedRulesOut(css, code) {
  const live = (selector) => {
    let bare = selector;
    for (let was; was !== bare; ) (was = bare), (bare = bare.replace(/\([^()]*\)/g, ""));
    return [...bare.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].every(([, name]) => mayHaveClass(code, name));
  };
  let out = css.replace(/([^{}@;]+)\{([^{}]*)\}/g, (_rule, list, body) => {
    const kept = selectors(list).filter(live);
    return kept.length ? `${kept.join(",")}{${body}}` : "";
  });
  for (let was; was !== out; ) (was = out), (out = out.replace(/@(media|supports)[^{}]*\{\}/g, ""));
  return out;
}

function headTags(prefix, assets) {
  return assets.css.map((file) => `<link rel="stylesheet" href="${prefix}assets/${file}" integrity="${integrity(file)}">`).join("\n  ");
}

/** Code as shipped: esbuild's minifier (whitespace, comments, local names; modules stay modules).
 *  Measured with scripts/size: JS glue 4.5 -> 3.3 KB gzip, a page's stylesheets -0.3, its inline
 *  script -0.3. */
const minify = (code, loader) => {
  const out = transformSync(code, { loader, minify: true, ...(loader === "js" ? { format: "esm" } : {}) }).code;
  if (/<\/(script|style)/i.test(out)) throw new Error("minified code closes its element");
  return out;
};

/** The page's policy: its own origin only, the bootstrap script by its hash, no inline style
 * (the views' `data-style` is applied through the CSSOM, see RESTYLE). */
function policy(scripts, styles = []) {
  const digest = (text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  const hashes = scripts.map(digest);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...hashes, "'wasm-unsafe-eval'"].join(" "),
    ["style-src 'self'", ...styles.map(digest)].join(" "),
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** A hand-written page with the same policy, its inline scripts allowed by their hashes. */
function withPolicy(html) {
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
  const sheets = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]);
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(inline, sheets)}">`;
  return html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n  ${meta}`);
}

function page({ root, title, head, script }) {
  const rootAttr = root ? ` data-root="${root}"` : "";
  const code = minify(GUARD + script + offline(root), "js");
  return `<!DOCTYPE html>
<html lang="en"${rootAttr}>
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${policy([code])}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="description" content="Kafka Lab: watch Apache Kafka's internals work, then break them on purpose.">
  <title>${title}</title>
  <link rel="icon" href="${root}favicon.svg">
  ${head}
  <script type="module">${code}</script>
</head>
<body>
  <noscript>Kafka Lab runs in your browser and needs JavaScript and WebAssembly.</noscript>
</body>
</html>
`;
}

// Every page's first lines. RESTYLE: the policy refuses `style` attributes, so the views write
// `data-style` (bar widths, positions, grid sizes) and the page applies it through the CSSOM,
// which the policy allows, before the next paint. Then, when the module stops (a panic aborts it;
// running out of memory aborts it without any hook) or cannot start, an overlay says so and
// offers the same scene with its defaults (the link without a=, c=, t=) instead of a blank page.
// The texts are the ones the app left on <html> in its language; English before it ever ran.
const GUARD = `
const restyle = (el) => { el.style.cssText = el.getAttribute("data-style") ?? ""; };
new MutationObserver((records) => {
  for (const record of records) {
    if (record.type === "attributes") restyle(record.target);
    else for (const node of record.addedNodes) {
      if (node.nodeType !== 1) continue;
      if (node.hasAttribute("data-style")) restyle(node);
      for (const el of node.querySelectorAll("[data-style]")) restyle(el);
    }
  }
}).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-style"] });
const failed = (error) => {
  if (document.getElementById("panic-overlay")) return;
  const data = document.documentElement.dataset;
  const el = (tag, text) => Object.assign(document.createElement(tag), { textContent: text });
  const query = new URLSearchParams(location.search);
  for (const name of ["a", "c", "t", "debug"]) query.delete(name);
  const box = el("div", "");
  box.id = "panic-overlay";
  box.setAttribute("role", "alert");
  const defaults = el("a", data.panicDefaults || "Open this scene with its defaults");
  defaults.href = location.pathname + "?" + query;
  // Before the module ever ran (it did not load, or not intact) there is no text of its own.
  const started = data.panicTitle !== undefined;
  box.append(
    el("h2", started ? data.panicTitle : "Kafka Lab could not start."),
    el("p", started ? data.panicBody : "Its code did not arrive intact. Reload the page, or open this scene with its defaults."),
    el("p", ""),
    el("pre", data.panic || String(error && error.message || error)),
  );
  box.children[2].append(defaults);
  document.body.append(box);
};
addEventListener("error", (event) => { if (event.error instanceof WebAssembly.RuntimeError) failed(event.error); });
addEventListener("unhandledrejection", (event) => { if (event.reason instanceof WebAssembly.RuntimeError) failed(event.reason); });
// The wasm comes gzip'd (site.mjs \`pack\`): unpacked as it arrives, compiled as it unpacks. A
// browser without DecompressionStream fetches the plain file (LAUNCH's \`plainOf\`).
const unpacks = typeof DecompressionStream === "function";
const unpack = (response) => unpacks && response.ok
  ? new Response(response.body.pipeThrough(new DecompressionStream("gzip")), { headers: { "content-type": "application/wasm" } })
  : response;
// An asset's SRI digest, read from its name (site.mjs \`emit\`: the SHA-256 of its bytes, base64url).
const integrity = (file) => "sha256-" + ${NAMED}.exec(file)[1].replace(/-/g, "+").replace(/_/g, "/") + "=";
const boot = (js, wasm) =>
  import(js).then((glue) => glue.default({ module_or_path: fetch(wasm, { integrity: integrity(wasm) }).then(unpack) })).catch(failed);
`;

// PATCH, in the JS of the bundles that use it: markup that is large and changes a little every step
// (src/ui/markup.rs, `PatchedMarkup`) is written through the `labPatch` property. The new markup
// is parsed into a detached element of the same kind and only the nodes that differ are changed,
// so the browser restyles and lays out those, not hundreds of new nodes a step.
const PATCH = `
const sync = (to, from) => {
  let old = to.firstChild;
  for (let node = from.firstChild, next; node; node = next) {
    next = node.nextSibling;
    if (!old) to.append(node);
    else if (old.nodeName !== node.nodeName) { to.replaceChild(node, old); old = node.nextSibling; }
    else {
      if (node.nodeType === 1) {
        // \`style\` is RESTYLE's, written from \`data-style\`, never by markup (the policy forbids it).
        for (const name of old.getAttributeNames()) if (name !== "style" && !node.hasAttribute(name)) old.removeAttribute(name);
        for (const { name, value } of node.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
        sync(old, node);
      } else if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
      old = old.nextSibling;
    }
  }
  while (old) { const next = old.nextSibling; old.remove(); old = next; }
};
Object.defineProperty(Element.prototype, "labPatch", {
  set(html) {
    if (!this.firstChild) { this.innerHTML = html; return; }
    const aside = document.createElementNS(this.namespaceURI, this.localName);
    aside.innerHTML = html;
    sync(this, aside);
  },
});
`;

/** Whether a bundle draws through PATCH's `labPatch` (its name is in the wasm's data). */
const patches = (wasm) => wasm.toString("latin1").includes("labPatch");

// Every page's last lines: the service worker (sw.js at the site's root, its scope the root), once
// the page has loaded and the app has its files — it has drawn (its texts are on <html>) or could
// not start (the overlay) — so it never competes with the wasm. The load event does not wait for
// the files the bootstrap adds (the wasm, the texts): a worker that took control before they
// arrived would be told of a page without them, and keep it so. When it takes control of the page
// it is told what the page fetched before. A page where it cannot run (file://, an insecure
// origin, a sandboxed frame) goes on without it.
const offline = (root) => `
addEventListener("load", async () => {
  try {
    const worker = navigator.serviceWorker;
    if (!worker) return;
    const html = document.documentElement;
    const settled = () => html.hasAttribute("data-panic-title") || document.getElementById("panic-overlay");
    if (!settled()) await new Promise((done) => {
      const watch = new MutationObserver(() => { if (settled()) { watch.disconnect(); done(); } });
      watch.observe(html, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-panic-title"] });
    });
    worker.addEventListener("controllerchange", () => worker.controller?.postMessage({
      page: location.href,
      files: performance.getEntriesByType("resource").map((entry) => entry.name),
    }));
    await worker.register("${root}sw.js", { scope: "${root || "./"}" });
  } catch {}
});
`;

/** sw.js with its cache named after the build: a hash of the worker and every file the site holds. */
function serviceWorker(dist) {
  const source = readFileSync("www/sw.js", "utf8");
  if (!source.includes('"%BUILD%"')) throw new Error("www/sw.js: no %BUILD% to name its cache after");
  const files = readdirSync(dist, { recursive: true }).map(String).sort();
  const digest = createHash("sha256").update(source);
  for (const file of files) {
    const path = join(dist, file);
    if (statSync(path).isFile()) digest.update(file + "\0").update(readFileSync(path));
  }
  writeFileSync(join(dist, "sw.js"), source.replace('"%BUILD%"', JSON.stringify(digest.digest("hex").slice(0, 16))));
}

// Which of a scene's bundles a link opens: its comparison (`vs=`, as the app reads it), its embed
// (`embed`, `embed=1` or `embed=true`, as src/ui/url.rs reads it) or its page. Then the bundle
// starts: its CSS (unless the page has it), its JS and wasm fetched at once, and the module.
const LAUNCH = `
const search = location.search;
const compared = search.replace(/^\\?/, "").split("&").some((p) => p.startsWith("vs="));
const embedded = search.split(/[?&]/).some((p) => p === "embed" || p === "embed=1" || p === "embed=true");
const variant = (manifest, id) =>
  compared && manifest[id + "-compare"] ? id + "-compare" : embedded && manifest[id + "-embed"] ? id + "-embed" : id;
// The texts' file the app will ask for, asked for beside the wasm: the app picks the language
// (src/ui/language.rs: lang= in the link, the remembered choice, the browser's languages, English)
// and draws once its file is here. A wrong guess only costs this early request.
const TAGS = { en: "en", es: "es", pt: "pt-BR", zh: "zh-CN", tr: "tr" };
const tagOf = (tag) => {
  const [language, ...rest] = String(tag ?? "").trim().toLowerCase().replace(/_/g, "-").split("-");
  return language === "zh" && rest.some((p) => ["hant", "tw", "hk", "mo"].includes(p)) ? undefined : TAGS[language];
};
const language = () => {
  let kept = null;
  try { kept = localStorage.getItem("kafka-lab.lang"); } catch {}
  return tagOf(new URLSearchParams(search).get("lang")) ?? tagOf(kept) ?? (navigator.languages ?? []).map(tagOf).find(Boolean) ?? "en";
};
// A browser that cannot unpack the wasm (no DecompressionStream) asks manifest.json for the
// plain file's name, which the pages leave out: one more request, for that browser only.
const plainOf = (id, prefix) => fetch(prefix + "manifest.json").then((response) => response.json()).then((all) => all[id].plain);
const launch = (manifest, id, prefix) => {
  const assets = manifest[id];
  const add = (attrs) => document.head.appendChild(Object.assign(document.createElement("link"), attrs));
  // The bundle's stylesheet, unless the page links it (only the notebook's does), placed in
  // cascade order should a bundle have several.
  let before = null;
  for (const file of assets.css) {
    const href = prefix + "assets/" + file;
    const linked = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.getAttribute("href") === href);
    const link = linked ?? Object.assign(document.createElement("link"), { rel: "stylesheet", href, integrity: integrity(file) });
    if (!linked) before ? before.after(link) : document.head.appendChild(link);
    before = link;
  }
  add({ rel: "modulepreload", href: prefix + "assets/" + assets.js, integrity: integrity(assets.js) });
  if (unpacks) add({ rel: "preload", href: prefix + "assets/" + assets.wasm, as: "fetch", crossOrigin: "anonymous" });
  add({ rel: "preload", href: prefix + "locales/" + assets.texts + "/" + language() + ".toml", as: "fetch", crossOrigin: "anonymous" });
  const js = (prefix || "./") + "assets/" + assets.js;
  if (unpacks) boot(js, prefix + "assets/" + assets.wasm);
  else plainOf(id, prefix).then((wasm) => boot(js, prefix + "assets/" + wasm)).catch(failed);
};
`;

/** The bundles of a scene's page (the scene and its variants), as the manifest lists them. */
const sceneManifest = (manifest, id) => Object.fromEntries(Object.entries(manifest).filter(([key]) => sceneOf(key) === id));

/** What a page's script holds of the manifest: each bundle without its plain wasm (see `plainOf`). */
const inPage = (manifest) => JSON.stringify(Object.fromEntries(Object.entries(manifest).map(([id, { plain: _, ...assets }]) => [id, assets])));

// A scene's page hands a link to another scene to the root before loading anything.
const startScript = (id, prefix, manifest) => `${LAUNCH}
const manifest = ${inPage(sceneManifest(manifest, id))};
const named = new URLSearchParams(search).get("scene");
if (named !== null && named !== "${id}") location.replace("${prefix}" + search);
else launch(manifest, variant(manifest, "${id}"), "${prefix}");
`;

// The loader: picks the bundle a link names and starts it without leaving the page.
const loaderScript = (manifest) => `${LAUNCH}
const manifest = ${inPage(manifest)};
const params = new URLSearchParams(search);
const named = params.get("scene");
const dressOnly = [...params.keys()].every((k) => ${JSON.stringify(DRESS)}.includes(k));
const id = named !== null ? (manifest[named] ? named : "${SCENES[0]}") : dressOnly ? "home" : "${SCENES[0]}";
launch(manifest, variant(manifest, id), "");
`;

async function main() {
  rmSync(DIST, { recursive: true, force: true });
  const assetsDir = join(DIST, "assets");
  mkdirSync(assetsDir, { recursive: true });
  const built = await twoAtATime([...BUNDLES, ...PAGES], bindAndOptimise);
  const manifest = {};
  for (const id of [...BUNDLES, ...PAGES]) {
    const { js, wasm, packed } = built.get(id);
    const wasmFile = emit(assetsDir, id, "_bg.wasm", wasm);
    const packedFile = emit(assetsDir, id, PACKED, packed);
    const jsFile = emit(assetsDir, id, ".js", js);
    // What can name a class: the bundle's code, and the page's own scripts (this file's).
    const cssFiles = [stylesheet(assetsDir, id, wasm.toString("latin1") + js + PAGE_SCRIPTS)];
    // The folder of its texts (`Bundle::texts`: a comparison reads its scene's), named after the
    // numbering of the keys' ids, as the app asks for it (src/ui/language.rs).
    const texts = `${id.endsWith("-compare") ? sceneOf(id) : id}-${VERSION}`;
    // `wasm`: what a page fetches (packed); `plain`: the same unpacked, for a browser that cannot unpack.
    manifest[id] = { js: jsFile, wasm: packedFile, plain: wasmFile, css: cssFiles, texts };
  }
  for (const texts of new Set(Object.values(manifest).map((assets) => assets.texts))) {
    const readers = Object.keys(manifest).filter((id) => manifest[id].texts === texts);
    const used = usedKeys(readers.map((id) => built.get(id).wasm));
    mkdirSync(join(DIST, "locales", texts), { recursive: true });
    for (const [locale, text] of TEXTS) writeFileSync(join(DIST, "locales", texts, `${locale}.toml`), localeSubset(text, used));
  }
  for (const id of [...SCENES, ...PAGES]) {
    mkdirSync(join(DIST, id), { recursive: true });
    const assets = manifest[id];
    // A page with one bundle (the notebook's) links its stylesheet; a scene's page leaves it to
    // the script, which knows which bundle the link opens (each has a stylesheet of its own).
    const head = manifest[`${id}-embed`] ? "" : headTags("../", assets);
    const html = page({ root: "../", title: "Kafka Lab", head, script: startScript(id, "../", manifest) });
    writeFileSync(join(DIST, id, "index.html"), html);
  }
  writeFileSync(join(DIST, "index.html"), page({ root: "", title: "Kafka Lab", head: "", script: loaderScript(manifest) }));
  for (const file of ["embed.js", "favicon.svg"]) copyFileSync(`www/${file}`, join(DIST, file));
  for (const file of ["404.html", "embed-example.html"]) writeFileSync(join(DIST, file), withPolicy(readFileSync(`www/${file}`, "utf8")));
  writeFileSync(join(DIST, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
  serviceWorker(DIST);
  console.log(`site: ${BUNDLES.length + PAGES.length} bundles in ${DIST}/ (${readdirSync(assetsDir).length} assets)`);
}

await main();
