//! The leader's memory of each idempotent producer on one partition (Kafka's
//! `ProducerStateManager`, `ProducerStateEntry` and the checks of `ProducerAppendInfo`).
//!
//! Simplified: every append comes from a client (`AppendOrigin.CLIENT`; no replication, no
//! coordinator-origin offset commits), there is one coordinator epoch, producer ids never expire
//! (`producer.id.expiration.ms`), and KIP-890's partition verification (the leader asking the
//! coordinator before a transaction's first write) is left out: the lab's producers always send
//! AddPartitionsToTxn first, as TV1 clients do.

use crate::model::kernel::sorted::SortedMap;

use super::{Epoch, KafkaError, ProducerId};

/// How many batches the leader remembers per producer (`ProducerStateEntry.NUM_BATCHES_TO_RETAIN`).
pub const BATCHES_TO_RETAIN: usize = 5;

/// One of the last batches a producer wrote (Kafka's `BatchMetadata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchMetadata {
    pub first_sequence: i32,
    pub last_sequence: i32,
    pub first_offset: u64,
    pub last_offset: u64,
}

/// What the leader remembers of one producer (Kafka's `ProducerStateEntry`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProducerStateView {
    pub producer_id: ProducerId,
    pub epoch: Epoch,
    /// The last sequence written, `None` when no batch of this epoch is remembered.
    pub last_sequence: Option<i32>,
    /// The last batches written (at most 5), oldest first.
    pub batches: Vec<BatchMetadata>,
    /// First offset of the producer's open transaction on this partition.
    pub current_txn_first_offset: Option<u64>,
}

/// A transaction a marker just ended (Kafka's `CompletedTxn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompletedTxn {
    pub producer_id: ProducerId,
    pub first_offset: u64,
    pub last_offset: u64,
    pub aborted: bool,
}

/// The sequence `by` records after `sequence`, wrapping past `i32::MAX` to 0
/// (`DefaultRecordBatch.incrementSequence`).
pub fn increment_sequence(sequence: i32, by: i32) -> i32 {
    debug_assert!(sequence >= 0 && by >= 0);
    if sequence > i32::MAX - by {
        by - (i32::MAX - sequence) - 1
    } else {
        sequence + by
    }
}

/// Does `next` directly follow `last`? (`ProducerAppendInfo.inSequence`; -1 is "none yet")
fn in_sequence(last: i32, next: i32) -> bool {
    i64::from(next) == i64::from(last) + 1 || (next == 0 && last == i32::MAX)
}

/// Every producer's state on one partition.
#[derive(Clone, Debug, Default)]
pub struct ProducerStateManager {
    producers: SortedMap<ProducerId, ProducerStateView>,
}

impl ProducerStateManager {
    pub fn view(&self, producer_id: ProducerId) -> Option<ProducerStateView> {
        self.producers.get(&producer_id).cloned()
    }

    /// Every producer the partition remembers, by id.
    pub fn producers(&self) -> impl Iterator<Item = &ProducerStateView> {
        self.producers.values()
    }

    /// A retry of one of the remembered batches of the same epoch with exactly the same sequence
    /// range (`ProducerStateEntry.findDuplicateBatch`, checked by `UnifiedLog` before validating).
    pub fn find_duplicate(
        &self,
        producer_id: ProducerId,
        epoch: Epoch,
        first_sequence: i32,
        last_sequence: i32,
    ) -> Option<BatchMetadata> {
        let entry = self.producers.get(&producer_id)?;
        if entry.epoch != epoch {
            return None;
        }
        entry.batches.iter().find(|b| b.first_sequence == first_sequence && b.last_sequence == last_sequence).copied()
    }

    /// `ProducerAppendInfo.appendDataBatch`'s checks, in Kafka's order: the epoch
    /// (`checkProducerEpoch`: an older epoch is INVALID_PRODUCER_EPOCH since 2.7), the sequence
    /// (`checkSequence`), then a plain write inside an open transaction (INVALID_TXN_STATE).
    pub fn check_data(
        &self,
        producer_id: ProducerId,
        epoch: Epoch,
        first_sequence: i32,
        transactional: bool,
    ) -> Result<(), KafkaError> {
        let Some(entry) = self.producers.get(&producer_id) else {
            // Unknown producer (Kafka's NO_PRODUCER_EPOCH entry): any sequence is accepted.
            return Ok(());
        };
        if epoch < entry.epoch {
            return Err(KafkaError::InvalidProducerEpoch);
        }
        if epoch != entry.epoch {
            // checkSequence: the first batch of a new epoch must start at sequence 0.
            if first_sequence != 0 {
                return Err(KafkaError::OutOfOrderSequenceNumber);
            }
        } else if !in_sequence(entry.last_sequence.unwrap_or(-1), first_sequence) {
            return Err(KafkaError::OutOfOrderSequenceNumber);
        }
        if entry.current_txn_first_offset.is_some() && !transactional {
            return Err(KafkaError::InvalidTxnState);
        }
        Ok(())
    }

    /// Remembers a written data batch (`ProducerStateEntry.addBatch`): a new epoch forgets the
    /// old epoch's batches; only the last 5 are kept; a transactional batch opens a transaction.
    pub fn record_data(&mut self, producer_id: ProducerId, epoch: Epoch, batch: BatchMetadata, transactional: bool) {
        let entry = self.entry(producer_id, epoch);
        if entry.batches.len() == BATCHES_TO_RETAIN {
            entry.batches.remove(0);
        }
        entry.batches.push(batch);
        entry.last_sequence = Some(batch.last_sequence);
        if transactional && entry.current_txn_first_offset.is_none() {
            entry.current_txn_first_offset = Some(batch.first_offset);
        }
        debug_assert!(entry.batches.len() <= BATCHES_TO_RETAIN);
    }

    /// `checkProducerEpoch` for a marker (TV1: a marker's epoch may not be older than the
    /// producer's).
    pub fn check_marker(&self, producer_id: ProducerId, epoch: Epoch) -> Result<(), KafkaError> {
        match self.producers.get(&producer_id) {
            Some(entry) if epoch < entry.epoch => Err(KafkaError::InvalidProducerEpoch),
            _ => Ok(()),
        }
    }

    /// `ProducerAppendInfo.appendEndTxnMarker`: the marker at `offset` ends the producer's open
    /// transaction (a `CompletedTxn` only when it had data here) and takes the marker's epoch.
    pub fn record_marker(
        &mut self,
        producer_id: ProducerId,
        epoch: Epoch,
        offset: u64,
        commit: bool,
    ) -> Option<CompletedTxn> {
        let entry = self.entry(producer_id, epoch);
        let first_offset = entry.current_txn_first_offset.take()?;
        Some(CompletedTxn { producer_id, first_offset, last_offset: offset, aborted: !commit })
    }

    /// The first offset of the earliest open transaction (`ProducerStateManager.firstUnstableOffset`;
    /// with one replica a completed transaction is replicated at once).
    pub fn first_unstable_offset(&self) -> Option<u64> {
        self.producers.values().filter_map(|e| e.current_txn_first_offset).min()
    }

    /// The producer's entry at `epoch` (`maybeUpdateProducerEpoch`: a new epoch clears the batches).
    fn entry(&mut self, producer_id: ProducerId, epoch: Epoch) -> &mut ProducerStateView {
        let entry = self.producers.entry(producer_id).or_insert_with(|| ProducerStateView {
            producer_id,
            epoch,
            last_sequence: None,
            batches: Vec::new(),
            current_txn_first_offset: None,
        });
        if entry.epoch != epoch {
            debug_assert!(epoch > entry.epoch, "epochs only grow on a partition");
            entry.epoch = epoch;
            entry.batches.clear();
            entry.last_sequence = None;
        }
        entry
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(first_sequence: i32, last_sequence: i32, first_offset: u64) -> BatchMetadata {
        let last_offset = first_offset + (last_sequence - first_sequence) as u64;
        BatchMetadata { first_sequence, last_sequence, first_offset, last_offset }
    }

    #[test]
    fn sequences_wrap_from_i32_max_to_zero() {
        assert_eq!(increment_sequence(i32::MAX, 1), 0);
        assert_eq!(increment_sequence(i32::MAX - 1, 3), 1);
        assert_eq!(increment_sequence(5, 4), 9);
        assert!(in_sequence(i32::MAX, 0));
        assert!(!in_sequence(i32::MAX, 1));
    }

    #[test]
    fn the_batch_after_i32_max_starts_at_zero() {
        let mut state = ProducerStateManager::default();
        state.record_data(7, 0, batch(i32::MAX - 1, i32::MAX, 0), false);
        assert_eq!(state.check_data(7, 0, 0, false), Ok(()));
        assert_eq!(state.check_data(7, 0, i32::MAX, false), Err(KafkaError::OutOfOrderSequenceNumber));
    }

    #[test]
    fn the_sixth_batch_pushes_the_first_out_of_the_window() {
        let mut state = ProducerStateManager::default();
        for n in 0..6 {
            state.record_data(7, 0, batch(n, n, n as u64), false);
        }
        assert_eq!(state.view(7).map(|v| v.batches.len()), Some(BATCHES_TO_RETAIN));
        assert_eq!(state.find_duplicate(7, 0, 0, 0), None);
        assert_eq!(state.find_duplicate(7, 0, 1, 1), Some(batch(1, 1, 1)));
    }

    #[test]
    fn a_new_epoch_must_start_at_sequence_zero_but_an_unknown_producer_may_start_anywhere() {
        let mut state = ProducerStateManager::default();
        assert_eq!(state.check_data(7, 3, 42, false), Ok(()));
        state.record_data(7, 3, batch(42, 42, 0), false);
        assert_eq!(state.check_data(7, 4, 43, false), Err(KafkaError::OutOfOrderSequenceNumber));
        assert_eq!(state.check_data(7, 4, 0, false), Ok(()));
        assert_eq!(state.check_data(7, 2, 0, false), Err(KafkaError::InvalidProducerEpoch));
    }
}
