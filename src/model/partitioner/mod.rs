//! Kafka's default partitioner for keyed records: `toPositive(murmur2(key)) % numPartitions`.

mod murmur2;

pub use murmur2::{murmur2, to_positive};

/// The partition Kafka's producer picks for a non-null key (BuiltInPartitioner.partitionForKey).
pub fn partition_for_key(key: &[u8], num_partitions: u32) -> u32 {
    assert!(num_partitions > 0, "a topic has at least one partition");
    to_positive(murmur2(key)) % num_partitions
}
