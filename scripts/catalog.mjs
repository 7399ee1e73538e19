// The catalog's keys as the site's wasm knows them (`--cfg short_catalog_keys`,
// src/model/kernel/keys.rs): every key of locales/en.toml and locales/en.model.toml, sorted, is
// `^` and its index in two base-62 digits. build.rs numbers them the same way; both name the
// numbering by FNV-1a of the sorted keys (each ending in a newline), which the locale folders
// carry (`locales/<texts>-<version>/`, src/ui/language.rs).
import { readFileSync } from "node:fs";

const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ENTRY = /^"([^"]+)" = /;
const root = new URL("../", import.meta.url);
const keysOf = (file) => readFileSync(new URL(file, root), "utf8").split("\n").map((line) => ENTRY.exec(line)?.[1]).filter(Boolean);

/** Every key, sorted by its bytes (all ASCII, so as Rust sorts them). */
export const KEYS = [...new Set([...keysOf("locales/en.toml"), ...keysOf("locales/en.model.toml")])].sort((a, b) =>
  a < b ? -1 : a > b ? 1 : 0,
);
if (KEYS.length > DIGITS.length ** 2) throw new Error("more catalog keys than two-digit ids");

/** key → its short id. */
export const ID = new Map(KEYS.map((key, index) => [key, "^" + DIGITS[Math.floor(index / DIGITS.length)] + DIGITS[index % DIGITS.length]]));

/** The numbering's name, as build.rs writes it. */
export const VERSION = (() => {
  let hash = 0x811c9dc5;
  for (const key of KEYS) for (const byte of Buffer.from(key + "\n")) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
})();
