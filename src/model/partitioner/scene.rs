//! The Partitioner as a lab scene: link tokens for its commands, and its presets.

use super::key::hex;
use super::load::KeyDistribution;
use super::{Command, Partitioner, Refusal, Settings, PARTITIONER_SCHEMA};
use crate::model::config::{Config, Property};
use crate::model::kernel::{parse_number, Sim, Token, TokenError};
use crate::model::scene::{LabScene, Preset};

/// Message key of the composite-key trade-off (the UI shows it next to the toggle).
pub const COMPOSITE_TRADEOFF_KEY: &str = crate::catalog_key!("partitioner.composite.tradeoff");

const PRESETS: &[Preset] = &[
    Preset {
        id: "cliente-42",
        title_key: crate::catalog_key!("partitioner.preset.cliente_42"),
        config: "partitions=12,lab.distinct.keys=1000,lab.consumer.records.per.sec=100",
        tape: "produce-6000.key-636c69656e74652d3432.send-created.send-updated.w500.alter-24.send-cancelled.w1000x8",
        seed: 42,
    },
    Preset {
        id: "megacorp",
        title_key: crate::catalog_key!("partitioner.preset.megacorp"),
        config: "partitions=6,lab.key.distribution=megacorp,lab.megacorp.percent=40,lab.consumer.records.per.sec=2000",
        tape: "produce-100000.w1000x5.alter-12.produce-100000.w1000x5.composite-on.produce-100000.w1000x5",
        seed: 6,
    },
    Preset {
        id: "orderid-6-12",
        title_key: crate::catalog_key!("partitioner.preset.orderid_6_12"),
        config: "partitions=6,lab.key.prefix=order,lab.distinct.keys=10000,lab.consumer.records.per.sec=100",
        tape: "produce-3000.key-6f726465722d31303031.send-created.send-paid.w500.alter-12.send-shipped.w1000x6",
        seed: 4,
    },
    Preset {
        id: "sticky",
        title_key: crate::catalog_key!("partitioner.preset.sticky"),
        config: "partitions=6",
        tape: "null-120.w5x40",
        seed: 3,
    },
    Preset {
        id: "sticky-full-batches",
        title_key: crate::catalog_key!("partitioner.preset.sticky_full_batches"),
        config: "partitions=6,linger.ms=50",
        tape: "null-150.w5x40",
        seed: 3,
    },
    Preset {
        id: "sticky-linger-0",
        title_key: crate::catalog_key!("partitioner.preset.sticky_linger_0"),
        config: "partitions=6,linger.ms=0",
        tape: "null-120.w5x40",
        seed: 3,
    },
    Preset {
        id: "adaptive-slow-broker",
        title_key: crate::catalog_key!("partitioner.preset.adaptive_slow_broker"),
        config: "partitions=6,lab.slow.broker=3,lab.slow.broker.latency.ms=1000",
        tape: "null-3000.w1000x4",
        seed: 3,
    },
    Preset {
        id: "adaptive-availability-timeout",
        title_key: crate::catalog_key!("partitioner.preset.adaptive_availability_timeout"),
        config:
            "partitions=6,lab.slow.broker=3,lab.slow.broker.latency.ms=1000,partitioner.availability.timeout.ms=100",
        tape: "null-3000.w1000x4",
        seed: 3,
    },
];

/// A key typed in the lab: text goes out as its UTF-8 bytes (Kafka's `StringSerializer`),
/// `0x…` is raw bytes (as a `ByteArraySerializer` would send them); reads no config.
pub fn parse_key(input: &str) -> Result<Vec<u8>, Refusal> {
    let Some(digits) = input.strip_prefix("0x").or_else(|| input.strip_prefix("0X")) else {
        return Ok(input.as_bytes().to_vec());
    };
    if let Some((position, bad)) = digits.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(Refusal::BadHex { input: input.to_string(), bad, position: position + 2 });
    }
    if digits.len() % 2 != 0 {
        return Err(Refusal::OddHex { input: input.to_string() });
    }
    Ok((0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).expect("checked hex digits"))
        .collect())
}

/// What the Partitioner's link tokens can be.
const GRAMMAR: &str = "key-HEX, alter-M, dist-NAME, composite-on/off, produce-N, send-EVENT, null-N and stream-N";
const DIST_GRAMMAR: &str = "dist-uniform, dist-zipf and dist-megacorp";
const COMPOSITE_GRAMMAR: &str = "composite-on and composite-off";

impl LabScene for Partitioner {
    const ID: &'static str = "partitioner";
    const FIGURE_LABELS: &'static [crate::model::notebook::labels::Label] = crate::model::notebook::labels::PARTITIONER;

    fn schema() -> &'static [Property] {
        PARTITIONER_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, Refusal> {
        Settings::from_config(config).map(Partitioner::new)
    }

    fn encode_command(command: &Command) -> String {
        match command {
            Command::SetKey(bytes) => format!("key-{}", hex(bytes)),
            Command::Alter(partitions) => format!("alter-{partitions}"),
            Command::Distribution(distribution) => format!("dist-{}", distribution.name()),
            Command::Composite(on) => format!("composite-{}", if *on { "on" } else { "off" }),
            Command::Produce(records) => format!("produce-{records}"),
            Command::Send(event) => format!("send-{event}"),
            Command::ProduceUnkeyed(records) => format!("null-{records}"),
            Command::Stream(records_per_sec) => format!("stream-{records_per_sec}"),
        }
    }

    fn decode_command(text: &str) -> Result<Command, TokenError> {
        let token = Token::parse(text);
        // Every token of this scene is `verb-argument` (the argument may be empty: `key-`).
        if !text.contains('-') {
            return Err(token.unknown(GRAMMAR));
        }
        let arg = token.rest();
        match token.verb() {
            "key" => parse_key(&format!("0x{arg}")).map(Command::SetKey).map_err(|why| token.refused(&why)),
            "alter" => parse_number(arg).map(Command::Alter),
            "dist" => KeyDistribution::parse(arg).map(Command::Distribution).ok_or_else(|| token.unknown(DIST_GRAMMAR)),
            "composite" => match arg {
                "on" => Ok(Command::Composite(true)),
                "off" => Ok(Command::Composite(false)),
                _ => Err(token.unknown(COMPOSITE_GRAMMAR)),
            },
            "produce" => parse_number(arg).map(Command::Produce),
            "send" => Command::send(arg).map_err(|why| token.refused(&why)),
            "null" => parse_number(arg).map(Command::ProduceUnkeyed),
            "stream" => parse_number(arg).map(Command::Stream),
            _ => Err(token.unknown(GRAMMAR)),
        }
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn story(preset: Option<&str>) -> crate::model::story::Story<Self> {
        super::story::story(preset)
    }

    /// A steady keyed producer with the producer's defaults, unless a producer already sends.
    fn workload(sim: &Sim<Self>) -> Option<Command> {
        (!sim.world().producing()).then_some(Command::Stream(super::WORKLOAD_RECORDS_PER_SEC))
    }
}

impl Command {
    /// The command for what the learner typed in the key box (text, or `0x…` bytes).
    pub fn set_key(input: &str) -> Result<Command, Refusal> {
        parse_key(input).map(Command::SetKey)
    }

    /// A tracked event of the watched key; names are lowercase letters, digits and `_`.
    pub fn send(event: &str) -> Result<Command, Refusal> {
        let valid = !event.is_empty()
            && event.len() <= 32
            && event.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            return Err(Refusal::BadEventName { name: event.to_string() });
        }
        Ok(Command::Send(event.to_string()))
    }

    /// `--alter --partitions` for the count the learner typed.
    pub fn alter(text: &str) -> Result<Command, Refusal> {
        parse_number::<u32>(text.trim())
            .map(Command::Alter)
            .map_err(|_| Refusal::NotAPartitionCount { text: text.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_sent_as_utf8_and_hex_as_raw_bytes() {
        assert_eq!(parse_key("cliente-42").unwrap(), b"cliente-42");
        assert_eq!(parse_key("ñ").unwrap(), vec![0xc3, 0xb1]);
        assert_eq!(parse_key("0x00ff10").unwrap(), vec![0x00, 0xff, 0x10]);
        assert_eq!(parse_key("0XAb").unwrap(), vec![0xab]);
        assert_eq!(parse_key("0x").unwrap(), Vec::<u8>::new());
        assert_eq!(parse_key("").unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn bad_hex_is_refused_with_the_reason() {
        let err = parse_key("0x0g").unwrap_err();
        assert_eq!(err, Refusal::BadHex { input: "0x0g".into(), bad: 'g', position: 3 });
        assert_eq!(err.to_string(), "\"0x0g\" is not valid hex: 'g' at position 3 is not a hex digit (0-9, a-f)");
        assert_eq!(parse_key("0xabc").unwrap_err(), Refusal::OddHex { input: "0xabc".into() });
    }
}
