//! The input tape as text, for links: `s12` is 12 steps, `w250x8` is 8 waits of
//! 250 ms, and any other token is a scene command (e.g. `kill-2`), joined by `.`.

use super::message::{Arg, Describe, Message};
use super::token::{parse_number, TokenError};
use super::Input;

/// The longest wait one token may ask for (an hour).
pub const MAX_WAIT_MS: u64 = 3_600_000;

/// Why a tape's text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TapeError {
    /// Token number `index` (from 1) is wrong.
    Token { index: usize, token: String, why: TokenError },
    /// The tape asks for more than [`MAX_TAPE_INPUTS`] inputs.
    TooLong { max: usize },
}

crate::messages! {
    pub TAPE_KEYS;
    TAPE_TOKEN = "link.tape.token" => "action {index} (\"{token}\"): {why}";
    TAPE_TOO_LONG = "link.tape.long" => "the link replays more than {max, plural, one {# step} other {# steps}}";
}

impl Describe for TapeError {
    fn message(&self) -> Message {
        match self {
            TapeError::Token { index, token, why } => Message::new(TAPE_TOKEN)
                .with("index", Arg::int(*index))
                .with("token", Arg::text(token.clone()))
                .with("why", Arg::Message(Box::new(why.message()))),
            TapeError::TooLong { max } => Message::new(TAPE_TOO_LONG).with("max", Arg::int(*max)),
        }
    }
}

/// The most inputs a link may ask to replay, so a hostile link cannot hang the page.
pub const MAX_TAPE_INPUTS: usize = 200_000;

/// How a scene writes its commands into a link and reads them back.
pub trait CommandCodec {
    type Command;
    fn encode(command: &Self::Command) -> String;
    fn decode(token: &str) -> Result<Self::Command, TokenError>;
}

/// Writes a tape compactly (runs of equal steps and waits are counted).
pub fn encode_tape<C: PartialEq, K: CommandCodec<Command = C>>(tape: &[Input<C>]) -> String {
    let mut tokens: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tape.len() {
        let run = tape[i..].iter().take_while(|input| **input == tape[i]).count();
        match &tape[i] {
            Input::Step => tokens.push(format!("s{run}")),
            Input::Advance(ms) if run > 1 => tokens.push(format!("w{ms}x{run}")),
            Input::Advance(ms) => tokens.push(format!("w{ms}")),
            Input::Command(command) => {
                tokens.extend(std::iter::repeat_n(K::encode(command), run));
            }
        }
        i += run;
    }
    tokens.join(".")
}

/// Reads a tape back; says which token is wrong and why. Counts are checked
/// before anything is allocated, so a huge count cannot exhaust memory.
pub fn decode_tape<C: Clone, K: CommandCodec<Command = C>>(text: &str) -> Result<Vec<Input<C>>, TapeError> {
    let mut tape = Vec::new();
    for (index, token) in text.split('.').filter(|t| !t.is_empty()).enumerate() {
        let at = |why: TokenError| TapeError::Token { index: index + 1, token: token.to_string(), why };
        let (input, count) = decode_token::<C, K>(token).map_err(at)?;
        if tape.len().checked_add(count).is_none_or(|total| total > MAX_TAPE_INPUTS) {
            return Err(TapeError::TooLong { max: MAX_TAPE_INPUTS });
        }
        tape.extend(std::iter::repeat_n(input, count));
    }
    Ok(tape)
}

fn decode_token<C, K: CommandCodec<Command = C>>(token: &str) -> Result<(Input<C>, usize), TokenError> {
    if let Some(count) = token.strip_prefix('s').filter(|rest| rest.chars().all(|c| c.is_ascii_digit())) {
        return Ok((Input::Step, parse_number(count)?));
    }
    if let Some(rest) = token.strip_prefix('w').filter(|r| r.starts_with(|c: char| c.is_ascii_digit())) {
        let (ms, count) = rest.split_once('x').unwrap_or((rest, "1"));
        let ms: u64 = parse_number(ms)?;
        if ms == 0 || ms > MAX_WAIT_MS {
            return Err(TokenError::WaitOutOfRange { max_ms: MAX_WAIT_MS });
        }
        return Ok((Input::Advance(ms), parse_number(count)?));
    }
    Ok((Input::Command(K::decode(token)?), 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Words;
    impl CommandCodec for Words {
        type Command = String;
        fn encode(command: &String) -> String {
            command.clone()
        }
        fn decode(token: &str) -> Result<String, TokenError> {
            if token.starts_with("kill-") {
                Ok(token.to_string())
            } else {
                Err(TokenError::UnknownAction { token: token.into(), grammar: "kill-B" })
            }
        }
    }

    #[test]
    fn tape_round_trips_through_text() {
        let tape = vec![
            Input::Step,
            Input::Step,
            Input::Advance(250),
            Input::Advance(250),
            Input::Command("kill-2".to_string()),
            Input::Step,
        ];
        let text = encode_tape::<_, Words>(&tape);
        assert_eq!(text, "s2.w250x2.kill-2.s1");
        assert_eq!(decode_tape::<_, Words>(&text).unwrap(), tape);
    }

    #[test]
    fn bad_tokens_and_huge_tapes_are_refused_with_the_reason() {
        assert_eq!(
            decode_tape::<_, Words>("s1.explode").unwrap_err().to_string(),
            "action 2 (\"explode\"): unknown action \"explode\"; this scene knows kill-B"
        );
        assert_eq!(decode_tape::<_, Words>("s999999999").unwrap_err(), TapeError::TooLong { max: MAX_TAPE_INPUTS });
        assert!(decode_tape::<_, Words>("s1.s18446744073709551615").is_err());
        assert!(decode_tape::<_, Words>("w0").is_err());
    }
}

crate::display_as_message!(TapeError);
