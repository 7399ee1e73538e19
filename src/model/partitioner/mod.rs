//! Kafka's producer partitioning: the default partitioner for keyed records
//! (`toPositive(murmur2(key)) % numPartitions`), the built-in sticky partitioner for records
//! without key, and the Partitioner scene (hot keys, composite keys, adding partitions).

mod accumulator;
mod behaviour;
mod brokers;
mod facts;
mod key;
mod load;
mod murmur2;
mod ready;
mod repartition;
mod scene;
mod schema;
mod sender;
mod sticky;
mod story;
mod story_adaptive;
mod story_says;
#[cfg(test)]
mod story_tests;
mod views;
mod world;

pub use accumulator::{
    record_size_bytes, Accumulator, AppendOutcome, BatchView, SendReason, RECORD_BATCH_OVERHEAD_BYTES,
};
pub use brokers::Brokers;
pub use facts::{Fact, Overtaken, Refusal, FACT_KEYS, REFUSAL_KEYS};
pub use key::{hex, key_text, HashSteps};
pub use load::{produce_load, KeyChoice, KeyDistribution, LoadReport, PartitionTable, Workload, HOT_KEY};
pub use murmur2::{murmur2, to_positive};
pub use ready::{Drained, NodeLatencyStats, ReadyCheck, MAX_REQUEST_SIZE_BYTES};
pub use repartition::{expected_fraction_stayed, KeyMove, RepartitionAnalysis};
pub use scene::{parse_key, COMPOSITE_TRADEOFF_KEY};
pub use schema::{Settings, PARTITIONER_SCHEMA};
pub use sticky::{PartitionLoadStats, StickyPartition, StickyPartitioner, Switch};
pub use views::{PartitionLoadView, SampledKey, StickyTimeline};
pub use world::check_partition_increase;

use crate::model::kernel::Ctx;

/// The Partitioner's kernel context.
pub type PartitionerCtx = Ctx<Event, Fact>;

/// The partition Kafka's producer picks for a non-null key (BuiltInPartitioner.partitionForKey).
pub fn partition_for_key(key: &[u8], num_partitions: u32) -> u32 {
    assert!(num_partitions > 0, "a topic has at least one partition");
    to_positive(murmur2(key)) % num_partitions
}

/// The topic the scene produces to.
pub use crate::model::TOPIC;

/// How often each partition's consumer takes its next slice of records.
pub const CONSUMER_TICK_MS: u64 = 100;

/// The most records one produce command may send (keeps a hostile link cheap).
pub const MAX_RECORDS_PER_COMMAND: u64 = 1_000_000;

/// The most records without key one command may send.
pub const MAX_UNKEYED_PER_COMMAND: u32 = 100_000;

/// The most partitions the lab draws.
pub const MAX_PARTITIONS: u32 = 256;

/// The fastest steady keyed producer (`stream-N`), in records per second.
pub const MAX_STREAM_RECORDS_PER_SEC: u32 = 1000;

/// The steady keyed producer Play starts on a scene where nothing runs, in records per second.
pub const WORKLOAD_RECORDS_PER_SEC: u32 = 10;

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
    pub report: LoadReport,
}

/// A sticky switch as the timeline draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchView {
    pub at_ms: u64,
    pub switch: Switch,
}

/// One `--alter --partitions` as the scene summarises it (moved keys over the population).
#[derive(Clone, Debug, PartialEq)]
pub struct AlterView {
    pub at_ms: u64,
    pub from_partitions: u32,
    pub to_partitions: u32,
    pub keys: usize,
    pub moved_keys: usize,
    pub fraction_stayed: f64,
    /// What uniform hashes would give (½ for N → 2N).
    pub expected_fraction_stayed: f64,
    /// The watched key before and after, if one is set.
    pub watched_key: Option<KeyMove>,
    /// MEGACORP before and after: it moves as a whole, still one partition.
    pub hot_key: KeyMove,
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
    /// The steady producer's next `send()` of a keyed record.
    KeyedSend,
    /// `broker` answers a produce request that carried batches of `partitions`.
    ProduceResponse { broker: u32, partitions: Vec<u32> },
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
    /// A steady producer of keyed records drawn from the workload, this many per second
    /// (again while it runs: the new rate).
    Stream(u32),
}

/// The Partitioner scene's whole state (producer, topic, consumers); reads PARTITIONER_SCHEMA.
#[derive(Clone, Debug)]
pub struct Partitioner {
    settings: Settings,
    num_partitions: u32,
    key: Option<Vec<u8>>,
    workload: Workload,
    table: PartitionTable,
    logs: Vec<PartitionLog>,
    accumulator: Accumulator,
    brokers: Brokers,
    /// Brokers reported busy (max.in.flight reached) and not drained since.
    busy: crate::model::kernel::sorted::SortedSet<u32>,
    /// Partitions adaptive partitioning leaves out at the last readiness check.
    unavailable: Vec<u32>,
    sequence: u64,
    unkeyed_pending: u32,
    rounds: Vec<ProduceRound>,
    alters: Vec<AlterView>,
    tracked: Vec<TrackedRecord>,
    switches: Vec<SwitchView>,
    processed_count: u32,
    /// The steady producer's rate (0: not running).
    stream_records_per_sec: u32,
}

pub use story::STORY_KEYS;
