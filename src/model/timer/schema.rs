//! The properties the timing-wheel scene reads.
//!
//! `tickMs` and `wheelSize` are not broker configs: they are the constructor arguments of
//! Kafka's `SystemTimer`/`TimingWheel` (the purgatories use the defaults 1 and 20), so they
//! keep Kafka's own names and the scope "lab". A wheelSize of 1 is refused: every overflow
//! wheel would have the same span as the one below it and an insert would never find a level.

use crate::model::config::{Kind, Property};

/// Timer constructor arguments, then the purgatory model's Kafka properties.
pub const TIMER_SCHEMA: &[Property] = &[
    Property { name: "tickMs", default: "1", kind: Kind::Int { min: 1, max: 1000 }, scope: "lab" },
    Property { name: "wheelSize", default: "20", kind: Kind::Int { min: 2, max: 512 }, scope: "lab" },
    Property { name: "lab.purgatory", default: "false", kind: Kind::Bool, scope: "lab" },
    Property { name: "acks", default: "all", kind: Kind::OneOf(&["all", "-1", "1"]), scope: "producer" },
    Property {
        name: "request.timeout.ms",
        default: "30000",
        kind: Kind::Int { min: 0, max: 3_600_000 },
        scope: "producer",
    },
    Property {
        name: "replica.fetch.wait.max.ms",
        default: "500",
        kind: Kind::Int { min: 0, max: 600_000 },
        scope: "broker",
    },
    Property {
        name: "replica.fetch.min.bytes",
        default: "1",
        kind: Kind::Int { min: 1, max: 1_000_000 },
        scope: "broker",
    },
    Property {
        name: "replica.lag.time.max.ms",
        default: "30000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "broker",
    },
    Property {
        name: "broker.session.timeout.ms",
        default: "9000",
        kind: Kind::Int { min: 1, max: 600_000 },
        scope: "controller",
    },
    Property { name: "fetch.max.wait.ms", default: "500", kind: Kind::Int { min: 0, max: 600_000 }, scope: "consumer" },
    Property { name: "fetch.min.bytes", default: "1", kind: Kind::Int { min: 1, max: 1_000_000 }, scope: "consumer" },
    Property { name: "lab.network.delay.ms", default: "1", kind: Kind::Int { min: 1, max: 1000 }, scope: "lab" },
];
