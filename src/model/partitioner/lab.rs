//! The Partitioner as a lab scene: link tokens for its commands, and its presets.

use super::key::{hex, parse_key};
use super::load::KeyDistribution;
use super::schema::PARTITIONER_SCHEMA;
use super::world::{Command, Partitioner};
use crate::model::config::{Config, Property};
use crate::model::scene::{LabScene, Preset};

/// Message key of the composite-key trade-off (the UI shows it next to the toggle).
pub const COMPOSITE_TRADEOFF_KEY: &str = "partitioner.composite.tradeoff";

const PRESETS: &[Preset] = &[
    Preset {
        id: "cliente-42",
        title_key: "partitioner.preset.cliente_42",
        config: "partitions=12,lab.distinct.keys=1000,lab.consumer.records.per.sec=100",
        tape: "produce-6000.key-636c69656e74652d3432.send-created.send-updated.w500.alter-24.send-cancelled.w1000x8",
        seed: 42,
    },
    Preset {
        id: "megacorp",
        title_key: "partitioner.preset.megacorp",
        config: "partitions=6,lab.key.distribution=megacorp,lab.megacorp.percent=40,lab.consumer.records.per.sec=2000",
        tape: "produce-100000.w1000x5.alter-12.produce-100000.w1000x5.composite-on.produce-100000.w1000x5",
        seed: 6,
    },
    Preset {
        id: "orderid-6-12",
        title_key: "partitioner.preset.orderid_6_12",
        config: "partitions=6,lab.key.prefix=order,lab.distinct.keys=10000,lab.consumer.records.per.sec=100",
        tape: "produce-3000.key-6f726465722d31303031.send-created.send-paid.w500.alter-12.send-shipped.w1000x6",
        seed: 4,
    },
    Preset {
        id: "sticky",
        title_key: "partitioner.preset.sticky",
        config: "partitions=6",
        tape: "null-120.w100x2",
        seed: 3,
    },
    Preset {
        id: "sticky-full-batches",
        title_key: "partitioner.preset.sticky_full_batches",
        config: "partitions=6,linger.ms=50",
        tape: "null-150.w100x2",
        seed: 3,
    },
    Preset {
        id: "sticky-linger-0",
        title_key: "partitioner.preset.sticky_linger_0",
        config: "partitions=6,linger.ms=0",
        tape: "null-120.w100x2",
        seed: 3,
    },
];

impl LabScene for Partitioner {
    const ID: &'static str = "partitioner";

    fn schema() -> &'static [Property] {
        PARTITIONER_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, crate::model::kernel::Prose> {
        let legacy = || -> Result<Self, String> { Partitioner::new(config.clone()) };
        legacy().map_err(crate::model::kernel::Prose)
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
        }
    }

    fn decode_command(token: &str) -> Result<Command, crate::model::kernel::TokenError> {
        let legacy = || -> Result<Command, String> {
            let (verb, arg) = token.split_once('-').ok_or_else(|| unknown(token))?;
            let number = || arg.parse::<u64>().map_err(|_| format!("\"{arg}\" is not a whole number"));
            match verb {
                "key" => Ok(Command::SetKey(parse_key(&format!("0x{arg}"))?)),
                "alter" => {
                    Ok(Command::Alter(u32::try_from(number()?).map_err(|_| format!("{arg} partitions is too many"))?))
                }
                "dist" => Ok(Command::Distribution(KeyDistribution::parse(arg)?)),
                "composite" => match arg {
                    "on" => Ok(Command::Composite(true)),
                    "off" => Ok(Command::Composite(false)),
                    _ => Err(format!("composite-{arg}: use composite-on or composite-off")),
                },
                "produce" => Ok(Command::Produce(number()?)),
                "send" => Command::send(arg),
                "null" => Ok(Command::ProduceUnkeyed(
                    u32::try_from(number()?).map_err(|_| format!("{arg} records is too many"))?,
                )),
                _ => Err(unknown(token)),
            }
        };
        legacy().map_err(crate::model::kernel::TokenError::Legacy)
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }
}

impl Command {
    /// The command for what the learner typed in the key box (text, or `0x…` bytes).
    pub fn set_key(input: &str) -> Result<Command, String> {
        parse_key(input).map(Command::SetKey)
    }

    /// A tracked event of the watched key; names are lowercase letters, digits and `_`.
    pub fn send(event: &str) -> Result<Command, String> {
        let valid = !event.is_empty()
            && event.len() <= 32
            && event.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            return Err(format!("event name \"{event}\": use 1 to 32 of a-z, 0-9 and _ (e.g. created)"));
        }
        Ok(Command::Send(event.to_string()))
    }
}

fn unknown(token: &str) -> String {
    format!(
        "unknown action \"{token}\"; this scene knows key-HEX, alter-M, dist-NAME, composite-on/off, produce-N, send-EVENT and null-N"
    )
}
