//! The topic-overview cluster: brokers, one topic's partitions with leaders and
//! replicas placed as Kafka places them, a controller, and a keyed producer.

mod placement;
mod scene;
mod schema;

pub use placement::place_replicas;
pub use schema::OVERVIEW_SCHEMA;

use crate::model::config::Config;
use crate::model::java_random::JavaRandom;
use crate::model::kernel::Ctx;
use crate::model::partitioner::partition_for_key;

/// The topic every scene's cluster hosts unless a scene says otherwise.
pub const TOPIC: &str = "orders";

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
    /// Crash a broker process (kill -9): no clean shutdown, the controller notices later.
    KillBroker(u32),
    /// Start a crashed broker again.
    RestartBroker(u32),
}

/// The whole topic-overview model.
#[derive(Clone, Debug)]
pub struct Cluster {
    config: Config,
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
    pub fn new(config: Config) -> Result<Self, String> {
        let broker_count = config.int("lab.brokers") as u32;
        let rf = config.int("replication.factor") as u32;
        if rf > broker_count {
            return Err(format!(
                "The target replication factor of {rf} cannot be reached because only {broker_count} broker(s) are registered."
            ));
        }
        let brokers = (1..=broker_count).map(|id| Broker { id, alive: true, fenced: false, incarnation: 0 }).collect();
        Ok(Self { config, brokers, partitions: Vec::new(), waiting: Vec::new(), stats: ProducerStats::default() })
    }

    pub fn config(&self) -> &Config {
        &self.config
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

    fn create_topic(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let ids: Vec<u32> = self.brokers.iter().map(|b| b.id).collect();
        let mut random = JavaRandom::new(ctx.random_u64() as i64);
        let partitions = self.config.int("partitions") as u32;
        let rf = self.config.int("replication.factor") as u32;
        let placed = place_replicas(&ids, partitions, rf, &mut random).expect("validated in Cluster::new");
        for (id, replicas) in placed.into_iter().enumerate() {
            let text = format!("created {TOPIC}-{id}: Replicas: {} Leader: {}", join(&replicas), replicas[0]);
            self.partitions.push(Partition {
                id: id as u32,
                leader: Some(replicas[0]),
                isr: replicas.clone(),
                replicas,
                leader_epoch: 0,
                records: Vec::new(),
            });
            ctx.log("controller", text);
        }
    }
}

fn join(ids: &[u32]) -> String {
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

impl crate::model::kernel::LegacyWorld for Cluster {
    type Event = Event;
    type Command = Command;

    fn start(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        self.create_topic(ctx);
        if self.config.int("lab.producer.records.per.sec") > 0 {
            let gap = self.send_gap_ms(ctx);
            ctx.schedule(gap, Event::ProducerSend);
        }
        let check_ms = self.config.int("leader.imbalance.check.interval.seconds") as u64 * 1000;
        ctx.schedule(check_ms, Event::LeaderImbalanceCheck);
    }

    fn handle(&mut self, event: Event, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        match event {
            Event::ProducerSend => {
                self.send_one(ctx);
                let gap = self.send_gap_ms(ctx);
                ctx.schedule(gap, Event::ProducerSend);
            }
            Event::SessionExpired { broker, incarnation } => self.session_expired(broker, incarnation, ctx),
            Event::LeaderImbalanceCheck => {
                self.leader_imbalance_check(ctx);
                let check_ms = self.config.int("leader.imbalance.check.interval.seconds") as u64 * 1000;
                ctx.schedule(check_ms, Event::LeaderImbalanceCheck);
            }
        }
    }

    fn apply(&mut self, command: &Command, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        match *command {
            Command::Produce { records } => {
                if records == 0 || records > 10_000 {
                    return Err(format!("Produce takes 1 to 10000 records, not {records}."));
                }
                for _ in 0..records {
                    self.send_one(ctx);
                }
                Ok(())
            }
            Command::KillBroker(id) => self.kill(id, ctx),
            Command::RestartBroker(id) => self.restart(id, ctx),
        }
    }
}

crate::legacy_world!(Cluster);
