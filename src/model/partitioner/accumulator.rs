//! The producer's record accumulator for one topic: per-partition queues of batches filled up to
//! `batch.size`, sent when full or after `linger.ms`, with the sticky partitioner deciding where
//! records without a key go.

use crate::model::kernel::sorted::{SortedMap, SortedSet};
use std::collections::VecDeque;

use super::ready::NodeLatencyStats;
use super::sticky::{StickyPartitioner, Switch};

pub use crate::model::log::record::{
    v2_record_size_bytes as record_size_bytes, BATCH_HEADER_BYTES as RECORD_BATCH_OVERHEAD_BYTES,
};

/// Why a batch left the accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SendReason {
    /// It was full (or closed because the next record did not fit).
    Full,
    /// It waited `linger.ms`.
    Linger,
    /// Neither: its leader was ready for another partition's batch and took it along.
    Carried,
}

/// One producer batch (Kafka's `ProducerBatch` with its `MemoryRecordsBuilder`), uncompressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchView {
    pub id: u32,
    pub partition: u32,
    pub records: u32,
    /// Estimated size: header plus records, as Kafka estimates it.
    pub size_bytes: u32,
    /// The most it may hold: `max(batch.size, first record)`.
    pub write_limit_bytes: u32,
    pub created_ms: u64,
    /// True once the accumulator stopped appending to it.
    pub closed: bool,
    pub sent_ms: Option<u64>,
    pub send_reason: Option<SendReason>,
}

impl BatchView {
    pub(super) fn is_full(&self) -> bool {
        self.closed || (self.records > 0 && self.write_limit_bytes <= self.size_bytes)
    }

    fn record_size(&self, now_ms: u64, key_bytes: Option<u32>, value_bytes: u32) -> u32 {
        let timestamp_delta_ms = now_ms.saturating_sub(self.created_ms) as i64;
        record_size_bytes(self.records, timestamp_delta_ms, key_bytes, Some(value_bytes))
    }
}

/// Where one `send()` went: partition, batch, and the sticky switch it caused, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppendOutcome {
    pub partition: u32,
    pub batch_id: u32,
    pub new_batch: bool,
    pub switch: Option<Switch>,
}

/// Kafka's `RecordAccumulator` for one topic; reads batch.size, linger.ms,
/// partitioner.adaptive.partitioning.enable, partitioner.availability.timeout.ms.
/// Every batch ever made is kept for the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    batch_size_bytes: u32,
    pub(super) linger_ms: u64,
    pub(super) adaptive: bool,
    pub(super) availability_timeout_ms: u64,
    pub(super) partitioner: StickyPartitioner,
    pub(super) queues: SortedMap<u32, VecDeque<u32>>,
    pub(super) batches: Vec<BatchView>,
    /// Per broker: when it last had a sendable batch and when it last took one (Kafka's `nodeStats`).
    pub(super) node_stats: SortedMap<u32, NodeLatencyStats>,
    /// Per broker: the index in its partition list where the next drain starts (Kafka's `nodesDrainIndex`).
    pub(super) drain_index: SortedMap<u32, usize>,
    /// Partitions with a batch in flight while `max.in.flight.requests.per.connection` = 1.
    pub(super) muted: SortedSet<u32>,
}

impl Accumulator {
    /// `batch_size_bytes` is `batch.size` (0 disables batching; the sticky size is then 1 byte).
    pub fn new(batch_size_bytes: u32, linger_ms: u64, adaptive: bool, availability_timeout_ms: u64) -> Self {
        Self {
            batch_size_bytes,
            linger_ms,
            adaptive,
            availability_timeout_ms,
            partitioner: StickyPartitioner::new(batch_size_bytes.max(1)),
            queues: SortedMap::new(),
            batches: Vec::new(),
            node_stats: SortedMap::new(),
            drain_index: SortedMap::new(),
            muted: SortedSet::new(),
        }
    }

    pub fn linger_ms(&self) -> u64 {
        self.linger_ms
    }

    pub fn partitioner(&self) -> &StickyPartitioner {
        &self.partitioner
    }

    /// Every batch made so far, oldest first.
    pub fn batches(&self) -> &[BatchView] {
        &self.batches
    }

    fn all_batches_full(&self, partition: u32) -> bool {
        let last = self.queues.get(&partition).and_then(|queue| queue.back());
        last.is_none_or(|id| self.batches[*id as usize].is_full())
    }

    /// Appends one record (`key_bytes` is the serialized key length, `None` for a null key):
    /// a keyed record goes to `keyed_partition`, a null key to the sticky partition, completing a
    /// switch that waited for the partition's last batch to fill or leave.
    pub fn append(
        &mut self,
        key_bytes: Option<u32>,
        keyed_partition: Option<u32>,
        value_bytes: u32,
        now_ms: u64,
        num_partitions: u32,
        random_int: &mut impl FnMut() -> i32,
    ) -> AppendOutcome {
        let sticky = keyed_partition.is_none();
        let mut switch = None;
        loop {
            let partition = keyed_partition.unwrap_or_else(|| self.partitioner.peek(num_partitions, random_int));
            if sticky && self.maybe_complete_switch(partition, num_partitions, random_int, &mut switch) {
                continue;
            }
            if let Some((batch_id, appended)) = self.try_append(partition, key_bytes, value_bytes, now_ms) {
                self.after_append(sticky, partition, appended, num_partitions, random_int, &mut switch);
                return AppendOutcome { partition, batch_id, new_batch: false, switch };
            }
            if sticky && self.maybe_complete_switch(partition, num_partitions, random_int, &mut switch) {
                continue;
            }
            let (batch_id, appended) = self.new_batch(partition, key_bytes, value_bytes, now_ms);
            self.after_append(sticky, partition, appended, num_partitions, random_int, &mut switch);
            return AppendOutcome { partition, batch_id, new_batch: true, switch };
        }
    }

    /// Kafka's `partitionChanged` check: a switch disabled earlier happens once the queue's last batch is full or gone.
    fn maybe_complete_switch(
        &mut self,
        partition: u32,
        num_partitions: u32,
        random_int: &mut impl FnMut() -> i32,
        switch: &mut Option<Switch>,
    ) -> bool {
        debug_assert_eq!(self.partitioner.current().map(|c| c.partition), Some(partition));
        if !self.all_batches_full(partition) {
            return false;
        }
        match self.partitioner.update(0, true, num_partitions, random_int) {
            // Kafka retries after any switch, even one that drew the same partition again.
            Some(made) => {
                *switch = Some(made);
                true
            }
            None => false,
        }
    }

    fn after_append(
        &mut self,
        sticky: bool,
        partition: u32,
        appended_bytes: u32,
        num_partitions: u32,
        random_int: &mut impl FnMut() -> i32,
        switch: &mut Option<Switch>,
    ) {
        if sticky {
            let enable = self.all_batches_full(partition);
            if let Some(made) = self.partitioner.update(appended_bytes, enable, num_partitions, random_int) {
                *switch = Some(made);
            }
        }
    }

    /// Appends to the partition's open batch if the record fits; closes that batch if it does not.
    fn try_append(
        &mut self,
        partition: u32,
        key_bytes: Option<u32>,
        value_bytes: u32,
        now_ms: u64,
    ) -> Option<(u32, u32)> {
        let id = *self.queues.get(&partition)?.back()?;
        let batch = &mut self.batches[id as usize];
        let size = batch.record_size(now_ms, key_bytes, value_bytes);
        if batch.is_full() || batch.write_limit_bytes < batch.size_bytes + size {
            batch.closed = true;
            return None;
        }
        batch.records += 1;
        batch.size_bytes += size;
        Some((id, size))
    }

    fn new_batch(&mut self, partition: u32, key_bytes: Option<u32>, value_bytes: u32, now_ms: u64) -> (u32, u32) {
        let id = self.batches.len() as u32;
        let first_record = record_size_bytes(0, 0, key_bytes, Some(value_bytes));
        let size_bytes = RECORD_BATCH_OVERHEAD_BYTES + first_record;
        self.batches.push(BatchView {
            id,
            partition,
            records: 1,
            size_bytes,
            write_limit_bytes: self.batch_size_bytes.max(size_bytes),
            created_ms: now_ms,
            closed: false,
            sent_ms: None,
            send_reason: None,
        });
        self.queues.entry(partition).or_default().push_back(id);
        (id, size_bytes)
    }

    /// When the oldest unsent batch will have waited `linger.ms`, if any batch is waiting.
    pub fn next_linger_deadline_ms(&self) -> Option<u64> {
        self.queues
            .values()
            .filter_map(|q| q.front())
            .map(|id| self.batches[*id as usize].created_ms + self.linger_ms)
            .min()
    }

    /// The partition count changed: the producer refreshes its metadata and picks afresh.
    pub fn on_partition_count_change(&mut self) {
        self.partitioner.reset();
    }
}
