//! The catalog file format: a plain TOML subset, one `"key" = "text"` entry a line,
//! `#` comments and blank lines, basic-string escapes (`\"`, `\\`, `\n`, `\t`, `\uXXXX`).
//! Translators edit `locales/<locale>.toml`; `build.rs`, the app and the tests all read
//! them with this one parser.

/// One entry of a catalog file: key and text.
pub type Entry = (String, String);

/// Why a catalog file cannot be read: the line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub line: usize,
    pub why: &'static str,
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

/// Reads a catalog file's entries in file order.
pub fn parse(text: &str) -> Result<Vec<Entry>, FormatError> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why| FormatError { line: index + 1, why };
        let (key, rest) = quoted(line).ok_or(at("expected a quoted key"))?;
        let rest = rest.trim_start().strip_prefix('=').ok_or(at("expected = after the key"))?;
        let (value, rest) = quoted(rest.trim_start()).ok_or(at("expected a quoted text after ="))?;
        let rest = rest.trim_start();
        if !(rest.is_empty() || rest.starts_with('#')) {
            return Err(at("unexpected characters after the text"));
        }
        entries.push((key, value));
    }
    Ok(entries)
}

/// A TOML basic string at the start of `text`: its value and what follows it.
fn quoted(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => match chars.next()?.1 {
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = (0..4).filter_map(|_| chars.next().map(|(_, h)| h)).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                _ => return None,
            },
            _ => out.push(c),
        }
    }
    None
}

/// Writes one entry as a line (the inverse of [`parse`]).
pub fn line(key: &str, text: &str) -> String {
    format!("\"{}\" = \"{}\"", escape(key), escape(text))
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_with_escapes_and_comments() {
        let text = format!("# a comment\n\n{}\n{}  # why\n", line("a.b", "say \"hi\" \\ {n}"), line("c", "ü → 分区"));
        let entries = parse(&text).unwrap();
        assert_eq!(entries, vec![("a.b".into(), "say \"hi\" \\ {n}".into()), ("c".into(), "ü → 分区".into())]);
        assert_eq!(parse("\"k\" = \"\\u00e9\"").unwrap()[0].1, "é");
    }

    #[test]
    fn a_broken_line_is_named() {
        assert_eq!(
            parse("\"ok\" = \"x\"\nkey = \"x\"").unwrap_err(),
            FormatError { line: 2, why: "expected a quoted key" }
        );
        assert_eq!(parse("\"k\" = \"open").unwrap_err().line, 1);
        assert_eq!(parse("\"k\" \"v\"").unwrap_err().why, "expected = after the key");
    }
}
