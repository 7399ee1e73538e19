//! The properties the topic-overview cluster reads, with Kafka's names and defaults.

use crate::model::config::{Config, Kind, Property};

/// Kafka's producer default `acks` since 3.0 is `all`.
pub const OVERVIEW_SCHEMA: &[Property] = &[
    Property { name: "lab.brokers", default: "3", kind: Kind::Int { min: 1, max: 9 }, scope: "lab" },
    Property { name: "partitions", default: "6", kind: Kind::Int { min: 1, max: 48 }, scope: "topic" },
    Property { name: "replication.factor", default: "3", kind: Kind::Int { min: 1, max: 9 }, scope: "topic" },
    Property {
        name: "broker.session.timeout.ms",
        default: "9000",
        kind: Kind::Int { min: 1, max: 600_000 },
        scope: "controller",
    },
    Property {
        name: "broker.heartbeat.interval.ms",
        default: "2000",
        kind: Kind::Int { min: 1, max: 600_000 },
        scope: "broker",
    },
    Property { name: "auto.leader.rebalance.enable", default: "true", kind: Kind::Bool, scope: "broker" },
    Property {
        name: "leader.imbalance.check.interval.seconds",
        default: "300",
        kind: Kind::Int { min: 1, max: 86_400 },
        scope: "broker",
    },
    Property {
        name: "delivery.timeout.ms",
        default: "120000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "producer",
    },
    Property {
        name: "lab.producer.records.per.sec",
        default: "20",
        kind: Kind::Int { min: 0, max: 1000 },
        scope: "lab",
    },
    Property {
        name: "lab.replica.fetch.bytes.per.sec",
        default: "50000",
        kind: Kind::Int { min: 100, max: 100_000_000 },
        scope: "lab",
    },
    Property {
        name: "lab.producer.distinct.keys",
        default: "100",
        kind: Kind::Int { min: 1, max: 100_000 },
        scope: "lab",
    },
];

/// The overview's config, decoded once (no property is read by name elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub brokers: u32,
    pub partitions: u32,
    pub replication_factor: u32,
    pub broker_session_timeout_ms: u64,
    pub broker_heartbeat_interval_ms: u64,
    pub auto_leader_rebalance_enable: bool,
    pub leader_imbalance_check_interval_ms: u64,
    pub delivery_timeout_ms: u64,
    pub records_per_sec: u64,
    /// How many bytes a restarted follower fetches per second, over all the partitions it lags on
    /// (lab: slow, so that catching up takes visible time).
    pub replica_fetch_bytes_per_sec: u64,
    pub distinct_keys: u64,
}

impl Settings {
    pub fn from_config(config: &Config) -> Self {
        let int = |name: &str| u64::try_from(config.int(name)).unwrap_or(0);
        let small = |name: &str| u32::try_from(config.int(name)).unwrap_or(0);
        Self {
            brokers: small("lab.brokers"),
            partitions: small("partitions"),
            replication_factor: small("replication.factor"),
            broker_session_timeout_ms: int("broker.session.timeout.ms"),
            broker_heartbeat_interval_ms: int("broker.heartbeat.interval.ms"),
            auto_leader_rebalance_enable: config.bool("auto.leader.rebalance.enable"),
            leader_imbalance_check_interval_ms: int("leader.imbalance.check.interval.seconds") * 1000,
            delivery_timeout_ms: int("delivery.timeout.ms"),
            records_per_sec: int("lab.producer.records.per.sec"),
            replica_fetch_bytes_per_sec: int("lab.replica.fetch.bytes.per.sec"),
            distinct_keys: int("lab.producer.distinct.keys"),
        }
    }
}
