//! The transaction coordinator (Kafka's `TransactionCoordinator`).

use crate::model::kernel::sorted::SortedMap;

use super::{Epoch, KafkaError, ProducerId, TopicPartition, TransactionMetadata, TxnState};

/// Markers the coordinator must now write (WriteTxnMarkers), one per partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Markers {
    pub producer_id: ProducerId,
    pub epoch: Epoch,
    pub commit: bool,
    pub partitions: Vec<TopicPartition>,
}

/// Kafka's default `transaction.max.timeout.ms` (broker).
pub const DEFAULT_MAX_TIMEOUT_MS: u64 = 900_000;
/// Kafka's default `transaction.timeout.ms` (producer).
pub const DEFAULT_TXN_TIMEOUT_MS: u64 = 60_000;
/// Kafka's default `transaction.abort.timed.out.transaction.cleanup.interval.ms` (broker).
pub const ABORT_CHECK_INTERVAL_MS: u64 = 10_000;
/// The lab's first producer id (Kafka hands out blocks from the controller; the lab's ids are dense).
pub const FIRST_PRODUCER_ID: ProducerId = 1000;

/// The coordinator of every transactional id (the lab has one `__transaction_state` partition and
/// one coordinator epoch). Markers are written by the caller (the lab's stand-in for the
/// `TransactionMarkerChannelManager`), which reports back through `markers_written`.
#[derive(Clone, Debug)]
pub struct TransactionCoordinator {
    max_timeout_ms: u64,
    next_producer_id: ProducerId,
    transactions: SortedMap<String, TransactionMetadata>,
}

impl TransactionCoordinator {
    pub fn new(max_timeout_ms: u64) -> Self {
        TransactionCoordinator { max_timeout_ms, next_producer_id: FIRST_PRODUCER_ID, transactions: SortedMap::new() }
    }

    /// InitProducerId (`handleInitProducerId`, `prepareInitProducerIdTransit`). Without a
    /// transactional id: a new producer id at epoch 0. With one: a new id at epoch 0 the first
    /// time, then an epoch bump (a new id once the epoch is exhausted).
    ///
    /// If the previous incarnation left a transaction Ongoing, Kafka fences it (epoch + 1),
    /// starts its abort and answers CONCURRENT_TRANSACTIONS; the client retries and gets a second
    /// bump. Here that first round returns `Ok` with the abort's markers and the *fencing* epoch
    /// (which Kafka never hands to the client): write the markers, call `markers_written`, then
    /// call `init_producer_id` again for the client's epoch (fencing epoch + 1).
    pub fn init_producer_id(
        &mut self,
        transactional_id: Option<&str>,
        txn_timeout_ms: u64,
        now_ms: u64,
    ) -> Result<(ProducerId, Epoch, Option<Markers>), KafkaError> {
        let _ = now_ms;
        let Some(transactional_id) = transactional_id else {
            return Ok((self.generate_producer_id(), 0, None));
        };
        if transactional_id.is_empty() {
            return Err(KafkaError::InvalidRequest);
        }
        // TransactionStateManager.validateTransactionTimeoutMs
        if txn_timeout_ms == 0 || txn_timeout_ms > self.max_timeout_ms {
            return Err(KafkaError::InvalidTransactionTimeout);
        }
        if !self.transactions.contains_key(transactional_id) {
            let producer_id = self.generate_producer_id();
            let metadata = TransactionMetadata::new(transactional_id, producer_id, txn_timeout_ms);
            self.transactions.insert(transactional_id.to_string(), metadata);
            return Ok((producer_id, 0, None));
        }
        let new_producer_id = self.next_producer_id;
        let metadata = self.transactions.get_mut(transactional_id).expect("checked above");
        match metadata.state {
            TxnState::PrepareCommit | TxnState::PrepareAbort => Err(KafkaError::ConcurrentTransactions),
            TxnState::Ongoing => {
                metadata.fence_and_abort();
                let markers = markers_of(metadata, false);
                Ok((metadata.producer_id, metadata.producer_epoch, Some(markers)))
            }
            TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort => {
                if metadata.is_epoch_exhausted() {
                    metadata.rotate_producer_id(new_producer_id, txn_timeout_ms);
                    self.next_producer_id += 1;
                } else {
                    metadata.increment_epoch(txn_timeout_ms);
                }
                Ok((metadata.producer_id, metadata.producer_epoch, None))
            }
            TxnState::PrepareEpochFence | TxnState::Dead => unreachable!("never a resting state here"),
        }
    }

    /// AddPartitionsToTxn (`handleAddPartitionsToTransaction`): the first partition starts the
    /// transaction (Ongoing) and its timeout clock.
    pub fn add_partitions(
        &mut self,
        transactional_id: &str,
        producer_id: ProducerId,
        epoch: Epoch,
        partitions: &[TopicPartition],
        now_ms: u64,
    ) -> Result<(), KafkaError> {
        let metadata = self.checked(transactional_id, producer_id, epoch)?;
        if metadata.is_completing() {
            return Err(KafkaError::ConcurrentTransactions);
        }
        let known = partitions.iter().all(|p| metadata.partitions.contains(p));
        if metadata.state == TxnState::Ongoing && known {
            return Ok(());
        }
        metadata.add_partitions(partitions, now_ms);
        Ok(())
    }

    /// EndTxn from the client (`handleEndTransaction`, TV1): PrepareCommit or PrepareAbort, and the
    /// markers to write, one per partition. A retry after completion answers with no markers.
    pub fn end_txn(
        &mut self,
        transactional_id: &str,
        producer_id: ProducerId,
        epoch: Epoch,
        commit: bool,
        now_ms: u64,
    ) -> Result<Markers, KafkaError> {
        let _ = now_ms;
        let metadata = self.checked(transactional_id, producer_id, epoch)?;
        let none = Markers { producer_id, epoch, commit, partitions: Vec::new() };
        match (metadata.state, commit) {
            (TxnState::Ongoing, _) => {
                metadata.prepare_end(commit);
                Ok(markers_of(metadata, commit))
            }
            (TxnState::CompleteCommit, true) | (TxnState::CompleteAbort, false) => Ok(none),
            (TxnState::PrepareCommit, true) | (TxnState::PrepareAbort, false) => {
                Err(KafkaError::ConcurrentTransactions)
            }
            _ => Err(KafkaError::InvalidTxnState),
        }
    }

    /// Every marker of the transaction is written (`TransactionMarkerChannelManager` then
    /// `prepareComplete`): CompleteCommit or CompleteAbort. Outside PrepareCommit/PrepareAbort
    /// (e.g. after the empty answer to a retried EndTxn) there is nothing to complete.
    pub fn markers_written(&mut self, transactional_id: &str, now_ms: u64) {
        let _ = now_ms;
        if let Some(metadata) = self.transactions.get_mut(transactional_id).filter(|m| m.is_completing()) {
            metadata.complete();
        }
    }

    /// `abortTimedOutTransactions`: every Ongoing transaction whose start + timeout is before
    /// `now_ms` is fenced (epoch + 1) and aborted; returns the markers to write. Kafka runs it
    /// every `ABORT_CHECK_INTERVAL_MS`.
    pub fn abort_timed_out(&mut self, now_ms: u64) -> Vec<(String, Markers)> {
        let mut aborted = Vec::new();
        for (transactional_id, metadata) in &mut self.transactions {
            if metadata.expires_ms().is_some_and(|deadline_ms| deadline_ms < now_ms) {
                metadata.fence_and_abort();
                aborted.push((transactional_id.clone(), markers_of(metadata, false)));
            }
        }
        aborted
    }

    pub fn metadata(&self, transactional_id: &str) -> Option<&TransactionMetadata> {
        self.transactions.get(transactional_id)
    }

    /// Every transactional id's metadata, in id order.
    pub fn transactions(&self) -> impl Iterator<Item = &TransactionMetadata> {
        self.transactions.values()
    }

    /// `transaction.max.timeout.ms`.
    pub fn max_timeout_ms(&self) -> u64 {
        self.max_timeout_ms
    }

    fn generate_producer_id(&mut self) -> ProducerId {
        let id = self.next_producer_id;
        self.next_producer_id += 1;
        id
    }

    /// The checks every client request starts with: an unknown id or another producer id is
    /// INVALID_PRODUCER_ID_MAPPING, another epoch PRODUCER_FENCED.
    fn checked(
        &mut self,
        transactional_id: &str,
        producer_id: ProducerId,
        epoch: Epoch,
    ) -> Result<&mut TransactionMetadata, KafkaError> {
        let metadata = self.transactions.get_mut(transactional_id).ok_or(KafkaError::InvalidProducerIdMapping)?;
        if metadata.producer_id != producer_id {
            return Err(KafkaError::InvalidProducerIdMapping);
        }
        if metadata.producer_epoch != epoch {
            return Err(KafkaError::ProducerFenced);
        }
        Ok(metadata)
    }
}

/// The markers a transaction in PrepareCommit/PrepareAbort sends, one per partition.
fn markers_of(metadata: &TransactionMetadata, commit: bool) -> Markers {
    Markers {
        producer_id: metadata.producer_id,
        epoch: metadata.producer_epoch,
        commit,
        partitions: metadata.partitions.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::transactions::core::EXHAUSTED_EPOCH;

    const TP: TopicPartition = TopicPartition { topic: "t", partition: 0 };

    #[test]
    fn fencing_an_open_transaction_at_the_exhausted_epoch_rotates_the_producer_id_on_retry() {
        let mut c = TransactionCoordinator::new(DEFAULT_MAX_TIMEOUT_MS);
        let (id, _, _) = c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 0).unwrap();
        c.transactions.get_mut("t").unwrap().producer_epoch = EXHAUSTED_EPOCH;
        c.add_partitions("t", id, EXHAUSTED_EPOCH, &[TP], 0).unwrap();
        let (_, fence, markers) = c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 1).unwrap();
        assert_eq!(fence, i16::MAX as Epoch);
        assert_eq!(markers.map(|m| m.epoch), Some(i16::MAX as Epoch));
        c.markers_written("t", 2);
        let (new_id, epoch, _) = c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 3).unwrap();
        assert_eq!((new_id == id, epoch), (false, 0));
    }

    #[test]
    fn a_timed_out_transaction_at_short_max_keeps_its_epoch() {
        let mut c = TransactionCoordinator::new(DEFAULT_MAX_TIMEOUT_MS);
        let (id, _, _) = c.init_producer_id(Some("t"), 1, 0).unwrap();
        c.transactions.get_mut("t").unwrap().producer_epoch = i16::MAX as Epoch;
        c.add_partitions("t", id, i16::MAX as Epoch, &[TP], 0).unwrap();
        let aborted = c.abort_timed_out(2);
        assert_eq!(aborted.first().map(|(_, m)| m.epoch), Some(i16::MAX as Epoch), "never past Short.MaxValue");
    }

    #[test]
    fn a_zero_timeout_is_invalid() {
        let mut c = TransactionCoordinator::new(DEFAULT_MAX_TIMEOUT_MS);
        assert_eq!(c.init_producer_id(Some("t"), 0, 0), Err(KafkaError::InvalidTransactionTimeout));
        assert_eq!(c.init_producer_id(Some(""), 10, 0), Err(KafkaError::InvalidRequest));
    }
}
