//! The properties the consumer-groups scene reads, with Kafka's names and defaults.

use crate::model::config::{Kind, Property};

/// Kafka's four classic assignor class names, as `partition.assignment.strategy` takes them.
pub const ASSIGNOR_CLASSES: &[&str] = &[
    "org.apache.kafka.clients.consumer.RangeAssignor",
    "org.apache.kafka.clients.consumer.RoundRobinAssignor",
    "org.apache.kafka.clients.consumer.StickyAssignor",
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
];

/// Consumer, broker (group coordinator) and lab properties of the scene.
pub const GROUP_SCHEMA: &[Property] = &[
    Property { name: "partitions", default: "6", kind: Kind::Int { min: 1, max: 48 }, scope: "topic" },
    Property { name: "lab.members", default: "3", kind: Kind::Int { min: 1, max: 16 }, scope: "lab" },
    Property {
        name: "partition.assignment.strategy",
        default: "org.apache.kafka.clients.consumer.RangeAssignor",
        kind: Kind::OneOf(ASSIGNOR_CLASSES),
        scope: "consumer",
    },
    Property {
        name: "session.timeout.ms",
        default: "45000",
        kind: Kind::Int { min: 6000, max: 1_800_000 },
        scope: "consumer",
    },
    Property {
        name: "heartbeat.interval.ms",
        default: "3000",
        kind: Kind::Int { min: 1, max: 1_800_000 },
        scope: "consumer",
    },
    Property {
        name: "max.poll.interval.ms",
        default: "300000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "consumer",
    },
    Property { name: "max.poll.records", default: "500", kind: Kind::Int { min: 1, max: 100_000 }, scope: "consumer" },
    Property { name: "enable.auto.commit", default: "true", kind: Kind::Bool, scope: "consumer" },
    Property {
        name: "auto.commit.interval.ms",
        default: "5000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "consumer",
    },
    Property {
        name: "auto.offset.reset",
        default: "latest",
        kind: Kind::OneOf(&["latest", "earliest", "none"]),
        scope: "consumer",
    },
    Property {
        name: "metadata.max.age.ms",
        default: "300000",
        kind: Kind::Int { min: 1000, max: 3_600_000 },
        scope: "consumer",
    },
    Property {
        name: "group.initial.rebalance.delay.ms",
        default: "3000",
        kind: Kind::Int { min: 0, max: 600_000 },
        scope: "broker",
    },
    Property { name: "lab.static.membership", default: "false", kind: Kind::Bool, scope: "lab" },
    Property {
        name: "lab.manual.commit",
        default: "after-processing",
        kind: Kind::OneOf(&["after-processing", "before-processing"]),
        scope: "lab",
    },
    Property { name: "lab.handoff.to.worker.thread", default: "false", kind: Kind::Bool, scope: "lab" },
    Property {
        name: "lab.process.ms.per.record",
        default: "2",
        kind: Kind::Int { min: 0, max: 600_000 },
        scope: "lab",
    },
    Property {
        name: "lab.producer.records.per.sec",
        default: "100",
        kind: Kind::Int { min: 0, max: 5000 },
        scope: "lab",
    },
    Property {
        name: "lab.backlog.records.per.partition",
        default: "0",
        kind: Kind::Int { min: 0, max: 100_000 },
        scope: "lab",
    },
    Property { name: "lab.poll.timeout.ms", default: "100", kind: Kind::Int { min: 1, max: 60_000 }, scope: "lab" },
    Property { name: "lab.network.delay.ms", default: "2", kind: Kind::Int { min: 0, max: 5000 }, scope: "lab" },
];
