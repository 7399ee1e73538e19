//! Small read-only views of the Partitioner scene for the UI and for tests.

use super::accumulator::BatchView;
use super::key::HashSteps;
use super::repartition::{KeyMove, RepartitionAnalysis};
use super::{partition_for_key, AlterView, Partitioner, ProduceRound, SwitchView, TrackedRecord};

/// One row of `kafka-get-offsets` plus the consumer group's view (`kafka-consumer-groups --describe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartitionLoadView {
    pub partition: u32,
    pub log_end_offset: u64,
    pub current_offset: u64,
    pub lag: u64,
    pub hot_records: u64,
}

/// The sticky partitioner's timeline: every batch (partition, fill, when sent) and every switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StickyTimeline<'a> {
    pub batches: &'a [BatchView],
    pub switches: &'a [SwitchView],
    pub batch_size_bytes: u32,
}

impl Partitioner {
    /// The default partitioner's steps for the watched key at the current partition count.
    pub fn key_steps(&self) -> Option<HashSteps> {
        self.key.as_ref().map(|key| HashSteps::new(key, self.num_partitions))
    }

    pub fn partition_loads(&self) -> Vec<PartitionLoadView> {
        self.logs
            .iter()
            .enumerate()
            .map(|(p, log)| PartitionLoadView {
                partition: p as u32,
                log_end_offset: log.end_offset,
                current_offset: log.position,
                lag: log.end_offset - log.position,
                hot_records: log.hot_records,
            })
            .collect()
    }

    /// Every `produce-N` burst with its per-partition counts (before/after tables).
    pub fn rounds(&self) -> &[ProduceRound] {
        &self.rounds
    }

    /// Every partition-count change, oldest first.
    pub fn alters(&self) -> &[AlterView] {
        &self.alters
    }

    /// The watched key's records in the order they were sent.
    pub fn tracked_records(&self) -> &[TrackedRecord] {
        &self.tracked
    }

    /// The watched key's records in the order consumers processed them (processed ones only).
    pub fn processing_order(&self) -> Vec<&TrackedRecord> {
        let mut done: Vec<&TrackedRecord> = self.tracked.iter().filter(|r| r.processed_rank.is_some()).collect();
        crate::model::kernel::order::sort_by_key(&mut done, |r| r.processed_rank);
        done
    }

    pub fn sticky_timeline(&self) -> StickyTimeline<'_> {
        StickyTimeline {
            batches: self.accumulator.batches(),
            switches: &self.switches,
            batch_size_bytes: self.settings.batch_size_bytes,
        }
    }

    /// Every population key before and after `from → to` partitions (for the animated dots);
    /// key i is `workload().population_key(i)`.
    pub fn analyse_repartition(&self, from_partitions: u32, to_partitions: u32) -> RepartitionAnalysis {
        let population = self.workload.population();
        RepartitionAnalysis::new(population.iter().map(|k| k.as_bytes()), from_partitions, to_partitions)
    }
}

/// One key of the drawn sample of the population: its index and its partition before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampledKey {
    /// Population index (`workload().population_key(index)`).
    pub index: u32,
    pub step: KeyMove,
}

impl Partitioner {
    /// At most `max` population keys, evenly spaced over the indices, with their partitions for
    /// `from → to` (for drawing the population as dots without hashing every key).
    pub fn population_sample(&self, from_partitions: u32, to_partitions: u32, max: u32) -> Vec<SampledKey> {
        let keys = self.workload.distinct_keys;
        let shown = keys.min(max.max(1));
        (0..shown)
            .map(|i| {
                let index = (u64::from(i) * u64::from(keys) / u64::from(shown)) as u32;
                let key = self.workload.population_key(index);
                let step = KeyMove {
                    from: partition_for_key(key.as_bytes(), from_partitions),
                    to: partition_for_key(key.as_bytes(), to_partitions),
                };
                SampledKey { index, step }
            })
            .collect()
    }

    /// For each tracked record (in send order), the events of the same key sent before it that
    /// its consumer had not processed yet when it was processed: the order breaks.
    pub fn overtaken_events(&self) -> Vec<Vec<&str>> {
        self.tracked
            .iter()
            .enumerate()
            .map(|(j, later)| {
                let Some(rank) = later.processed_rank else { return Vec::new() };
                self.tracked[..j]
                    .iter()
                    .filter(|r| r.key_text == later.key_text && r.processed_rank.is_none_or(|earlier| earlier > rank))
                    .map(|r| r.event.as_str())
                    .collect()
            })
            .collect()
    }
}
