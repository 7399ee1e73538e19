//! What the model says, as data: a message is a catalog key with typed arguments.
//! The model never hands the UI English prose; the UI renders a [`Message`] through
//! its catalog, and [`Message`]'s `Display` renders the English template (for tests,
//! docs and the native tools).

use std::fmt;

/// A catalog entry the model may emit: its stable id and its English template.
/// Templates name their arguments in braces: `"{broker} left the ISR"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub id: &'static str,
    pub en: &'static str,
}

/// One argument of a message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// A whole number (a locale may group its digits).
    Int(i64),
    /// `units / 10^places` written with exactly `places` decimals (no float formatting).
    Decimal { units: i64, places: u8 },
    /// Text the model made that is not language (a key, a file name, a list of ids).
    Text(String),
    /// Kafka's own words, never translated: config names, error codes, CLI output,
    /// ConfigException messages.
    Kafka(String),
    /// Another message, rendered in the same language.
    Message(Box<Message>),
    /// A count (the `#` of a plural choice): written with the locale's digit grouping
    /// (`10,000`), unlike an offset or an id, which are never grouped.
    Count(i64),
    /// A span of simulated time in ms, written as a person says it (`9 s`, `2 min 05 s`).
    Duration(u64),
}

/// Unit words for [`write_duration`]: ms, s, min, h, d.
pub type DurationUnits<'a> = [&'a str; 5];

/// `ms` as a human duration (`350 ms`, `41.956 s`, `2 min 05 s`, `23 h 59 min`, `1 d`), with
/// `decimal` turning `41.956` into the locale's decimals.
pub fn write_duration(ms: u64, units: DurationUnits<'_>, decimal: &dyn Fn(&str) -> String) -> String {
    let [unit_ms, unit_s, unit_min, unit_h, unit_d] = units;
    let (s, m, h, d) = (1_000, 60_000, 3_600_000, 86_400_000);
    if ms < s {
        return format!("{ms} {unit_ms}");
    }
    if ms < m {
        let (whole, fraction) = (ms / s, ms % s);
        let text = if fraction == 0 {
            whole.to_string()
        } else {
            let digits = format!("{fraction:03}");
            decimal(&format!("{whole}.{}", digits.trim_end_matches('0')))
        };
        return format!("{text} {unit_s}");
    }
    let pair = |big: u64, big_unit: &str, small: u64, small_unit: &str| {
        if small == 0 {
            format!("{big} {big_unit}")
        } else {
            format!("{big} {big_unit} {small:02} {small_unit}")
        }
    };
    if ms < h {
        return pair(ms / m, unit_min, (ms % m) / s, unit_s);
    }
    if ms < d {
        return pair(ms / h, unit_h, (ms % h) / m, unit_min);
    }
    pair(ms / d, unit_d, (ms % d) / h, unit_h)
}

impl Arg {
    pub fn int(value: impl TryInto<i64>) -> Self {
        Arg::Int(value.try_into().unwrap_or(i64::MAX))
    }

    pub fn text(value: impl Into<String>) -> Self {
        Arg::Text(value.into())
    }

    pub fn kafka(value: impl Into<String>) -> Self {
        Arg::Kafka(value.into())
    }
}

/// A key with its arguments, ready for any locale's catalog.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Message {
    pub key: Key,
    pub args: Vec<(&'static str, Arg)>,
}

impl Message {
    pub fn new(key: Key) -> Self {
        Self { key, args: Vec::new() }
    }

    /// Adds one argument (builder style).
    pub fn with(mut self, name: &'static str, arg: Arg) -> Self {
        self.args.push((name, arg));
        self
    }
}

/// Anything the model reports to a person: facts in the event log and refusals.
pub trait Describe {
    fn message(&self) -> Message;
}

impl Describe for Message {
    fn message(&self) -> Message {
        self.clone()
    }
}

/// Writes a decimal argument without float formatting.
pub fn write_decimal<W: fmt::Write + ?Sized>(out: &mut W, units: i64, places: u8) -> fmt::Result {
    if places == 0 {
        return write!(out, "{units}");
    }
    let scale = 10i64.saturating_pow(u32::from(places));
    let sign = if units < 0 { "-" } else { "" };
    let magnitude = units.unsigned_abs();
    let scale = scale.unsigned_abs();
    write!(out, "{sign}{}.{:0width$}", magnitude / scale, magnitude % scale, width = usize::from(places))
}

/// A CLDR plural category.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plural {
    Zero,
    One,
    Two,
    Few,
    Many,
    Other,
}

impl Plural {
    /// The category's keyword in a template (`one`, `other`, …).
    pub fn keyword(self) -> &'static str {
        match self {
            Plural::Zero => "zero",
            Plural::One => "one",
            Plural::Two => "two",
            Plural::Few => "few",
            Plural::Many => "many",
            Plural::Other => "other",
        }
    }
}

/// English plural rules (CLDR: `one` for exactly 1, else `other`).
pub fn english_plural(n: i64) -> Plural {
    if n == 1 {
        Plural::One
    } else {
        Plural::Other
    }
}

/// Fills `template` with `args`, rendering arguments with `arg`. A hole is `{name}`, or a plural
/// choice in ICU MessageFormat style: `{count, plural, one {# record} other {# records}}`, where
/// `=N` picks an exact value, a category (`one`, `few`, …) comes from `plural`, `other` is the
/// fallback and `#` is the number as `arg` writes it. A `{name}` with no argument is left as it is,
/// so a missing argument shows.
pub fn fill<W: fmt::Write + ?Sized>(
    out: &mut W,
    template: &str,
    args: &[(&'static str, Arg)],
    plural: &dyn Fn(i64) -> Plural,
    arg: &mut dyn FnMut(&mut W, &Arg) -> fmt::Result,
) -> fmt::Result {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.write_str(&rest[..open])?;
        let Some(close) = matching_brace(&rest[open..]).map(|c| c + open) else {
            return out.write_str(&rest[open..]);
        };
        let hole = &rest[open + 1..close];
        match hole.split_once(',') {
            Some((name, choice)) if choice.trim_start().starts_with("plural") => {
                let value = find_arg(args, name.trim());
                let count = match value {
                    Some(Arg::Int(n) | Arg::Count(n)) => Some(*n),
                    Some(Arg::Decimal { units, places: 0 }) => Some(*units),
                    _ => None,
                };
                match (value, count) {
                    (Some(value), Some(count)) => {
                        let branches = choice.trim_start().trim_start_matches("plural").trim_start_matches([',', ' ']);
                        let branch = pick_branch(branches, count, plural(count));
                        write_branch(out, branch, value, args, plural, arg)?;
                    }
                    _ => write!(out, "{{{hole}}}")?,
                }
            }
            _ => match find_arg(args, hole) {
                Some(value) => arg(out, value)?,
                None => write!(out, "{{{hole}}}")?,
            },
        }
        rest = &rest[close + 1..];
    }
    out.write_str(rest)
}

fn find_arg<'a>(args: &'a [(&'static str, Arg)], name: &str) -> Option<&'a Arg> {
    args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
}

/// The index of the `}` closing the `{` at the start of `text`.
fn matching_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `one {# record} other {# records}` → the branch for `count` (exact `=N` first, then the category).
fn pick_branch(branches: &str, count: i64, category: Plural) -> &str {
    let mut rest = branches;
    let mut other = "";
    let mut by_category = None;
    while let Some(open) = rest.find('{') {
        let selector = rest[..open].trim();
        let Some(close) = matching_brace(&rest[open..]).map(|c| c + open) else { break };
        let body = &rest[open + 1..close];
        if selector.strip_prefix('=').and_then(|n| n.parse::<i64>().ok()) == Some(count) {
            return body;
        }
        if selector == category.keyword() {
            by_category = Some(body);
        }
        if selector == "other" {
            other = body;
        }
        rest = &rest[close + 1..];
    }
    by_category.unwrap_or(other)
}

fn write_branch<W: fmt::Write + ?Sized>(
    out: &mut W,
    branch: &str,
    value: &Arg,
    args: &[(&'static str, Arg)],
    plural: &dyn Fn(i64) -> Plural,
    arg: &mut dyn FnMut(&mut W, &Arg) -> fmt::Result,
) -> fmt::Result {
    let count = match value {
        Arg::Int(n) | Arg::Count(n) => Arg::Count(*n),
        other => other.clone(),
    };
    for (i, part) in branch.split('#').enumerate() {
        if i > 0 {
            arg(out, &count)?;
        }
        fill(out, part, args, plural, arg)?;
    }
    Ok(())
}

/// `n` with a separator every three digits from four digits up (`1,000`; `min_digits` 5 for
/// locales that leave four-digit numbers alone, such as Spanish).
pub fn group_digits(n: i64, separator: &str, min_digits: usize) -> String {
    let digits = n.unsigned_abs().to_string();
    let sign = if n < 0 { "-" } else { "" };
    if digits.len() < min_digits {
        return format!("{sign}{digits}");
    }
    let mut out = String::from(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(separator);
        }
        out.push(c);
    }
    out
}

fn english_arg<W: fmt::Write + ?Sized>(out: &mut W, arg: &Arg) -> fmt::Result {
    match arg {
        Arg::Int(value) => write!(out, "{value}"),
        Arg::Count(value) => out.write_str(&group_digits(*value, ",", 4)),
        Arg::Decimal { units, places } => write_decimal(out, *units, *places),
        Arg::Text(text) | Arg::Kafka(text) => out.write_str(text),
        Arg::Message(inner) => write!(out, "{inner}"),
        Arg::Duration(ms) => out.write_str(&write_duration(*ms, ["ms", "s", "min", "h", "d"], &|t| t.to_string())),
    }
}

/// The English rendering.
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fill(f, self.key.en, &self.args, &english_plural, &mut english_arg)
    }
}

/// Implements `Display` for types that [`Describe`] themselves: the English rendering of their message.
#[macro_export]
macro_rules! display_as_message {
    ($($t:ty),+ $(,)?) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", $crate::model::kernel::Describe::message(self))
            }
        }
    )+};
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEFT: Key =
        Key { id: "test.left", en: "broker-{broker} left the ISR of {partition} after {after} s ({why})" };
    const WHY: Key = Key { id: "test.why", en: "no fetch for {ms} ms" };

    #[test]
    fn english_fills_every_argument_and_nests_messages() {
        let message = Message::new(LEFT)
            .with("broker", Arg::int(2))
            .with("partition", Arg::text("orders-0"))
            .with("after", Arg::Decimal { units: 30_500, places: 3 })
            .with("why", Arg::Message(Box::new(Message::new(WHY).with("ms", Arg::int(30_000)))));
        assert_eq!(message.to_string(), "broker-2 left the ISR of orders-0 after 30.500 s (no fetch for 30000 ms)");
    }

    #[test]
    fn a_missing_argument_shows_its_name() {
        assert_eq!(Message::new(WHY).to_string(), "no fetch for {ms} ms");
    }

    #[test]
    fn plurals_pick_exact_values_then_the_category() {
        const RECORDS: Key = Key {
            id: "test.records",
            en: "{n, plural, =0 {no records} one {# record} other {# records}} on {partition}",
        };
        let render =
            |n: i64| Message::new(RECORDS).with("n", Arg::Int(n)).with("partition", Arg::text("p0")).to_string();
        assert_eq!(render(0), "no records on p0");
        assert_eq!(render(1), "1 record on p0");
        assert_eq!(render(2), "2 records on p0");
        assert_eq!(render(1_000_000), "1,000,000 records on p0", "a count is grouped");
    }

    #[test]
    fn a_plural_without_its_number_shows_the_hole() {
        const BAD: Key = Key { id: "test.bad", en: "{n, plural, one {# x} other {# xs}}" };
        assert_eq!(Message::new(BAD).to_string(), "{n, plural, one {# x} other {# xs}}");
    }

    #[test]
    fn decimals_need_no_floats() {
        let mut out = String::new();
        write_decimal(&mut out, -1_005, 3).unwrap();
        assert_eq!(out, "-1.005");
    }
}
