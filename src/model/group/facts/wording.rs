//! The English wording of the consumer-groups facts: catalog keys with their
//! templates, and how each fact fills them.

use super::{CoordinatorFact, Fact, MemberFact, Protocol, RebalanceFact, RebalanceReason, TopicFact};
use crate::model::group::{ErrorCode, GroupState, GROUP_ID, TOPIC};
use crate::model::kernel::{Arg, Describe, Message};

crate::messages! {
    pub FACT_KEYS;
    STATE_CHANGED = "groups.fact.state" => "group {group} transitioned from {from} to {to} (generation {generation})";
    MEMBER_LEFT = "groups.fact.left" =>
        "member {member} has left group {group} through explicit LeaveGroup; reason: {reason}";
    JOIN_UNKNOWN = "groups.fact.join.unknown" => "JoinGroup from unknown member {member}: UNKNOWN_MEMBER_ID";
    STATIC_REPLACED = "groups.fact.static.replaced" =>
        "static member {instance} rejoined: replacing member id {old} with {new}";
    MEMBER_ID_REQUIRED = "groups.fact.join.member_id" =>
        "JoinGroup without a member id in state {state}: created member id {member} and answered MEMBER_ID_REQUIRED, asking the member to rejoin with it";
    SESSION_REFUSED = "groups.fact.session.refused" =>
        "JoinGroup with session.timeout.ms={timeout} answered INVALID_SESSION_TIMEOUT: the broker allows group.min.session.timeout.ms={min} to group.max.session.timeout.ms={max}";
    STATIC_KEPT = "groups.fact.join.static.kept" =>
        "static member {member} did not rejoin: it stays in the new generation, partitions included, until its session expires or its SyncGroup is overdue";
    JOIN_RECEIVED = "groups.fact.join" => "JoinGroup from {member} (state {state})";
    PREPARING = "groups.fact.preparing" =>
        "Preparing to rebalance group {group} in state {state} with old generation {generation} (reason: {reason})";
    REASON_NEW = "groups.fact.reason.new" => "Adding new member {member}";
    REASON_UPDATE = "groups.fact.reason.update" => "Updating metadata for member {member}";
    REASON_REMOVED = "groups.fact.reason.removed" => "removing member {member}";
    REASON_LEADER = "groups.fact.reason.leader" => "Leader {member} re-joining group during Stable";
    REASON_SYNC = "groups.fact.reason.sync" => "members removed after the sync timeout";
    JOIN_TIMEOUT = "groups.fact.join.timeout" =>
        "member {member} did not rejoin within the rebalance timeout (max.poll.interval.ms); removing it";
    JOIN_COMPLETED = "groups.fact.join.completed" =>
        "Stabilized group {group} generation {generation} with {members, plural, one {# member} other {# members}}; leader {leader}";
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
        "metadata refresh: {topic} now has {partitions, plural, one {# partition} other {# partitions}} (assigned {assigned}); requesting a rebalance";
    LOST = "groups.fact.lost" => "onPartitionsLost({partitions}) without committing";
    REVOKED_EAGER = "groups.fact.revoked.eager" =>
        "onPartitionsRevoked({partitions}): eager protocol revokes everything before JoinGroup";
    REVOKED_COOPERATIVE = "groups.fact.revoked.cooperative" =>
        "onPartitionsRevoked({partitions}): cooperative protocol revokes only these, then rejoins";
    POISON_FAILED = "groups.fact.poison.failed" =>
        "processing {partition} offset {offset} failed (poison pill): seeking back to {offset}, the partition is stuck";
    JOIN_FAILED = "groups.fact.join.failed" =>
        "JoinGroup failed due to fatal error: {error}; poll() throws and the consumer stops";
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
    RECORDS_LOST = "groups.fact.records.lost" =>
        "{partition} offsets {first}–{last} were committed but never processed: {count, plural, one {# record} other {# records}} lost";
    RECORDS_REPROCESSED = "groups.fact.records.reprocessed" =>
        "processed {partition} offsets {first}–{last} a second time: {count, plural, one {# duplicate} other {# duplicates}}";
    POISON_APPENDED = "groups.fact.poison" =>
        "appended a poison pill to {partition} at offset {offset}: processing it always fails";
    GROWN = "groups.fact.grown" => "{command}: {topic} grew from {from} to {to, plural, one {# partition} other {# partitions}}";
}

/// `orders-3`: a topic-partition as Kafka writes it.
pub(super) fn partition_arg(partition: u32) -> Arg {
    Arg::text(format!("{TOPIC}-{partition}"))
}

/// `orders-0, orders-3`: a partition list as the rebalance listener prints it.
fn partitions_arg(partitions: &[u32]) -> Arg {
    Arg::text(partition_list(partitions))
}

fn partition_list(partitions: &[u32]) -> String {
    partitions.iter().map(|p| format!("{TOPIC}-{p}")).collect::<Vec<_>>().join(", ")
}

/// A message about offsets `[from, to)` of a partition, written as the first and last offset.
fn range_message(key: crate::model::kernel::Key, partition: u32, from: i64, to: i64) -> Message {
    Message::new(key)
        .with("partition", partition_arg(partition))
        .with("first", Arg::int(from))
        .with("last", Arg::int(to - 1))
        .with("count", Arg::int(to - from))
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
            RebalanceReason::LeaderRejoined { member_id } => Message::new(REASON_LEADER).with("member", id(member_id)),
            RebalanceReason::SyncTimeout => Message::new(REASON_SYNC),
        }
    }
}

impl Describe for Fact {
    fn message(&self) -> Message {
        match self {
            Fact::Coordinator(fact) => fact.message(),
            Fact::Rebalance(fact) => fact.message(),
            Fact::Member(fact) => fact.message(),
            Fact::Topic(fact) => fact.message(),
        }
    }
}

impl Describe for CoordinatorFact {
    fn message(&self) -> Message {
        match self {
            CoordinatorFact::StateChanged { from, to, generation } => Message::new(STATE_CHANGED)
                .with("group", group())
                .with("from", state(*from))
                .with("to", state(*to))
                .with("generation", Arg::int(*generation)),
            CoordinatorFact::MemberLeft { member_id, reason } => Message::new(MEMBER_LEFT)
                .with("member", id(member_id))
                .with("group", group())
                .with("reason", Arg::kafka(reason.kafka_text())),
            CoordinatorFact::JoinFromUnknownMember { member_id } => {
                Message::new(JOIN_UNKNOWN).with("member", id(member_id))
            }
            CoordinatorFact::StaticMemberReplaced { instance_id, old_member_id, new_member_id } => {
                Message::new(STATIC_REPLACED)
                    .with("instance", id(instance_id))
                    .with("old", id(old_member_id))
                    .with("new", id(new_member_id))
            }
            CoordinatorFact::MemberIdRequired { member_id, state: s } => {
                Message::new(MEMBER_ID_REQUIRED).with("member", id(member_id)).with("state", state(*s))
            }
            CoordinatorFact::SessionTimeoutRefused { session_timeout_ms, min_ms, max_ms } => {
                Message::new(SESSION_REFUSED)
                    .with("timeout", Arg::int(*session_timeout_ms))
                    .with("min", Arg::int(*min_ms))
                    .with("max", Arg::int(*max_ms))
            }
            CoordinatorFact::StaticMemberKept { member_id } => Message::new(STATIC_KEPT).with("member", id(member_id)),
            CoordinatorFact::JoinReceived { member_id, state: s } => {
                Message::new(JOIN_RECEIVED).with("member", id(member_id)).with("state", state(*s))
            }
            CoordinatorFact::PreparingRebalance { state: s, generation, reason } => Message::new(PREPARING)
                .with("group", group())
                .with("state", state(*s))
                .with("generation", Arg::int(*generation))
                .with("reason", nested(reason.message())),
            CoordinatorFact::JoinTimedOut { member_id } => Message::new(JOIN_TIMEOUT).with("member", id(member_id)),
            CoordinatorFact::JoinCompleted { generation, members, leader } => Message::new(JOIN_COMPLETED)
                .with("group", group())
                .with("generation", Arg::int(*generation))
                .with("members", Arg::int(*members))
                .with("leader", id(leader)),
            CoordinatorFact::AssignmentReceived { leader, generation } => {
                Message::new(ASSIGNMENT_RECEIVED).with("leader", id(leader)).with("generation", Arg::int(*generation))
            }
            CoordinatorFact::SyncTimedOut { member_id } => Message::new(SYNC_TIMEOUT).with("member", id(member_id)),
            CoordinatorFact::SessionExpired { member_id, timeout_ms } => Message::new(SESSION_EXPIRED)
                .with("member", id(member_id))
                .with("group", group())
                .with("timeout", Arg::int(*timeout_ms)),
            CoordinatorFact::CommitRejected { member_id, error: e } => {
                Message::new(COMMIT_REJECTED).with("member", id(member_id)).with("error", error(*e))
            }
        }
    }
}

impl Describe for RebalanceFact {
    fn message(&self) -> Message {
        match self {
            RebalanceFact::PartitionsLost { partitions } => {
                Message::new(LOST).with("partitions", partitions_arg(partitions))
            }
            RebalanceFact::PartitionsRevoked { partitions, protocol } => {
                let key = match protocol {
                    Protocol::Eager => REVOKED_EAGER,
                    Protocol::Cooperative => REVOKED_COOPERATIVE,
                };
                Message::new(key).with("partitions", partitions_arg(partitions))
            }
            RebalanceFact::AssignmentComputed { generation, assignor, assignment } => {
                let text: Vec<String> =
                    assignment.iter().map(|(id, ps)| format!("{id}=[{}]", partition_list(ps))).collect();
                Message::new(ASSIGNMENT_COMPUTED)
                    .with("generation", Arg::int(*generation))
                    .with("assignor", Arg::kafka(assignor.protocol_name()))
                    .with("assignment", Arg::text(text.join(" ")))
            }
            RebalanceFact::PartitionsAssigned { partitions, generation } => Message::new(ASSIGNED)
                .with("partitions", partitions_arg(partitions))
                .with("generation", Arg::int(*generation)),
            RebalanceFact::MetadataChanged { partitions, assigned } => Message::new(METADATA)
                .with("topic", Arg::kafka(TOPIC))
                .with("partitions", Arg::int(*partitions))
                .with("assigned", Arg::int(*assigned)),
            RebalanceFact::RebalanceNoticed => Message::new(REBALANCE_NOTICED),
            RebalanceFact::HeartbeatRejected { error: e } => Message::new(HEARTBEAT_REJECTED).with("error", error(*e)),
        }
    }
}

impl Describe for MemberFact {
    fn message(&self) -> Message {
        match self {
            MemberFact::MemberStarted { client_id, instance_id } => Message::new(STARTED)
                .with("client", id(client_id))
                .with("instance", instance_id.as_deref().map_or_else(|| Arg::kafka("null"), id)),
            MemberFact::PollTimeoutExpired { max_poll_interval_ms, dynamic } => {
                let then = if *dynamic { POLL_TIMEOUT_LEAVE } else { POLL_TIMEOUT_STATIC };
                Message::new(POLL_TIMEOUT)
                    .with("ms", Arg::int(*max_poll_interval_ms))
                    .with("then", nested(Message::new(then)))
            }
            MemberFact::PoisonPillFailed { partition, offset } => Message::new(POISON_FAILED)
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            MemberFact::JoinFailed { error: e } => Message::new(JOIN_FAILED).with("error", error(*e)),
            MemberFact::CommitFailed { error: e } => Message::new(COMMIT_FAILED).with("error", error(*e)),
            MemberFact::ResetToLatest { partition, offset } => Message::new(RESET_LATEST)
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            MemberFact::ProcessingTimeSet { ms_per_record } => {
                Message::new(PROCESSING_TIME).with("ms", Arg::int(*ms_per_record))
            }
            MemberFact::MemberCrashed => Message::new(CRASHED),
            MemberFact::MemberPaused { duration_ms } => Message::new(PAUSED).with("ms", Arg::int(*duration_ms)),
            MemberFact::MemberClosed => Message::new(CLOSED),
            MemberFact::RecordsLost { partition, from, to } => range_message(RECORDS_LOST, *partition, *from, *to),
            MemberFact::RecordsReprocessed { partition, from, to } => {
                range_message(RECORDS_REPROCESSED, *partition, *from, *to)
            }
        }
    }
}

impl Describe for TopicFact {
    fn message(&self) -> Message {
        match self {
            TopicFact::PoisonPillAppended { partition, offset } => Message::new(POISON_APPENDED)
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            TopicFact::PartitionsGrown { from, to } => Message::new(GROWN)
                .with("command", Arg::kafka(format!("kafka-topics --alter --partitions {to}")))
                .with("topic", Arg::kafka(TOPIC))
                .with("from", Arg::int(*from))
                .with("to", Arg::int(*to)),
        }
    }
}
