//! What the consumer-groups lab reports: typed facts for the event log and typed refusals.
//! English templates keep the lab's wording; the UI translates by key.

use crate::model::kernel::sorted::SortedMap;

use super::assignor::AssignorKind;
use super::{ErrorCode, GroupState, LeaveReason, MAX_MEMBERS, MAX_PARTITIONS, TOPIC};
use crate::model::kernel::{Arg, Describe, Message};

mod wording;

use wording::partition_arg;
pub use wording::FACT_KEYS;

/// The longest stop-the-world pause a command may ask for.
pub const MAX_PAUSE_MS: u64 = 3_600_000;
/// The longest processing time per record a command may set.
pub const MAX_MS_PER_RECORD: u64 = 600_000;

/// Why the coordinator starts a rebalance (Kafka's rebalance reason).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RebalanceReason {
    /// A JoinGroup without a member id.
    NewMember { member_id: String },
    /// A known member rejoined (its subscription or owned partitions may have changed).
    UpdatedMetadata { member_id: String },
    /// A member left or was expelled.
    MemberRemoved { member_id: String },
    /// The leader rejoined in Stable (Kafka rebalances: the leader may see metadata the others don't).
    LeaderRejoined { member_id: String },
    /// Members that did not send SyncGroup in time were removed.
    SyncTimeout,
}

/// Which rebalance protocol revoked partitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// EAGER: everything is revoked before JoinGroup.
    Eager,
    /// COOPERATIVE (KIP-429): only the partitions that move, then a rejoin.
    Cooperative,
}

/// One line of the consumer-groups event log, by who reports it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// What the group coordinator decides and reports.
    Coordinator(CoordinatorFact),
    /// A member's view of the rebalance protocol: revocations, assignments, heartbeats.
    Rebalance(RebalanceFact),
    /// A member's own life: start, poll timeouts, commits, faults.
    Member(MemberFact),
    /// The lab's producer and controller changing the topic.
    Topic(TopicFact),
}

/// What the group coordinator decides and reports.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CoordinatorFact {
    /// The group moved from one `ClassicGroupState` to another.
    StateChanged { from: GroupState, to: GroupState, generation: i32 },
    /// A member left through LeaveGroup.
    MemberLeft { member_id: String, reason: LeaveReason },
    /// A JoinGroup carried a member id the coordinator does not know (UNKNOWN_MEMBER_ID).
    JoinFromUnknownMember { member_id: String },
    /// KIP-345: a static member came back and took over its old member id's place.
    StaticMemberReplaced { instance_id: String, old_member_id: String, new_member_id: String },
    /// KIP-394: a new dynamic member got a member id and must rejoin with it (MEMBER_ID_REQUIRED).
    MemberIdRequired { member_id: String, state: GroupState },
    /// The JoinGroup's session timeout is outside the broker's range (INVALID_SESSION_TIMEOUT).
    SessionTimeoutRefused { session_timeout_ms: u64, min_ms: u64, max_ms: u64 },
    /// KIP-345: a static member that did not rejoin stays in the group until its session expires.
    StaticMemberKept { member_id: String },
    /// The coordinator received a JoinGroup in `state`.
    JoinReceived { member_id: String, state: GroupState },
    /// The coordinator starts a rebalance.
    PreparingRebalance { state: GroupState, generation: i32, reason: RebalanceReason },
    /// A member did not rejoin within the rebalance timeout.
    JoinTimedOut { member_id: String },
    /// The join phase ended: a new generation with its members and leader.
    JoinCompleted { generation: i32, members: u32, leader: String },
    /// The leader's SyncGroup brought the assignment.
    AssignmentReceived { leader: String, generation: i32 },
    /// A member did not send SyncGroup within the rebalance timeout.
    SyncTimedOut { member_id: String },
    /// No heartbeat within `session.timeout.ms`: the member is removed.
    SessionExpired { member_id: String, timeout_ms: u64 },
    /// An OffsetCommit was refused with a Kafka error code.
    CommitRejected { member_id: String, error: ErrorCode },
}

/// A member's view of the rebalance protocol: revocations, assignments, heartbeats.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RebalanceFact {
    /// The member lost its partitions without committing.
    PartitionsLost { partitions: Vec<u32> },
    /// `onPartitionsRevoked`.
    PartitionsRevoked { partitions: Vec<u32>, protocol: Protocol },
    /// The leader ran the assignor.
    AssignmentComputed { generation: i32, assignor: AssignorKind, assignment: SortedMap<String, Vec<u32>> },
    /// `onPartitionsAssigned`.
    PartitionsAssigned { partitions: Vec<u32>, generation: i32 },
    /// The leader's metadata refresh found more partitions than it assigned.
    MetadataChanged { partitions: u32, assigned: u32 },
    /// A heartbeat answered REBALANCE_IN_PROGRESS.
    RebalanceNoticed,
    /// A heartbeat answered that the member is no longer in the group.
    HeartbeatRejected { error: ErrorCode },
}

/// A member's own life: start, poll timeouts, commits, faults.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemberFact {
    /// The member process started.
    MemberStarted { client_id: String, instance_id: Option<String> },
    /// The heartbeat thread found `poll()` overdue; a dynamic member leaves, a static one does not.
    PollTimeoutExpired { max_poll_interval_ms: u64, dynamic: bool },
    /// A poison pill failed processing: the member seeks back to it.
    PoisonPillFailed { partition: u32, offset: i64 },
    /// A JoinGroup failed with a fatal error: `poll()` throws and the consumer stops.
    JoinFailed { error: ErrorCode },
    /// An OffsetCommit response carried an error (CommitFailedException).
    CommitFailed { error: ErrorCode },
    /// No committed offset: `auto.offset.reset=latest` starts at the log end.
    ResetToLatest { partition: u32, offset: i64 },
    /// A command changed the member's processing time.
    ProcessingTimeSet { ms_per_record: u64 },
    /// kill -9.
    MemberCrashed,
    /// A stop-the-world pause.
    MemberPaused { duration_ms: u64 },
    /// `consumer.close()`.
    MemberClosed,
    /// Offsets `[from, to)` of `partition` were committed but never processed: nobody fetches them again.
    RecordsLost { partition: u32, from: i64, to: i64 },
    /// Offsets `[from, to)` of `partition` were processed a second time.
    RecordsReprocessed { partition: u32, from: i64, to: i64 },
}

/// The lab's producer and controller changing the topic.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TopicFact {
    /// The producer appended a poison pill.
    PoisonPillAppended { partition: u32, offset: i64 },
    /// `kafka-topics --alter --partitions`.
    PartitionsGrown { from: u32, to: u32 },
}

/// Why the lab refuses a config or a command.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// `heartbeat.interval.ms` ≥ `session.timeout.ms`: the consumer cannot be built (Kafka's
    /// `Heartbeat` constructor throws IllegalArgumentException). The range of session.timeout.ms
    /// is the coordinator's to check, at JoinGroup.
    HeartbeatNotBelowSession { heartbeat_interval_ms: u64, session_timeout_ms: u64 },
    /// No member has this index.
    NoSuchMember { index: u32, members: u32 },
    /// The member's process is down.
    NotRunning { index: u32 },
    /// A restart of a member that runs.
    AlreadyRunning { index: u32 },
    /// A pause outside 1..=[`MAX_PAUSE_MS`].
    PauseDuration { duration_ms: u64 },
    /// A processing time above [`MAX_MS_PER_RECORD`].
    ProcessingTime { ms_per_record: u64 },
    /// No partition has this number.
    NoSuchPartition { partition: u32, partitions: u32 },
    /// The partition already holds a poison pill.
    AlreadyPoisoned { partition: u32 },
    /// Adding `requested` members (none, or past [`MAX_MEMBERS`]) to a group of `members`.
    MemberCount { requested: u32, members: u32 },
    /// The topic can only grow, up to [`MAX_PARTITIONS`].
    PartitionCount { requested: u32, partitions: u32 },
    /// A fault this scene does not model (it kills, restarts, pauses and slows members).
    FaultNotModelled,
}

crate::messages! {
    pub REFUSAL_KEYS;
    HEARTBEAT_SESSION = "groups.refusal.heartbeat" => "Heartbeat must be set lower than the session timeout";
    NO_SUCH_MEMBER = "groups.refusal.no_member" => "There is no member C{index}: this group has C1 to C{members}.";
    NOT_RUNNING = "groups.refusal.not_running" => "C{index} is not running.";
    ALREADY_RUNNING = "groups.refusal.running" => "C{index} is already running.";
    PAUSE_DURATION = "groups.refusal.pause" => "a pause lasts 1 to {max} ms";
    PROCESSING = "groups.refusal.slow" => "processing time per record is 0 to {max} ms";
    NO_SUCH_PARTITION = "groups.refusal.no_partition" =>
        "There is no partition {partition}: the topic has {partitions, plural, one {# partition} other {# partitions}}.";
    ALREADY_POISONED = "groups.refusal.poisoned" => "{partition} already holds a poison pill.";
    MEMBER_COUNT = "groups.refusal.members" => "A lab group holds at most {max, plural, one {# member} other {# members}}; it has {members}.";
    PARTITION_COUNT = "groups.refusal.partitions" =>
        "The topic {topic} has {partitions, plural, one {# partition} other {# partitions}}; it can only grow (up to {max}), not to {requested}.";
    FAULT_NOT_MODELLED = "groups.refusal.fault" => "This scene can kill, restart, pause and slow members only.";
}

impl Describe for Refusal {
    fn message(&self) -> Message {
        match *self {
            Refusal::HeartbeatNotBelowSession { .. } => Message::new(HEARTBEAT_SESSION),
            Refusal::NoSuchMember { index, members } => {
                Message::new(NO_SUCH_MEMBER).with("index", Arg::int(index)).with("members", Arg::int(members))
            }
            Refusal::NotRunning { index } => Message::new(NOT_RUNNING).with("index", Arg::int(index)),
            Refusal::AlreadyRunning { index } => Message::new(ALREADY_RUNNING).with("index", Arg::int(index)),
            Refusal::PauseDuration { .. } => Message::new(PAUSE_DURATION).with("max", Arg::int(MAX_PAUSE_MS)),
            Refusal::ProcessingTime { .. } => Message::new(PROCESSING).with("max", Arg::int(MAX_MS_PER_RECORD)),
            Refusal::NoSuchPartition { partition, partitions } => Message::new(NO_SUCH_PARTITION)
                .with("partition", partition_arg(partition))
                .with("partitions", Arg::int(partitions)),
            Refusal::AlreadyPoisoned { partition } => {
                Message::new(ALREADY_POISONED).with("partition", partition_arg(partition))
            }
            Refusal::MemberCount { members, .. } => {
                Message::new(MEMBER_COUNT).with("max", Arg::int(MAX_MEMBERS)).with("members", Arg::int(members))
            }
            Refusal::PartitionCount { requested, partitions } => Message::new(PARTITION_COUNT)
                .with("topic", Arg::kafka(TOPIC))
                .with("partitions", Arg::int(partitions))
                .with("max", Arg::int(MAX_PARTITIONS))
                .with("requested", Arg::int(requested)),
            Refusal::FaultNotModelled => Message::new(FAULT_NOT_MODELLED),
        }
    }
}

crate::display_as_message!(Fact, Refusal);
