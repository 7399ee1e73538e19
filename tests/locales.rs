//! Every locale file has every key of English (interface and model) with exactly English's
//! holes, no empty text and no "(s)"; plurals parse; and every fact of every preset renders
//! in every locale with all its holes filled.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use kafka_lab::i18n::{self, format, Locale, LOCALES};
use kafka_lab::link::LinkState;
use kafka_lab::scenes::SCENES;

fn read(file: &str) -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = fs::read_to_string(&path).unwrap_or_else(|_| panic!("{file} is missing"));
    let entries = format::parse(&text).unwrap_or_else(|e| panic!("{file}, {e}"));
    let count = entries.len();
    let map: BTreeMap<String, String> = entries.into_iter().collect();
    assert_eq!(map.len(), count, "{file} defines a key twice");
    map
}

fn english() -> BTreeMap<String, String> {
    let mut all = read("locales/en.toml");
    all.extend(read("locales/en.model.toml"));
    all
}

/// The index just past the `}` that closes the `{` at `text[0]`.
fn closing(text: &str) -> Result<usize, String> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
    }
    Err("a { without its }".into())
}

/// The names of a text's holes, plural choices included (`{count, plural, one {# at {p}} …}`
/// names `count` and `p`); every plural has an `other` branch.
fn holes(text: &str) -> Result<BTreeSet<String>, String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err("a } without its {".into());
        }
        let end = open + closing(&rest[open..])?;
        let inner = &rest[open + 1..end - 1];
        match inner.split_once(',') {
            Some((name, choice)) if choice.trim_start().starts_with("plural") => {
                names.insert(name.trim().to_string());
                let mut branches = choice.trim_start().trim_start_matches("plural").trim_start_matches([',', ' ']);
                let mut has_other = false;
                while let Some(body_open) = branches.find('{') {
                    has_other |= branches[..body_open].trim() == "other";
                    let body_end = body_open + closing(&branches[body_open..])?;
                    names.extend(holes(&branches[body_open + 1..body_end - 1])?);
                    branches = &branches[body_end..];
                }
                if !has_other {
                    return Err("a plural without an `other` branch".into());
                }
            }
            _ => {
                names.insert(inner.trim().to_string());
            }
        }
        rest = &rest[end..];
    }
    Ok(names)
}

#[test]
fn holes_are_read_through_plural_choices() {
    let text = "{n, plural, =0 {none} one {# at {p}} other {# at {p}}} in {t}";
    let names: Vec<String> = holes(text).unwrap().into_iter().collect();
    assert_eq!(names, ["n", "p", "t"]);
    assert!(holes("{n, plural, one {#}}").is_err(), "no other branch");
    assert!(holes("a } b").is_err() && holes("{a").is_err());
}

fn translated_locales() -> Vec<Locale> {
    LOCALES.iter().copied().filter(|l| *l != Locale::En).collect()
}

#[test]
fn every_locale_has_every_key_with_englishs_holes() {
    let english = english();
    for (key, text) in &english {
        holes(text).unwrap_or_else(|why| panic!("en {key}: {why}"));
        assert!(!text.contains("(s)") && !text.contains("(es)"), "en {key} has a (s): {text}");
    }
    for locale in translated_locales() {
        let file = format!("locales/{}", locale.file().expect("a file"));
        let texts = read(&file);
        let missing: Vec<&String> = english.keys().filter(|k| !texts.contains_key(*k)).collect();
        let extra: Vec<&String> = texts.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing.is_empty() && extra.is_empty(), "{file}: missing {missing:?}, unknown {extra:?}");
        for (key, text) in &texts {
            // Empty only where English is empty on purpose (a fragment that adds nothing).
            assert_eq!(text.trim().is_empty(), english[key].is_empty(), "{file} {key}: empty or not as English");
            assert!(!text.contains('\u{200b}'), "{file} {key}: no invisible characters");
            assert!(!text.contains("(s)"), "{file} {key} has a (s)");
            let theirs = holes(text).unwrap_or_else(|why| panic!("{file} {key}: {why}"));
            let ours = holes(&english[key]).expect("checked above");
            assert_eq!(theirs, ours, "{file} {key}: holes differ from English");
        }
    }
}

#[test]
fn every_fact_of_every_preset_renders_in_every_locale() {
    // One test walks the locales in turn: the active locale is global to the process.
    for locale in LOCALES.iter().copied() {
        let entries =
            locale.file().map(|file| read(&format!("locales/{file}")).into_iter().collect()).unwrap_or_default();
        i18n::activate(locale, entries);
        for scene in SCENES {
            for preset in (scene.presets)() {
                let link = LinkState {
                    scene: Some(scene.id.to_string()),
                    preset: Some(preset.id.to_string()),
                    ..Default::default()
                };
                for line in (scene.rendered)(&link) {
                    let open = line.find('{');
                    assert!(open.is_none(), "{} {}/{}: {line}", locale.tag(), scene.id, preset.id);
                }
            }
        }
    }
    i18n::activate(Locale::En, Vec::new());
}
