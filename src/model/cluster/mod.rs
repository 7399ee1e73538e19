//! The topic-overview cluster: brokers, one topic's partitions with leaders and
//! replicas placed as Kafka places them, a controller, and a keyed producer.

mod controller;
mod facts;
mod placement;
mod replication;
mod scene;
mod schema;
mod story;
#[cfg(test)]
mod story_tests;

pub use facts::{Fact, LeaderChange, Refusal, FACT_KEYS, REFUSAL_KEYS};
pub use placement::place_replicas;
pub use schema::{Settings, OVERVIEW_SCHEMA};
pub use story::STORY_KEYS;

use crate::model::java_random::JavaRandom;
use crate::model::kernel::{Actor, ChunkedVec, Ctx, Fault, Node, World};

/// The overview's kernel context.
pub type ClusterCtx = Ctx<Event, Fact>;
use crate::model::partitioner::partition_for_key;

/// The topic every scene's cluster hosts unless a scene says otherwise.
pub use crate::model::TOPIC;

/// A Kafka broker process (KRaft broker role) and the controller's registration of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broker {
    pub id: u32,
    /// The process is running.
    pub alive: bool,
    /// The controller's view: fenced, it leads nothing and is out of every ISR it can leave.
    pub fenced: bool,
    /// The process's incarnation, bumped on every restart (Kafka's incarnation id).
    pub incarnation: u32,
    /// The incarnation the controller holds a registration for: behind `incarnation` while a
    /// restarted process waits for its old session to expire.
    pub registered_incarnation: u32,
    /// It heartbeats every broker.heartbeat.interval.ms from this instant (its last unfencing).
    heartbeats_from_ms: u64,
    /// The controller's last contact with the registered incarnation, once its heartbeats stopped.
    last_heartbeat_ms: Option<u64>,
}

impl Broker {
    fn new(id: u32) -> Self {
        Self {
            id,
            alive: true,
            fenced: false,
            incarnation: 0,
            registered_incarnation: 0,
            heartbeats_from_ms: 0,
            last_heartbeat_ms: None,
        }
    }

    /// Running, registered and unfenced: it takes produce requests, leads and fetches.
    pub fn serving(&self) -> bool {
        self.alive && !self.fenced && self.incarnation == self.registered_incarnation
    }
}

/// One record as the overview keeps it: which key, how big, when (CreateTime).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredRecord {
    pub key_id: u32,
    pub value_bytes: u32,
    pub timestamp_ms: u64,
}

/// A partition's controller state (`PartitionRegistration`): replicas, leader, ISR, epoch, and its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    pub id: u32,
    /// Assigned replicas; the first is the preferred leader.
    pub replicas: Vec<u32>,
    pub leader: Option<u32>,
    pub isr: Vec<u32>,
    pub leader_epoch: i32,
    /// Each replica's log end offset, in `replicas` order; each replica's log is a prefix of `records`.
    pub log_end_offsets: Vec<i64>,
    /// The leader's log end offset when its epoch began (Kafka: `Partition.leaderEpochStartOffsetOpt`).
    pub leader_epoch_start_offset: i64,
    /// The longest replica log (the leader's, whenever there is a leader); its chunks are
    /// shared with the history's snapshots.
    pub records: ChunkedVec<StoredRecord>,
}

impl Partition {
    /// The log end offset: the offset the next record will get.
    pub fn log_end_offset(&self) -> i64 {
        self.records.len() as i64
    }

    /// `replica`'s own log end offset.
    pub fn replica_log_end_offset(&self, replica: u32) -> i64 {
        let index = self.replicas.iter().position(|r| *r == replica).expect("an assigned replica");
        self.log_end_offsets[index]
    }

    /// The high watermark: the smallest log end offset in the ISR
    /// (Kafka: `Partition.maybeIncrementLeaderHW`; a crashed member holds it until it is fenced).
    pub fn high_watermark(&self) -> i64 {
        let hw = self.isr.iter().map(|r| self.replica_log_end_offset(*r)).min().unwrap_or(0);
        debug_assert!(hw <= self.log_end_offset(), "HW {hw} above LEO {}", self.log_end_offset());
        hw
    }
}

/// A record the producer could not deliver yet (no live leader), kept until `delivery.timeout.ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Waiting {
    partition: u32,
    record: StoredRecord,
    first_try_ms: u64,
}

/// Producer counters, as its metrics would show them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProducerStats {
    pub sent: u64,
    pub acknowledged: u64,
    pub waiting: u64,
    /// Given up after `delivery.timeout.ms` (a TimeoutException in the send callback).
    pub expired: u64,
}

/// The overview's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The producer's next `send()` of a keyed record.
    ProducerSend,
    /// The controller's heartbeat deadline for a broker (`broker.session.timeout.ms` after its last heartbeat).
    SessionExpired { broker: u32, incarnation: u32 },
    /// The controller's preferred-leader check, due `leader.imbalance.check.interval.seconds` after an imbalance.
    LeaderImbalanceCheck,
    /// A registered, fenced broker has caught up with the metadata log: its next heartbeat unfences it.
    Unfence { broker: u32, incarnation: u32 },
    /// A restarted follower's next fetch round from the leaders of the partitions it lags on.
    ReplicaFetch { broker: u32, incarnation: u32 },
}

/// What a user can do to the overview cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Send a burst of keyed records now.
    Produce { records: u32 },
    /// A fault: `Crash(Node::Id(b))` kills broker b (kill -9: the controller notices later),
    /// `Restart(Node::Id(b))` starts it again. Other faults are refused here.
    Fault(Fault),
}

/// The most records one Produce command sends.
pub const MAX_PRODUCE_RECORDS: u32 = 10_000;

/// The whole topic-overview model.
#[derive(Clone, Debug)]
pub struct Cluster {
    settings: Settings,
    brokers: Vec<Broker>,
    partitions: Vec<Partition>,
    waiting: Vec<Waiting>,
    stats: ProducerStats,
    /// A preferred-leader check is pending (Kafka: `QuorumController.imbalancedScheduled`).
    imbalance_check_scheduled: bool,
    /// Per broker (index id - 1): a fetch round is pending.
    fetching: Vec<bool>,
}

mod behaviour;
mod views;

pub use views::{BrokerView, PartitionView};

impl Cluster {
    /// Builds the cluster a config describes; rejects impossible configs with Kafka's message.
    pub fn new(settings: Settings) -> Result<Self, Refusal> {
        if settings.replication_factor > settings.brokers {
            return Err(Refusal::ReplicationFactorTooLarge {
                replication_factor: settings.replication_factor,
                brokers: settings.brokers,
            });
        }
        if settings.delivery_timeout_ms < facts::LINGER_MS + facts::REQUEST_TIMEOUT_MS {
            return Err(Refusal::DeliveryTimeoutTooSmall { delivery_timeout_ms: settings.delivery_timeout_ms });
        }
        let brokers = (1..=settings.brokers).map(Broker::new).collect();
        Ok(Self {
            settings,
            brokers,
            partitions: Vec::new(),
            waiting: Vec::new(),
            stats: ProducerStats::default(),
            imbalance_check_scheduled: false,
            fetching: vec![false; settings.brokers as usize],
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn brokers(&self) -> &[Broker] {
        &self.brokers
    }

    pub fn partitions(&self) -> &[Partition] {
        &self.partitions
    }

    pub fn producer_stats(&self) -> ProducerStats {
        ProducerStats { waiting: self.waiting.len() as u64, ..self.stats }
    }

    /// The key text for a key id, as the producer sends it.
    pub fn key_text(key_id: u32) -> String {
        format!("key-{key_id}")
    }

    /// Which partition a key id goes to (Kafka's default partitioner).
    pub fn partition_of(&self, key_id: u32) -> u32 {
        partition_for_key(Self::key_text(key_id).as_bytes(), self.partitions.len() as u32)
    }

    fn create_topic(&mut self, ctx: &mut ClusterCtx) {
        let ids: Vec<u32> = self.brokers.iter().map(|b| b.id).collect();
        let mut random = JavaRandom::new(ctx.random_u64() as i64);
        let placed = place_replicas(&ids, self.settings.partitions, self.settings.replication_factor, &mut random)
            .expect("validated in Cluster::new");
        for (id, replicas) in placed.into_iter().enumerate() {
            let id = id as u32;
            ctx.record(Actor::Controller, Fact::PartitionCreated { partition: id, replicas: replicas.clone() });
            self.partitions.push(Partition {
                id,
                leader: Some(replicas[0]),
                isr: replicas.clone(),
                log_end_offsets: vec![0; replicas.len()],
                replicas,
                leader_epoch: 0,
                leader_epoch_start_offset: 0,
                records: ChunkedVec::default(),
            });
        }
    }

    /// Why `command` cannot run now, if it cannot.
    fn refusal(&self, command: &Command) -> Option<Refusal> {
        match *command {
            Command::Produce { records } => {
                (records == 0 || records > MAX_PRODUCE_RECORDS).then_some(Refusal::ProduceCount { records })
            }
            Command::Fault(Fault::Crash(Node::Id(id))) => {
                self.unknown_broker(id).or_else(|| (!self.broker(id).alive).then_some(Refusal::AlreadyDown { id }))
            }
            Command::Fault(Fault::Restart(Node::Id(id))) => {
                self.unknown_broker(id).or_else(|| self.broker(id).alive.then_some(Refusal::AlreadyRunning { id }))
            }
            Command::Fault(_) => Some(Refusal::FaultNotModelled),
        }
    }

    fn unknown_broker(&self, id: u32) -> Option<Refusal> {
        let brokers = self.brokers.len() as u32;
        (id == 0 || id > brokers).then_some(Refusal::NoSuchBroker { id, brokers })
    }
}

impl World for Cluster {
    type Event = Event;
    type Command = Command;
    type Fact = Fact;
    type Refusal = Refusal;

    fn start(&mut self, ctx: &mut ClusterCtx) {
        self.create_topic(ctx);
        if self.settings.records_per_sec > 0 {
            let gap = self.send_gap_ms(ctx);
            ctx.schedule(gap, Event::ProducerSend);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut ClusterCtx) {
        match event {
            Event::ProducerSend => {
                self.send_one(ctx);
                let gap = self.send_gap_ms(ctx);
                ctx.schedule(gap, Event::ProducerSend);
            }
            Event::SessionExpired { .. } => self.fence_stale_brokers(ctx),
            Event::LeaderImbalanceCheck => self.leader_imbalance_check(ctx),
            Event::Unfence { broker, incarnation } => self.unfence(broker, incarnation, ctx),
            Event::ReplicaFetch { broker, incarnation } => self.fetch_round(broker, incarnation, ctx),
        }
    }

    fn check(&self, command: &Command, _ctx: &ClusterCtx) -> Result<(), Refusal> {
        self.refusal(command).map_or(Ok(()), Err)
    }

    fn apply(&mut self, command: &Command, ctx: &mut ClusterCtx) {
        debug_assert!(self.refusal(command).is_none(), "apply without check: {command:?}");
        match *command {
            Command::Produce { records } => self.send_burst(records, ctx),
            Command::Fault(Fault::Crash(Node::Id(id))) => self.kill(id, ctx),
            Command::Fault(Fault::Restart(Node::Id(id))) => self.restart(id, ctx),
            Command::Fault(_) => {}
        }
    }
}

/// No view looks for particular pending events in this scene.
impl crate::model::kernel::Watched for Event {}
