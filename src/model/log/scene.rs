//! The log scene as the shell drives it: link tokens for its commands and its presets.

use super::schema::LOG_SCHEMA;
use super::world::{Command, LogLab};
use crate::model::config::{Config, Property};
use crate::model::scene::{LabScene, Preset};

/// `segment.bytes` that holds exactly the first 368421 keyless 1 KiB records in 16 KiB batches
/// (checked against the model's own sizing by `tests/log_walkthrough.rs`).
pub const WALKTHROUGH_SEGMENT_BYTES: &str = "382077175";

const PRESETS: &[Preset] = &[
    Preset {
        id: "lab1-segments",
        title_key: "log.preset.lab1_segments",
        config: "",
        tape: "produce-100000-0-1024.w15000.set-segment_bytes-1048576.produce-100000-0-1024.w15000",
        seed: 0,
    },
    Preset {
        id: "find-368500",
        title_key: "log.preset.find_368500",
        config: "segment.bytes=382077175",
        tape: "produce-368421-0-1024.w40000.produce-1000-0-1024.w1000.lookup-368500",
        seed: 1,
    },
    Preset {
        id: "low-traffic-trap",
        title_key: "log.preset.low_traffic_trap",
        config: "retention.ms=3600000,lab.trickle.interval.ms=60000",
        tape: "w3600000x24",
        seed: 2,
    },
    Preset {
        id: "low-traffic-fixed",
        title_key: "log.preset.low_traffic_fixed",
        config: "retention.ms=3600000,segment.ms=600000,lab.trickle.interval.ms=60000",
        tape: "w3600000x24",
        seed: 2,
    },
    Preset {
        id: "tombstone-resurrection",
        title_key: "log.preset.tombstone_resurrection",
        config: "cleanup.policy=compact,segment.bytes=1048576,delete.retention.ms=60000",
        // key-426 is the 4th record the reader reads; later bursts only use key-0..key-399.
        tape: "produce-10000-500-1024.reader-1.w2000.tombstone-426.produce-3000-400-1024.w90000.produce-3000-400-1024.w60000x2",
        seed: 3,
    },
];

impl LabScene for LogLab {
    const ID: &'static str = "log";

    fn schema() -> &'static [Property] {
        LOG_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, crate::model::kernel::Prose> {
        let legacy = || -> Result<Self, String> { Ok(LogLab::new(config.clone())) };
        legacy().map_err(crate::model::kernel::Prose)
    }

    fn encode_command(command: &Command) -> String {
        match command {
            Command::Produce { records, keys, value_bytes } => format!("produce-{records}-{keys}-{value_bytes}"),
            Command::Tombstone { key } => format!("tombstone-{key}"),
            Command::SetConfig { name, value } => format!("set-{}-{}", name.replace('.', "_"), value.replace('.', "_")),
            Command::DeleteRecords { before_offset } => format!("deleterecords-{before_offset}"),
            Command::LookupOffset { offset } => format!("lookup-{offset}"),
            Command::LookupTimestamp { timestamp_ms } => format!("findtime-{timestamp_ms}"),
            Command::StartReader { records_per_sec } => format!("reader-{records_per_sec}"),
        }
    }

    fn decode_command(token: &str) -> Result<Command, crate::model::kernel::TokenError> {
        let legacy = || -> Result<Command, String> {
            let (verb, rest) = token.split_once('-').ok_or_else(|| unknown(token))?;
            let parts: Vec<&str> = rest.split('-').collect();
            match (verb, parts.as_slice()) {
                ("produce", [records, keys, value]) => {
                    Ok(Command::Produce { records: number(records)?, keys: number(keys)?, value_bytes: number(value)? })
                }
                ("tombstone", [key]) => Ok(Command::Tombstone { key: number(key)? }),
                ("set", _) => {
                    let (name, value) = rest.split_once('-').ok_or_else(|| unknown(token))?;
                    Ok(Command::SetConfig { name: name.replace('_', "."), value: value.replace('_', ".") })
                }
                ("deleterecords", _) => Ok(Command::DeleteRecords { before_offset: signed(rest)? }),
                ("lookup", _) => Ok(Command::LookupOffset { offset: signed(rest)? }),
                ("findtime", _) => Ok(Command::LookupTimestamp { timestamp_ms: signed(rest)? }),
                ("reader", [pace]) => Ok(Command::StartReader { records_per_sec: number(pace)? }),
                _ => Err(unknown(token)),
            }
        };
        legacy().map_err(crate::model::kernel::TokenError::Legacy)
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    /// Ten virtual seconds per real second at 1×: produce bursts, rolls and the 5-minute
    /// retention check are visible without waiting (16× passes an hour in ~22 s).
    fn play_scale() -> f64 {
        10.0
    }
}

fn number(text: &str) -> Result<u32, String> {
    text.parse().map_err(|_| format!("\"{text}\" is not a whole number"))
}

fn signed(text: &str) -> Result<i64, String> {
    text.parse().map_err(|_| format!("\"{text}\" is not a whole number"))
}

fn unknown(token: &str) -> String {
    format!(
        "unknown action \"{token}\"; this scene knows produce-N-KEYS-BYTES, tombstone-K, set-NAME-VALUE, \
         deleterecords-N, lookup-N, findtime-MS and reader-N"
    )
}
