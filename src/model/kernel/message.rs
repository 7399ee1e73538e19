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

    /// Milliseconds written as seconds with three decimals (`9000` → `9.000`).
    pub fn seconds3(ms: u64) -> Self {
        Arg::Decimal { units: i64::try_from(ms).unwrap_or(i64::MAX), places: 3 }
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

    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
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

/// Fills `template` with `args`, rendering nested messages and arguments with `arg`.
/// A `{name}` with no argument is left as it is, so a missing argument shows.
pub fn fill<W: fmt::Write + ?Sized>(
    out: &mut W,
    template: &str,
    args: &[(&'static str, Arg)],
    mut arg: impl FnMut(&mut W, &Arg) -> fmt::Result,
) -> fmt::Result {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.write_str(&rest[..open])?;
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match args.iter().find(|(n, _)| *n == name) {
                    Some((_, value)) => arg(out, value)?,
                    None => write!(out, "{{{name}}}")?,
                }
                rest = &after[close + 1..];
            }
            None => {
                out.write_str(&rest[open..])?;
                rest = "";
            }
        }
    }
    out.write_str(rest)
}

fn english_arg<W: fmt::Write + ?Sized>(out: &mut W, arg: &Arg) -> fmt::Result {
    match arg {
        Arg::Int(value) => write!(out, "{value}"),
        Arg::Decimal { units, places } => write_decimal(out, *units, *places),
        Arg::Text(text) | Arg::Kafka(text) => out.write_str(text),
        Arg::Message(inner) => write!(out, "{inner}"),
    }
}

/// The English rendering.
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fill(f, self.key.en, &self.args, english_arg)
    }
}

/// Declares a scene's message keys: `messages! { pub TABLE; NAME = "id" => "English template"; … }`
/// makes one `pub const NAME: Key` per line and `TABLE`, the list of all of them (for the catalog).
#[macro_export]
macro_rules! messages {
    ($vis:vis $table:ident; $($name:ident = $id:literal => $en:literal;)*) => {
        $(#[allow(missing_docs)] $vis const $name: $crate::model::kernel::Key =
            $crate::model::kernel::Key { id: $id, en: $en };)*
        /// Every key above, for the catalog and its tests.
        $vis const $table: &[$crate::model::kernel::Key] = &[$($name),*];
    };
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
            .with("after", Arg::seconds3(30_500))
            .with("why", Arg::Message(Box::new(Message::new(WHY).with("ms", Arg::int(30_000)))));
        assert_eq!(message.to_string(), "broker-2 left the ISR of orders-0 after 30.500 s (no fetch for 30000 ms)");
    }

    #[test]
    fn a_missing_argument_shows_its_name() {
        assert_eq!(Message::new(WHY).to_string(), "no fetch for {ms} ms");
    }

    #[test]
    fn decimals_need_no_floats() {
        let mut out = String::new();
        write_decimal(&mut out, -1_005, 3).unwrap();
        assert_eq!(out, "-1.005");
    }
}
