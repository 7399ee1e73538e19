//! The topic-overview cluster: brokers, one topic's partitions with leaders and
//! replicas placed as Kafka places them, a controller, and a keyed producer.

mod facts;
mod placement;
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
use crate::model::kernel::{Actor, Ctx, Fault, Node, World};

/// The overview's kernel context.
pub type ClusterCtx = Ctx<Event, Fact>;
use crate::model::partitioner::partition_for_key;

/// The topic every scene's cluster hosts unless a scene says otherwise.
pub use crate::model::TOPIC;

/// A Kafka broker process (KRaft broker role); reads no config of its own here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broker {
    pub id: u32,
    pub alive: bool,
    /// Fenced by the controller: it leads nothing and is out of every ISR.
    pub fenced: bool,
    /// Bumped on every restart, so a stale fencing timer is ignored (Kafka's incarnation id).
    pub incarnation: u32,
}

/// One record as the overview keeps it: which key, how big, when (CreateTime).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredRecord {
    pub key_id: u32,
    pub value_bytes: u32,
    pub timestamp_ms: u64,
}

/// A partition's controller state (`PartitionRegistration`): replicas, leader, ISR, epoch, and the leader's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    pub id: u32,
    /// Assigned replicas; the first is the preferred leader.
    pub replicas: Vec<u32>,
    pub leader: Option<u32>,
    pub isr: Vec<u32>,
    pub leader_epoch: i32,
    pub records: Vec<StoredRecord>,
}

impl Partition {
    /// The log end offset: the offset the next record will get.
    pub fn log_end_offset(&self) -> i64 {
        self.records.len() as i64
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
    /// The controller's heartbeat deadline for a broker (`broker.session.timeout.ms`).
    SessionExpired { broker: u32, incarnation: u32 },
    /// The controller's periodic preferred-leader check.
    LeaderImbalanceCheck,
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
        let brokers =
            (1..=settings.brokers).map(|id| Broker { id, alive: true, fenced: false, incarnation: 0 }).collect();
        Ok(Self { settings, brokers, partitions: Vec::new(), waiting: Vec::new(), stats: ProducerStats::default() })
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
                replicas,
                leader_epoch: 0,
                records: Vec::new(),
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
        ctx.schedule(self.settings.leader_imbalance_check_interval_ms, Event::LeaderImbalanceCheck);
    }

    fn handle(&mut self, event: Event, ctx: &mut ClusterCtx) {
        match event {
            Event::ProducerSend => {
                self.send_one(ctx);
                let gap = self.send_gap_ms(ctx);
                ctx.schedule(gap, Event::ProducerSend);
            }
            Event::SessionExpired { broker, incarnation } => self.session_expired(broker, incarnation, ctx),
            Event::LeaderImbalanceCheck => {
                self.leader_imbalance_check(ctx);
                ctx.schedule(self.settings.leader_imbalance_check_interval_ms, Event::LeaderImbalanceCheck);
            }
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
