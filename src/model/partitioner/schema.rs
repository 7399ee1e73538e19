//! The properties the Partitioner scene reads, with Kafka's names and defaults (Kafka 4.x).

use super::facts::Refusal;
use super::load::KeyDistribution;
use crate::model::config::{Config, Kind, Property};

/// Producer defaults as in Kafka 4.x `ProducerConfig` (linger.ms became 5 in 4.0, KIP-1030).
pub const PARTITIONER_SCHEMA: &[Property] = &[
    Property { name: "partitions", default: "6", kind: Kind::Int { min: 1, max: 256 }, scope: "topic" },
    Property { name: "batch.size", default: "16384", kind: Kind::Int { min: 0, max: 2_097_152 }, scope: "producer" },
    Property { name: "linger.ms", default: "5", kind: Kind::Int { min: 0, max: 60_000 }, scope: "producer" },
    Property { name: "partitioner.adaptive.partitioning.enable", default: "true", kind: Kind::Bool, scope: "producer" },
    Property {
        name: "partitioner.availability.timeout.ms",
        default: "0",
        kind: Kind::Int { min: 0, max: 3_600_000 },
        scope: "producer",
    },
    Property { name: "partitioner.ignore.keys", default: "false", kind: Kind::Bool, scope: "producer" },
    // Kafka 4.x enables idempotence by default, which allows at most 5.
    Property {
        name: "max.in.flight.requests.per.connection",
        default: "5",
        kind: Kind::Int { min: 1, max: 5 },
        scope: "producer",
    },
    Property { name: "lab.brokers", default: "3", kind: Kind::Int { min: 1, max: 12 }, scope: "lab" },
    Property { name: "lab.slow.broker", default: "0", kind: Kind::Int { min: 0, max: 12 }, scope: "lab" },
    Property {
        name: "lab.slow.broker.latency.ms",
        default: "1000",
        kind: Kind::Int { min: 0, max: 60_000 },
        scope: "lab",
    },
    Property { name: "lab.key.prefix", default: "cliente", kind: Kind::OneOf(&["cliente", "order"]), scope: "lab" },
    Property { name: "lab.distinct.keys", default: "1000", kind: Kind::Int { min: 1, max: 100_000 }, scope: "lab" },
    Property {
        name: "lab.key.distribution",
        default: "uniform",
        kind: Kind::OneOf(&["uniform", "zipf", "megacorp"]),
        scope: "lab",
    },
    Property { name: "lab.megacorp.percent", default: "40", kind: Kind::Int { min: 0, max: 100 }, scope: "lab" },
    Property { name: "lab.composite.key", default: "false", kind: Kind::Bool, scope: "lab" },
    Property { name: "lab.composite.buckets", default: "8", kind: Kind::Int { min: 2, max: 64 }, scope: "lab" },
    Property { name: "lab.value.bytes", default: "1024", kind: Kind::Int { min: 0, max: 1_000_000 }, scope: "lab" },
    Property {
        name: "lab.producer.records.per.sec",
        default: "1000",
        kind: Kind::Int { min: 1, max: 1000 },
        scope: "lab",
    },
    Property {
        name: "lab.consumer.records.per.sec",
        default: "1000",
        kind: Kind::Int { min: 0, max: 1_000_000 },
        scope: "lab",
    },
];

/// The Partitioner's config, decoded once (no property is read by name elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub partitions: u32,
    pub batch_size_bytes: u32,
    pub linger_ms: u64,
    pub adaptive_partitioning_enable: bool,
    /// `partitioner.availability.timeout.ms` (0: off).
    pub availability_timeout_ms: u64,
    /// `partitioner.ignore.keys`: keyed records go through the sticky partitioner too.
    pub ignore_keys: bool,
    pub max_in_flight_requests_per_connection: u32,
    /// Brokers 1..=brokers lead the partitions round-robin.
    pub brokers: u32,
    /// The broker that answers produce requests after `slow_broker_latency_ms` (the others at once).
    pub slow_broker: Option<u32>,
    pub slow_broker_latency_ms: u64,
    /// `cliente` or `order`: population keys are `<prefix>-<i>`.
    pub key_prefix: &'static str,
    pub distinct_keys: u32,
    pub key_distribution: KeyDistribution,
    pub megacorp_percent: u32,
    pub composite_key: bool,
    pub composite_buckets: u32,
    pub value_bytes: u32,
    pub producer_records_per_sec: u64,
    pub consumer_records_per_sec: u64,
}

impl Settings {
    pub fn from_config(config: &Config) -> Result<Self, Refusal> {
        let int = |name: &str| u64::try_from(config.int(name)).unwrap_or(0);
        let small = |name: &str| u32::try_from(config.int(name)).unwrap_or(0);
        let name = config.str("lab.key.distribution");
        let key_distribution =
            KeyDistribution::parse(name).ok_or_else(|| Refusal::UnknownDistribution { name: name.to_string() })?;
        let brokers = small("lab.brokers");
        let slow_broker = Some(small("lab.slow.broker")).filter(|b| *b > 0);
        if let Some(broker) = slow_broker.filter(|b| *b > brokers) {
            return Err(Refusal::NoSuchBroker { broker, brokers });
        }
        Ok(Self {
            partitions: small("partitions"),
            batch_size_bytes: small("batch.size"),
            linger_ms: int("linger.ms"),
            adaptive_partitioning_enable: config.bool("partitioner.adaptive.partitioning.enable"),
            availability_timeout_ms: int("partitioner.availability.timeout.ms"),
            ignore_keys: config.bool("partitioner.ignore.keys"),
            max_in_flight_requests_per_connection: small("max.in.flight.requests.per.connection"),
            brokers,
            slow_broker,
            slow_broker_latency_ms: int("lab.slow.broker.latency.ms"),
            key_prefix: if config.str("lab.key.prefix") == "order" { "order" } else { "cliente" },
            distinct_keys: small("lab.distinct.keys"),
            key_distribution,
            megacorp_percent: small("lab.megacorp.percent"),
            composite_key: config.bool("lab.composite.key"),
            composite_buckets: small("lab.composite.buckets"),
            value_bytes: small("lab.value.bytes"),
            producer_records_per_sec: int("lab.producer.records.per.sec"),
            consumer_records_per_sec: int("lab.consumer.records.per.sec"),
        })
    }
}
