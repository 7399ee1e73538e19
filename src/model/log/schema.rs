//! The properties the log scene reads, with Kafka's names, defaults and validators
//! (Kafka 4.x `LogConfig`, `ServerLogConfigs`, `CleanerConfig`, producer `batch.size`).

use crate::model::config::{Kind, Property};

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

/// Checks a `min.cleanable.dirty.ratio` value as Kafka's `between(0, 1)` would, before the step list.
pub fn check_dirty_ratio(raw: &str) -> Result<(), String> {
    let name = "min.cleanable.dirty.ratio";
    let value: f64 = raw
        .trim()
        .parse()
        .map_err(|_| format!("Invalid value {raw} for configuration {name}: Not a number of type DOUBLE"))?;
    if value < 0.0 {
        return Err(format!("Invalid value {raw} for configuration {name}: Value must be at least 0"));
    }
    if value > 1.0 {
        return Err(format!("Invalid value {raw} for configuration {name}: Value must be no more than 1"));
    }
    Ok(())
}
