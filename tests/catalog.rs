//! Every string the UI shows comes from the message catalog: no key is missing.

use std::fs;
use std::path::Path;

use kafka_lab::i18n::lookup_english;
use kafka_lab::scenes::SCENES;

/// Every string literal in `dir`'s Rust files that names an interface key.
fn literal_keys_in(dir: &Path, found: &mut Vec<String>) {
    for entry in fs::read_dir(dir).expect("readable dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            literal_keys_in(&path, found);
            continue;
        }
        let text = fs::read_to_string(&path).expect("readable file");
        for (i, piece) in text.split('"').enumerate() {
            if i % 2 == 1 && lookup_english(piece).is_some() {
                found.push(format!("{}: \"{piece}\"", path.display()));
            }
        }
    }
}

#[test]
fn the_ui_names_interface_texts_by_their_checked_constants() {
    // `i18n::key::SHELL_TITLE` is generated from locales/en.toml, so a mistyped key does not
    // compile; a key written as a string literal would escape that check.
    let mut found = Vec::new();
    literal_keys_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui"), &mut found);
    assert!(found.is_empty(), "use i18n::key constants instead: {found:?}");
}

#[test]
fn every_scene_and_preset_title_has_an_english_text() {
    for scene in SCENES {
        assert!(lookup_english(scene.title_key).is_some(), "{}", scene.title_key);
        for preset in (scene.presets)() {
            assert!(lookup_english(preset.title_key).is_some(), "{}", preset.title_key);
        }
    }
}

#[test]
fn every_preset_of_every_scene_builds_from_its_link_parts() {
    for scene in SCENES {
        for preset in (scene.presets)() {
            (scene.replay)(preset).unwrap_or_else(|why| panic!("{}/{}: {why}", scene.id, preset.id));
        }
    }
}

/// A `{name}` left in a rendered line means a fact forgot one of its template's arguments.
fn unfilled_placeholder(line: &str) -> Option<&str> {
    let open = line.find('{')?;
    let close = line[open..].find('}')? + open;
    let name = &line[open + 1..close];
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')).then_some(&line[open..=close])
}

#[test]
fn every_fact_of_every_preset_renders_with_all_its_arguments() {
    for scene in SCENES {
        for preset in (scene.presets)() {
            let link = kafka_lab::link::LinkState {
                scene: Some(scene.id.to_string()),
                preset: Some(preset.id.to_string()),
                ..Default::default()
            };
            let start = (scene.transcript)(&link).unwrap_or_else(|why| panic!("{}/{}: {why}", scene.id, preset.id));
            // The whole story: from its start to the end of its tape.
            let link = kafka_lab::link::LinkState { position: Some(start.tape_len), ..link };
            let run = (scene.transcript)(&link).unwrap_or_else(|why| panic!("{}/{}: {why}", scene.id, preset.id));
            assert!(!run.lines.is_empty() || run.now_ms > 0, "{}/{} shows nothing", scene.id, preset.id);
            for line in &run.lines {
                assert_eq!(unfilled_placeholder(line), None, "{}/{}: {line}", scene.id, preset.id);
            }
        }
    }
}

#[test]
fn every_message_key_is_declared_once_across_the_interface_and_the_model() {
    let mut ids: Vec<&str> = kafka_lab::i18n::english_entries().map(|(k, _)| k).collect();
    ids.extend(kafka_lab::model::MESSAGE_TABLES.iter().flat_map(|t| t.iter()).map(|k| k.id));
    ids.extend(kafka_lab::link::LINK_KEYS.iter().map(|k| k.id));
    let total = ids.len();
    ids.sort_unstable();
    let mut twice: Vec<&str> = ids.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect();
    twice.dedup();
    assert!(twice.is_empty(), "declared twice: {twice:?}");
    assert!(total > 800, "{total} keys");
}

/// The model's English templates as a catalog file, for translators (the templates live in Rust).
fn model_reference() -> String {
    let mut out = String::from(
        "# Kafka Lab: English texts of the model (event-log facts, refusals, actors, link errors).\n\
         # Generated from the templates in src/model and src/link.rs: do not edit; change a template and run\n\
         # UPDATE_LOCALES=1 cargo test --test catalog. Translate these keys in locales/<locale>.toml too.\n",
    );
    let tables = kafka_lab::model::MESSAGE_TABLES.iter().copied().chain([kafka_lab::link::LINK_KEYS]);
    let mut section = "";
    for key in tables.flat_map(|t| t.iter()) {
        let first = key.id.split('.').next().unwrap_or("");
        if first != section {
            out.push_str(&format!("\n# {first}\n"));
            section = first;
        }
        out.push_str(&kafka_lab::i18n::format::line(key.id, key.en));
        out.push('\n');
    }
    out
}

#[test]
fn the_model_reference_file_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/en.model.toml");
    let now = model_reference();
    if std::env::var_os("UPDATE_LOCALES").is_some() {
        fs::write(&path, &now).expect("write locales/en.model.toml");
    }
    let file = fs::read_to_string(&path).unwrap_or_default();
    assert!(file == now, "locales/en.model.toml is stale: run UPDATE_LOCALES=1 cargo test --test catalog");
}
