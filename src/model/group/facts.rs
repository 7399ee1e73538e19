//! What the consumer-groups lab reports: typed facts for the event log and typed refusals.
//! English templates keep the lab's wording; the UI translates by key.

use std::collections::BTreeMap;
use std::fmt;

use super::assignor::AssignorKind;
use super::{ErrorCode, GroupState, LeaveReason, GROUP_ID, MAX_MEMBERS, MAX_PARTITIONS, TOPIC};
use crate::model::kernel::{Arg, Describe, Message};

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

/// One line of the consumer-groups event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    // The coordinator.
    /// The group moved from one `ClassicGroupState` to another.
    StateChanged { from: GroupState, to: GroupState, generation: i32 },
    /// A member left through LeaveGroup.
    MemberLeft { member_id: String, reason: LeaveReason },
    /// A JoinGroup carried a member id the coordinator does not know (UNKNOWN_MEMBER_ID).
    JoinFromUnknownMember { member_id: String },
    /// KIP-345: a static member came back and took over its old member id's place.
    StaticMemberReplaced { instance_id: String, old_member_id: String, new_member_id: String },
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
    // A member.
    /// The member process started.
    MemberStarted { client_id: String, instance_id: Option<String> },
    /// The heartbeat thread found `poll()` overdue; a dynamic member leaves, a static one does not.
    PollTimeoutExpired { max_poll_interval_ms: u64, dynamic: bool },
    /// The leader's metadata refresh found more partitions than it assigned.
    MetadataChanged { partitions: u32, assigned: u32 },
    /// The member lost its partitions without committing.
    PartitionsLost { partitions: Vec<u32> },
    /// `onPartitionsRevoked`.
    PartitionsRevoked { partitions: Vec<u32>, protocol: Protocol },
    /// A poison pill failed processing: the member seeks back to it.
    PoisonPillFailed { partition: u32, offset: i64 },
    /// An OffsetCommit response carried an error (CommitFailedException).
    CommitFailed { error: ErrorCode },
    /// The leader ran the assignor.
    AssignmentComputed { generation: i32, assignor: AssignorKind, assignment: BTreeMap<String, Vec<u32>> },
    /// `onPartitionsAssigned`.
    PartitionsAssigned { partitions: Vec<u32>, generation: i32 },
    /// No committed offset: `auto.offset.reset=latest` starts at the log end.
    ResetToLatest { partition: u32, offset: i64 },
    /// A heartbeat answered REBALANCE_IN_PROGRESS.
    RebalanceNoticed,
    /// A heartbeat answered that the member is no longer in the group.
    HeartbeatRejected { error: ErrorCode },
    /// A command changed the member's processing time.
    ProcessingTimeSet { ms_per_record: u64 },
    /// kill -9.
    MemberCrashed,
    /// A stop-the-world pause.
    MemberPaused { duration_ms: u64 },
    /// `consumer.close()`.
    MemberClosed,
    // The producer and the controller.
    /// The producer appended a poison pill.
    PoisonPillAppended { partition: u32, offset: i64 },
    /// `kafka-topics --alter --partitions`.
    PartitionsGrown { from: u32, to: u32 },
}

crate::messages! {
    pub FACT_KEYS;
    STATE_CHANGED = "groups.fact.state" => "group {group} transitioned from {from} to {to} (generation {generation})";
    MEMBER_LEFT = "groups.fact.left" =>
        "member {member} has left group {group} through explicit LeaveGroup; reason: {reason}";
    JOIN_UNKNOWN = "groups.fact.join.unknown" => "JoinGroup from unknown member {member}: UNKNOWN_MEMBER_ID";
    STATIC_REPLACED = "groups.fact.static.replaced" =>
        "static member {instance} rejoined: replacing member id {old} with {new}";
    JOIN_RECEIVED = "groups.fact.join" => "JoinGroup from {member} (state {state})";
    PREPARING = "groups.fact.preparing" =>
        "Preparing to rebalance group {group} in state {state} with old generation {generation} (reason: {reason})";
    REASON_NEW = "groups.fact.reason.new" => "Adding new member {member}";
    REASON_UPDATE = "groups.fact.reason.update" => "Updating metadata for member {member}";
    REASON_REMOVED = "groups.fact.reason.removed" => "removing member {member}";
    REASON_SYNC = "groups.fact.reason.sync" => "members removed after the sync timeout";
    JOIN_TIMEOUT = "groups.fact.join.timeout" =>
        "member {member} did not rejoin within the rebalance timeout (max.poll.interval.ms); removing it";
    JOIN_COMPLETED = "groups.fact.join.completed" =>
        "Stabilized group {group} generation {generation} with {members} members; leader {leader}";
    ASSIGNMENT_RECEIVED = "groups.fact.sync.leader" => "leader {leader} sent the assignment for generation {generation}";
    SYNC_TIMEOUT = "groups.fact.sync.timeout" =>
        "member {member} did not send SyncGroup within the rebalance timeout; removing it";
    SESSION_EXPIRED = "groups.fact.session.expired" =>
        "Member {member} in group {group} has failed: no heartbeat within session.timeout.ms={timeout}; removing it";
    COMMIT_REJECTED = "groups.fact.commit.rejected" => "OffsetCommit from {member} rejected: {error}";
    STARTED = "groups.fact.started" => "started {client} (group.instance.id={instance})";
    POLL_TIMEOUT = "groups.fact.poll.timeout" =>
        "consumer poll timeout has expired: the time between subsequent calls to poll() was longer than \
         max.poll.interval.ms={ms}; {then}";
    POLL_TIMEOUT_LEAVE = "groups.fact.poll.timeout.leave" => "leaving the group";
    POLL_TIMEOUT_STATIC = "groups.fact.poll.timeout.static" => "static member: no LeaveGroup, heartbeats stop";
    METADATA = "groups.fact.metadata" =>
        "metadata refresh: {topic} now has {partitions} partitions (assigned {assigned}); requesting a rebalance";
    LOST = "groups.fact.lost" => "onPartitionsLost({partitions}) without committing";
    REVOKED_EAGER = "groups.fact.revoked.eager" =>
        "onPartitionsRevoked({partitions}): eager protocol revokes everything before JoinGroup";
    REVOKED_COOPERATIVE = "groups.fact.revoked.cooperative" =>
        "onPartitionsRevoked({partitions}): cooperative protocol revokes only these, then rejoins";
    POISON_FAILED = "groups.fact.poison.failed" =>
        "processing {partition} offset {offset} failed (poison pill): seeking back to {offset}, the partition is stuck";
    COMMIT_FAILED = "groups.fact.commit.failed" =>
        "commit failed with {error} (CommitFailedException: the group has already rebalanced and assigned the \
         partitions to another member)";
    ASSIGNMENT_COMPUTED = "groups.fact.assigned.leader" =>
        "as leader, finished assignment for generation {generation} with {assignor}: {assignment}";
    ASSIGNED = "groups.fact.assigned" => "onPartitionsAssigned({partitions}) in generation {generation}";
    RESET_LATEST = "groups.fact.reset.latest" =>
        "no committed offset for {partition}: auto.offset.reset=latest → {offset}";
    REBALANCE_NOTICED = "groups.fact.heartbeat.rebalance" =>
        "heartbeat: REBALANCE_IN_PROGRESS, will rejoin at the next poll()";
    HEARTBEAT_REJECTED = "groups.fact.heartbeat.rejected" =>
        "heartbeat: {error}, the member was removed from the group; rejoining";
    PROCESSING_TIME = "groups.fact.slow" => "processing now takes {ms} ms per record";
    CRASHED = "groups.fact.crashed" => "crashed (kill -9): no LeaveGroup, its heartbeats stop";
    PAUSED = "groups.fact.paused" => "stop-the-world pause for {ms} ms: heartbeat and processing threads frozen";
    CLOSED = "groups.fact.closed" => "closed cleanly (consumer.close())";
    POISON_APPENDED = "groups.fact.poison" =>
        "appended a poison pill to {partition} at offset {offset}: processing it always fails";
    GROWN = "groups.fact.grown" => "{command}: {topic} grew from {from} to {to} partitions";
}

/// `orders-3`: a topic-partition as Kafka writes it.
fn partition_arg(partition: u32) -> Arg {
    Arg::text(format!("{TOPIC}-{partition}"))
}

/// `orders-0, orders-3`: a partition list as the rebalance listener prints it.
fn partitions_arg(partitions: &[u32]) -> Arg {
    Arg::text(partition_list(partitions))
}

fn partition_list(partitions: &[u32]) -> String {
    partitions.iter().map(|p| format!("{TOPIC}-{p}")).collect::<Vec<_>>().join(", ")
}

fn id(member_id: &str) -> Arg {
    Arg::text(member_id)
}

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

fn state(state: GroupState) -> Arg {
    Arg::kafka(state.kafka_name())
}

fn error(error: ErrorCode) -> Arg {
    Arg::kafka(error.kafka_name())
}

fn group() -> Arg {
    Arg::kafka(GROUP_ID)
}

impl RebalanceReason {
    fn message(&self) -> Message {
        match self {
            RebalanceReason::NewMember { member_id } => Message::new(REASON_NEW).with("member", id(member_id)),
            RebalanceReason::UpdatedMetadata { member_id } => Message::new(REASON_UPDATE).with("member", id(member_id)),
            RebalanceReason::MemberRemoved { member_id } => Message::new(REASON_REMOVED).with("member", id(member_id)),
            RebalanceReason::SyncTimeout => Message::new(REASON_SYNC),
        }
    }
}

impl Fact {
    /// The coordinator's facts.
    fn coordinator_message(&self) -> Option<Message> {
        let message = match self {
            Fact::StateChanged { from, to, generation } => Message::new(STATE_CHANGED)
                .with("group", group())
                .with("from", state(*from))
                .with("to", state(*to))
                .with("generation", Arg::int(*generation)),
            Fact::MemberLeft { member_id, reason } => Message::new(MEMBER_LEFT)
                .with("member", id(member_id))
                .with("group", group())
                .with("reason", Arg::kafka(reason.kafka_text())),
            Fact::JoinFromUnknownMember { member_id } => Message::new(JOIN_UNKNOWN).with("member", id(member_id)),
            Fact::StaticMemberReplaced { instance_id, old_member_id, new_member_id } => Message::new(STATIC_REPLACED)
                .with("instance", id(instance_id))
                .with("old", id(old_member_id))
                .with("new", id(new_member_id)),
            Fact::JoinReceived { member_id, state: s } => {
                Message::new(JOIN_RECEIVED).with("member", id(member_id)).with("state", state(*s))
            }
            Fact::PreparingRebalance { state: s, generation, reason } => Message::new(PREPARING)
                .with("group", group())
                .with("state", state(*s))
                .with("generation", Arg::int(*generation))
                .with("reason", nested(reason.message())),
            Fact::JoinTimedOut { member_id } => Message::new(JOIN_TIMEOUT).with("member", id(member_id)),
            Fact::JoinCompleted { generation, members, leader } => Message::new(JOIN_COMPLETED)
                .with("group", group())
                .with("generation", Arg::int(*generation))
                .with("members", Arg::int(*members))
                .with("leader", id(leader)),
            Fact::AssignmentReceived { leader, generation } => {
                Message::new(ASSIGNMENT_RECEIVED).with("leader", id(leader)).with("generation", Arg::int(*generation))
            }
            Fact::SyncTimedOut { member_id } => Message::new(SYNC_TIMEOUT).with("member", id(member_id)),
            Fact::SessionExpired { member_id, timeout_ms } => Message::new(SESSION_EXPIRED)
                .with("member", id(member_id))
                .with("group", group())
                .with("timeout", Arg::int(*timeout_ms)),
            Fact::CommitRejected { member_id, error: e } => {
                Message::new(COMMIT_REJECTED).with("member", id(member_id)).with("error", error(*e))
            }
            _ => return None,
        };
        Some(message)
    }

    /// A member's facts about its partitions and the rebalance protocol.
    fn rebalance_message(&self) -> Option<Message> {
        let message = match self {
            Fact::PartitionsLost { partitions } => Message::new(LOST).with("partitions", partitions_arg(partitions)),
            Fact::PartitionsRevoked { partitions, protocol } => {
                let key = match protocol {
                    Protocol::Eager => REVOKED_EAGER,
                    Protocol::Cooperative => REVOKED_COOPERATIVE,
                };
                Message::new(key).with("partitions", partitions_arg(partitions))
            }
            Fact::AssignmentComputed { generation, assignor, assignment } => {
                let text: Vec<String> =
                    assignment.iter().map(|(id, ps)| format!("{id}=[{}]", partition_list(ps))).collect();
                Message::new(ASSIGNMENT_COMPUTED)
                    .with("generation", Arg::int(*generation))
                    .with("assignor", Arg::kafka(assignor.protocol_name()))
                    .with("assignment", Arg::text(text.join(" ")))
            }
            Fact::PartitionsAssigned { partitions, generation } => Message::new(ASSIGNED)
                .with("partitions", partitions_arg(partitions))
                .with("generation", Arg::int(*generation)),
            Fact::MetadataChanged { partitions, assigned } => Message::new(METADATA)
                .with("topic", Arg::kafka(TOPIC))
                .with("partitions", Arg::int(*partitions))
                .with("assigned", Arg::int(*assigned)),
            Fact::RebalanceNoticed => Message::new(REBALANCE_NOTICED),
            Fact::HeartbeatRejected { error: e } => Message::new(HEARTBEAT_REJECTED).with("error", error(*e)),
            _ => return None,
        };
        Some(message)
    }
}

impl Describe for Fact {
    fn message(&self) -> Message {
        if let Some(message) = self.coordinator_message().or_else(|| self.rebalance_message()) {
            return message;
        }
        match self {
            Fact::MemberStarted { client_id, instance_id } => Message::new(STARTED)
                .with("client", id(client_id))
                .with("instance", instance_id.as_deref().map_or_else(|| Arg::kafka("null"), id)),
            Fact::PollTimeoutExpired { max_poll_interval_ms, dynamic } => {
                let then = if *dynamic { POLL_TIMEOUT_LEAVE } else { POLL_TIMEOUT_STATIC };
                Message::new(POLL_TIMEOUT)
                    .with("ms", Arg::int(*max_poll_interval_ms))
                    .with("then", nested(Message::new(then)))
            }
            Fact::PoisonPillFailed { partition, offset } => Message::new(POISON_FAILED)
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            Fact::CommitFailed { error: e } => Message::new(COMMIT_FAILED).with("error", error(*e)),
            Fact::ResetToLatest { partition, offset } => Message::new(RESET_LATEST)
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            Fact::ProcessingTimeSet { ms_per_record } => {
                Message::new(PROCESSING_TIME).with("ms", Arg::int(*ms_per_record))
            }
            Fact::MemberCrashed => Message::new(CRASHED),
            Fact::MemberPaused { duration_ms } => Message::new(PAUSED).with("ms", Arg::int(*duration_ms)),
            Fact::MemberClosed => Message::new(CLOSED),
            Fact::PoisonPillAppended { partition, offset } => Message::new(POISON_APPENDED)
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            Fact::PartitionsGrown { from, to } => Message::new(GROWN)
                .with("command", Arg::kafka(format!("kafka-topics --alter --partitions {to}")))
                .with("topic", Arg::kafka(TOPIC))
                .with("from", Arg::int(*from))
                .with("to", Arg::int(*to)),
            _ => unreachable!("every coordinator and rebalance fact has its message above"),
        }
    }
}

/// Why the lab refuses a config or a command.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// `heartbeat.interval.ms` ≥ `session.timeout.ms`.
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
    HEARTBEAT_SESSION = "groups.refusal.heartbeat" => "heartbeat.interval.ms must be set lower than session.timeout.ms";
    NO_SUCH_MEMBER = "groups.refusal.no_member" => "There is no member C{index}: this group has C1 to C{members}.";
    NOT_RUNNING = "groups.refusal.not_running" => "C{index} is not running.";
    ALREADY_RUNNING = "groups.refusal.running" => "C{index} is already running.";
    PAUSE_DURATION = "groups.refusal.pause" => "a pause lasts 1 to {max} ms";
    PROCESSING = "groups.refusal.slow" => "processing time per record is 0 to {max} ms";
    NO_SUCH_PARTITION = "groups.refusal.no_partition" =>
        "There is no partition {partition}: the topic has {partitions} partitions.";
    ALREADY_POISONED = "groups.refusal.poisoned" => "{partition} already holds a poison pill.";
    MEMBER_COUNT = "groups.refusal.members" => "A lab group holds at most {max} members; it has {members}.";
    PARTITION_COUNT = "groups.refusal.partitions" =>
        "The topic {topic} has {partitions} partitions; it can only grow (up to {max}), not to {requested}.";
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

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message())
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message())
    }
}
