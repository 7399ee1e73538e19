//! The English templates of the replication scene's facts (today's wording, kept for
//! links and course notes), and how each fact fills them. Kafka's error codes and
//! config names stay Kafka's (`Arg::Kafka` or literal template text).

use super::facts::{Fact, IsrDirection, SendError, TruncationCause};
use super::partition::PartitionError;
use super::{node_actor, TOPIC};
use crate::model::kernel::{Arg, Describe, Key, Message, Node};

crate::messages! {
    pub FACT_KEYS;
    CREATED = "replication.fact.created" =>
        "created {partition}: Leader: {leader} Replicas: {replicas} Isr: {isr} LeaderEpoch: 0";
    UNFENCED = "replication.fact.unfenced" => "broker-{broker} registered and unfenced";
    FENCED = "replication.fact.fenced" => "fenced broker-{broker}: no heartbeat within broker.session.timeout.ms={timeout}";
    ISR_CHANGED = "replication.fact.isr" => "{partition}: Isr {before} → {after}";
    STAYS_OFFLINE = "replication.fact.stays_offline" =>
        "{partition} stays offline: no live ISR member and unclean.leader.election.enable=false";
    ELECTED = "replication.fact.elected" => "{partition}: Leader {old} → {new} (LeaderEpoch {epoch}, Isr {isr})";
    UNCLEAN = "replication.fact.unclean" =>
        "{partition}: UNCLEAN leader election: Leader {old} → {new}, a replica outside the ISR (LeaderEpoch {epoch}, Isr {isr}); records it lacks are lost";
    OFFLINE = "replication.fact.offline" =>
        "{partition}: Leader {old} → none (LeaderEpoch {epoch}): no live replica in the ISR, partition offline";
    NO_LEADER = "replication.fact.none" => "none";
    UNCLEAN_SET = "replication.fact.unclean_set" => "topic config unclean.leader.election.enable={enabled}";
    UNCLEAN_CHECK = "replication.fact.unclean_check" =>
        "periodic unclean election check (unclean.leader.election.interval.ms={interval}): {partition} has no leader, unclean.leader.election.enable={enabled}";
    ELECT_REQUESTED = "replication.fact.elect_requested" =>
        "kafka-leader-election --election-type unclean --topic {topic} --partition 0";
    ELECT_FAILED = "replication.fact.elect_failed" => "ElectLeaders for {partition} failed with {error}";
    INELIGIBLE = "replication.fact.ineligible" =>
        "AlterPartition from broker-{leader} rejected: broker-{fenced} is fenced (INELIGIBLE_REPLICA)";
    ALTER_ACCEPTED = "replication.fact.alter_accepted" => "AlterPartition from broker-{leader}: Isr {isr}";
    BECAME_LEADER = "replication.fact.leader" =>
        "became leader of {partition} at leader epoch {epoch} (LEO {leo}, HW {hw}, Isr {isr})";
    BECAME_FOLLOWER = "replication.fact.follower" =>
        "became follower of {leader} at leader epoch {epoch} (will ask OffsetsForLeaderEpoch before fetching)";
    BECAME_FOLLOWER_FETCHING = "replication.fact.follower.fetching" =>
        "became follower of {leader} at leader epoch {epoch} (fetches from its LEO with lastFetchedEpoch={last})";
    FOLLOWS_NO_LEADER = "replication.fact.follower.none" => "no leader";
    TRUNCATED = "replication.fact.truncated" => "{why}: truncating log from LEO {from} to offset {to}";
    NOTHING_TO_TRUNCATE = "replication.fact.untruncated" => "{why}: nothing to truncate (LEO {leo})";
    CAUSE_FOLLOWER = "replication.fact.cause.follower" =>
        "became follower of {leader} at leader epoch {epoch}, truncating to its high watermark";
    CAUSE_OUT_OF_RANGE = "replication.fact.cause.range" =>
        "fetch offset {offset} is out of range on leader broker-{leader} (its LEO is {leo})";
    CAUSE_EPOCH_ENDS = "replication.fact.cause.epoch" =>
        "OffsetsForLeaderEpoch: leader broker-{leader} says epoch {epoch} ends at offset {end}";
    CAUSE_EPOCH_UNKNOWN = "replication.fact.cause.epoch_unknown" =>
        "OffsetsForLeaderEpoch: leader broker-{leader} does not know the epoch; falling back to the HW";
    CAUSE_DIVERGING = "replication.fact.cause.diverging" =>
        "FetchResponse from leader broker-{leader}: divergingEpoch, epoch {epoch} ends at offset {end}";
    CAUSE_EPOCH_MISSING = "replication.fact.cause.epoch_missing" =>
        "leader broker-{leader} says epoch {epoch} ends at offset {end}, an epoch this replica never had; it cuts where its epoch {local} ends and asks again";
    PAUSE_ENDED = "replication.fact.pause_ended" => "GC pause over: handling what queued up meanwhile";
    POWER_FAILED = "replication.fact.powerfail" =>
        "power failure: records the OS had not flushed are gone (LEO {before} → {after})";
    CRASHED = "replication.fact.crashed" => "crashed (kill -9): heartbeats to the controller stop";
    RESTARTED_LOG = "replication.fact.restarted_log" =>
        "restarted: log recovered with LEO {leo}, HW {hw} read from its checkpoint";
    RESTARTED = "replication.fact.restarted" => "restarted";
    PAUSED = "replication.fact.paused" => "stop-the-world GC pause for {ms} ms";
    SLOWED = "replication.fact.slowed" => "each fetch now waits {ms} ms more";
    FETCH_REFUSED = "replication.fact.fetch_refused" =>
        "connection to leader broker-{leader} refused; retrying every replica.fetch.backoff.ms={backoff}";
    FETCH_TIMEOUT = "replication.fact.fetch_timeout" =>
        "fetch got no answer within replica.socket.timeout.ms={timeout}; retrying";
    FETCH_FAILED = "replication.fact.fetch_failed" => "fetch from broker-{leader} failed with {error}; backing off";
    FETCHED = "replication.fact.fetched" =>
        "fetched {count, plural, one {# record} other {# records}} from broker-{leader}: LEO {leo_before} → {leo}, HW {hw_before} → {hw} (leader HW in response: {leader_hw})";
    EPOCH_FAILED = "replication.fact.epoch_failed" => "OffsetsForLeaderEpoch to broker-{leader} failed with {error}";
    ISR_UNREACHABLE = "replication.fact.isr_unreachable" =>
        "{verb} ISR from {before} to {after} failed: AlterPartition cannot reach the controller";
    ISR_UPDATED = "replication.fact.isr_updated" => "{verb} ISR from {before} to {after} (HW {hw}, LEO {leo})";
    ISR_UPDATED_UNDER_MIN = "replication.fact.isr_updated_under_min" =>
        "{verb} ISR from {before} to {after} (under-min-isr): the HW stays at {hw} until the ISR is back to min.insync.replicas (LEO {leo})";
    SHRINKING = "replication.fact.isr.shrinking" => "Shrinking";
    EXPANDING = "replication.fact.isr.expanding" => "Expanding";
    ALTER_REJECTED = "replication.fact.alter_rejected" => "AlterPartition rejected by the controller: {error}";
    DUPLICATE = "replication.fact.duplicate" =>
        "record #{record} is a duplicate (same producer sequence) of offset {offset}: not appended again";
    APPENDED = "replication.fact.appended" => "appended record #{record} at offset {offset} (leader epoch {epoch})";
    REJECTED = "replication.fact.rejected" => "rejected record #{record}: {error}";
    NOT_ENOUGH = "replication.fact.not_enough" =>
        "rejected record #{record}: NOT_ENOUGH_REPLICAS (ISR size {isr} < min.insync.replicas={min})";
    RECORD_FAILED = "replication.fact.record_failed" => "record #{record} failed: {why}";
    DELIVERY_TIMEOUT = "replication.fact.delivery_timeout" =>
        "TimeoutException: delivery.timeout.ms expired before the record was acknowledged";
    WAITING = "replication.fact.waiting" =>
        "record #{record}: no leader for {partition} (LEADER_NOT_AVAILABLE); it waits for metadata";
    CONNECTION_REFUSED = "replication.fact.connection_refused" =>
        "record #{record} (attempt {attempt}): broker-{broker} refused the connection";
    REQUEST_TIMEOUT = "replication.fact.request_timeout" =>
        "record #{record}: no response within request.timeout.ms={timeout}; will retry";
    ACKNOWLEDGED = "replication.fact.acked" => "record #{record} acknowledged by broker-{broker}: offset {offset}";
    ANSWERED = "replication.fact.answered" => "record #{record}: broker-{broker} answered {error}; retrying";
    LOAD_STARTED = "replication.fact.load_started" =>
        "steady producer started: {rate, plural, one {# record} other {# records}} per second, acks={acks}";
    LINK_CUT = "replication.fact.link_cut" => "link {a} ↔ {b} cut";
    LINK_HEALED = "replication.fact.link_healed" => "link {a} ↔ {b} healed";
}

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

/// `orders-0`: the scene's one partition as Kafka writes it.
fn partition_arg() -> Arg {
    Arg::text(format!("{TOPIC}-0"))
}

/// `1,2,3`: a broker list as `kafka-topics` prints it.
pub(super) fn ids_arg(ids: &[u32]) -> Arg {
    Arg::text(super::join(ids))
}

/// A node by its log name (`broker-2`, `controller`, `producer`).
pub(super) fn node_arg(node: Node) -> Arg {
    nested(node_actor(node).message())
}

fn leader_arg(leader: Option<u32>) -> Arg {
    leader.map_or_else(|| nested(Message::new(NO_LEADER)), Arg::int)
}

fn error_arg(error: PartitionError) -> Arg {
    Arg::kafka(error.name())
}

impl IsrDirection {
    fn message(self) -> Message {
        Message::new(match self {
            IsrDirection::Shrinking => SHRINKING,
            IsrDirection::Expanding => EXPANDING,
        })
    }
}

impl SendError {
    /// Kafka's exception (or error code) the callback reports, or the lab's sentence for it.
    pub fn why(self) -> Arg {
        match self {
            SendError::DeliveryTimeout => nested(Message::new(DELIVERY_TIMEOUT)),
            SendError::Network => Arg::kafka("NetworkException"),
            SendError::RequestTimeout => Arg::kafka("TimeoutException"),
            SendError::Partition(error) => error_arg(error),
        }
    }
}

impl TruncationCause {
    fn message(self) -> Message {
        match self {
            TruncationCause::BecameFollower { leader, epoch } => {
                Message::new(CAUSE_FOLLOWER).with("leader", follows(leader)).with("epoch", Arg::int(epoch))
            }
            TruncationCause::OutOfRange { fetch_offset, leader, leader_log_end_offset } => {
                Message::new(CAUSE_OUT_OF_RANGE)
                    .with("offset", Arg::int(fetch_offset))
                    .with("leader", Arg::int(leader))
                    .with("leo", Arg::int(leader_log_end_offset))
            }
            TruncationCause::EpochEnds { leader, epoch, end_offset } => Message::new(CAUSE_EPOCH_ENDS)
                .with("leader", Arg::int(leader))
                .with("epoch", Arg::int(epoch))
                .with("end", Arg::int(end_offset)),
            TruncationCause::EpochUnknown { leader } => {
                Message::new(CAUSE_EPOCH_UNKNOWN).with("leader", Arg::int(leader))
            }
            TruncationCause::DivergingEpoch { leader, epoch, end_offset } => Message::new(CAUSE_DIVERGING)
                .with("leader", Arg::int(leader))
                .with("epoch", Arg::int(epoch))
                .with("end", Arg::int(end_offset)),
            TruncationCause::EpochMissing { leader, epoch, end_offset, local_epoch } => {
                Message::new(CAUSE_EPOCH_MISSING)
                    .with("leader", Arg::int(leader))
                    .with("epoch", Arg::int(epoch))
                    .with("end", Arg::int(end_offset))
                    .with("local", Arg::int(local_epoch))
            }
        }
    }
}

/// `broker-2`, or `no leader`.
fn follows(leader: Option<u32>) -> Arg {
    match leader {
        Some(id) => nested(node_actor(Node::Id(id)).message()),
        None => nested(Message::new(FOLLOWS_NO_LEADER)),
    }
}

fn election(key: Key, old: Option<u32>, new: u32, epoch: i32, isr: &[u32]) -> Message {
    Message::new(key)
        .with("partition", partition_arg())
        .with("old", leader_arg(old))
        .with("new", Arg::int(new))
        .with("epoch", Arg::int(epoch))
        .with("isr", ids_arg(isr))
}

impl Fact {
    /// Facts about the cluster's shape and its leadership.
    fn cluster_message(&self) -> Option<Message> {
        Some(match self {
            Fact::PartitionCreated { leader, replicas, isr } => Message::new(CREATED)
                .with("partition", partition_arg())
                .with("leader", Arg::int(*leader))
                .with("replicas", ids_arg(replicas))
                .with("isr", ids_arg(isr)),
            Fact::BrokerUnfenced { broker } => Message::new(UNFENCED).with("broker", Arg::int(*broker)),
            Fact::BrokerFenced { broker, timeout_ms } => {
                Message::new(FENCED).with("broker", Arg::int(*broker)).with("timeout", Arg::int(*timeout_ms))
            }
            Fact::IsrChanged { before, after } => Message::new(ISR_CHANGED)
                .with("partition", partition_arg())
                .with("before", ids_arg(before))
                .with("after", ids_arg(after)),
            Fact::StaysOffline => Message::new(STAYS_OFFLINE).with("partition", partition_arg()),
            Fact::LeaderElected { old, new, epoch, isr } => election(ELECTED, *old, *new, *epoch, isr),
            Fact::UncleanLeaderElected { old, new, epoch, isr } => election(UNCLEAN, *old, *new, *epoch, isr),
            Fact::PartitionOffline { old, epoch } => Message::new(OFFLINE)
                .with("partition", partition_arg())
                .with("old", leader_arg(*old))
                .with("epoch", Arg::int(*epoch)),
            Fact::UncleanElectionSet { enabled } => {
                Message::new(UNCLEAN_SET).with("enabled", Arg::kafka(enabled.to_string()))
            }
            Fact::UncleanCheck { enabled, interval_ms } => Message::new(UNCLEAN_CHECK)
                .with("interval", Arg::Duration(*interval_ms))
                .with("partition", partition_arg())
                .with("enabled", Arg::kafka(enabled.to_string())),
            Fact::ElectLeadersRequested => Message::new(ELECT_REQUESTED).with("topic", Arg::kafka(TOPIC)),
            Fact::ElectLeadersFailed { error } => {
                Message::new(ELECT_FAILED).with("partition", partition_arg()).with("error", Arg::kafka(error.name()))
            }
            Fact::AlterPartitionIneligible { leader, fenced } => {
                Message::new(INELIGIBLE).with("leader", Arg::int(*leader)).with("fenced", Arg::int(*fenced))
            }
            Fact::AlterPartitionAccepted { leader, isr } => {
                Message::new(ALTER_ACCEPTED).with("leader", Arg::int(*leader)).with("isr", ids_arg(isr))
            }
            Fact::LinkCut { a, b } => Message::new(LINK_CUT).with("a", node_arg(*a)).with("b", node_arg(*b)),
            Fact::LinkHealed { a, b } => Message::new(LINK_HEALED).with("a", node_arg(*a)).with("b", node_arg(*b)),
            _ => return None,
        })
    }

    /// Facts about one broker's process and its replica.
    fn broker_message(&self) -> Option<Message> {
        Some(match self {
            Fact::BecameLeader { epoch, log_end_offset, high_watermark, isr } => Message::new(BECAME_LEADER)
                .with("partition", partition_arg())
                .with("epoch", Arg::int(*epoch))
                .with("leo", Arg::int(*log_end_offset))
                .with("hw", Arg::int(*high_watermark))
                .with("isr", ids_arg(isr)),
            Fact::BecameFollower { leader, epoch, last_fetched_epoch: None } => {
                Message::new(BECAME_FOLLOWER).with("leader", follows(*leader)).with("epoch", Arg::int(*epoch))
            }
            Fact::BecameFollower { leader, epoch, last_fetched_epoch: Some(last) } => {
                Message::new(BECAME_FOLLOWER_FETCHING)
                    .with("leader", follows(*leader))
                    .with("epoch", Arg::int(*epoch))
                    .with("last", Arg::int(*last))
            }
            Fact::Truncated { cause, truncation: Some(t), .. } => Message::new(TRUNCATED)
                .with("why", nested(cause.message()))
                .with("from", Arg::int(t.from_leo))
                .with("to", Arg::int(t.to_offset)),
            Fact::Truncated { cause, truncation: None, log_end_offset } => Message::new(NOTHING_TO_TRUNCATE)
                .with("why", nested(cause.message()))
                .with("leo", Arg::int(*log_end_offset)),
            Fact::PauseEnded => Message::new(PAUSE_ENDED),
            Fact::PowerFailed { leo_before, leo_after } => {
                Message::new(POWER_FAILED).with("before", Arg::int(*leo_before)).with("after", Arg::int(*leo_after))
            }
            Fact::Crashed => Message::new(CRASHED),
            Fact::RestartedWithLog { log_end_offset, high_watermark } => {
                Message::new(RESTARTED_LOG).with("leo", Arg::int(*log_end_offset)).with("hw", Arg::int(*high_watermark))
            }
            Fact::Restarted => Message::new(RESTARTED),
            Fact::Paused { duration_ms } => Message::new(PAUSED).with("ms", Arg::int(*duration_ms)),
            Fact::Slowed { delay_ms } => Message::new(SLOWED).with("ms", Arg::int(*delay_ms)),
            _ => return None,
        })
    }

    /// Facts of the fetch protocol and the ISR.
    fn fetch_message(&self) -> Option<Message> {
        Some(match self {
            Fact::FetchConnectionRefused { leader, backoff_ms } => {
                Message::new(FETCH_REFUSED).with("leader", Arg::int(*leader)).with("backoff", Arg::int(*backoff_ms))
            }
            Fact::FetchTimedOut { timeout_ms } => Message::new(FETCH_TIMEOUT).with("timeout", Arg::int(*timeout_ms)),
            Fact::FetchFailed { leader, error } => {
                Message::new(FETCH_FAILED).with("leader", Arg::int(*leader)).with("error", error_arg(*error))
            }
            Fact::Fetched { leader, records, leo_before, leo_after, hw_before, hw_after, leader_hw } => {
                Message::new(FETCHED)
                    .with("count", Arg::int(*records))
                    .with("leader", Arg::int(*leader))
                    .with("leo_before", Arg::int(*leo_before))
                    .with("leo", Arg::int(*leo_after))
                    .with("hw_before", Arg::int(*hw_before))
                    .with("hw", Arg::int(*hw_after))
                    .with("leader_hw", Arg::int(*leader_hw))
            }
            Fact::EpochRequestFailed { leader, error } => {
                Message::new(EPOCH_FAILED).with("leader", Arg::int(*leader)).with("error", error_arg(*error))
            }
            Fact::IsrChangeUnreachable { direction, before, after } => Message::new(ISR_UNREACHABLE)
                .with("verb", nested(direction.message()))
                .with("before", ids_arg(before))
                .with("after", ids_arg(after)),
            Fact::IsrUpdated { direction, before, after, high_watermark, log_end_offset, under_min_isr } => {
                Message::new(if *under_min_isr { ISR_UPDATED_UNDER_MIN } else { ISR_UPDATED })
                    .with("verb", nested(direction.message()))
                    .with("before", ids_arg(before))
                    .with("after", ids_arg(after))
                    .with("hw", Arg::int(*high_watermark))
                    .with("leo", Arg::int(*log_end_offset))
            }
            Fact::AlterPartitionRejected { error } => Message::new(ALTER_REJECTED).with("error", error_arg(*error)),
            _ => return None,
        })
    }

    /// Facts of the produce path, on the leader and in the producer.
    fn produce_message(&self) -> Option<Message> {
        let record = |id: &u64| Arg::int(*id);
        Some(match self {
            Fact::DuplicateRecord { record_id, offset } => {
                Message::new(DUPLICATE).with("record", record(record_id)).with("offset", Arg::int(*offset))
            }
            Fact::Appended { record_id, offset, epoch } => Message::new(APPENDED)
                .with("record", record(record_id))
                .with("offset", Arg::int(*offset))
                .with("epoch", Arg::int(*epoch)),
            Fact::ProduceRejected { record_id, error } => {
                Message::new(REJECTED).with("record", record(record_id)).with("error", error_arg(*error))
            }
            Fact::NotEnoughReplicas { record_id, isr_size, min_insync_replicas } => Message::new(NOT_ENOUGH)
                .with("record", record(record_id))
                .with("isr", Arg::int(*isr_size))
                .with("min", Arg::int(*min_insync_replicas)),
            Fact::RecordFailed { record_id, error } => {
                Message::new(RECORD_FAILED).with("record", record(record_id)).with("why", error.why())
            }
            Fact::LoadStarted { records_per_sec, acks } => Message::new(LOAD_STARTED)
                .with("rate", Arg::int(*records_per_sec))
                .with("acks", Arg::kafka(acks.config_value())),
            Fact::WaitingForLeader { record_id } => {
                Message::new(WAITING).with("record", record(record_id)).with("partition", partition_arg())
            }
            Fact::ConnectionRefused { record_id, attempt, broker } => Message::new(CONNECTION_REFUSED)
                .with("record", record(record_id))
                .with("attempt", Arg::int(*attempt))
                .with("broker", Arg::int(*broker)),
            Fact::RequestTimedOut { record_id, timeout_ms } => {
                Message::new(REQUEST_TIMEOUT).with("record", record(record_id)).with("timeout", Arg::int(*timeout_ms))
            }
            Fact::Acknowledged { record_id, broker, offset } => Message::new(ACKNOWLEDGED)
                .with("record", record(record_id))
                .with("broker", Arg::int(*broker))
                .with("offset", Arg::int(*offset)),
            Fact::ErrorAnswered { record_id, broker, error } => Message::new(ANSWERED)
                .with("record", record(record_id))
                .with("broker", Arg::int(*broker))
                .with("error", error_arg(*error)),
            _ => return None,
        })
    }
}

impl Describe for Fact {
    fn message(&self) -> Message {
        self.cluster_message()
            .or_else(|| self.broker_message())
            .or_else(|| self.fetch_message())
            .or_else(|| self.produce_message())
            .expect("every fact has a message")
    }
}
