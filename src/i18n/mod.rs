//! The message catalog: every user-facing text, looked up by key in the active locale.
//!
//! English is `locales/en.toml` (interface) and the model's own templates (facts, refusals),
//! compiled in natively (tests, tools). In the browser every locale, English too, is one file per
//! bundle, `locales/<bundle>-<version>/<locale>.toml`, which the page fetches before it first
//! draws, so a translated page carries no English; there the keys are short ids
//! (`catalog_key!`). Lookup is a binary search in a sorted table (a few hundred keys: a dozen
//! comparisons), which links far less wasm than a hash map and its hasher.

use std::sync::{OnceLock, RwLock};

use crate::model::kernel::sorted::SortedMap;
use crate::model::kernel::{fill, write_decimal, Arg, Key, Message};

mod duration;
pub mod format;
mod locale;
mod plural;

pub use locale::{Locale, LOCALES};
pub use plural::plural_category;

/// `ms` as a human duration in the active locale (`2 min 05 s`).
pub fn duration(ms: u64) -> String {
    duration::duration(current_locale(), ms)
}

include!(concat!(env!("OUT_DIR"), "/catalog_en.rs"));

/// The active locale and its texts (leaked once per load: a handful of KB, kept for the page).
struct Active {
    locale: Locale,
    texts: SortedMap<&'static str, &'static str>,
}

fn active() -> &'static RwLock<Active> {
    static ACTIVE: OnceLock<RwLock<Active>> = OnceLock::new();
    ACTIVE.get_or_init(|| RwLock::new(Active { locale: Locale::En, texts: SortedMap::new() }))
}

/// The English tables: natively all of them. The browser's build links none: a page reads
/// English from its locale file (`locales/<bundle>-<version>/en.toml`) like any other language.
type Tables = &'static [&'static [(&'static str, &'static str)]];

fn tables() -> Tables {
    #[cfg(target_arch = "wasm32")]
    return &[];
    #[cfg(not(target_arch = "wasm32"))]
    EN_ALL
}

/// Every interface key and its English text (of the tables this page uses).
pub fn english_entries() -> impl Iterator<Item = (&'static str, &'static str)> {
    tables().iter().flat_map(|table| table.iter().copied())
}

fn english() -> &'static SortedMap<&'static str, &'static str> {
    static ENGLISH: OnceLock<SortedMap<&'static str, &'static str>> = OnceLock::new();
    ENGLISH.get_or_init(|| english_entries().collect())
}

/// The locale texts are shown in.
pub fn current_locale() -> Locale {
    active().read().map(|a| a.locale).unwrap_or_default()
}

/// Makes `locale` the active one with the texts of its file (`entries`); English for the rest.
pub fn activate(locale: Locale, entries: Vec<(String, String)>) {
    let texts =
        entries.into_iter().map(|(k, v)| (&*Box::leak(k.into_boxed_str()), &*Box::leak(v.into_boxed_str()))).collect();
    if let Ok(mut active) = active().write() {
        *active = Active { locale, texts };
    }
}

/// The text for `key` in the active locale, English if it has none, the key itself if unknown.
pub fn t(key: &'static str) -> &'static str {
    lookup(key).unwrap_or(key)
}

/// The active locale's text for `key`, else English's. Keys are `'static`: each is a literal the
/// code names (`key::*`, the model's `messages!`), never put together at run time, which is how
/// the site gives a page's locale file only the keys its wasm holds (scripts/site.mjs).
pub fn lookup(key: &'static str) -> Option<&'static str> {
    let translated = active().read().ok().and_then(|a| a.texts.get(key).copied());
    translated.or_else(|| english().get(key).copied())
}

/// English's own text for `key` (tests and the English reference file).
pub fn lookup_english(key: &str) -> Option<&'static str> {
    english().get(key).copied()
}

/// The text for `key` with its holes filled: a value that is a whole number can drive a
/// plural choice (`{count, plural, one {# record} other {# records}}`) and is grouped as the
/// locale writes numbers.
pub fn tf(key: &'static str, args: &[(&'static str, &str)]) -> String {
    let args = args
        .iter()
        .map(|(name, value)| {
            // Only a canonical whole number (no leading zeros, no sign) counts: "007" stays text.
            let number = value.parse::<i64>().ok().filter(|n| n.to_string() == *value);
            let arg = number.map_or_else(|| Arg::text(*value), Arg::Int);
            (*name, arg)
        })
        .collect();
    render(&Message { key: Key { id: key, en: t(key) }, args })
}

/// A model key's text in the active locale: the catalog's, else the model's English template
/// (natively; the site's wasm has none and reads English from its locale file), else its id.
pub fn template(key: &Key) -> &'static str {
    lookup(key.id).or((!key.en.is_empty()).then_some(key.en)).unwrap_or(key.id)
}

/// Renders a model message (a fact, a refusal) in the active locale: its key's [`template`]
/// with its arguments filled.
pub fn render(message: &Message) -> String {
    let locale = current_locale();
    let template = template(&message.key);
    let mut out = String::new();
    let plural = move |n: i64| plural_category(locale, n);
    let _ = fill(&mut out, template, &message.args, &plural, &mut |out: &mut String, arg: &Arg| {
        write_arg(out, arg, locale);
        Ok(())
    });
    out
}

/// Like [`render`], as markup: Kafka's own words (config names, error codes, CLI output) are
/// wrapped in `<span translate="no">` so a browser's translator leaves them as Kafka writes them.
pub fn render_html(message: &Message) -> crate::markup::Html {
    let locale = current_locale();
    let template = template(&message.key);
    let mut out = crate::markup::Html::new();
    let plural = move |n: i64| plural_category(locale, n);
    let mut text = String::new();
    let _ = fill(&mut text, template, &message.args, &plural, &mut |text: &mut String, arg: &Arg| {
        match arg {
            Arg::Kafka(words) => {
                out.push_text(text);
                text.clear();
                crate::html!(out, "<span translate=\"no\">{}</span>", words);
            }
            Arg::Message(inner) => {
                out.push_text(text);
                text.clear();
                out.push(&render_html(inner));
            }
            other => write_arg(text, other, locale),
        }
        Ok(())
    });
    out.push_text(&text);
    out
}

/// One argument of a model message alone (a figure the notebook picks from an answer), in the
/// active locale.
pub fn render_arg(arg: &Arg) -> String {
    let mut out = String::new();
    write_arg(&mut out, arg, current_locale());
    out
}

fn write_arg(out: &mut String, arg: &Arg, locale: Locale) {
    match arg {
        Arg::Int(value) => out.push_str(&value.to_string()),
        Arg::Count(value) => out.push_str(&locale.count(*value)),
        Arg::Decimal { units, places } => {
            let mut text = String::new();
            let _ = write_decimal(&mut text, *units, *places);
            out.push_str(&locale.decimal(&text));
        }
        Arg::Text(text) | Arg::Kafka(text) => out.push_str(text),
        Arg::Message(inner) => out.push_str(&render(inner)),
        Arg::Duration(ms) => out.push_str(&duration::duration(locale, *ms)),
    }
}

/// A message made from one of the UI's own catalog keys.
pub fn message(key: &'static str) -> Message {
    Message::new(Key { id: key, en: t(key) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_texts_non_empty() {
        let mut keys: Vec<&str> = english_entries().map(|(k, _)| k).collect();
        let total = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), total, "a message key is defined twice");
        for (key, text) in english_entries() {
            assert!(!text.trim().is_empty(), "{key} has no text");
        }
    }

    #[test]
    fn kafkas_own_words_are_marked_not_to_translate_and_text_is_escaped() {
        const KEY: Key = Key { id: "test.kafka", en: "<b> {name} & {code}" };
        let message =
            Message::new(KEY).with("name", Arg::text("a<b")).with("code", Arg::kafka("NOT_LEADER_OR_FOLLOWER"));
        assert_eq!(
            render_html(&message).as_str(),
            "&lt;b&gt; a&lt;b &amp; <span translate=\"no\">NOT_LEADER_OR_FOLLOWER</span>"
        );
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(tf(key::SHELL_POSITION, &[("position", "3"), ("total", "9")]), "step 3 of 9");
    }
}
