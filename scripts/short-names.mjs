// Short names between a bundle's wasm and its JavaScript glue.
//
// wasm-bindgen names each import after the JS function and a hash (`__wbg_insertBefore_10ab0c19b463c12b`)
// and each closure export after its Rust path (`wasm_bindgen_…___convert__closures_____invoke_…`, up to
// 300 characters): about 150 names per bundle, written once in the wasm and again in the glue, whose
// hashes gzip cannot shorten. wasm-opt's MINIFY_PASS renames them to one or two letters (all imports
// from one module, `a`) and prints the table of old and new names; `shortenGlue` rewrites the glue by
// that table, gives the glue's own closure wrappers short names too, and fails the build unless the
// glue and the module then agree name for name (a new wasm-bindgen that shapes its glue otherwise).
// Measured with scripts/size: 4.2-5.4 KB gzip less a page (wasm -3.1, JS -2.0; overview embed 179.6 -> 174.8).
export const MINIFY_PASS = "--minify-imports-and-exports-and-modules";

const escape = (name) => name.replace(/[$.*+?^(){}[\]|\\]/g, "\\$&");

/** Replaces what `pattern` (one match expected) matches by `replace`'s result, or fails the build. */
function once(id, js, pattern, replacement, what) {
  const found = js.match(new RegExp(pattern.source, pattern.flags.replace("g", "") + "g")) ?? [];
  if (found.length !== 1) throw new Error(`${id}: glue has ${found.length} ${what}, expected 1`);
  return js.replace(pattern, replacement);
}

/**
 * The glue's imports object (`const import0 = {` … `    };`, one `name: function(…` property a function,
 * each at eight spaces) with each property renamed by `names`; a property the module no longer
 * imports (wasm-opt dropped the code that called it) is left out.
 */
function renameImports(id, js, names) {
  const start = js.indexOf("    const import0 = {\n");
  const end = js.indexOf("\n    };\n", start);
  if (start < 0 || end < 0) throw new Error(`${id}: glue has no imports object where expected`);
  const [head, ...properties] = js.slice(start, end).split(/\n(?=        [\w$]+: function\()/);
  if (!head.endsWith("__proto__: null,")) throw new Error(`${id}: glue's imports object starts otherwise`);
  const kept = [];
  for (const property of properties) {
    const name = property.slice(8, property.indexOf(":"));
    if (names.has(name)) kept.push(`        ${names.get(name)}${property.slice(8 + name.length)}`);
  }
  if (kept.length !== names.size) throw new Error(`${id}: glue has ${kept.length} of the module's ${names.size} imports`);
  return js.slice(0, start) + [head, ...kept].join("\n") + js.slice(end);
}

/**
 * The glue `js` of bundle `id` rewritten for the module `wasm` that wasm-opt wrote with MINIFY_PASS;
 * `table` is what wasm-opt printed: {"imports": [[module, old, new]…], "exports": [[old, new]…]}.
 */
export function shortenGlue(id, js, table, wasm) {
  const { imports, exports } = JSON.parse(table.slice(table.indexOf("{")));
  const module = new WebAssembly.Module(wasm);
  const wanted = WebAssembly.Module.imports(module);
  const modules = [...new Set(wanted.map((i) => i.module))];
  if (modules.length !== 1 || wanted.length !== imports.length) {
    throw new Error(`${id}: the module imports from ${modules.length} modules, ${wanted.length} names for ${imports.length} renamed`);
  }
  // The imports object: one `name: function(` a property, under the module's own file name.
  js = once(id, js, new RegExp(`"\\./${escape(id)}_bg\\.js": import0\\b`), () => `${JSON.stringify(modules[0])}: import0`, "import modules");
  js = renameImports(id, js, new Map(imports.map(([, before, after]) => [before, after])));
  for (const [before, after] of exports) {
    js = js.replace(new RegExp(`\\bwasm\\.${escape(before)}(?![\\w$])`, "g"), () => `wasm.${after}`);
  }
  // The glue's wrappers around closure exports keep the exports' long names: shorten them too.
  const wrappers = new Map();
  js = js.replace(/\bwasm_bindgen_[0-9a-f]{16}___\w+/g, (name) => {
    if (!wrappers.has(name)) wrappers.set(name, `__closure${wrappers.size}`);
    return wrappers.get(name);
  });
  // The glue and the module agree: every import is a property, every `wasm.x` an export.
  const given = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  const missing = wanted.filter(({ name }) => !new RegExp(`^\\s+${escape(name)}: function\\(`, "m").test(js));
  const unknown = [...js.matchAll(/\bwasm\.([\w$]+)/g)].map((m) => m[1]).filter((name) => !given.has(name));
  const left = js.match(/__wbg_\w+_[0-9a-f]{16}\b/g) ?? [];
  if (missing.length || unknown.length || left.length) {
    throw new Error(`${id}: glue and module disagree (imports missing: ${missing.map((i) => i.name)}; exports unknown: ${unknown}; names left: ${left})`);
  }
  return js;
}
