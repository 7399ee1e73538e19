//! The properties the timing-wheel scene reads.
//!
//! `tickMs` and `wheelSize` are not broker configs: they are the constructor arguments of
//! Kafka's `SystemTimer`/`TimingWheel` (the purgatories use the defaults 1 and 20), so they
//! keep Kafka's own names and the scope "lab". A wheelSize of 1 is refused: every overflow
//! wheel would have the same span as the one below it and an insert would never find a level.

use crate::model::config::{Config, Kind, Property};

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

/// The producer's `acks`, as the config says it (`-1` is `all` by another name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Acks {
    All,
    MinusOne,
    Leader,
}

impl Acks {
    /// True when a produce waits for the whole ISR (a `DelayedProduce`).
    pub fn waits_for_isr(self) -> bool {
        !matches!(self, Acks::Leader)
    }

    /// The value as Kafka's config writes it.
    pub fn kafka_value(self) -> &'static str {
        match self {
            Acks::All => "all",
            Acks::MinusOne => "-1",
            Acks::Leader => "1",
        }
    }
}

/// The scene's config, decoded once (no property is read by name elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub tick_ms: u64,
    pub wheel_size: usize,
    pub purgatory: bool,
    pub acks: Acks,
    pub request_timeout_ms: u64,
    pub replica_fetch_wait_max_ms: u64,
    pub replica_fetch_min_bytes: u64,
    pub replica_lag_time_max_ms: u64,
    pub broker_session_timeout_ms: u64,
    pub fetch_max_wait_ms: u64,
    pub fetch_min_bytes: u64,
    pub network_delay_ms: u64,
}

impl Settings {
    pub fn from_config(config: &Config) -> Self {
        let int = |name: &str| u64::try_from(config.int(name)).unwrap_or(0);
        let acks = match config.str("acks") {
            "1" => Acks::Leader,
            "-1" => Acks::MinusOne,
            _ => Acks::All,
        };
        Self {
            tick_ms: int("tickMs"),
            wheel_size: usize::try_from(int("wheelSize")).unwrap_or(usize::MAX),
            purgatory: config.bool("lab.purgatory"),
            acks,
            request_timeout_ms: int("request.timeout.ms"),
            replica_fetch_wait_max_ms: int("replica.fetch.wait.max.ms"),
            replica_fetch_min_bytes: int("replica.fetch.min.bytes"),
            replica_lag_time_max_ms: int("replica.lag.time.max.ms"),
            broker_session_timeout_ms: int("broker.session.timeout.ms"),
            fetch_max_wait_ms: int("fetch.max.wait.ms"),
            fetch_min_bytes: int("fetch.min.bytes"),
            network_delay_ms: int("lab.network.delay.ms"),
        }
    }
}
