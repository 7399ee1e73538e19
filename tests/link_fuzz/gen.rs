//! Hostile links for one scene: its presets' configs and tapes, its pasted links and its
//! action grammar, mutated towards the integer limits, huge waits and repeats, unknown
//! tokens, separators and non-ASCII inside values, and broken percent-encoding.

use kafka_lab::model::config::Property;
use kafka_lab::model::kernel::TokenError;
use kafka_lab::model::scene::LabScene;
use kafka_lab::scenes::SCENES;

use super::rng::Rng;
use super::values::{count, number, tape_number, value, wait_ms, JUNK, SPECIAL};

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
        // Commands only: the presets' waits and steps (hours of them) come from the wait and
        // count generators, which keep them to light links' minutes.
        let tokens = SCENES
            .iter()
            .flat_map(|scene| (scene.presets)().iter())
            .flat_map(|preset| preset.tape.split('.'))
            .filter(|token| !(token.starts_with(['w', 's']) && token[1..].starts_with(|c: char| c.is_ascii_digit())))
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
        if rng.chance(20) {
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
        if rng.chance(45) {
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
        match rng.below(40) {
            0..=19 if !self.verbs.is_empty() => self.command(rng),
            20..=27 => format!("w{}", wait_ms(rng, heavy)),
            28..=31 => format!("w{}x{}", wait_ms(rng, heavy), count(rng, heavy)),
            32..=36 => format!("s{}", count(rng, heavy)),
            37..=38 => rng.pick(&self.tokens).clone(),
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
    match (shape, rng.below(30)) {
        (_, 0) => rng.pick(JUNK).to_string(),
        ("HEX", _) => (0..rng.below(12)).map(|_| format!("{:02x}", rng.next_u64() as u8)).collect(),
        ("X" | "Y", 1..=3) => rng.pick(&["c", "p"]).to_string(),
        (s, _) if s.chars().any(|c| c.is_ascii_lowercase()) => s.to_string(),
        ("NAME" | "EVENT" | "LABEL", _) => {
            rng.pick(&["segment_bytes", "retention_ms", "created", "a", "é"]).to_string()
        }
        (_, 1..=6) => number(rng),
        (_, 7..=12) => rng.spread(2).to_string(),
        _ => rng.below(6).to_string(),
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
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~:,".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
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
        2 => query.insert_str(at, rng.pick::<&str>(&["%", "%4", "%G1", "%E2%28", "%C3", "%FF", "%00", "%2"])),
        3 => query.insert_str(at, rng.pick::<&str>(SPECIAL)),
        4 => *query = query.replace('&', "%26"),
        5 => query.push_str(&format!("&{}", query.split('&').nth(1).unwrap_or("a=s1"))),
        6 => query.push_str(rng.pick::<&str>(&[
            "&utm=x",
            "&&",
            "&=",
            "&a",
            "&t=",
            "&seed=",
            "&c=",
            "&embed",
            "&lang=%FF",
        ])),
        7 => query.insert(0, '?'),
        _ => *query = query.replace('.', "%2E"),
    }
}
