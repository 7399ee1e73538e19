// Takes wasm-streams' exported classes out of a bundle's wasm and glue (used by scripts/site.mjs).
import { readFileSync, writeFileSync } from "node:fs";

// wasm-streams (which Leptos' `csr` links through server_fn's browser client, for streaming
// server functions) exports three classes to JavaScript. The lab has no server and never makes a
// stream, but an export is a root: its code (about 11 KB of wasm) and its glue would ship on
// every page. They are taken out of both after wasm-bindgen, with the function table's entries
// for their closures (the promises a stream's pull, write and close run as: another root), and
// wasm-opt then drops the code only they reached (2.4 KB gzip a page more since the entries go,
// scripts/size: log embed 184.2 -> 181.8). The build fails if the glue is not shaped as expected
// (a new wasm-bindgen).
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

/** Function index → name, from the module's `name` section (wasm-bindgen keeps it; wasm-opt
 *  strips it later). */
function functionNames(bytes) {
  const names = new Map();
  for (let at = 8; at < bytes.length; ) {
    const [size, body] = leb(bytes, at + 1);
    const end = body + size;
    if (bytes[at] === 0) {
      const [length, nameAt] = leb(bytes, body);
      if (Buffer.from(bytes.subarray(nameAt, nameAt + length)).toString("utf8") === "name") {
        for (let p = nameAt + length; p < end; ) {
          const kind = bytes[p];
          const [subSize, sub] = leb(bytes, p + 1);
          if (kind === 1) {
            let [count, q] = leb(bytes, sub);
            for (let i = 0; i < count; i++) {
              const [index, lengthAt] = leb(bytes, q);
              const [nameLength, nameStart] = leb(bytes, lengthAt);
              names.set(index, Buffer.from(bytes.subarray(nameStart, nameStart + nameLength)).toString("utf8"));
              q = nameStart + nameLength;
            }
          }
          p = sub + subSize;
        }
      }
    }
    at = end;
  }
  return names;
}

/** The module with the table's entries that `drop` accepts emptied (`ref.null`), all else as
 *  is; [module, entries emptied]. The function table is a root for wasm-opt: a closure that only
 *  the dropped classes' code ever made (a stream's pull, write or close, run as a promise) stays
 *  in it, and with it its code, unless its entry goes. The table is one active segment of
 *  function indices at a constant offset (what the linker writes); anything else fails the build. */
function withoutTableEntries(bytes, drop) {
  const parts = [bytes.subarray(0, 8)];
  let emptied = 0;
  for (let at = 8; at < bytes.length; ) {
    const [size, body] = leb(bytes, at + 1);
    const end = body + size;
    if (bytes[at] !== 9) {
      parts.push(bytes.subarray(at, end));
    } else {
      const [segments, flagAt] = leb(bytes, body);
      const [flag, offsetAt] = leb(bytes, flagAt);
      if (segments !== 1 || flag !== 0 || bytes[offsetAt] !== 0x41) throw new Error("the function table is not one active segment");
      const [, offsetEnd] = leb(bytes, offsetAt + 1);
      if (bytes[offsetEnd] !== 0x0b) throw new Error("the function table's offset is not a constant");
      let [count, p] = leb(bytes, offsetEnd + 1);
      const entries = [];
      for (let i = 0; i < count; i++) {
        const [index, next] = leb(bytes, p);
        p = next;
        // ref.null func, or ref.func index, each ended.
        const empty = drop(index);
        if (empty) emptied++;
        entries.push(empty ? [0xd0, 0x70, 0x0b] : [0xd2, ...encodeLeb(index), 0x0b]);
      }
      // Flag 4: an active segment of table 0 whose entries are expressions (so one can be null).
      const content = Buffer.from([1, 4, ...bytes.subarray(offsetAt, offsetEnd + 1), ...encodeLeb(count), ...entries.flat()]);
      parts.push(Buffer.from([9, ...encodeLeb(content.length)]), content);
    }
    at = end;
  }
  return [Buffer.concat(parts), emptied];
}

/** Takes wasm-streams' classes out of a bundle's wasm exports and its JavaScript glue. */
export function dropStreamClasses(id, wasmFile, jsFile) {
  const prefixes = STREAM_CLASSES.map((name) => name.toLowerCase());
  const isStream = (name) => prefixes.some((p) => name.startsWith(`${p}_`) || name === `__wbg_${p}_free`);
  const [unexported, removed] = withoutExports(readFileSync(wasmFile), isStream);
  const names = functionNames(unexported);
  const [wasm, emptied] = withoutTableEntries(unexported, (index) => names.get(index)?.includes("wasm_streams") ?? false);
  let js = readFileSync(jsFile, "utf8");
  let classes = 0;
  for (const name of STREAM_CLASSES) {
    const before = js.length;
    js = js.replace(new RegExp(`^export class ${name} \\{\\n[\\s\\S]*?^\\}\\n(?:if \\(Symbol\\.dispose\\) ${name}\\.prototype[^\\n]*\\n)?`, "m"), "");
    js = js.replace(new RegExp(`^const ${name}Finalization = [\\s\\S]*?;\\n`, "m"), "");
    if (js.length < before) classes++;
  }
  if (removed < STREAM_CLASSES.length || classes !== STREAM_CLASSES.length || /intounderlying/i.test(js) || emptied === 0) {
    throw new Error(`${id}: wasm-streams' exports are not where the build expects them (${removed} exports, ${classes} classes, ${emptied} table entries)`);
  }
  writeFileSync(wasmFile, wasm);
  writeFileSync(jsFile, js);
}
