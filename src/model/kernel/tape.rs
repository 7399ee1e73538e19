//! The input tape as text, for links: `s12` is 12 steps, `w250x8` is 8 waits of
//! 250 ms, and any other token is a scene command (e.g. `kill-2`), joined by `.`.

use super::Input;

/// The most inputs a link may ask to replay, so a hostile link cannot hang the page.
pub const MAX_TAPE_INPUTS: usize = 200_000;

/// How a scene writes its commands into a link and reads them back.
pub trait CommandCodec {
    type Command;
    fn encode(command: &Self::Command) -> String;
    fn decode(token: &str) -> Result<Self::Command, String>;
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

/// Reads a tape back; says which token is wrong and why.
pub fn decode_tape<C: Clone, K: CommandCodec<Command = C>>(text: &str) -> Result<Vec<Input<C>>, String> {
    let mut tape = Vec::new();
    for (index, token) in text.split('.').filter(|t| !t.is_empty()).enumerate() {
        let at = |why: String| format!("action {} (\"{token}\"): {why}", index + 1);
        let (input, count) = decode_token::<C, K>(token).map_err(at)?;
        if tape.len() + count > MAX_TAPE_INPUTS {
            return Err(format!("the link replays more than {MAX_TAPE_INPUTS} steps"));
        }
        tape.extend(std::iter::repeat_n(input, count));
    }
    Ok(tape)
}

fn decode_token<C, K: CommandCodec<Command = C>>(token: &str) -> Result<(Input<C>, usize), String> {
    let number = |s: &str| s.parse::<usize>().map_err(|_| format!("\"{s}\" is not a whole number"));
    if let Some(count) = token.strip_prefix('s').filter(|rest| rest.chars().all(|c| c.is_ascii_digit())) {
        return Ok((Input::Step, number(count)?));
    }
    if let Some(rest) = token.strip_prefix('w').filter(|r| r.starts_with(|c: char| c.is_ascii_digit())) {
        let (ms, count) = rest.split_once('x').unwrap_or((rest, "1"));
        let ms = number(ms)? as u64;
        if ms == 0 || ms > 3_600_000 {
            return Err("a wait is 1 to 3600000 ms".into());
        }
        return Ok((Input::Advance(ms), number(count)?));
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
        fn decode(token: &str) -> Result<String, String> {
            if token.starts_with("kill-") {
                Ok(token.to_string())
            } else {
                Err("unknown action".into())
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
        assert_eq!(decode_tape::<_, Words>("s1.explode").unwrap_err(), "action 2 (\"explode\"): unknown action");
        assert!(decode_tape::<_, Words>("s999999999").unwrap_err().contains("more than"));
        assert!(decode_tape::<_, Words>("w0").is_err());
    }
}
