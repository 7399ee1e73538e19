//! The producer's built-in sticky partitioning for records without a key (Kafka 3.3+, KIP-794).

use super::to_positive;

/// The partition the producer is sticking to and how much it has produced there since it chose it
/// (Kafka's `BuiltInPartitioner.StickyPartitionInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StickyPartition {
    pub partition: u32,
    pub produced_bytes: u32,
}

/// Adaptive partitioning's weights: a cumulative frequency table over the partitions with a
/// leader, shorter queues weighing more (Kafka's `BuiltInPartitioner.PartitionLoadStats`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionLoadStats {
    pub cumulative_frequency: Vec<u32>,
    pub partition_ids: Vec<u32>,
}

impl PartitionLoadStats {
    /// Builds the table from the queue sizes (batches waiting) of the partitions still available,
    /// out of `all_partitions` (Kafka's `updatePartitionLoadStats`). `None`, so a uniform choice, when
    /// the topic has fewer than two partitions, none is available, or every partition is available
    /// and every queue is equally long. Partitions left out (their leader has not taken data for
    /// `partitioner.availability.timeout.ms`) get no weight at all.
    pub fn from_queue_sizes(queue_sizes: &[u32], partition_ids: &[u32], all_partitions: usize) -> Option<Self> {
        debug_assert_eq!(queue_sizes.len(), partition_ids.len());
        debug_assert!(queue_sizes.len() <= all_partitions, "available partitions are some of all");
        if queue_sizes.is_empty() || all_partitions < 2 {
            return None;
        }
        let max_plus_one = queue_sizes.iter().copied().max().expect("non-empty") + 1;
        let all_equal = queue_sizes.iter().all(|size| *size == queue_sizes[0]);
        if all_equal && queue_sizes.len() == all_partitions {
            return None;
        }
        let mut running = 0;
        let cumulative_frequency = queue_sizes
            .iter()
            .map(|size| {
                running += max_plus_one - size;
                running
            })
            .collect();
        Some(Self { cumulative_frequency, partition_ids: partition_ids.to_vec() })
    }

    /// The partition a non-negative random number picks: the first entry strictly greater than
    /// `random % total`.
    pub fn pick(&self, random: u32) -> u32 {
        let total = *self.cumulative_frequency.last().expect("non-empty table");
        let weighted = random % total;
        let index = self.cumulative_frequency.partition_point(|bound| *bound <= weighted);
        self.partition_ids[index]
    }
}

/// Kafka's `BuiltInPartitioner` for one topic: sticks to a partition until `batch.size` bytes were
/// produced to it, then draws the next one; reads batch.size (its stickyBatchSize) and, through its
/// caller, partitioner.adaptive.partitioning.enable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StickyPartitioner {
    sticky_batch_size_bytes: u32,
    current: Option<StickyPartition>,
    load_stats: Option<PartitionLoadStats>,
}

impl StickyPartitioner {
    /// `sticky_batch_size_bytes` is `max(1, batch.size)`, as KafkaProducer passes it.
    pub fn new(sticky_batch_size_bytes: u32) -> Self {
        assert!(sticky_batch_size_bytes >= 1, "stickyBatchSize must be >= 1");
        Self { sticky_batch_size_bytes, current: None, load_stats: None }
    }

    pub fn current(&self) -> Option<StickyPartition> {
        self.current
    }

    pub fn load_stats(&self) -> Option<&PartitionLoadStats> {
        self.load_stats.as_ref()
    }

    /// Replaces the adaptive weights (`None`: uniform choice).
    pub fn set_load_stats(&mut self, stats: Option<PartitionLoadStats>) {
        self.load_stats = stats;
    }

    /// Draws the next sticky partition: weighted by queue sizes when load stats exist, else
    /// uniform over all partitions (the same partition may come up again).
    /// `random_int` is one `nextInt()` draw.
    pub fn next_partition(&self, num_partitions: u32, random_int: i32) -> u32 {
        let random = to_positive(random_int);
        match &self.load_stats {
            Some(stats) => stats.pick(random),
            None => random % num_partitions,
        }
    }

    /// The partition to append to, choosing one if there is none yet.
    pub fn peek(&mut self, num_partitions: u32, random_int: &mut impl FnMut() -> i32) -> u32 {
        if let Some(current) = self.current {
            return current.partition;
        }
        let partition = self.next_partition(num_partitions, random_int());
        self.current = Some(StickyPartition { partition, produced_bytes: 0 });
        partition
    }

    /// Counts `appended_bytes` and switches once `batch.size` bytes went to the partition and
    /// switching is allowed (its last batch is full or gone), or unconditionally at twice that.
    /// Returns the switch made, if any.
    pub fn update(
        &mut self,
        appended_bytes: u32,
        enable_switch: bool,
        num_partitions: u32,
        random_int: &mut impl FnMut() -> i32,
    ) -> Option<Switch> {
        let current = self.current.as_mut().expect("peek chose a partition first");
        current.produced_bytes = current.produced_bytes.saturating_add(appended_bytes);
        let produced_bytes = current.produced_bytes;
        let limit = self.sticky_batch_size_bytes;
        if (produced_bytes >= limit && enable_switch) || produced_bytes >= limit.saturating_mul(2) {
            let from = current.partition;
            let to = self.next_partition(num_partitions, random_int());
            self.current = Some(StickyPartition { partition: to, produced_bytes: 0 });
            return Some(Switch { from, to, produced_bytes });
        }
        None
    }

    /// Forgets the sticky partition (e.g. the partition count changed).
    pub fn reset(&mut self) {
        self.current = None;
        self.load_stats = None;
    }
}

/// One sticky switch: from which partition, to which, after how many bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    pub from: u32,
    pub to: u32,
    pub produced_bytes: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draws(values: &[i32]) -> impl FnMut() -> i32 + '_ {
        let mut index = 0;
        move || {
            index += 1;
            values[index - 1]
        }
    }

    #[test]
    fn sticks_until_batch_size_then_draws_uniformly() {
        let mut partitioner = StickyPartitioner::new(100);
        let mut random = draws(&[7, -3]);
        assert_eq!(partitioner.peek(6, &mut random), 1);
        assert_eq!(partitioner.update(99, true, 6, &mut random), None);
        let switch = partitioner.update(1, true, 6, &mut random).unwrap();
        // toPositive(-3) = 0x7ffffffd, % 6 = 5.
        assert_eq!(switch, Switch { from: 1, to: 0x7fff_fffd % 6, produced_bytes: 100 });
        assert_eq!(partitioner.current().unwrap().produced_bytes, 0);
    }

    #[test]
    fn a_disabled_switch_waits_until_twice_the_batch_size() {
        let mut partitioner = StickyPartitioner::new(100);
        let mut random = draws(&[0, 1]);
        partitioner.peek(4, &mut random);
        assert_eq!(partitioner.update(150, false, 4, &mut random), None);
        assert_eq!(partitioner.update(49, false, 4, &mut random), None);
        assert_eq!(partitioner.update(1, false, 4, &mut random).map(|s| s.to), Some(1));
    }

    #[test]
    fn load_stats_favour_short_queues() {
        // Queues 0 3 1 → weights 4 1 3 → table 4 5 8, as KIP-794 describes.
        let stats = PartitionLoadStats::from_queue_sizes(&[0, 3, 1], &[0, 1, 2], 3).unwrap();
        assert_eq!(stats.cumulative_frequency, vec![4, 5, 8]);
        let picks: Vec<u32> = (0..8).map(|r| stats.pick(r)).collect();
        assert_eq!(picks, vec![0, 0, 0, 0, 1, 2, 2, 2]);
        assert_eq!(PartitionLoadStats::from_queue_sizes(&[2, 2, 2], &[0, 1, 2], 3), None);
        assert_eq!(PartitionLoadStats::from_queue_sizes(&[5], &[0], 1), None);
    }

    #[test]
    fn partitions_left_out_for_availability_get_no_draw() {
        // Kafka: BuiltInPartitioner.updatePartitionLoadStats with length < queueSizes.length.
        // Partition 1 is left out; the other two have equal queues, yet the table is kept.
        let stats = PartitionLoadStats::from_queue_sizes(&[0, 0], &[0, 2], 3).unwrap();
        assert_eq!(stats.cumulative_frequency, vec![1, 2]);
        assert!((0..100).all(|r| stats.pick(r) != 1));
        // Only one partition left: every draw is that one.
        let one = PartitionLoadStats::from_queue_sizes(&[4], &[2], 3).unwrap();
        assert!((0..100).all(|r| one.pick(r) == 2));
        assert_eq!(PartitionLoadStats::from_queue_sizes(&[], &[], 3), None);
    }
}
