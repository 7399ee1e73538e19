//! The "Log & index" scene's model: a partition as a directory of segments with
//! sparse offset and time indexes, lookups phase by phase, retention and compaction,
//! following Kafka's storage layer (`UnifiedLog`, `LocalLog`, `LogSegment`,
//! `OffsetIndex`, `TimeIndex`, `LogCleaner`).

pub mod cleaner;
mod facts;
mod housekeeping;
pub mod index;
pub mod lookup;
pub mod memory;
pub mod partition;
pub mod producer;
pub mod reader;
pub mod record;
mod refusal;
pub mod retention;
mod scene;
pub mod schema;
pub mod segment;
mod story;
mod story_say;
#[cfg(test)]
mod story_tests;
pub mod views;
mod world;

pub use cleaner::{CleanerCheck, Cleaning};
pub use facts::{DeletionCause, Fact, ReadError, RollCause, FACT_KEYS};
pub use index::{IndexError, IndexProbe, IndexSearch, OffsetIndex, TimeIndex};
pub use lookup::{LookupComparison, OffsetLookup, ScanPhase, ScannedBatch, TimeLookup};
pub use memory::{memory_report, MemoryReport};
pub use partition::{AppendInfo, NewRecord, PartitionLog, PARTITION, TOPIC};
pub use refusal::{DeleteRecordsError, Refusal, REFUSAL_KEYS};
pub use retention::{Deletion, DeletionReason};
pub use scene::WALKTHROUGH_SEGMENT_BYTES;
pub use schema::{LogSettings, Settings, LOG_SCHEMA};
pub use segment::{RollReason, Segment};

use crate::model::config::Config;
use crate::model::kernel::{Actor, Ctx};
use producer::Producer;
use reader::TableReader;

/// The log scene's kernel context.
pub type LogCtx = Ctx<Event, Fact>;

/// The partition's log as Kafka's log lines name it (`orders-0`).
pub const PARTITION_LOG: Actor = Actor::PartitionLog(0);
/// Kafka's log cleaner thread.
pub const LOG_CLEANER: Actor = Actor::Cleaner;
/// The lab's slow table reader.
pub const TABLE_READER: Actor = Actor::Reader;
/// `kafka-configs --alter`.
pub const KAFKA_CONFIGS: Actor = Actor::Tool("kafka-configs");
/// `kafka-delete-records`.
pub const KAFKA_DELETE_RECORDS: Actor = Actor::Tool("kafka-delete-records");

/// The scene's events (Kafka's scheduler tasks and the lab's producer and reader).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The producer sends its planned batch.
    SendBatch,
    /// The low-traffic producer's next single record (`lab.trickle.interval.ms`).
    Trickle,
    /// LogManager's `kafka-log-retention` task (`log.retention.check.interval.ms`).
    RetentionCheck,
    /// One pass of the log cleaner thread (`log.cleaner.backoff.ms` when idle).
    CleanerPass,
    /// The `delete-file` task removing `.deleted` files (`file.delete.delay.ms`).
    DeleteFiles,
    /// The table reader's next second of reading.
    ReaderTick,
}

/// What a learner can do in the scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Produce `records` records with keys from `keys` distinct keys (0 = no key) and `value_bytes` values.
    Produce {
        records: u32,
        keys: u32,
        value_bytes: u32,
    },
    /// A record with `key` and a null value.
    Tombstone {
        key: u32,
    },
    /// `kafka-configs --alter --add-config name=value`.
    SetConfig {
        name: String,
        value: String,
    },
    /// `kafka-delete-records` up to `before_offset` (-1 = the high watermark).
    DeleteRecords {
        before_offset: i64,
    },
    LookupOffset {
        offset: i64,
    },
    LookupTimestamp {
        timestamp_ms: i64,
    },
    /// Start a steady producer (no Kafka counterpart: `kafka-producer-perf-test --throughput`):
    /// records with keys from `keys` distinct keys (0 = no key) of `value_bytes` at
    /// `lab.producer.records.per.sec`, batched by `batch.size`, up to [`MAX_PRODUCE_RECORDS`].
    StartProducer {
        keys: u32,
        value_bytes: u32,
    },
    /// Start a consumer rebuilding a table from the log start, `records_per_sec` records a second.
    StartReader {
        records_per_sec: u32,
    },
}

/// The last lookup, kept for the UI to animate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LookupResult {
    Offset(Result<OffsetLookup, ReadError>),
    Timestamp(TimeLookup),
}

/// The most records one Produce command sends.
pub const MAX_PRODUCE_RECORDS: u32 = 2_000_000;

/// The whole log scene; reads every property of [`LOG_SCHEMA`] through [`Settings`].
#[derive(Clone, Debug)]
pub struct LogLab {
    config: Config,
    settings: Settings,
    log: PartitionLog,
    producer: Producer,
    reader: Option<TableReader>,
    last_lookup: Option<LookupResult>,
    last_cleaner_check: Option<CleanerCheck>,
    trickle_sent: u64,
    /// The active segment a retention check last reported as held back (reported once per segment).
    held_back_reported: Option<i64>,
}

impl LogLab {
    pub fn new(config: Config) -> Self {
        let settings = Settings::from_config(&config);
        let log = PartitionLog::new(settings.log.clone(), 0);
        Self {
            config,
            settings,
            log,
            producer: Producer::default(),
            reader: None,
            last_lookup: None,
            last_cleaner_check: None,
            trickle_sent: 0,
            held_back_reported: None,
        }
    }

    /// The properties in force, as `kafka-configs --describe` prints them.
    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn log(&self) -> &PartitionLog {
        &self.log
    }

    pub fn last_lookup(&self) -> Option<&LookupResult> {
        self.last_lookup.as_ref()
    }

    pub fn last_cleaner_check(&self) -> Option<&CleanerCheck> {
        self.last_cleaner_check.as_ref()
    }

    pub fn reader(&self) -> Option<&TableReader> {
        self.reader.as_ref()
    }

    /// True while a produce burst is still sending.
    pub fn producing(&self) -> bool {
        !self.producer.bursts.is_empty()
    }

    /// True while anything appends on its own: a burst, the steady producer or the trickle.
    pub fn appending(&self) -> bool {
        self.producing() || self.settings.trickle_interval_ms > 0
    }
}

pub use story::STORY_KEYS;
