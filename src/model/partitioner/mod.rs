//! Kafka's producer partitioning: the default partitioner for keyed records
//! (`toPositive(murmur2(key)) % numPartitions`), the built-in sticky partitioner for records
//! without key, and the Partitioner scene (hot keys, composite keys, adding partitions).

mod accumulator;
mod behaviour;
mod key;
mod lab;
mod load;
mod murmur2;
mod repartition;
mod schema;
mod sticky;
mod views;
mod world;

pub use accumulator::{
    record_size_bytes, Accumulator, AppendOutcome, BatchView, SendReason, RECORD_BATCH_OVERHEAD_BYTES,
};
pub use key::{hex, parse_key, HashSteps};
pub use lab::COMPOSITE_TRADEOFF_KEY;
pub use load::{produce_load, KeyChoice, KeyDistribution, LoadReport, PartitionTable, Workload, HOT_KEY};
pub use murmur2::{murmur2, to_positive};
pub use repartition::{check_partition_increase, expected_fraction_stayed, KeyMove, RepartitionAnalysis};
pub use schema::PARTITIONER_SCHEMA;
pub use sticky::{PartitionLoadStats, StickyPartition, StickyPartitioner, Switch};
pub use views::{AlterView, PartitionLoadView, SampledKey, StickyTimeline};
pub use world::{
    Command, Event, PartitionLog, Partitioner, ProduceRound, SwitchView, TrackedRecord, CONSUMER_TICK_MS,
    MAX_RECORDS_PER_COMMAND, TOPIC,
};

/// The partition Kafka's producer picks for a non-null key (BuiltInPartitioner.partitionForKey).
pub fn partition_for_key(key: &[u8], num_partitions: u32) -> u32 {
    assert!(num_partitions > 0, "a topic has at least one partition");
    to_positive(murmur2(key)) % num_partitions
}
