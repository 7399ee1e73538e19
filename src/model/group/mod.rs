//! The "Consumer groups" scene (classic protocol): Kafka's client-side assignors, the group
//! coordinator's state machine, members with a heartbeat thread and a poll loop, commits and lag.

pub mod assignor;
mod churn;
mod client;
mod client_flow;
mod coordinator;
mod facts;
mod faults;
mod join;
mod ledger;
mod rebalance;
mod scene;
mod schema;
mod story;
mod views;
mod world;

use crate::model::kernel::sorted::SortedMap;

pub use churn::{Churn, Departure};
pub use coordinator::{Coordinator, GroupMember, NEW_MEMBER_JOIN_TIMEOUT_MS};
pub use facts::{
    CoordinatorFact, Fact, MemberFact, Protocol, RebalanceFact, RebalanceReason, Refusal, TopicFact, FACT_KEYS,
    MAX_MS_PER_RECORD, MAX_PAUSE_MS, REFUSAL_KEYS,
};
pub use join::{AfterCommit, JoinMetadata};
pub use ledger::{Ledger, PartitionLedger, Processed};
pub use scene::PRESETS;
pub use schema::{ManualCommit, OffsetReset, Settings, Strategy, ASSIGNOR_CLASSES, GROUP_SCHEMA, STRATEGY_VALUES};
pub use views::{DescribeRow, MemberView};

use crate::model::kernel::{Ctx, Fault};
use assignor::AssignorKind;
use client::Member;

/// The scene's kernel context.
pub type GroupCtx = Ctx<Event, Fact>;

/// The topic the scene's group consumes.
pub use crate::model::TOPIC;
/// Kafka's group id for the scene.
pub const GROUP_ID: &str = "lab-group";
/// How often lag is sampled for the chart.
pub const SAMPLE_EVERY_MS: u64 = 1000;
/// Lag samples kept per partition (15 minutes at one per second).
pub const MAX_SAMPLES: usize = 900;
/// The most members a lab group may have.
pub const MAX_MEMBERS: u32 = 32;
/// The most partitions the topic may grow to.
pub const MAX_PARTITIONS: u32 = 48;

/// Kafka's `ClassicGroupState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GroupState {
    Empty,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
    Dead,
}

impl GroupState {
    /// The name `kafka-consumer-groups --describe --state` prints.
    pub fn kafka_name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
            GroupState::Dead => "Dead",
        }
    }
}

/// Why a member sends LeaveGroup (the reason Kafka's client puts in the request).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaveReason {
    /// The heartbeat thread found `poll()` overdue (`max.poll.interval.ms`).
    PollTimeout,
    /// `consumer.close()`.
    Closed,
}

impl LeaveReason {
    /// Kafka's own reason text.
    pub fn kafka_text(self) -> &'static str {
        match self {
            LeaveReason::PollTimeout => "consumer poll timeout has expired.",
            LeaveReason::Closed => "the consumer is being closed",
        }
    }
}

/// Where the member's `ConsumerCoordinator` is in the join protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientPhase {
    Unjoined,
    Joining,
    AwaitingSync,
    Stable,
}

impl ClientPhase {
    /// The phase's name as the lab shows it.
    pub fn name(self) -> &'static str {
        match self {
            ClientPhase::Unjoined => "Unjoined",
            ClientPhase::Joining => "Joining",
            ClientPhase::AwaitingSync => "AwaitingSync",
            ClientPhase::Stable => "Stable",
        }
    }
}

/// What a span on a member's lane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanKind {
    /// A heartbeat sent by the heartbeat thread (an instant).
    Heartbeat,
    /// The processing loop working on a polled batch.
    Process,
    /// JoinGroup sent, waiting for the response (the coordinator is in PreparingRebalance).
    Joining,
    /// JoinGroup answered, waiting for the SyncGroup response (CompletingRebalance).
    AwaitingSync,
    /// A stop-the-world pause: both threads frozen.
    Paused,
    /// The poll timeout expired (an instant).
    PollTimeout,
    /// The process is down.
    Dead,
}

/// One span of a member lane; `to_ms == u64::MAX` while still open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneSpan {
    pub kind: SpanKind,
    pub from_ms: u64,
    pub to_ms: u64,
}

/// A stretch during which a member processed nothing because a rebalance revoked its partitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StopSpan {
    /// The member's index (`C1` is 1).
    pub member: u32,
    pub from_ms: u64,
    pub to_ms: u64,
    /// The generation the rebalance ended in.
    pub generation: i32,
}

impl StopSpan {
    pub fn duration_ms(&self) -> u64 {
        self.to_ms - self.from_ms
    }
}

/// A lag chart point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagSample {
    pub time_ms: u64,
    pub lag: i64,
}

/// A client → coordinator request (Kafka's JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    JoinGroup {
        member_id: Option<String>,
        instance_id: Option<String>,
        session_timeout_ms: u64,
        metadata: JoinMetadata,
    },
    SyncGroup {
        member_id: String,
        generation: i32,
        assignments: Option<SortedMap<String, Vec<u32>>>,
    },
    Heartbeat {
        member_id: String,
        generation: i32,
    },
    LeaveGroup {
        member_id: String,
        reason: LeaveReason,
    },
    OffsetCommit {
        member_id: Option<String>,
        generation: i32,
        offsets: SortedMap<u32, i64>,
        then: AfterCommit,
    },
}

/// Kafka's error codes the group protocol returns here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    None,
    RebalanceInProgress,
    UnknownMemberId,
    IllegalGeneration,
    /// KIP-394: a new dynamic member must rejoin with the member id the coordinator gave it.
    MemberIdRequired,
    /// `session.timeout.ms` outside `group.min.session.timeout.ms`..`group.max.session.timeout.ms`.
    InvalidSessionTimeout,
}

impl ErrorCode {
    pub fn kafka_name(self) -> &'static str {
        match self {
            ErrorCode::None => "NONE",
            ErrorCode::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            ErrorCode::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            ErrorCode::IllegalGeneration => "ILLEGAL_GENERATION",
            ErrorCode::MemberIdRequired => "MEMBER_ID_REQUIRED",
            ErrorCode::InvalidSessionTimeout => "INVALID_SESSION_TIMEOUT",
        }
    }
}

/// One member's subscription as the leader receives it in the JoinGroup response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberMetadata {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub owned: Vec<u32>,
    pub generation: i32,
}

/// A coordinator → client response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    Join {
        error: ErrorCode,
        member_id: String,
        generation: i32,
        /// The group's selected protocol (the assignor the leader runs).
        protocol: Option<AssignorKind>,
        leader: String,
        members: Vec<MemberMetadata>,
    },
    Sync {
        error: ErrorCode,
        assignment: Vec<u32>,
    },
    Heartbeat {
        error: ErrorCode,
    },
    Commit {
        error: ErrorCode,
        offsets: SortedMap<u32, i64>,
        then: AfterCommit,
    },
}

/// The scene's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The steady producer appends one record.
    Produce,
    /// A request reaches the coordinator.
    ToCoordinator { member: u32, incarnation: u32, request: Request },
    /// A response reaches a member's process.
    ToMember { member: u32, incarnation: u32, response: Response },
    /// The member's heartbeat thread wakes up (`heartbeat.interval.ms`).
    HeartbeatTick { member: u32, incarnation: u32 },
    /// The member's processing thread calls `poll()`.
    Poll { member: u32, incarnation: u32 },
    /// The member finished processing the batch `poll()` returned.
    BatchDone { member: u32, incarnation: u32, batch: u64 },
    /// The member's worker thread finished one handed-off batch.
    WorkerDone { member: u32, incarnation: u32, batch: u64 },
    /// The leader's periodic metadata refresh (`metadata.max.age.ms`).
    MetadataRefresh { member: u32, incarnation: u32 },
    /// The coordinator's heartbeat deadline for a member (`session.timeout.ms`).
    SessionExpiry { member_id: String, deadline_ms: u64 },
    /// `group.initial.rebalance.delay.ms` elapsed for an empty group's first rebalance.
    InitialDelay { rebalance: u64, delay_ms: u64, remaining_ms: u64 },
    /// The rebalance timeout (`max.poll.interval.ms`) of a join phase.
    JoinTimeout { rebalance: u64 },
    /// The rebalance timeout of a sync phase.
    SyncTimeout { generation: i32 },
    /// Take a lag sample for the chart.
    Sample,
}

/// What a user can do to the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A fault aimed at member `Node::Id(index)`: `Crash` (kill -9), `Restart` (same
    /// `group.instance.id` if static), `Pause` for a duration (a stop-the-world GC pause) and
    /// `Slow` (its `delay_ms` is the new processing time per record). Other faults are refused.
    Fault(Fault),
    /// The next record on this partition is a poison pill that always fails processing.
    Poison(u32),
    /// Start this many new members.
    AddMembers(u32),
    /// Close a member cleanly (`consumer.close()`).
    Close(u32),
    /// Grow the topic to this many partitions (`kafka-topics --alter --partitions`).
    GrowPartitions(u32),
}

/// The whole consumer-groups model: one topic, a coordinator, members, a producer, a ledger.
#[derive(Clone, Debug)]
pub struct GroupLab {
    settings: Settings,
    /// Log end offset per partition.
    log_end: Vec<i64>,
    /// Poison-pill offset per partition.
    poison: SortedMap<u32, i64>,
    coordinator: Coordinator,
    members: Vec<Member>,
    ledger: Ledger,
    lag_history: Vec<Vec<LagSample>>,
    stops: Vec<StopSpan>,
    departures: Vec<Departure>,
}

impl GroupLab {
    /// Builds the lab the settings describe; rejects impossible combinations with Kafka's message.
    pub fn new(settings: Settings) -> Result<Self, Refusal> {
        if settings.heartbeat_interval_ms >= settings.session_timeout_ms {
            return Err(Refusal::HeartbeatNotBelowSession {
                heartbeat_interval_ms: settings.heartbeat_interval_ms,
                session_timeout_ms: settings.session_timeout_ms,
            });
        }
        let partitions = settings.partitions as usize;
        let members = (1..=settings.members).map(|i| Member::new(i, &settings)).collect();
        Ok(Self {
            log_end: vec![settings.backlog_records_per_partition; partitions],
            poison: SortedMap::new(),
            coordinator: Coordinator::new(&settings),
            members,
            ledger: Ledger::new(partitions),
            lag_history: vec![Vec::new(); partitions],
            stops: Vec::new(),
            departures: Vec::new(),
            settings,
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The assignor the group runs: the protocol the coordinator selected, else the members'
    /// first preference (before the first join).
    pub fn assignor(&self) -> AssignorKind {
        self.coordinator.protocol.unwrap_or_else(|| self.settings.strategy.preferred())
    }

    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    pub fn log_end_offsets(&self) -> &[i64] {
        &self.log_end
    }

    fn member(&self, index: u32) -> &Member {
        &self.members[(index - 1) as usize]
    }

    fn member_mut(&mut self, index: u32) -> &mut Member {
        &mut self.members[(index - 1) as usize]
    }

    /// Lag of a partition: log end offset − committed offset (the whole log if nothing committed).
    pub fn lag(&self, partition: u32) -> i64 {
        let committed = self.coordinator.committed(partition).unwrap_or(0);
        self.log_end[partition as usize] - committed
    }
}

pub use story::{churn_figures, loop_verdict, STORY_KEYS};
