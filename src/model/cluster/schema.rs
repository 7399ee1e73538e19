//! The properties the topic-overview cluster reads, with Kafka's names and defaults.

use crate::model::config::{Kind, Property};

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
        name: "lab.producer.distinct.keys",
        default: "100",
        kind: Kind::Int { min: 1, max: 100_000 },
        scope: "lab",
    },
];
