//! What the replication scene reports: typed facts for the event log. Their English
//! wording is in `wording.rs`; the UI translates by key.

use super::partition::PartitionError;
use super::roles::Truncation;
use super::schema::Acks;
use super::unclean::ElectionError;
use crate::model::kernel::Node;

/// Why the producer's send callback got an exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SendError {
    /// `delivery.timeout.ms` passed before an acknowledgement.
    DeliveryTimeout,
    /// Out of retries after the leader refused the connection.
    Network,
    /// Out of retries after `request.timeout.ms` passed without an answer.
    RequestTimeout,
    /// Out of retries after the leader answered with an error.
    Partition(PartitionError),
}

/// Whether a leader grows or shrinks its ISR (Kafka's `Partition` log wording).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IsrDirection {
    Shrinking,
    Expanding,
}

/// Why a follower looked at its log's end (what the truncation line starts with).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TruncationCause {
    /// Without leader epochs (before 0.11): a new follower truncates to its HW.
    BecameFollower { leader: Option<u32>, epoch: i32 },
    /// The fetch offset is past the leader's log end.
    OutOfRange { fetch_offset: i64, leader: u32, leader_log_end_offset: i64 },
    /// KIP-101: the leader says where the follower's last epoch ends.
    EpochEnds { leader: u32, epoch: i32, end_offset: i64 },
    /// KIP-101: the leader does not know the epoch; the follower falls back to its HW.
    EpochUnknown { leader: u32 },
    /// Kafka ≥ 2.7: the fetch response's divergingEpoch says where the follower's last epoch ends.
    DivergingEpoch { leader: u32, epoch: i32, end_offset: i64 },
    /// KIP-279: the leader's epoch is not in this replica's cache: it cut to the end of its own
    /// largest smaller epoch and asks again.
    EpochMissing { leader: u32, epoch: i32, end_offset: i64, local_epoch: i32 },
}

/// One line of the replication scene's event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The controller created the partition (leader, replicas, ISR, epoch 0).
    PartitionCreated {
        leader: u32,
        replicas: Vec<u32>,
        isr: Vec<u32>,
    },
    /// A fenced broker heartbeats again.
    BrokerUnfenced {
        broker: u32,
    },
    /// No heartbeat within `broker.session.timeout.ms`.
    BrokerFenced {
        broker: u32,
        timeout_ms: u64,
    },
    /// The controller removed a fenced broker from the ISR.
    IsrChanged {
        before: Vec<u32>,
        after: Vec<u32>,
    },
    /// No live ISR member and unclean election off.
    StaysOffline,
    /// A clean election: a new leader from the ISR.
    LeaderElected {
        old: Option<u32>,
        new: u32,
        epoch: i32,
        isr: Vec<u32>,
    },
    /// An unclean election: a replica outside the ISR leads.
    UncleanLeaderElected {
        old: Option<u32>,
        new: u32,
        epoch: i32,
        isr: Vec<u32>,
    },
    /// No live replica in the ISR: the partition is offline.
    PartitionOffline {
        old: Option<u32>,
        epoch: i32,
    },
    /// `kafka-configs` changed `unclean.leader.election.enable`.
    UncleanElectionSet {
        enabled: bool,
    },
    /// The controller's periodic unclean-election check found the partition leaderless.
    UncleanCheck {
        enabled: bool,
        interval_ms: u64,
    },
    /// `kafka-leader-election --election-type unclean` reached the controller.
    ElectLeadersRequested,
    ElectLeadersFailed {
        error: ElectionError,
    },
    /// The controller rejected an ISR expansion with a fenced broker.
    AlterPartitionIneligible {
        leader: u32,
        fenced: u32,
    },
    /// The controller accepted an ISR change.
    AlterPartitionAccepted {
        leader: u32,
        isr: Vec<u32>,
    },
    BecameLeader {
        epoch: i32,
        log_end_offset: i64,
        high_watermark: i64,
        isr: Vec<u32>,
    },
    /// With leader epochs: the follower asks before it truncates (OffsetsForLeaderEpoch,
    /// `last_fetched_epoch` None) or fetches at once with its last epoch (Kafka ≥ 2.7; -1: none).
    BecameFollower {
        leader: Option<u32>,
        epoch: i32,
        last_fetched_epoch: Option<i32>,
    },
    /// The follower truncated (or found nothing to truncate; `truncation` is `None` then).
    Truncated {
        cause: TruncationCause,
        truncation: Option<Truncation>,
        log_end_offset: i64,
    },
    PauseEnded,
    /// Power loss: the log lost what the OS had not flushed.
    PowerFailed {
        leo_before: i64,
        leo_after: i64,
    },
    Crashed,
    /// Restarted with a replica log recovered from disk.
    RestartedWithLog {
        log_end_offset: i64,
        high_watermark: i64,
    },
    Restarted,
    Paused {
        duration_ms: u64,
    },
    Slowed {
        delay_ms: u64,
    },
    FetchConnectionRefused {
        leader: u32,
        backoff_ms: u64,
    },
    FetchTimedOut {
        timeout_ms: u64,
    },
    FetchFailed {
        leader: u32,
        error: PartitionError,
    },
    Fetched {
        leader: u32,
        records: u32,
        leo_before: i64,
        leo_after: i64,
        hw_before: i64,
        hw_after: i64,
        leader_hw: i64,
    },
    EpochRequestFailed {
        leader: u32,
        error: PartitionError,
    },
    /// The leader's AlterPartition could not reach the controller.
    IsrChangeUnreachable {
        direction: IsrDirection,
        before: Vec<u32>,
        after: Vec<u32>,
    },
    /// The leader changed its ISR (the controller agreed).
    IsrUpdated {
        direction: IsrDirection,
        before: Vec<u32>,
        after: Vec<u32>,
        high_watermark: i64,
        log_end_offset: i64,
        /// Kafka logs "(under-min-isr)": the ISR is below the effective min.insync.replicas.
        under_min_isr: bool,
    },
    AlterPartitionRejected {
        error: PartitionError,
    },
    /// An idempotent retry of a record already in the log.
    DuplicateRecord {
        record_id: u64,
        offset: i64,
    },
    Appended {
        record_id: u64,
        offset: i64,
        epoch: i32,
    },
    ProduceRejected {
        record_id: u64,
        error: PartitionError,
    },
    /// NOT_ENOUGH_REPLICAS: the ISR is below `min.insync.replicas`.
    NotEnoughReplicas {
        record_id: u64,
        isr_size: u32,
        min_insync_replicas: u32,
    },
    RecordFailed {
        record_id: u64,
        error: SendError,
    },
    WaitingForLeader {
        record_id: u64,
    },
    /// A steady producer started (the workload of a fresh scene).
    LoadStarted {
        records_per_sec: u64,
        acks: Acks,
    },
    ConnectionRefused {
        record_id: u64,
        attempt: u32,
        broker: u32,
    },
    RequestTimedOut {
        record_id: u64,
        timeout_ms: u64,
    },
    Acknowledged {
        record_id: u64,
        broker: u32,
        offset: i64,
    },
    ErrorAnswered {
        record_id: u64,
        broker: u32,
        error: PartitionError,
    },
    LinkCut {
        a: Node,
        b: Node,
    },
    LinkHealed {
        a: Node,
        b: Node,
    },
}

crate::display_as_message!(Fact);
