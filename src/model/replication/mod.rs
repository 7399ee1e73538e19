//! The "Replication" scene: a partition's leader and followers, the fetch protocol
//! with LEO and high watermark, the ISR, producer acks against `min.insync.replicas`,
//! the controller's (un)clean elections, leader epochs (KIP-101), and a durability ledger.
//!
//! [`ReplicatedPartition`] is the plain, kernel-free model of one partition (usable on
//! its own); [`Replication`] wraps it in a world with a network, faults and a producer.
//! The scene's shared types live here; its components in the files below.

mod controller;
mod diverging;
mod facts;
mod fetcher;
mod high_watermark;
pub mod ledger;
pub mod log;
mod partition;
mod producer;
mod refusals;
mod roles;
mod scene;
pub mod schema;
mod story;
mod truncation;
mod unclean;
mod views;
mod wire;
mod wording;
mod world;

use crate::model::kernel::sorted::{SortedMap, SortedSet};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

pub use diverging::FetchProtocol;
pub use facts::{Fact, IsrDirection, SendError, TruncationCause};
pub use ledger::{Ledger, LedgerEntry, LedgerSummary, Outcome};
pub use log::{EpochEndOffset, FetchedRecords, LeaderEpochCache, LogRecord, Records, ReplicaLog};
pub use partition::{
    Appended, FetchRequest, FetchResponse, FollowerProgress, PartitionError, Replica, ReplicatedPartition, Role,
};
pub use refusals::{Refusal, REFUSAL_KEYS};
pub use roles::{Election, FollowerRequest, Truncation};
pub use schema::{Acks, Settings, REPLICATION_SCHEMA};
pub use truncation::{offset_truncation_state, TruncationStep};
pub use unclean::ElectionError;
pub use views::{
    ControllerView, DescribeLine, DescribeView, ProducerView, PurgatoryView, RecordView, ReplicaRole, ReplicaView,
};
pub use wire::{in_flight, InFlightView, MessageKind, WireDetail, WIRE_KEYS};
pub use wording::FACT_KEYS;

use crate::model::kernel::{Actor, Ctx};
pub use crate::model::kernel::{Fault, Node};

/// The replication scene's kernel context.
pub type RepCtx = Ctx<Event, Fact>;

/// The topic the scene's partition belongs to.
pub use crate::model::TOPIC;

/// The event-log actor a network endpoint is (`broker-2`, `controller`, `producer`).
pub fn node_actor(node: Node) -> Actor {
    match node {
        Node::Id(id) => Actor::Broker(id),
        Node::Controller => Actor::Controller,
        Node::Producer => Actor::Producer,
    }
}

/// A broker process as the scene runs it (a KafkaServer's liveness and its controller session).
#[derive(Clone, Debug, PartialEq)]
pub struct BrokerState {
    pub id: u32,
    pub alive: bool,
    /// Inside a stop-the-world GC pause: it neither sends nor handles anything.
    pub paused: bool,
    /// Fenced by the controller after `broker.session.timeout.ms` without a heartbeat.
    pub fenced: bool,
    /// Extra delay before each of its follower fetches (a slow follower), in ms.
    pub slow_fetch_delay_ms: u64,
    /// Bumped on every change of its controller session, to void a stale expiry timer.
    session_token: u64,
    pause_token: u64,
    /// Bumped whenever it becomes leader, so only one ISR-expiration task runs.
    leader_task_token: u64,
    /// Bumped whenever its fetcher restarts, to void stale fetch responses.
    fetch_session: u64,
    /// Id of its latest fetcher request; an answer or timeout for any other is stale.
    fetch_attempt: u64,
    awaiting_fetch: bool,
    /// Its last fetch attempt was refused (logged once per streak).
    fetch_refused: bool,
    /// Whether its heartbeats currently reach the controller.
    heartbeating: bool,
    /// Events that arrived while paused, handled when the pause ends.
    stash: Vec<Event>,
}

/// A produce request of one record batch (one record) to the partition leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProduceRequest {
    pub request_id: u64,
    pub record_id: u64,
    pub sequence: Option<u64>,
    pub acks_all: bool,
    pub acks_none: bool,
}

/// The scene's events: messages arriving (with their send time, for drawing progress) and timers.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A follower's fetcher thread issues its next request.
    FetcherWakeup {
        follower: u32,
        session: u64,
    },
    FetchArrives {
        leader: u32,
        request: FetchRequest,
        request_id: u64,
        sent_ms: u64,
    },
    FetchResponseArrives {
        follower: u32,
        leader: u32,
        response: FetchResponse,
        request_id: u64,
        sent_ms: u64,
    },
    EpochRequestArrives {
        leader: u32,
        follower: u32,
        leader_epoch: i32,
        current_leader_epoch: i32,
        request_id: u64,
        sent_ms: u64,
    },
    EpochResponseArrives {
        follower: u32,
        leader: u32,
        answer: Result<EpochEndOffset, PartitionError>,
        request_id: u64,
        sent_ms: u64,
    },
    /// No answer within `replica.socket.timeout.ms`.
    FetchTimedOut {
        follower: u32,
        request_id: u64,
    },
    /// A fetch parked in the leader's fetch purgatory reaches `replica.fetch.wait.max.ms`.
    DelayedFetchExpires {
        leader: u32,
        follower: u32,
        request_id: u64,
    },
    ProduceArrives {
        leader: u32,
        request: ProduceRequest,
        sent_ms: u64,
    },
    ProduceResponseArrives {
        from: u32,
        request_id: u64,
        result: Result<i64, PartitionError>,
        sent_ms: u64,
    },
    /// An acks=all produce in the leader's purgatory reaches its timeout.
    DelayedProduceExpires {
        leader: u32,
        request_id: u64,
    },
    /// The producer's own `request.timeout.ms` for an in-flight request.
    ProduceTimedOut {
        request_id: u64,
    },
    /// The producer sends (or retries) a record after `retry.backoff.ms`.
    ProducerRetry {
        record_id: u64,
    },
    /// The producer's steady load (`lab.producer.records.per.sec`).
    ProducerTick,
    /// A leader's periodic `isr-expiration` task (every `replica.lag.time.max.ms` / 2).
    IsrExpiration {
        broker: u32,
        token: u64,
    },
    /// Page-cache writeback and `replication-offset-checkpoint` on every live broker.
    Checkpoint,
    OsFlush,
    /// The controller's heartbeat deadline for a broker.
    SessionExpired {
        broker: u32,
        token: u64,
    },
    /// A GC pause ends.
    PauseEnds {
        broker: u32,
        token: u64,
    },
    /// The controller's periodic unclean-election check (`unclean.leader.election.interval.ms`).
    UncleanElectionCheck,
}

impl Event {
    /// The broker whose process handles this event, if any (paused brokers stash it).
    pub fn target_broker(&self) -> Option<u32> {
        match *self {
            Event::FetcherWakeup { follower, .. }
            | Event::FetchResponseArrives { follower, .. }
            | Event::EpochResponseArrives { follower, .. }
            | Event::FetchTimedOut { follower, .. } => Some(follower),
            Event::FetchArrives { leader, .. }
            | Event::EpochRequestArrives { leader, .. }
            | Event::DelayedFetchExpires { leader, .. }
            | Event::ProduceArrives { leader, .. }
            | Event::DelayedProduceExpires { leader, .. } => Some(leader),
            Event::IsrExpiration { broker, .. } => Some(broker),
            _ => None,
        }
    }
}

/// What a learner can do: produce, inject faults, and flip the unclean-election flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Produce {
        records: u32,
    },
    /// A fault from the shared vocabulary, aimed at a broker (`Node::Id`) or, for cut and
    /// heal, at any two endpoints: `Crash` is kill -9 (the log survives in the page cache),
    /// `PowerFail` loses what the OS had not written back, `Pause` is a stop-the-world GC
    /// pause, `Slow` makes each of a follower's fetches wait longer (0 ends it).
    Fault(Fault),
    /// `kafka-configs --alter --add-config unclean.leader.election.enable=...`: the controller
    /// elects uncleanly at its next periodic check, not at once (token `unclean-0/1`).
    SetUncleanElection(bool),
    /// `kafka-leader-election --election-type unclean --topic orders --partition 0` (token `elect-unclean`).
    ElectUncleanLeader,
    /// A steady producer starts: one record every `1000 / records_per_sec` ms, sent with the
    /// scene's producer config (acks, retries, idempotence …), like `lab.producer.records.per.sec`.
    SteadyLoad {
        records_per_sec: u32,
    },
}

/// An acks=all produce waiting in a leader's produce purgatory (`DelayedProduce`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DelayedProduce {
    pub request_id: u64,
    pub required_offset: i64,
}

/// One leader's produce purgatory: the parked produces in arrival order, and a floor under
/// the offsets they wait for, so a HW below it completes nothing without a look at each.
/// A deque: produces expire oldest first, from its front.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct ProducePurgatory {
    parked: VecDeque<DelayedProduce>,
    /// At most the lowest `required_offset` in `parked` (a produce that expired may have held it).
    floor_offset: i64,
}

impl ProducePurgatory {
    fn new(parked: VecDeque<DelayedProduce>) -> Self {
        let floor_offset = parked.iter().map(|d| d.required_offset).min().unwrap_or(i64::MAX);
        Self { parked, floor_offset }
    }

    fn push(&mut self, delayed: DelayedProduce) {
        self.floor_offset = if self.parked.is_empty() {
            delayed.required_offset
        } else {
            self.floor_offset.min(delayed.required_offset)
        };
        self.parked.push_back(delayed);
    }
}

/// A follower fetch parked in a leader's fetch purgatory (`DelayedFetch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DelayedFetch {
    pub follower: u32,
    pub fetch_offset: i64,
    pub request_id: u64,
}

/// The producer client's bookkeeping; reads acks, retries, retry.backoff.ms,
/// request.timeout.ms, delivery.timeout.ms and enable.idempotence (via `Settings`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProducerState {
    next_request_id: u64,
    /// Request id → record id, for requests sent and not yet answered or timed out.
    pub in_flight: BTreeMap<u64, u64>,
    /// The record ids of `in_flight` (a record is sent once at a time), so a send checks
    /// in log time rather than scanning every request (issue 18: `produce-10000` took 5 s).
    records_in_flight: BTreeSet<u64>,
    /// Records held back because the partition has no leader (metadata says none).
    pub waiting_for_leader: BTreeSet<u64>,
    /// Records sent by the steady load so far.
    pub load_sent: u64,
    /// The steady load's rate (0: none runs); starts as `lab.producer.records.per.sec`.
    pub load_records_per_sec: u64,
}

/// The replication scene: Kafka's `ReplicaManager` + fetcher threads on each broker, the
/// controller, and a `KafkaProducer`. Reads the properties in `REPLICATION_SCHEMA`.
#[derive(Clone, Debug)]
pub struct Replication {
    settings: Settings,
    partition: ReplicatedPartition,
    brokers: Vec<BrokerState>,
    cut_links: SortedSet<(Node, Node)>,
    produce_purgatory: SortedMap<u32, ProducePurgatory>,
    fetch_purgatory: SortedMap<u32, Vec<DelayedFetch>>,
    ledger: Ledger,
    producer: ProducerState,
    /// The leader whose log the ledger reads when the partition is offline.
    last_leader: u32,
    /// The periodic unclean-election check is scheduled (QuorumController's `uncleanScheduled`).
    unclean_check_scheduled: bool,
}

/// `1,2,3`: broker ids as Kafka's tools list them.
pub(crate) use crate::model::join_ids as join;

pub use story::{durability_ledger, id_ranges, STORY_KEYS};
