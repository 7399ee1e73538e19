//! The properties the log scene reads, with Kafka's names, defaults and validators
//! (Kafka 4.x `LogConfig`, `ServerLogConfigs`, `CleanerConfig`, producer `batch.size`).

use super::refusal::Refusal;
use crate::model::config::{Config, ConfigError, Kind, Property};

const INT_MAX: i64 = i32::MAX as i64;

/// `min.cleanable.dirty.ratio` is a DOUBLE in [0, 1]; the lab's config offers these steps.
pub const DIRTY_RATIO_STEPS: &[&str] = &[
    "0", "0.01", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.45", "0.5", "0.55", "0.6", "0.65",
    "0.7", "0.75", "0.8", "0.85", "0.9", "0.95", "0.99", "1",
];

/// `cleanup.policy` is a LIST of `compact` and `delete`.
pub const CLEANUP_POLICIES: &[&str] = &["delete", "compact", "compact,delete", "delete,compact"];

/// The log scene's schema: topic configs, broker log configs, the producer's batch size, lab knobs.
pub const LOG_SCHEMA: &[Property] = &[
    // Kafka 4.0 raised the minimum of segment.bytes to 1 MiB.
    Property {
        name: "segment.bytes",
        default: "1073741824",
        kind: Kind::Int { min: 1_048_576, max: INT_MAX },
        scope: "topic",
    },
    Property { name: "segment.ms", default: "604800000", kind: Kind::Int { min: 1, max: i64::MAX }, scope: "topic" },
    Property {
        name: "segment.index.bytes",
        default: "10485760",
        kind: Kind::Int { min: 4, max: INT_MAX },
        scope: "topic",
    },
    Property {
        name: "index.interval.bytes",
        default: "4096",
        kind: Kind::Int { min: 0, max: INT_MAX },
        scope: "topic",
    },
    Property { name: "retention.ms", default: "604800000", kind: Kind::Int { min: -1, max: i64::MAX }, scope: "topic" },
    Property {
        name: "retention.bytes",
        default: "-1",
        kind: Kind::Int { min: i64::MIN, max: i64::MAX },
        scope: "topic",
    },
    Property { name: "cleanup.policy", default: "delete", kind: Kind::OneOf(CLEANUP_POLICIES), scope: "topic" },
    Property {
        name: "delete.retention.ms",
        default: "86400000",
        kind: Kind::Int { min: 0, max: i64::MAX },
        scope: "topic",
    },
    Property {
        name: "min.cleanable.dirty.ratio",
        default: "0.5",
        kind: Kind::OneOf(DIRTY_RATIO_STEPS),
        scope: "topic",
    },
    Property { name: "min.compaction.lag.ms", default: "0", kind: Kind::Int { min: 0, max: i64::MAX }, scope: "topic" },
    Property {
        name: "max.compaction.lag.ms",
        default: "9223372036854775807",
        kind: Kind::Int { min: 1, max: i64::MAX },
        scope: "topic",
    },
    Property {
        name: "max.message.bytes",
        default: "1048588",
        kind: Kind::Int { min: 0, max: INT_MAX },
        scope: "topic",
    },
    Property {
        name: "file.delete.delay.ms",
        default: "60000",
        kind: Kind::Int { min: 0, max: i64::MAX },
        scope: "topic",
    },
    Property {
        name: "log.retention.check.interval.ms",
        default: "300000",
        kind: Kind::Int { min: 1, max: i64::MAX },
        scope: "broker",
    },
    // Kafka allows 0; the lab needs a positive pause so its cleaner cannot spin at one instant.
    Property {
        name: "log.cleaner.backoff.ms",
        default: "15000",
        kind: Kind::Int { min: 1, max: i64::MAX },
        scope: "broker",
    },
    Property {
        name: "log.initial.task.delay.ms",
        default: "30000",
        kind: Kind::Int { min: 0, max: i64::MAX },
        scope: "broker",
    },
    Property { name: "batch.size", default: "16384", kind: Kind::Int { min: 0, max: INT_MAX }, scope: "producer" },
    Property {
        name: "max.request.size",
        default: "1048576",
        kind: Kind::Int { min: 0, max: INT_MAX },
        scope: "producer",
    },
    Property {
        name: "buffer.memory",
        default: "33554432",
        kind: Kind::Int { min: 0, max: i64::MAX },
        scope: "producer",
    },
    Property {
        name: "lab.producer.records.per.sec",
        default: "10000",
        kind: Kind::Int { min: 1, max: 10_000_000 },
        scope: "lab",
    },
    Property {
        name: "lab.trickle.interval.ms",
        default: "0",
        kind: Kind::Int { min: 0, max: 86_400_000 },
        scope: "lab",
    },
];

/// The property whose DOUBLE range the lab checks before its step list.
pub const DIRTY_RATIO: &str = "min.cleanable.dirty.ratio";

/// Checks a `min.cleanable.dirty.ratio` value as Kafka's `between(0, 1)` would, before the step list.
pub fn check_dirty_ratio(raw: &str) -> Result<(), Refusal> {
    let name = DIRTY_RATIO;
    let value: f64 = raw.trim().parse().map_err(|_| Refusal::NotADouble { name, raw: raw.to_string() })?;
    if value < 0.0 {
        return Err(Refusal::Config(ConfigError::AtLeast { name, raw: raw.to_string(), min: 0 }));
    }
    if value > 1.0 {
        return Err(Refusal::Config(ConfigError::NoMoreThan { name, raw: raw.to_string(), max: 1 }));
    }
    Ok(())
}

/// Kafka's `LogConfig.validateValues`: `min.compaction.lag.ms` may not exceed `max.compaction.lag.ms`.
pub fn check_compaction_lags(config: &Config) -> Result<(), Refusal> {
    let (min_compaction_lag_ms, max_compaction_lag_ms) =
        (config.int("min.compaction.lag.ms"), config.int("max.compaction.lag.ms"));
    if min_compaction_lag_ms > max_compaction_lag_ms {
        return Err(Refusal::CompactionLagConflict { min_compaction_lag_ms, max_compaction_lag_ms });
    }
    Ok(())
}

/// Kafka's `LogConfig` values the partition log reads: `segment.bytes`, `segment.ms`, `segment.index.bytes`,
/// `index.interval.bytes`, `retention.ms`, `retention.bytes`, `cleanup.policy`, `delete.retention.ms`,
/// `min.cleanable.dirty.ratio`, `min.compaction.lag.ms`, `max.compaction.lag.ms`, `max.message.bytes`,
/// `file.delete.delay.ms`.
#[derive(Clone, Debug, PartialEq)]
pub struct LogSettings {
    pub segment_bytes: u32,
    pub segment_ms: i64,
    pub segment_index_bytes: u32,
    pub index_interval_bytes: u32,
    pub retention_ms: i64,
    pub retention_bytes: i64,
    /// `cleanup.policy` has `compact`.
    pub compact: bool,
    /// `cleanup.policy` has `delete`.
    pub delete: bool,
    pub delete_retention_ms: i64,
    pub min_cleanable_dirty_ratio: f64,
    /// `min.compaction.lag.ms`: records younger than this stay uncleaned.
    pub min_compaction_lag_ms: i64,
    /// `max.compaction.lag.ms`: a dirty record older than this makes the log clean whatever its ratio.
    pub max_compaction_lag_ms: i64,
    /// The largest record batch the broker appends (topic `max.message.bytes`).
    pub max_message_bytes: u32,
    pub file_delete_delay_ms: i64,
}

impl LogSettings {
    pub fn from_config(config: &Config) -> Self {
        let policy = config.str("cleanup.policy");
        Self {
            segment_bytes: config.int("segment.bytes") as u32,
            segment_ms: config.int("segment.ms"),
            segment_index_bytes: config.int("segment.index.bytes") as u32,
            index_interval_bytes: config.int("index.interval.bytes") as u32,
            retention_ms: config.int("retention.ms"),
            retention_bytes: config.int("retention.bytes"),
            compact: policy.split(',').any(|p| p == "compact"),
            delete: policy.split(',').any(|p| p == "delete"),
            delete_retention_ms: config.int("delete.retention.ms"),
            min_cleanable_dirty_ratio: config.str(DIRTY_RATIO).parse().unwrap_or(0.5),
            max_message_bytes: config.int("max.message.bytes") as u32,
            min_compaction_lag_ms: config.int("min.compaction.lag.ms"),
            max_compaction_lag_ms: config.int("max.compaction.lag.ms"),
            file_delete_delay_ms: config.int("file.delete.delay.ms"),
        }
    }
}

/// The log scene's config, decoded once (no property is read by name elsewhere).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// What the partition log itself reads.
    pub log: LogSettings,
    /// `log.retention.check.interval.ms`: the retention task's period.
    pub retention_check_interval_ms: u64,
    /// `log.cleaner.backoff.ms`: the cleaner's pause when it found nothing to clean.
    pub cleaner_backoff_ms: u64,
    /// `log.initial.task.delay.ms`: when the first retention check runs.
    pub initial_task_delay_ms: u64,
    /// The producer's `batch.size`.
    pub batch_size_bytes: u32,
    /// The producer's `max.request.size`: the largest record it sends (`ensureValidRecordSize`).
    pub max_request_size_bytes: u32,
    /// The producer's `buffer.memory`: a record must also fit in it.
    pub buffer_memory_bytes: i64,
    /// `lab.producer.records.per.sec`.
    pub records_per_sec: u64,
    /// `lab.trickle.interval.ms` (0: no trickle).
    pub trickle_interval_ms: u64,
}

impl Settings {
    pub fn from_config(config: &Config) -> Self {
        let ms = |name: &str| u64::try_from(config.int(name)).unwrap_or(0);
        Self {
            log: LogSettings::from_config(config),
            retention_check_interval_ms: ms("log.retention.check.interval.ms"),
            cleaner_backoff_ms: ms("log.cleaner.backoff.ms"),
            initial_task_delay_ms: ms("log.initial.task.delay.ms"),
            batch_size_bytes: config.int("batch.size") as u32,
            max_request_size_bytes: config.int("max.request.size") as u32,
            buffer_memory_bytes: config.int("buffer.memory"),
            records_per_sec: ms("lab.producer.records.per.sec"),
            trickle_interval_ms: ms("lab.trickle.interval.ms"),
        }
    }
}
