//! The values a hostile link is made of: numbers at and past the integer limits, waits and
//! repeat counts (kept to minutes in a light link), config values, junk and separators.

use kafka_lab::model::config::{Kind, Property};

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
const REFUSED_COUNTS: &[&str] =
    &["200001", "2147483648", "4294967295", "4294967296", "18446744073709551615", "18446744073709551616"];

/// Waits a tape refuses before anything runs (0, or past `MAX_WAIT_MS`).
const REFUSED_WAITS: &[&str] =
    &["0", "3600001", "4294967295", "4294967296", "9223372036854775808", "18446744073709551616"];

/// Text where a number is expected, and tokens no scene knows.
pub const JUNK: &[&str] = &[
    "", "-1", "-0", "+5", "007", "1e3", "0x10", "1.5", " 1", "1 ", "NaN", "∞", "١٢", "x", "s", "w", "wx", "w1x", "x5",
    "s-1", "w-1", "kill", "kill-", "kill--1", "-", "--", "..", "💥", "é", "%", "&", "=", ":", ",", "\u{0}", "\u{202e}",
];

/// Characters that separate parts of a link, and text outside ASCII.
pub const SPECIAL: &[&str] =
    &[",", ":", "=", "&", "%", "%25", "+", "?", "#", ".", " ", "é", "键", "🦀", "\u{fffd}", "\u{200b}"];

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
pub fn tape_number(rng: &mut Rng, heavy: bool) -> String {
    match (rng.below(20), heavy) {
        (_, true) => number(rng),
        (0..=10, false) => rng.spread(3).to_string(),
        (11..=17, false) => rng.pick(LIGHT_LIMITS).to_string(),
        _ => rng.pick(JUNK).to_string(),
    }
}

/// How many times a step or a wait repeats (`s N`, `x N`). A light link repeats a few
/// times, or so often that the tape is refused before it runs.
pub fn count(rng: &mut Rng, heavy: bool) -> String {
    match (rng.below(20), heavy) {
        (0..=9, true) => (1 + rng.spread(2)).to_string(),
        (10..=16, true) => rng.pick(HEAVY_LIMITS).to_string(),
        (0..=14, false) => (1 + rng.spread(1)).to_string(),
        (_, true) => number(rng),
        (15..=17, false) => rng.pick(REFUSED_COUNTS).to_string(),
        _ => rng.pick(JUNK).to_string(),
    }
}

/// A wait's length: a light link waits seconds, or longer than a wait may be.
pub fn wait_ms(rng: &mut Rng, heavy: bool) -> String {
    match (rng.below(20), heavy) {
        (0..=13, _) => (1 + rng.spread(4)).to_string(),
        (14..=18, true) => rng.pick(&["3600000", "3599999", "1800000", "600000"]).to_string(),
        (_, true) => number(rng),
        (14..=17, false) => rng.pick(REFUSED_WAITS).to_string(),
        _ => rng.pick(JUNK).to_string(),
    }
}

/// A value for a property: in range, at and past its bounds, its choices listed, or junk.
pub fn value(rng: &mut Rng, property: &Property) -> String {
    let text = match (property.kind, rng.below(20)) {
        (_, 0) => format!("{}{}", property.default, rng.pick(SPECIAL)),
        (_, 1) => number(rng),
        (Kind::Int { min, max }, 2..=5) => {
            rng.pick(&[min as i128 - 1, min as i128, max as i128, max as i128 + 1]).to_string()
        }
        (Kind::Int { min, max }, _) => {
            let span = (max as i128 - min as i128 + 1) as u128;
            (min as i128 + (u128::from(rng.spread(10)) % span) as i128).to_string()
        }
        (Kind::Bool, _) => rng.pick(&["true", "false", "TRUE", "False", "yes", "1", ""]).to_string(),
        (Kind::OneOf(allowed), 2..=5) => allowed.join(","),
        (Kind::OneOf(allowed), _) => rng.pick(allowed).to_string(),
    };
    if rng.chance(5) {
        format!("{text}{}", rng.pick(SPECIAL))
    } else {
        text
    }
}
