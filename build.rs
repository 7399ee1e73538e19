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
    println!("cargo:rerun-if-changed=src/i18n/format.rs");
    let text = std::fs::read_to_string("locales/en.toml").expect("locales/en.toml");
    let entries = format::parse(&text).unwrap_or_else(|e| panic!("locales/en.toml, {e}"));
    let mut names = BTreeMap::new();
    let mut table = String::from(
        "/// Every interface text in English, from `locales/en.toml`.\npub const EN: &[(&str, &str)] = &[\n",
    );
    let mut keys =
        String::from("/// One constant per interface text key (generated from `locales/en.toml`).\npub mod key {\n");
    for (key, value) in &entries {
        let name = constant_name(key);
        if let Some(other) = names.insert(name.clone(), key.clone()) {
            panic!("locales/en.toml: keys {other} and {key} make the same constant {name}");
        }
        writeln!(table, "    ({key:?}, {value:?}),").unwrap();
        writeln!(keys, "    pub const {name}: &str = {key:?};").unwrap();
    }
    table.push_str("];\n");
    keys.push_str("}\n");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("catalog_en.rs");
    std::fs::write(out, table + &keys).expect("write the generated catalog");
}
