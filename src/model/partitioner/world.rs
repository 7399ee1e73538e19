//! The Partitioner scene's model: one topic, a producer that sends keyed records (the default
//! partitioner) and records without key (the sticky partitioner), one consumer per partition,
//! and `--alter --partitions` with what it does to a key's order.

use super::accumulator::Accumulator;
use super::key::hex;
use super::load::{KeyDistribution, PartitionTable, Workload};
use super::sticky::Switch;
use crate::model::config::Config;
use crate::model::kernel::Ctx;

/// The topic the scene produces to.
pub const TOPIC: &str = "orders";

/// How often each partition's consumer takes its next slice of records.
pub const CONSUMER_TICK_MS: u64 = 100;

/// The most records one produce command may send (keeps a hostile link cheap).
pub const MAX_RECORDS_PER_COMMAND: u64 = 1_000_000;

/// A partition's log end offset and its consumer's position (the group's committed offset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionLog {
    pub end_offset: u64,
    pub position: u64,
    /// Records carrying MEGACORP (plain or bucketed).
    pub hot_records: u64,
}

/// A record of the watched key's stream (e.g. `cliente-42 created`): where it went and when its consumer processed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackedRecord {
    pub key_text: String,
    pub event: String,
    pub partition: u32,
    pub offset: u64,
    /// The partition count the producer used when it sent it.
    pub partitions_at_send: u32,
    pub produced_ms: u64,
    pub processed_ms: Option<u64>,
    /// Position in the global order of processing (None until processed).
    pub processed_rank: Option<u32>,
}

/// One `produce-N` burst: where its records went, like `kafka-get-offsets` run before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProduceRound {
    pub partitions: u32,
    pub distribution: KeyDistribution,
    pub composite: bool,
    pub records: u64,
    pub report: super::load::LoadReport,
}

/// A sticky switch as the timeline draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchView {
    pub at_ms: u64,
    pub switch: Switch,
}

/// The scene's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The producer's next `send()` of a record without key.
    UnkeyedSend,
    /// The sender thread wakes up for a batch whose `linger.ms` is over.
    SenderWakeup,
    /// Every consumer takes its next slice of records.
    ConsumerTick,
}

/// What a learner can do in the scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The key to watch and send (its serialized bytes).
    SetKey(Vec<u8>),
    /// `kafka-topics --alter --partitions M`.
    Alter(u32),
    Distribution(KeyDistribution),
    /// Send the hot key as `MEGACORP-<n % buckets>` (on) or plain (off).
    Composite(bool),
    /// A burst of keyed records drawn from the workload.
    Produce(u64),
    /// One record with the watched key and an event name (e.g. `created`).
    Send(String),
    /// Records without a key, one every 1/`lab.producer.records.per.sec` s.
    ProduceUnkeyed(u32),
}

/// The Partitioner scene's whole state (producer, topic, consumers); reads PARTITIONER_SCHEMA.
#[derive(Clone, Debug)]
pub struct Partitioner {
    pub(super) config: Config,
    pub(super) num_partitions: u32,
    pub(super) key: Option<Vec<u8>>,
    pub(super) workload: Workload,
    pub(super) table: PartitionTable,
    pub(super) logs: Vec<PartitionLog>,
    pub(super) accumulator: Accumulator,
    pub(super) sequence: u64,
    pub(super) unkeyed_pending: u32,
    pub(super) rounds: Vec<ProduceRound>,
    pub(super) alters: Vec<super::views::AlterView>,
    pub(super) tracked: Vec<TrackedRecord>,
    pub(super) switches: Vec<SwitchView>,
    pub(super) processed_count: u32,
}

impl Partitioner {
    pub fn new(config: Config) -> Result<Self, String> {
        let num_partitions = config.int("partitions") as u32;
        let distribution = KeyDistribution::parse(config.str("lab.key.distribution"))?;
        let workload = Self::workload_for(&config, distribution, config.bool("lab.composite.key"));
        let table = workload.partition_table(num_partitions);
        let accumulator = Accumulator::new(
            config.int("batch.size") as u32,
            config.int("linger.ms") as u64,
            config.bool("partitioner.adaptive.partitioning.enable"),
        );
        Ok(Self {
            num_partitions,
            key: None,
            workload,
            table,
            logs: vec![PartitionLog::default(); num_partitions as usize],
            accumulator,
            sequence: 0,
            unkeyed_pending: 0,
            rounds: Vec::new(),
            alters: Vec::new(),
            tracked: Vec::new(),
            switches: Vec::new(),
            processed_count: 0,
            config,
        })
    }

    pub(super) fn workload_for(config: &Config, distribution: KeyDistribution, composite: bool) -> Workload {
        let prefix = if config.str("lab.key.prefix") == "order" { "order" } else { "cliente" };
        let buckets = composite.then(|| config.int("lab.composite.buckets") as u32);
        Workload::new(
            prefix,
            config.int("lab.distinct.keys") as u32,
            distribution,
            config.int("lab.megacorp.percent") as u32,
            buckets,
        )
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn num_partitions(&self) -> u32 {
        self.num_partitions
    }

    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    pub fn accumulator(&self) -> &Accumulator {
        &self.accumulator
    }

    pub fn logs(&self) -> &[PartitionLog] {
        &self.logs
    }

    /// The watched key as text (UTF-8 when it is, else `0x…`).
    pub fn key_text(&self) -> Option<String> {
        self.key.as_ref().map(|bytes| match std::str::from_utf8(bytes) {
            Ok(text) if !text.starts_with("0x") && !text.starts_with("0X") => text.to_string(),
            _ => format!("0x{}", hex(bytes)),
        })
    }

    pub(super) fn draw(ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> impl FnMut(u64, u64) -> u64 + '_ {
        move |low, high| ctx.random_between(low, high)
    }

    /// One `nextInt()` for the sticky partitioner, from the kernel's RNG.
    pub(super) fn random_int(ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> impl FnMut() -> i32 + '_ {
        move || ctx.random_u64() as u32 as i32
    }
}

impl crate::model::kernel::LegacyWorld for Partitioner {
    type Event = Event;
    type Command = Command;

    fn start(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        ctx.log("controller", format!("created topic {TOPIC} with {} partition(s)", self.num_partitions));
        if self.config.int("lab.consumer.records.per.sec") > 0 {
            ctx.schedule(CONSUMER_TICK_MS, Event::ConsumerTick);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        match event {
            Event::UnkeyedSend => self.send_unkeyed(ctx),
            Event::SenderWakeup => self.run_sender(ctx),
            Event::ConsumerTick => {
                self.consume(ctx);
                ctx.schedule(CONSUMER_TICK_MS, Event::ConsumerTick);
            }
        }
    }

    fn apply(&mut self, command: &Command, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        match command {
            Command::SetKey(bytes) => self.set_key(bytes, ctx),
            Command::Alter(partitions) => self.alter(*partitions, ctx),
            Command::Distribution(distribution) => self.set_distribution(*distribution, ctx),
            Command::Composite(on) => self.set_composite(*on, ctx),
            Command::Produce(records) => self.produce(*records, ctx),
            Command::Send(event) => self.send_tracked(event, ctx),
            Command::ProduceUnkeyed(records) => self.start_unkeyed(*records, ctx),
        }
    }
}

crate::legacy_world!(Partitioner);
