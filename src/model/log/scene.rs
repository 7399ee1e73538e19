//! The log scene as the shell drives it: link tokens for its commands and its presets.

use super::schema::LOG_SCHEMA;
use super::{Command, LogLab, Refusal};
use crate::model::config::{Config, Property};
use crate::model::kernel::{Sim, Token, TokenError};
use crate::model::scene::{LabScene, Preset};

/// `segment.bytes` that holds exactly the first 368421 keyless 1 KiB records in 16 KiB batches
/// (checked against the model's own sizing by `tests/log_walkthrough.rs`).
pub const WALKTHROUGH_SEGMENT_BYTES: &str = "382077175";

/// The steady workload's value size: the 1 KiB records every preset sends.
pub const WORKLOAD_VALUE_BYTES: u32 = 1024;
/// Distinct keys of the steady workload on a compacted topic.
pub const WORKLOAD_KEYS: u32 = 1000;

const PRESETS: &[Preset] = &[
    Preset {
        id: "lab1-segments",
        title_key: crate::catalog_key!("log.preset.lab1_segments"),
        config: "",
        tape: "produce-100000-0-1024.w15000.set-segment_bytes-1048576.produce-100000-0-1024.w15000",
        seed: 0,
    },
    Preset {
        id: "find-368500",
        title_key: crate::catalog_key!("log.preset.find_368500"),
        config: "segment.bytes=382077175",
        tape: "produce-368421-0-1024.w40000.produce-1000-0-1024.w1000.lookup-368500",
        seed: 1,
    },
    Preset {
        id: "low-traffic-trap",
        title_key: crate::catalog_key!("log.preset.low_traffic_trap"),
        config: "retention.ms=3600000,lab.trickle.interval.ms=60000",
        tape: "w3600000x24",
        seed: 2,
    },
    Preset {
        id: "low-traffic-fixed",
        title_key: crate::catalog_key!("log.preset.low_traffic_fixed"),
        config: "retention.ms=3600000,segment.ms=600000,lab.trickle.interval.ms=60000",
        tape: "w3600000x24",
        seed: 2,
    },
    Preset {
        id: "tombstone-resurrection",
        title_key: crate::catalog_key!("log.preset.tombstone_resurrection"),
        config: "cleanup.policy=compact,segment.bytes=1048576,delete.retention.ms=60000",
        // key-426 is the 4th record the reader reads; later bursts only use key-0..key-399.
        tape: "produce-10000-500-1024.reader-1.w2000.tombstone-426.produce-3000-400-1024.w90000.produce-3000-400-1024.w60000x2",
        seed: 3,
    },
];

impl LabScene for LogLab {
    const ID: &'static str = "log";
    const FIGURE_LABELS: &'static [crate::model::notebook::labels::Label] = crate::model::notebook::labels::LOG;

    fn schema() -> &'static [Property] {
        LOG_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, Refusal> {
        super::schema::check_compaction_lags(config)?;
        Ok(LogLab::new(config.clone()))
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
            Command::StartProducer { keys, value_bytes } => format!("steady-{keys}-{value_bytes}"),
        }
    }

    fn decode_command(text: &str) -> Result<Command, TokenError> {
        let token = Token::parse(text);
        // A verb alone was never a command of this scene (`lookup`, `set`): the grammar says what is.
        if !text.contains('-') {
            return Err(token.unknown(GRAMMAR));
        }
        // Counted as links always split them: `tombstone-` has one (empty) argument.
        match (token.verb(), token.rest().split('-').count()) {
            ("produce", 3) => Ok(Command::Produce {
                records: token.number(0)?,
                keys: token.number(1)?,
                value_bytes: token.number(2)?,
            }),
            ("tombstone", 1) => token.number(0).map(|key| Command::Tombstone { key }),
            ("set", _) => {
                let (name, value) = token.rest().split_once('-').ok_or_else(|| token.unknown(GRAMMAR))?;
                Ok(Command::SetConfig { name: name.replace('_', "."), value: value.replace('_', ".") })
            }
            ("deleterecords", _) => signed(token.rest()).map(|before_offset| Command::DeleteRecords { before_offset }),
            ("lookup", _) => signed(token.rest()).map(|offset| Command::LookupOffset { offset }),
            ("findtime", _) => signed(token.rest()).map(|timestamp_ms| Command::LookupTimestamp { timestamp_ms }),
            ("reader", 1) => token.number(0).map(|records_per_sec| Command::StartReader { records_per_sec }),
            ("steady", 2) => Ok(Command::StartProducer { keys: token.number(0)?, value_bytes: token.number(1)? }),
            _ => Err(token.unknown(GRAMMAR)),
        }
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn story(preset: Option<&str>) -> crate::model::story::Story<Self> {
        super::story::story(preset)
    }

    /// A steady producer of 1 KiB records (keyless; keyed on a compacted topic, which refuses null keys).
    fn workload(sim: &Sim<Self>) -> Option<Command> {
        let lab = sim.world();
        if lab.appending() {
            return None;
        }
        let keys = if lab.log().rejects_null_keys() { WORKLOAD_KEYS } else { 0 };
        Some(Command::StartProducer { keys, value_bytes: WORKLOAD_VALUE_BYTES })
    }
}

/// What the log scene's link tokens can be.
const GRAMMAR: &str = "produce-N-KEYS-BYTES, tombstone-K, set-NAME-VALUE, deleterecords-N, lookup-N, findtime-MS, \
                       reader-N and steady-KEYS-BYTES";

/// An offset or a time that may be negative (`lookup--1`, `deleterecords--1` for the high watermark).
fn signed(text: &str) -> Result<i64, TokenError> {
    crate::model::kernel::parse_signed(text)
}
