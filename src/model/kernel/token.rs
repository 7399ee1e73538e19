//! One codec for the action tokens of links (`kill-2`, `pause-3-5000`, `cut-c-1`):
//! a verb and its arguments joined by `-`, with uniform refusals.

use super::message::{Arg, Describe, Message};

/// Why a link's token could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenError {
    /// No verb of this scene matches; `grammar` lists what the scene knows.
    UnknownAction { token: String, grammar: &'static str },
    /// An argument that must be a whole number (in range for its kind) is not.
    NotANumber { text: String },
    /// A node argument is neither a broker id nor `c` (controller) or `p` (producer).
    NotANode { text: String },
    /// A wait token outside the allowed range.
    WaitOutOfRange { max_ms: u64 },
    /// The scene read the verb but refuses its argument, with its own reason.
    Refused { token: String, why: Message },
}

crate::messages! {
    pub TOKEN_KEYS;
    UNKNOWN_ACTION = "link.token.unknown" => "unknown action \"{token}\"; this scene knows {grammar}";
    NOT_A_NUMBER = "link.token.number" => "\"{text}\" is not a whole number";
    NOT_A_NODE = "link.token.node" => "\"{text}\" is not a node (a broker id, c or p)";
    WAIT_RANGE = "link.token.wait" => "a wait is 1 to {max} ms";
    REFUSED = "link.token.refused" => "\"{token}\": {why}";
}

impl Describe for TokenError {
    fn message(&self) -> Message {
        match self {
            TokenError::UnknownAction { token, grammar } => Message::new(UNKNOWN_ACTION)
                .with("token", Arg::text(token.clone()))
                .with("grammar", Arg::kafka(*grammar)),
            TokenError::NotANumber { text } => Message::new(NOT_A_NUMBER).with("text", Arg::text(text.clone())),
            TokenError::NotANode { text } => Message::new(NOT_A_NODE).with("text", Arg::text(text.clone())),
            TokenError::WaitOutOfRange { max_ms } => Message::new(WAIT_RANGE).with("max", Arg::int(*max_ms)),
            TokenError::Refused { token, why } => Message::new(REFUSED)
                .with("token", Arg::text(token.clone()))
                .with("why", Arg::Message(Box::new(why.clone()))),
        }
    }
}

/// A token split into its verb and `-`-separated arguments.
#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    text: &'a str,
    verb: &'a str,
    rest: &'a str,
}

impl<'a> Token<'a> {
    pub fn parse(text: &'a str) -> Self {
        let (verb, rest) = text.split_once('-').unwrap_or((text, ""));
        Self { text, verb, rest }
    }

    pub fn verb(&self) -> &'a str {
        self.verb
    }

    /// Everything after the verb, unsplit (for free text such as a label or a hex key).
    pub fn rest(&self) -> &'a str {
        self.rest
    }

    /// The arguments after the verb.
    pub fn args(&self) -> Vec<&'a str> {
        if self.rest.is_empty() {
            Vec::new()
        } else {
            self.rest.split('-').collect()
        }
    }

    /// Argument `index` as a whole number of type `T`.
    pub fn number<T: std::str::FromStr>(&self, index: usize) -> Result<T, TokenError> {
        let text = self.args().get(index).copied().unwrap_or("");
        parse_number(text)
    }

    /// The refusal for a token whose verb is known but whose argument the scene refuses.
    pub fn refused(&self, why: &impl Describe) -> TokenError {
        TokenError::Refused { token: self.text.to_string(), why: why.message() }
    }

    /// The refusal for a token no verb matches.
    pub fn unknown(&self, grammar: &'static str) -> TokenError {
        TokenError::UnknownAction { token: self.text.to_string(), grammar }
    }
}

/// A whole number of type `T` (digits only: no sign, no spaces).
pub fn parse_number<T: std::str::FromStr>(text: &str) -> Result<T, TokenError> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse::<T>().ok()).flatten().ok_or_else(|| TokenError::NotANumber { text: text.to_string() })
}

/// A whole number that may be negative (`-1`): an optional `-`, then digits.
pub fn parse_signed(text: &str) -> Result<i64, TokenError> {
    let magnitude = text.strip_prefix('-').unwrap_or(text);
    let value: i64 = parse_number(magnitude).map_err(|_| TokenError::NotANumber { text: text.to_string() })?;
    Ok(if text.starts_with('-') { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_a_verb_and_numbers() {
        let token = Token::parse("pause-3-5000");
        assert_eq!(token.verb(), "pause");
        assert_eq!(token.number::<u32>(0), Ok(3));
        assert_eq!(token.number::<u64>(1), Ok(5000));
        assert_eq!(token.number::<u64>(2), Err(TokenError::NotANumber { text: String::new() }));
    }

    #[test]
    fn numbers_are_digits_that_fit() {
        assert_eq!(parse_number::<u32>("+5").unwrap_err().to_string(), "\"+5\" is not a whole number");
        assert!(parse_number::<u32>("4294967296").is_err());
        assert_eq!(parse_signed("-1"), Ok(-1));
        assert_eq!(parse_signed("42"), Ok(42));
        assert!(parse_signed("--1").is_err() && parse_signed("-").is_err());
        assert_eq!(
            Token::parse("explode-1").unknown("kill-B").to_string(),
            "unknown action \"explode-1\"; this scene knows kill-B"
        );
    }
}

crate::display_as_message!(TokenError);
