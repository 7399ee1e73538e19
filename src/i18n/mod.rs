//! The message catalog: every user-facing string, looked up by key, so the
//! course notes' languages can be added beside English.
//!
//! Each scene owns one table per locale; a key's first segment names the scene.

use crate::model::kernel::{english_plural, fill, write_decimal, Arg, Key, Message};

mod en_groups;
mod en_log;
mod en_overview;
mod en_partitioner;
mod en_replication;
mod en_shell;
mod en_timer;

/// A language of the catalog. English is complete; others fall back to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Locale {
    #[default]
    En,
}

/// Every English table (shell first, then one per scene).
pub const EN_TABLES: &[&[(&str, &str)]] = &[
    en_shell::MESSAGES,
    en_overview::MESSAGES,
    en_log::MESSAGES,
    en_replication::MESSAGES,
    en_groups::MESSAGES,
    en_partitioner::MESSAGES,
    en_timer::MESSAGES,
];

/// The text for `key`, or the key itself when it is missing (a test keeps none missing).
pub fn t(key: &'static str) -> &'static str {
    lookup(Locale::En, key).unwrap_or(key)
}

/// The text for `key` with its holes filled: a value that is a whole number can drive a
/// plural choice (`{count, plural, one {# record} other {# records}}`).
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

/// Renders a model message (a fact, a refusal) in the current locale: the catalog's
/// text for its key, else the model's English template, with its arguments filled.
pub fn render(message: &Message) -> String {
    let mut out = String::new();
    let template = lookup(Locale::En, message.key.id).unwrap_or(message.key.en);
    let _ = fill(&mut out, template, &message.args, &english_plural, &mut |out: &mut String, arg: &Arg| {
        match arg {
            Arg::Int(value) => out.push_str(&value.to_string()),
            Arg::Decimal { units, places } => {
                let _ = write_decimal(out, *units, *places);
            }
            Arg::Text(text) | Arg::Kafka(text) => out.push_str(text),
            Arg::Message(inner) => out.push_str(&render(inner)),
        }
        Ok(())
    });
    out
}

/// A message made from one of the UI's own catalog keys.
pub fn message(key: &'static str) -> Message {
    Message::new(Key { id: key, en: t(key) })
}

pub fn lookup(locale: Locale, key: &str) -> Option<&'static str> {
    let tables = match locale {
        Locale::En => EN_TABLES,
    };
    tables.iter().flat_map(|table| table.iter()).find(|(k, _)| *k == key).map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_texts_non_empty() {
        let mut keys: Vec<&str> = EN_TABLES.iter().flat_map(|t| t.iter()).map(|(k, _)| *k).collect();
        let total = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), total, "a message key is defined twice");
        for (key, text) in EN_TABLES.iter().flat_map(|t| t.iter()) {
            assert!(!text.trim().is_empty(), "{key} has no text");
        }
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(tf("shell.position", &[("position", "3"), ("total", "9")]), "step 3 of 9");
    }
}
