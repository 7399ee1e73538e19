//! The properties the consumer-groups scene reads, with Kafka's names and defaults.

use super::assignor::AssignorKind;
use crate::model::config::{Config, Kind, Property};

const INT_MAX: i64 = i32::MAX as i64;

/// Kafka's four classic assignor class names, as `partition.assignment.strategy` takes them.
pub const ASSIGNOR_CLASSES: &[&str] = &[
    "org.apache.kafka.clients.consumer.RangeAssignor",
    "org.apache.kafka.clients.consumer.RoundRobinAssignor",
    "org.apache.kafka.clients.consumer.StickyAssignor",
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
];

/// `partition.assignment.strategy` is a LIST of assignor classes by preference; the lab takes one
/// or two of Kafka's four (Kafka's default, `[RangeAssignor, CooperativeStickyAssignor]`, first).
pub const STRATEGY_VALUES: &[&str] = &[
    "org.apache.kafka.clients.consumer.RangeAssignor,org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
    "org.apache.kafka.clients.consumer.RangeAssignor",
    "org.apache.kafka.clients.consumer.RoundRobinAssignor",
    "org.apache.kafka.clients.consumer.StickyAssignor",
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
    "org.apache.kafka.clients.consumer.RangeAssignor,org.apache.kafka.clients.consumer.RoundRobinAssignor",
    "org.apache.kafka.clients.consumer.RangeAssignor,org.apache.kafka.clients.consumer.StickyAssignor",
    "org.apache.kafka.clients.consumer.RoundRobinAssignor,org.apache.kafka.clients.consumer.RangeAssignor",
    "org.apache.kafka.clients.consumer.RoundRobinAssignor,org.apache.kafka.clients.consumer.StickyAssignor",
    "org.apache.kafka.clients.consumer.RoundRobinAssignor,org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
    "org.apache.kafka.clients.consumer.StickyAssignor,org.apache.kafka.clients.consumer.RangeAssignor",
    "org.apache.kafka.clients.consumer.StickyAssignor,org.apache.kafka.clients.consumer.RoundRobinAssignor",
    "org.apache.kafka.clients.consumer.StickyAssignor,org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor,org.apache.kafka.clients.consumer.RangeAssignor",
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor,org.apache.kafka.clients.consumer.RoundRobinAssignor",
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor,org.apache.kafka.clients.consumer.StickyAssignor",
];

/// Consumer, broker (group coordinator) and lab properties of the scene.
pub const GROUP_SCHEMA: &[Property] = &[
    Property { name: "partitions", default: "6", kind: Kind::Int { min: 1, max: 48 }, scope: "topic" },
    Property { name: "lab.members", default: "3", kind: Kind::Int { min: 1, max: 16 }, scope: "lab" },
    Property {
        name: "partition.assignment.strategy",
        default: "org.apache.kafka.clients.consumer.RangeAssignor,org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
        kind: Kind::OneOf(STRATEGY_VALUES),
        scope: "consumer",
    },
    // The client does not range-check session.timeout.ms; the coordinator does, at JoinGroup.
    Property {
        name: "session.timeout.ms",
        default: "45000",
        kind: Kind::Int { min: 1, max: INT_MAX },
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
    Property {
        name: "group.min.session.timeout.ms",
        default: "6000",
        kind: Kind::Int { min: 1, max: INT_MAX },
        scope: "broker",
    },
    Property {
        name: "group.max.session.timeout.ms",
        default: "1800000",
        kind: Kind::Int { min: 1, max: INT_MAX },
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

/// `auto.offset.reset`: where a member starts on a partition without a committed offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffsetReset {
    Latest,
    Earliest,
    /// Kafka throws NoOffsetForPartitionException; the lab starts at the log end, as for latest.
    None,
}

/// `lab.manual.commit`: when `commitSync` runs when auto-commit is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManualCommit {
    AfterProcessing,
    BeforeProcessing,
}

/// The scene's config, decoded once (no property is read by name elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub partitions: u32,
    pub members: u32,
    pub strategy: Strategy,
    pub session_timeout_ms: u64,
    pub group_min_session_timeout_ms: u64,
    pub group_max_session_timeout_ms: u64,
    pub heartbeat_interval_ms: u64,
    pub max_poll_interval_ms: u64,
    pub max_poll_records: i64,
    pub enable_auto_commit: bool,
    pub auto_commit_interval_ms: u64,
    pub auto_offset_reset: OffsetReset,
    pub metadata_max_age_ms: u64,
    pub group_initial_rebalance_delay_ms: u64,
    pub static_membership: bool,
    pub manual_commit: ManualCommit,
    pub handoff_to_worker_thread: bool,
    pub process_ms_per_record: u64,
    pub records_per_sec: u64,
    pub backlog_records_per_partition: i64,
    pub poll_timeout_ms: u64,
    pub network_delay_ms: u64,
}

impl Settings {
    pub fn from_config(config: &Config) -> Self {
        let ms = |name: &str| u64::try_from(config.int(name)).unwrap_or(0);
        let small = |name: &str| u32::try_from(config.int(name)).unwrap_or(0);
        let auto_offset_reset = match config.str("auto.offset.reset") {
            "earliest" => OffsetReset::Earliest,
            "none" => OffsetReset::None,
            _ => OffsetReset::Latest,
        };
        let manual_commit = match config.str("lab.manual.commit") {
            "before-processing" => ManualCommit::BeforeProcessing,
            _ => ManualCommit::AfterProcessing,
        };
        Self {
            partitions: small("partitions"),
            members: small("lab.members"),
            strategy: Strategy::from_config(config.str("partition.assignment.strategy")),
            session_timeout_ms: ms("session.timeout.ms"),
            group_min_session_timeout_ms: ms("group.min.session.timeout.ms"),
            group_max_session_timeout_ms: ms("group.max.session.timeout.ms"),
            heartbeat_interval_ms: ms("heartbeat.interval.ms"),
            max_poll_interval_ms: ms("max.poll.interval.ms"),
            max_poll_records: config.int("max.poll.records"),
            enable_auto_commit: config.bool("enable.auto.commit"),
            auto_commit_interval_ms: ms("auto.commit.interval.ms"),
            auto_offset_reset,
            metadata_max_age_ms: ms("metadata.max.age.ms"),
            group_initial_rebalance_delay_ms: ms("group.initial.rebalance.delay.ms"),
            static_membership: config.bool("lab.static.membership"),
            manual_commit,
            handoff_to_worker_thread: config.bool("lab.handoff.to.worker.thread"),
            process_ms_per_record: ms("lab.process.ms.per.record"),
            records_per_sec: ms("lab.producer.records.per.sec"),
            backlog_records_per_partition: config.int("lab.backlog.records.per.partition"),
            poll_timeout_ms: ms("lab.poll.timeout.ms"),
            network_delay_ms: ms("lab.network.delay.ms"),
        }
    }
}

/// The assignors of `partition.assignment.strategy`, by preference (at most Kafka's four).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    kinds: [AssignorKind; 4],
    len: usize,
}

impl Strategy {
    /// Reads a list of class names separated by commas; unknown names are skipped (the schema
    /// only lets known ones through), an empty list means Kafka's default.
    pub fn from_config(value: &str) -> Self {
        let mut strategy = Self { kinds: [AssignorKind::Range; 4], len: 0 };
        for kind in value.split(',').filter_map(|name| AssignorKind::from_config(name.trim())) {
            if strategy.len < 4 && !strategy.list().contains(&kind) {
                strategy.kinds[strategy.len] = kind;
                strategy.len += 1;
            }
        }
        if strategy.len == 0 {
            return Self::from_config(STRATEGY_VALUES[0]);
        }
        strategy
    }

    pub fn list(&self) -> &[AssignorKind] {
        &self.kinds[..self.len]
    }

    /// The member's first choice.
    pub fn preferred(&self) -> AssignorKind {
        self.kinds[0]
    }

    /// COOPERATIVE only if every assignor in the list supports it, else EAGER (Kafka:
    /// `ConsumerCoordinator`'s constructor keeps the protocols all assignors share, then the highest).
    pub fn is_cooperative(&self) -> bool {
        self.list().iter().all(|k| k.is_cooperative())
    }
}
