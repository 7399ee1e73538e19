// Takes wasm-streams' exported classes out of a bundle's wasm and glue (used by scripts/site.mjs).
import { readFileSync, writeFileSync } from "node:fs";

// wasm-streams (which Leptos' `csr` links through server_fn's browser client, for streaming
// server functions) exports three classes to JavaScript. The lab has no server and never makes a
// stream, but an export is a root: its code (about 11 KB of wasm) and its glue would ship on
// every page. They are taken out of both after wasm-bindgen, and wasm-opt then drops the code
// only they reached. The build fails if the glue is not shaped as expected (a new wasm-bindgen).
const STREAM_CLASSES = ["IntoUnderlyingByteSource", "IntoUnderlyingSink", "IntoUnderlyingSource"];

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
function leb(bytes, at) {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
}

function encodeLeb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

/** The module without the exports `drop` accepts (the export section rewritten, all else as is). */
function withoutExports(bytes, drop) {
  const parts = [bytes.subarray(0, 8)];
  let removed = 0;
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at];
    const [size, body] = leb(bytes, at + 1);
    const end = body + size;
    if (id !== 7) {
      parts.push(bytes.subarray(at, end));
    } else {
      let [count, p] = leb(bytes, body);
      const kept = [];
      for (let i = 0; i < count; i++) {
        const [length, nameAt] = leb(bytes, p);
        const name = Buffer.from(bytes.subarray(nameAt, nameAt + length)).toString("utf8");
        const [, next] = leb(bytes, nameAt + length + 1);
        if (drop(name)) removed++;
        else kept.push(bytes.subarray(p, next));
        p = next;
      }
      const content = Buffer.concat([Buffer.from(encodeLeb(kept.length)), ...kept]);
      parts.push(Buffer.from([7, ...encodeLeb(content.length)]), content);
    }
    at = end;
  }
  return [Buffer.concat(parts), removed];
}

/** Takes wasm-streams' classes out of a bundle's wasm exports and its JavaScript glue. */
export function dropStreamClasses(id, wasmFile, jsFile) {
  const prefixes = STREAM_CLASSES.map((name) => name.toLowerCase());
  const isStream = (name) => prefixes.some((p) => name.startsWith(`${p}_`) || name === `__wbg_${p}_free`);
  const [wasm, removed] = withoutExports(readFileSync(wasmFile), isStream);
  let js = readFileSync(jsFile, "utf8");
  let classes = 0;
  for (const name of STREAM_CLASSES) {
    const before = js.length;
    js = js.replace(new RegExp(`^export class ${name} \\{\\n[\\s\\S]*?^\\}\\n(?:if \\(Symbol\\.dispose\\) ${name}\\.prototype[^\\n]*\\n)?`, "m"), "");
    js = js.replace(new RegExp(`^const ${name}Finalization = [\\s\\S]*?;\\n`, "m"), "");
    if (js.length < before) classes++;
  }
  if (removed < STREAM_CLASSES.length || classes !== STREAM_CLASSES.length || /intounderlying/i.test(js)) {
    throw new Error(`${id}: wasm-streams' exports are not where the build expects them (${removed} exports, ${classes} classes)`);
  }
  writeFileSync(wasmFile, wasm);
  writeFileSync(jsFile, js);
}
