//! What the overview cluster reports: typed facts for the event log and typed
//! refusals. English templates keep the lab's wording; the UI translates by key.

use super::TOPIC;
use crate::model::kernel::{Arg, Describe, Key, Message};

/// How a partition's leadership changed along with its ISR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaderChange {
    /// The leader was unchanged.
    Kept,
    /// A new leader from the ISR took over (`from` → `to`) at `epoch`.
    Moved { from: u32, to: u32, epoch: i32 },
    /// No live replica is in the ISR: the partition is offline.
    Offline,
    /// A leaderless partition got `leader` at `epoch`.
    Elected { leader: u32, epoch: i32 },
}

/// One line of the overview's event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The controller created a partition with its replica assignment (the first is preferred).
    PartitionCreated { partition: u32, replicas: Vec<u32> },
    /// The producer found no live leader: the record waits (NOT_LEADER_OR_FOLLOWER).
    RecordWaiting { key_id: u32, partition: u32 },
    /// The leader appended a record.
    Appended { key_id: u32, value_bytes: u32, partition: u32, offset: i64 },
    /// A waiting record was given up after `delivery.timeout.ms` (TimeoutException).
    RecordExpired { key_id: u32, partition: u32, timeout_ms: u64 },
    /// A broker process died without a controlled shutdown.
    BrokerCrashed,
    /// A broker process started again and asks the controller to register it.
    BrokerRestarted { incarnation: u32 },
    /// The controller refused a restarted broker's registration: its old session has not expired.
    RegistrationRefused { broker: u32 },
    /// The controller registered a broker; it stays fenced until it has caught up with the metadata log.
    BrokerRegistered { broker: u32, incarnation: u32 },
    /// The controller fenced a broker whose heartbeats stopped.
    BrokerFenced { broker: u32, timeout_ms: u64, last_heartbeat_ms: u64 },
    /// The controller unfenced a broker that has caught up with the metadata log.
    BrokerUnfenced { broker: u32 },
    /// A leaderless partition got a leader from its ISR again.
    LeaderElected { partition: u32, leader: u32, epoch: i32 },
    /// The new leader's log is shorter: the records above its end were never committed and are gone.
    LogTruncated { partition: u32, leader: u32, offset: i64, last: i64 },
    /// A restarted replica caught up and joined the ISR. (Replica lists are boxed slices, not
    /// `Vec`s: every log line is as large as the largest fact, and a link may hold 1.5 million
    /// lines; a boxed slice hashes exactly as the `Vec` did, so trace hashes are unchanged.)
    IsrExpanded { partition: u32, replica: u32, before: Box<[u32]>, after: Box<[u32]>, leader: LeaderChange },
    /// A fenced broker left a partition's ISR.
    IsrShrunk { partition: u32, before: Box<[u32]>, after: Box<[u32]>, leader: LeaderChange },
    /// Leadership went back to the preferred replica.
    PreferredLeaderElected { partition: u32, leader: u32, epoch: i32 },
}

crate::messages! {
    pub FACT_KEYS;
    CREATED = "overview.fact.created" => "created {partition}: Replicas: {replicas} Leader: {leader}";
    WAITING = "overview.fact.waiting" => "{key} → {partition}: no live leader, the record waits (NOT_LEADER_OR_FOLLOWER)";
    APPENDED = "overview.fact.appended" => "appended {key} ({bytes} B) to {partition} at offset {offset}";
    EXPIRED = "overview.fact.expired" =>
        "{key} → {partition}: expired after delivery.timeout.ms={timeout} (TimeoutException)";
    CRASHED = "overview.fact.crashed" => "crashed (no controlled shutdown): its heartbeats to the controller stop";
    RESTARTED = "overview.fact.restarted" => "restarted (incarnation {incarnation}); it asks the controller to register it";
    REFUSED = "overview.fact.registration.refused" =>
        "refused broker-{broker}'s registration while its old session lasts: DuplicateBrokerRegistrationException: {kafka}";
    REGISTERED = "overview.fact.registered" =>
        "registered broker-{broker} (incarnation {incarnation}), fenced until it has caught up with the metadata log";
    FENCED = "overview.fact.fenced" =>
        "fenced broker-{broker}: its last heartbeat was at {last}, broker.session.timeout.ms={timeout} ago";
    UNFENCED = "overview.fact.unfenced" => "unfenced broker-{broker}: it has caught up with the metadata log";
    ONLINE = "overview.fact.leader.online" =>
        "{partition}: broker-{leader} is in the ISR and unfenced, Leader {leader} (LeaderEpoch {epoch}): online again";
    TRUNCATED = "overview.fact.truncated" =>
        "{partition}: the new leader broker-{leader}'s log ends at offset {offset}; offsets {offset} to {last} were never committed (above the high watermark) and are gone";
    EXPANDED = "overview.fact.isr.expanded" => "{partition}: replica {replica} caught up, Isr {before} → {after}{leader}";
    SHRUNK = "overview.fact.isr.shrunk" => "{partition}: Isr {before} → {after}{leader}";
    LEADER_MOVED = "overview.fact.leader.moved" => ", Leader {from} → {to} (LeaderEpoch {epoch})";
    LEADER_OFFLINE = "overview.fact.leader.offline" =>
        ", Leader none: no unfenced replica in the ISR, so the partition stays offline until one returns (unclean.leader.election.enable=false)";
    LEADER_ELECTED = "overview.fact.leader.elected" => ", Leader {leader} (LeaderEpoch {epoch})";
    LEADER_KEPT = "overview.fact.leader.kept" => "";
    PREFERRED = "overview.fact.preferred" => "{partition}: preferred leader election, Leader {leader} (LeaderEpoch {epoch})";
}

/// `orders-3`: a topic-partition as Kafka writes it.
fn partition_arg(partition: u32) -> Arg {
    Arg::text(format!("{TOPIC}-{partition}"))
}

/// `2,3`: a replica list as `kafka-topics` prints it.
fn ids_arg(ids: &[u32]) -> Arg {
    Arg::text(crate::model::join_ids(ids))
}

fn key_arg(key_id: u32) -> Arg {
    Arg::text(super::Cluster::key_text(key_id))
}

impl LeaderChange {
    fn message(self) -> Message {
        match self {
            LeaderChange::Kept => Message::new(LEADER_KEPT),
            LeaderChange::Moved { from, to, epoch } => Message::new(LEADER_MOVED)
                .with("from", Arg::int(from))
                .with("to", Arg::int(to))
                .with("epoch", Arg::int(epoch)),
            LeaderChange::Offline => Message::new(LEADER_OFFLINE),
            LeaderChange::Elected { leader, epoch } => {
                Message::new(LEADER_ELECTED).with("leader", Arg::int(leader)).with("epoch", Arg::int(epoch))
            }
        }
    }
}

fn isr_change(key: Key, partition: u32, before: &[u32], after: &[u32], leader: LeaderChange) -> Message {
    Message::new(key)
        .with("partition", partition_arg(partition))
        .with("before", ids_arg(before))
        .with("after", ids_arg(after))
        .with("leader", Arg::Message(Box::new(leader.message())))
}

impl Describe for Fact {
    fn message(&self) -> Message {
        match self {
            Fact::PartitionCreated { partition, replicas } => Message::new(CREATED)
                .with("partition", partition_arg(*partition))
                .with("replicas", ids_arg(replicas))
                .with("leader", Arg::int(replicas.first().copied().unwrap_or(0))),
            Fact::RecordWaiting { key_id, partition } => {
                Message::new(WAITING).with("key", key_arg(*key_id)).with("partition", partition_arg(*partition))
            }
            Fact::Appended { key_id, value_bytes, partition, offset } => Message::new(APPENDED)
                .with("key", key_arg(*key_id))
                .with("bytes", Arg::int(*value_bytes))
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            Fact::RecordExpired { key_id, partition, timeout_ms } => Message::new(EXPIRED)
                .with("key", key_arg(*key_id))
                .with("partition", partition_arg(*partition))
                .with("timeout", Arg::int(*timeout_ms)),
            Fact::BrokerCrashed => Message::new(CRASHED),
            Fact::BrokerRestarted { incarnation } => {
                Message::new(RESTARTED).with("incarnation", Arg::int(*incarnation))
            }
            Fact::RegistrationRefused { broker } => Message::new(REFUSED)
                .with("broker", Arg::int(*broker))
                .with("kafka", Arg::kafka("Another broker is registered with that broker id.")),
            Fact::BrokerRegistered { broker, incarnation } => {
                Message::new(REGISTERED).with("broker", Arg::int(*broker)).with("incarnation", Arg::int(*incarnation))
            }
            Fact::BrokerFenced { broker, timeout_ms, last_heartbeat_ms } => Message::new(FENCED)
                .with("broker", Arg::int(*broker))
                .with("timeout", Arg::int(*timeout_ms))
                .with("last", Arg::Duration(*last_heartbeat_ms)),
            Fact::BrokerUnfenced { broker } => Message::new(UNFENCED).with("broker", Arg::int(*broker)),
            Fact::LeaderElected { partition, leader, epoch } => Message::new(ONLINE)
                .with("partition", partition_arg(*partition))
                .with("leader", Arg::int(*leader))
                .with("epoch", Arg::int(*epoch)),
            Fact::LogTruncated { partition, leader, offset, last } => Message::new(TRUNCATED)
                .with("partition", partition_arg(*partition))
                .with("leader", Arg::int(*leader))
                .with("offset", Arg::int(*offset))
                .with("last", Arg::int(*last)),
            Fact::IsrExpanded { partition, replica, before, after, leader } => {
                isr_change(EXPANDED, *partition, before, after, *leader).with("replica", Arg::int(*replica))
            }
            Fact::IsrShrunk { partition, before, after, leader } => {
                isr_change(SHRUNK, *partition, before, after, *leader)
            }
            Fact::PreferredLeaderElected { partition, leader, epoch } => Message::new(PREFERRED)
                .with("partition", partition_arg(*partition))
                .with("leader", Arg::int(*leader))
                .with("epoch", Arg::int(*epoch)),
        }
    }
}

/// Why the overview refuses a command or a config.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Kafka's InvalidReplicationFactorException at topic creation.
    ReplicationFactorTooLarge {
        replication_factor: u32,
        brokers: u32,
    },
    NoSuchBroker {
        id: u32,
        brokers: u32,
    },
    AlreadyDown {
        id: u32,
    },
    AlreadyRunning {
        id: u32,
    },
    ProduceCount {
        records: u32,
    },
    /// A fault this scene does not model (only crash and restart of a broker).
    FaultNotModelled,
    /// Kafka's ConfigException: an explicit `delivery.timeout.ms` below `linger.ms +
    /// request.timeout.ms` (both at Kafka's defaults here). A default one would be raised instead,
    /// but the default, 120000, is never below them.
    DeliveryTimeoutTooSmall {
        delivery_timeout_ms: u64,
    },
}

/// Kafka 4.0's producer defaults, which this scene does not change.
pub const LINGER_MS: u64 = 5;
pub const REQUEST_TIMEOUT_MS: u64 = 30_000;

crate::messages! {
    pub REFUSAL_KEYS;
    RF_TOO_LARGE = "overview.refusal.rf" => "{kafka}";
    NO_SUCH_BROKER = "overview.refusal.no_broker" => "There is no broker {id}: this cluster has brokers 1 to {brokers}.";
    ALREADY_DOWN = "overview.refusal.down" => "broker-{id} is already down.";
    ALREADY_RUNNING = "overview.refusal.running" => "broker-{id} is already running.";
    PRODUCE_COUNT = "overview.refusal.produce" => "Produce takes 1 to 10000 records, not {records}.";
    FAULT_NOT_MODELLED = "overview.refusal.fault" => "This scene can crash and restart brokers only.";
    DELIVERY_TOO_SMALL = "overview.refusal.delivery" =>
        "{kafka} (here {delivery} < {linger} + {request}: linger.ms and request.timeout.ms keep Kafka's defaults in this scene)";
}

impl Describe for Refusal {
    fn message(&self) -> Message {
        match *self {
            Refusal::ReplicationFactorTooLarge { replication_factor, brokers } => Message::new(RF_TOO_LARGE).with(
                "kafka",
                Arg::kafka(format!(
                    "The target replication factor of {replication_factor} cannot be reached because only \
                     {brokers} broker(s) are registered."
                )),
            ),
            Refusal::NoSuchBroker { id, brokers } => {
                Message::new(NO_SUCH_BROKER).with("id", Arg::int(id)).with("brokers", Arg::int(brokers))
            }
            Refusal::AlreadyDown { id } => Message::new(ALREADY_DOWN).with("id", Arg::int(id)),
            Refusal::AlreadyRunning { id } => Message::new(ALREADY_RUNNING).with("id", Arg::int(id)),
            Refusal::ProduceCount { records } => Message::new(PRODUCE_COUNT).with("records", Arg::int(records)),
            Refusal::FaultNotModelled => Message::new(FAULT_NOT_MODELLED),
            // Kafka: KafkaProducer.configureDeliveryTimeout (only a value the user set is refused).
            Refusal::DeliveryTimeoutTooSmall { delivery_timeout_ms } => Message::new(DELIVERY_TOO_SMALL)
                .with(
                    "kafka",
                    Arg::kafka("delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms"),
                )
                .with("delivery", Arg::int(delivery_timeout_ms))
                .with("linger", Arg::int(LINGER_MS))
                .with("request", Arg::int(REQUEST_TIMEOUT_MS)),
        }
    }
}

crate::display_as_message!(Fact, Refusal);
