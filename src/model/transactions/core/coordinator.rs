//! The transaction coordinator (Kafka's `TransactionCoordinator`).

use std::collections::BTreeMap;

use super::{Epoch, KafkaError, ProducerId, TopicPartition, TransactionMetadata};

/// Markers the coordinator must now write (WriteTxnMarkers), one per partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Markers {
    pub producer_id: ProducerId,
    pub epoch: Epoch,
    pub commit: bool,
    pub partitions: Vec<TopicPartition>,
}

/// The coordinator of every transactional id (one `__transaction_state` partition here).
#[derive(Clone, Debug)]
pub struct TransactionCoordinator {
    max_timeout_ms: u64,
    next_producer_id: ProducerId,
    transactions: BTreeMap<String, TransactionMetadata>,
}

impl TransactionCoordinator {
    pub fn new(max_timeout_ms: u64) -> Self {
        TransactionCoordinator { max_timeout_ms, next_producer_id: 1000, transactions: BTreeMap::new() }
    }

    /// InitProducerId: a new id or an epoch bump; an open transaction of the previous epoch is
    /// aborted first (its markers returned; the caller writes them, then calls `markers_written`).
    pub fn init_producer_id(
        &mut self,
        transactional_id: Option<&str>,
        txn_timeout_ms: u64,
        now_ms: u64,
    ) -> Result<(ProducerId, Epoch, Option<Markers>), KafkaError> {
        let _ = (transactional_id, txn_timeout_ms, now_ms, self.max_timeout_ms, self.next_producer_id);
        todo!()
    }

    /// AddPartitionsToTxn.
    pub fn add_partitions(
        &mut self,
        transactional_id: &str,
        producer_id: ProducerId,
        epoch: Epoch,
        partitions: &[TopicPartition],
        now_ms: u64,
    ) -> Result<(), KafkaError> {
        let _ = (transactional_id, producer_id, epoch, partitions, now_ms);
        todo!()
    }

    /// EndTxn: PrepareCommit or PrepareAbort; the markers to write are returned.
    pub fn end_txn(
        &mut self,
        transactional_id: &str,
        producer_id: ProducerId,
        epoch: Epoch,
        commit: bool,
        now_ms: u64,
    ) -> Result<Markers, KafkaError> {
        let _ = (transactional_id, producer_id, epoch, commit, now_ms);
        todo!()
    }

    /// Every marker of the transaction is written: CompleteCommit or CompleteAbort.
    pub fn markers_written(&mut self, transactional_id: &str, now_ms: u64) {
        let _ = (transactional_id, now_ms);
        todo!()
    }

    /// abortTimedOutTransactions: every Ongoing transaction older than its timeout is fenced
    /// (epoch bumped) and aborted; returns the markers to write.
    pub fn abort_timed_out(&mut self, now_ms: u64) -> Vec<(String, Markers)> {
        let _ = now_ms;
        todo!()
    }

    pub fn metadata(&self, transactional_id: &str) -> Option<&TransactionMetadata> {
        self.transactions.get(transactional_id)
    }

    /// Every transactional id's metadata, in id order.
    pub fn transactions(&self) -> impl Iterator<Item = &TransactionMetadata> {
        self.transactions.values()
    }
}
