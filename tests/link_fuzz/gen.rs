//! Hostile links for one scene: its presets' configs and tapes, its pasted links and its
//! action grammar, mutated towards the integer limits, huge waits and repeats, unknown
//! tokens, separators and non-ASCII inside values, and broken percent-encoding.

use kafka_lab::model::config::{Kind, Property};
use kafka_lab::model::kernel::TokenError;
use kafka_lab::model::scene::LabScene;
use kafka_lab::scenes::SCENES;

use super::rng::Rng;

/// Numbers at and past the limits of the integer types a link's numbers land in: small
/// ones, and ones every wait and repeat count refuses (cheap to try, so every link may).
const LIGHT_LIMITS: &[&str] = &[
    "0",
    "1",
    "2",
    "127",
    "128",
    "255",
    "256",
    "3600001",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
];

/// Limits a wait or a repeat count accepts: an hour, the most inputs a tape may hold.
const HEAVY_LIMITS: &[&str] = &["65535", "65536", "200000", "200001", "3599999", "3600000"];

/// Repeats a tape refuses before anything runs (more than `MAX_TAPE_INPUTS`, or past `u64`).
const REFUSED_COUNTS: &[&str] = &["200001", "2147483648", "4294967295", "4294967296", "18446744073709551615", "18446744073709551616"];

/// Waits a tape refuses before anything runs (0, or past `MAX_WAIT_MS`).
const REFUSED_WAITS: &[&str] = &["0", "3600001", "4294967295", "4294967296", "9223372036854775808", "18446744073709551616"];

/// Text where a number is expected, and tokens no scene knows.
const JUNK: &[&str] = &[
    "", "-1", "-0", "+5", "007", "1e3", "0x10", "1.5", " 1", "1 ", "NaN", "∞", "١٢", "x", "s", "w", "wx", "w1x", "x5",
    "s-1", "w-1", "kill", "kill-", "kill--1", "-", "--", "..", "💥", "é", "%", "&", "=", ":", ",", "\u{0}", "\u{202e}",
];

/// Characters that separate parts of a link, and text outside ASCII.
const SPECIAL: &[&str] = &[",", ":", "=", "&", "%", "%25", "+", "?", "#", ".", " ", "é", "键", "🦀", "\u{fffd}", "\u{200b}"];

/// One verb of a scene's action grammar and its argument shapes (`pause-B-MS` → `pause`, `[B, MS]`).
struct Verb {
    verb: String,
    args: Vec<String>,
}

pub struct Corpus {
    scene: &'static str,
    schema: &'static [Property],
    preset_ids: Vec<&'static str>,
    /// `(config, tape, seed)` of each preset.
    presets: Vec<(&'static str, &'static str, u64)>,
    verbs: Vec<Verb>,
    /// Action tokens of every scene's presets (another scene's are unknown here).
    tokens: Vec<String>,
    /// Links pasted before (tests/golden/links.txt) that open this scene.
    pasted: Vec<String>,
}

impl Corpus {
    pub fn new<S: LabScene>() -> Self {
        let presets = S::presets();
        let tokens = SCENES
            .iter()
            .flat_map(|scene| (scene.presets)().iter())
            .flat_map(|preset| preset.tape.split('.'))
            .map(String::from)
            .collect();
        let golden = std::fs::read_to_string("tests/golden/links.txt").expect("tests/golden/links.txt");
        let prefix = format!("scene={}", S::ID);
        Self {
            scene: S::ID,
            schema: S::schema(),
            preset_ids: presets.iter().map(|p| p.id).collect(),
            presets: presets.iter().map(|p| (p.config, p.tape, p.seed)).collect(),
            verbs: grammar::<S>(),
            tokens,
            pasted: golden.lines().filter(|l| l.starts_with(&prefix)).map(String::from).collect(),
        }
    }

    /// One generated link (the query, without `?` most of the time).
    pub fn link(&self, rng: &mut Rng, heavy: bool) -> String {
        let mut query = match rng.below(100) {
            0..=2 if !self.pasted.is_empty() => rng.pick(&self.pasted).clone(),
            3..=4 if !self.preset_ids.is_empty() => self.preset_link(rng, heavy),
            _ => self.composed(rng, heavy),
        };
        if rng.chance(25) {
            mutate_text(rng, &mut query);
        }
        query
    }

    fn preset_link(&self, rng: &mut Rng, heavy: bool) -> String {
        let mut query = format!("scene={}&preset={}", self.scene, rng.pick(&self.preset_ids));
        if rng.chance(40) {
            query.push_str(&format!("&t={}", number(rng)));
        }
        if rng.chance(20) {
            query.push_str(&format!("&a={}", encode(&self.tape(rng, heavy))));
        }
        query
    }

    fn composed(&self, rng: &mut Rng, heavy: bool) -> String {
        let mut parts = vec![format!("scene={}", self.scene)];
        let preset = (!self.presets.is_empty() && rng.chance(75)).then(|| *rng.pick(&self.presets));
        match (preset, rng.below(10)) {
            (Some((_, _, seed)), 0..=4) => parts.push(format!("seed={seed}")),
            (_, 5..=6) => parts.push(format!("seed={}", number(rng))),
            _ => {}
        }
        if rng.chance(60) {
            let base = preset.map(|(config, _, _)| config).filter(|_| rng.chance(60));
            let config = self.config(rng, base, heavy);
            parts.push(format!("c={}", if rng.chance(85) { encode(&config) } else { config }));
        }
        let tape = match preset {
            // A preset's whole tape costs up to a few hundred thousand records: a light link
            // takes it one time in ten.
            Some((_, tape, _)) if rng.chance(if heavy { 85 } else { 10 }) => self.mutated(rng, tape, heavy),
            _ => self.tape(rng, heavy),
        };
        parts.push(format!("a={}", if rng.chance(90) { encode(&tape) } else { tape }));
        if rng.chance(20) {
            parts.push(format!("t={}", number(rng)));
        }
        parts.join("&")
    }

    /// A preset's tape with one to three mutations.
    fn mutated(&self, rng: &mut Rng, tape: &str, heavy: bool) -> String {
        let mut tokens: Vec<String> = tape.split('.').map(String::from).collect();
        for _ in 0..1 + rng.below(3) {
            self.mutate_tape(rng, &mut tokens, heavy);
        }
        tokens.join(".")
    }

    /// A tape made from scratch: a few tokens of the scene's grammar, steps and waits.
    fn tape(&self, rng: &mut Rng, heavy: bool) -> String {
        let mut tokens = Vec::new();
        for _ in 0..1 + rng.below(6) {
            tokens.push(self.token(rng, heavy));
        }
        tokens.join(".")
    }

    fn token(&self, rng: &mut Rng, heavy: bool) -> String {
        match rng.below(10) {
            0..=3 if !self.verbs.is_empty() => self.command(rng),
            4..=5 => format!("w{}", wait_ms(rng, heavy)),
            6 => format!("w{}x{}", wait_ms(rng, heavy), count(rng, heavy)),
            7 => format!("s{}", count(rng, heavy)),
            8 => rng.pick(&self.tokens).clone(),
            _ => rng.pick(JUNK).to_string(),
        }
    }

    /// A command of the scene's grammar with generated arguments.
    fn command(&self, rng: &mut Rng) -> String {
        let verb = rng.pick(&self.verbs);
        let mut token = verb.verb.clone();
        for shape in &verb.args {
            token.push('-');
            token.push_str(&argument(rng, shape));
        }
        token
    }

    fn mutate_tape(&self, rng: &mut Rng, tokens: &mut Vec<String>, heavy: bool) {
        let i = rng.below(tokens.len().max(1));
        let at = |tokens: &Vec<String>| tokens.get(i).cloned().unwrap_or_default();
        match rng.below(13) {
            0 | 1 => {
                let token = replace_number(rng, &at(tokens), heavy);
                set(tokens, i, token);
            }
            2 => set(tokens, i, format!("{}x{}", at(tokens), count(rng, heavy))),
            3 => tokens.insert(i, format!("w{}{}", wait_ms(rng, heavy), if rng.chance(50) { "" } else { "x2" })),
            4 => tokens.insert(i, format!("s{}", count(rng, heavy))),
            5 => tokens.insert(i, rng.pick(JUNK).to_string()),
            6 | 7 => tokens.insert(i, self.token(rng, heavy)),
            8 if !tokens.is_empty() => drop(tokens.remove(i)),
            9 => {
                let run: Vec<String> = tokens.iter().skip(i).take(1 + rng.below(3)).cloned().collect();
                for _ in 0..1 + rng.below(3) {
                    tokens.splice(i..i, run.iter().cloned());
                }
            }
            10 => set(tokens, i, truncated(rng, &at(tokens))),
            11 if tokens.len() > 1 => {
                let j = rng.below(tokens.len());
                tokens.swap(i, j);
            }
            _ => set(tokens, i, format!("{}{}", at(tokens), rng.pick(SPECIAL))),
        }
    }

    /// `name:value` pairs: a preset's, or of properties the scene knows (and some it does not).
    fn config(&self, rng: &mut Rng, base: Option<&str>, heavy: bool) -> String {
        let mut pairs: Vec<String> = base.map(|c| c.split(',').map(String::from).collect()).unwrap_or_default();
        for _ in 0..rng.below(4) {
            let property = rng.pick(self.schema);
            let name = match rng.below(20) {
                0 => format!("{}{}", property.name, rng.pick(SPECIAL)),
                1 => property.name.to_uppercase(),
                2 => truncated(rng, property.name),
                _ => property.name.to_string(),
            };
            let separator = if rng.chance(50) { ":" } else { "=" };
            pairs.push(format!("{name}{separator}{}", value(rng, property)));
        }
        if !pairs.is_empty() && rng.chance(15) {
            let i = rng.below(pairs.len());
            pairs[i] = replace_number(rng, &pairs[i], heavy);
        }
        pairs.join(",")
    }
}

/// The verbs the scene's grammar lists, read from its refusal of an unknown token.
fn grammar<S: LabScene>() -> Vec<Verb> {
    let Err(TokenError::UnknownAction { grammar, .. }) = S::decode_command("zz-unknown") else {
        return Vec::new();
    };
    grammar
        .split([',', ' '])
        .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase()) && w.contains('-'))
        .map(|word| {
            let word = word.replace(['[', ']'], "");
            let mut parts = word.split('-').map(String::from);
            Verb { verb: parts.next().unwrap_or_default(), args: parts.collect() }
        })
        .collect()
}

/// An argument for a grammar's shape: `B`, `MS`, `N`, `HEX`, `on/off`, a literal…
fn argument(rng: &mut Rng, shape: &str) -> String {
    if shape.contains('/') {
        let choices: Vec<&str> = shape.split('/').collect();
        return rng.pick(&choices).to_string();
    }
    match (shape, rng.below(10)) {
        (_, 0) => rng.pick(JUNK).to_string(),
        ("HEX", _) => (0..rng.below(12)).map(|_| format!("{:02x}", rng.next_u64() as u8)).collect(),
        ("X" | "Y", 1..=3) => rng.pick(&["c", "p"]).to_string(),
        (s, _) if s.chars().any(|c| c.is_ascii_lowercase()) => s.to_string(),
        ("NAME" | "EVENT" | "LABEL", _) => rng.pick(&["segment_bytes", "retention_ms", "created", "a", "é"]).to_string(),
        _ => number(rng),
    }
}

/// A number as link text: mostly small, often at a type's limit, sometimes not a number.
pub fn number(rng: &mut Rng) -> String {
    match rng.below(20) {
        0..=10 => rng.spread(3).to_string(),
        11..=15 => rng.pick(LIGHT_LIMITS).to_string(),
        16..=17 => rng.pick(HEAVY_LIMITS).to_string(),
        _ => rng.pick(JUNK).to_string(),
    }
}

/// A number put into a tape or a config in place of another: a light link gets small ones or
/// ones past every wait and count a tape accepts.
fn tape_number(rng: &mut Rng, heavy: bool) -> String {
    match (rng.below(20), heavy) {
        (_, true) => number(rng),
        (0..=10, false) => rng.spread(3).to_string(),
        (11..=17, false) => rng.pick(LIGHT_LIMITS).to_string(),
        _ => rng.pick(JUNK).to_string(),
    }
}

/// How many times a step or a wait repeats (`s N`, `x N`). A light link repeats a few
/// times, or so often that the tape is refused before it runs.
fn count(rng: &mut Rng, heavy: bool) -> String {
    match (rng.below(20), heavy) {
        (0..=14, true) => (1 + rng.spread(2)).to_string(),
        (0..=14, false) => (1 + rng.spread(1)).to_string(),
        (_, true) => number(rng),
        (15..=17, false) => rng.pick(REFUSED_COUNTS).to_string(),
        _ => rng.pick(JUNK).to_string(),
    }
}

/// A wait's length: a light link waits seconds, or longer than a wait may be.
fn wait_ms(rng: &mut Rng, heavy: bool) -> String {
    match (rng.below(20), heavy) {
        (0..=13, _) => (1 + rng.spread(4)).to_string(),
        (14..=16, true) => rng.pick(&["3600000", "3599999", "1800000", "600000"]).to_string(),
        (_, true) => number(rng),
        (14..=17, false) => rng.pick(REFUSED_WAITS).to_string(),
        _ => rng.pick(JUNK).to_string(),
    }
}

/// A value for a property: in range, at and past its bounds, its choices listed, or junk.
fn value(rng: &mut Rng, property: &Property) -> String {
    let text = match (property.kind, rng.below(10)) {
        (_, 0) => format!("{}{}", property.default, rng.pick(SPECIAL)),
        (_, 1) => number(rng),
        (Kind::Int { min, max }, 2) => rng.pick(&[min as i128 - 1, min as i128, max as i128, max as i128 + 1]).to_string(),
        (Kind::Int { min, max }, _) => {
            let span = (max as i128 - min as i128 + 1) as u128;
            (min as i128 + (u128::from(rng.spread(10)) % span) as i128).to_string()
        }
        (Kind::Bool, _) => rng.pick(&["true", "false", "TRUE", "False", "yes", "1", ""]).to_string(),
        (Kind::OneOf(allowed), 2) => allowed.join(","),
        (Kind::OneOf(allowed), _) => rng.pick(allowed).to_string(),
    };
    if rng.chance(5) {
        format!("{text}{}", rng.pick(SPECIAL))
    } else {
        text
    }
}

/// The text with one run of digits replaced by another number.
fn replace_number(rng: &mut Rng, text: &str, heavy: bool) -> String {
    let starts: Vec<usize> = text
        .char_indices()
        .filter(|(i, c)| c.is_ascii_digit() && !text[..*i].ends_with(|p: char| p.is_ascii_digit()))
        .map(|(i, _)| i)
        .collect();
    if starts.is_empty() {
        return format!("{text}{}", tape_number(rng, heavy));
    }
    let start = *rng.pick(&starts);
    let end = text[start..].find(|c: char| !c.is_ascii_digit()).map_or(text.len(), |n| start + n);
    format!("{}{}{}", &text[..start], tape_number(rng, heavy), &text[end..])
}

fn truncated(rng: &mut Rng, text: &str) -> String {
    let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    if cuts.is_empty() {
        return String::new();
    }
    text[..*rng.pick(&cuts)].to_string()
}

fn set(tokens: &mut Vec<String>, i: usize, token: String) {
    match tokens.get_mut(i) {
        Some(slot) => *slot = token,
        None => tokens.push(token),
    }
}

/// Percent-encodes what a link's value may not hold as is (as the lab's writer does).
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-_.~:,".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

/// Damage to the link as text: cut short, pieces encoded or broken, parameters repeated.
fn mutate_text(rng: &mut Rng, query: &mut String) {
    let cuts: Vec<usize> = query.char_indices().map(|(i, _)| i).chain([query.len()]).collect();
    let at = *rng.pick(&cuts);
    match rng.below(9) {
        0 => query.truncate(at),
        1 => {
            let end = *rng.pick(&cuts).max(&at);
            let piece = encode(&query[at..end]);
            query.replace_range(at..end, &piece);
        }
        2 => query.insert_str(at, *rng.pick(&["%", "%4", "%G1", "%E2%28", "%C3", "%FF", "%00", "%2"])),
        3 => query.insert_str(at, *rng.pick(SPECIAL)),
        4 => *query = query.replace('&', "%26"),
        5 => query.push_str(&format!("&{}", query.split('&').nth(1).unwrap_or("a=s1"))),
        6 => query.push_str(*rng.pick(&["&utm=x", "&&", "&=", "&a", "&t=", "&seed=", "&c=", "&embed", "&lang=%FF"])),
        7 => query.insert(0, '?'),
        _ => *query = query.replace('.', "%2E"),
    }
}
