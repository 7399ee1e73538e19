//! The properties the Partitioner scene reads, with Kafka's names and defaults (Kafka 4.x).

use crate::model::config::{Kind, Property};

/// Producer defaults as in Kafka 4.x `ProducerConfig` (linger.ms became 5 in 4.0, KIP-1030).
pub const PARTITIONER_SCHEMA: &[Property] = &[
    Property { name: "partitions", default: "6", kind: Kind::Int { min: 1, max: 256 }, scope: "topic" },
    Property { name: "batch.size", default: "16384", kind: Kind::Int { min: 0, max: 2_097_152 }, scope: "producer" },
    Property { name: "linger.ms", default: "5", kind: Kind::Int { min: 0, max: 60_000 }, scope: "producer" },
    Property { name: "partitioner.adaptive.partitioning.enable", default: "true", kind: Kind::Bool, scope: "producer" },
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
