//! Compiles the English interface texts (`locales/en.toml`) into the app, with one
//! constant per key (`i18n::key::SHELL_TITLE`), so a mistyped key does not compile.

#[path = "src/i18n/format.rs"]
#[allow(dead_code)] // the writer half serves the tests, not the build
mod format;

use std::collections::BTreeMap;
use std::fmt::Write;

fn constant_name(key: &str) -> String {
    key.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect()
}

fn main() {
    println!("cargo:rerun-if-changed=locales/en.toml");
    // The site's wasm is built with `--cfg english_in_locale_files` (src/model/kernel/message.rs).
    println!("cargo:rustc-check-cfg=cfg(english_in_locale_files)");
    println!("cargo:rerun-if-changed=src/i18n/format.rs");
    let text = std::fs::read_to_string("locales/en.toml").expect("locales/en.toml");
    let entries = format::parse(&text).unwrap_or_else(|e| panic!("locales/en.toml, {e}"));
    let mut names = BTreeMap::new();
    // One table per key's first segment (`shell`, `scene`, `overview`, ...): a scene's bundle
    // links the shell's tables and its own, never another scene's texts.
    let mut tables: BTreeMap<String, String> = BTreeMap::new();
    let mut keys =
        String::from("/// One constant per interface text key (generated from `locales/en.toml`).\npub mod key {\n");
    for (key, value) in &entries {
        let name = constant_name(key);
        if let Some(other) = names.insert(name.clone(), key.clone()) {
            panic!("locales/en.toml: keys {other} and {key} make the same constant {name}");
        }
        let segment = key.split('.').next().unwrap_or(key);
        writeln!(tables.entry(constant_name(segment)).or_default(), "    ({key:?}, {value:?}),").unwrap();
        writeln!(keys, "    pub const {name}: &str = {key:?};").unwrap();
    }
    keys.push_str("}\n");
    let mut table = String::new();
    for (segment, rows) in &tables {
        writeln!(table, "/// The English texts of the keys `{}.*`, from `locales/en.toml`.", segment.to_lowercase())
            .unwrap();
        writeln!(table, "pub const EN_{segment}: &[(&str, &str)] = &[\n{rows}];").unwrap();
    }
    let all: Vec<String> = tables.keys().map(|s| format!("EN_{s}")).collect();
    writeln!(
        table,
        "/// Every interface text in English, table by table.\n#[cfg(not(target_arch = \"wasm32\"))]\npub const EN_ALL: &[&[(&str, &str)]] = &[{}];",
        all.join(", ")
    )
    .unwrap();
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("catalog_en.rs");
    std::fs::write(out, table + &keys).expect("write the generated catalog");
}
