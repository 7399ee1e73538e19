//! The conformance API: one partition, leader only, Kafka defaults, virtual time from 0.

use std::fmt;

use super::core::{KafkaError, PartitionLog, TransactionCoordinator};

/// An error of the conformance API; Display shows Kafka's error name (`PRODUCER_FENCED`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxnError(pub KafkaError);

impl fmt::Display for TxnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for TxnError {}

impl From<KafkaError> for TxnError {
    fn from(error: KafkaError) -> Self {
        TxnError(error)
    }
}

/// One partition on its leader with a transaction coordinator.
#[derive(Clone, Debug)]
pub struct TxnPartition {
    log: PartitionLog,
    coordinator: TransactionCoordinator,
    now_ms: u64,
}

impl Default for TxnPartition {
    fn default() -> Self {
        Self::new()
    }
}

impl TxnPartition {
    pub fn new() -> Self {
        TxnPartition { log: PartitionLog::new(), coordinator: TransactionCoordinator::new(900_000), now_ms: 0 }
    }
    pub fn append_plain(&mut self, records: u32) -> Vec<u64> {
        let _ = (records, &self.log, self.now_ms);
        todo!()
    }
    pub fn init_producer_id(&mut self, transactional_id: &str) -> Result<u16, TxnError> {
        let _ = transactional_id;
        todo!()
    }
    pub fn append_txn(&mut self, transactional_id: &str, epoch: u16, records: u32) -> Result<Vec<u64>, TxnError> {
        let _ = (transactional_id, epoch, records);
        todo!()
    }
    pub fn end_txn(&mut self, transactional_id: &str, epoch: u16, commit: bool) -> Result<u64, TxnError> {
        let _ = (transactional_id, epoch, commit);
        todo!()
    }
    pub fn advance_to(&mut self, now_ms: u64) {
        let _ = now_ms;
        todo!()
    }
    pub fn leo(&self) -> u64 {
        todo!()
    }
    pub fn lso(&self) -> u64 {
        todo!()
    }
    pub fn read_committed(&self, from: u64) -> Vec<u64> {
        let _ = from;
        todo!()
    }
    pub fn read_uncommitted(&self, from: u64) -> Vec<u64> {
        let _ = from;
        todo!()
    }
    pub fn init_idempotent(&mut self) -> (u64, u16) {
        todo!()
    }
    pub fn produce_idempotent(
        &mut self,
        producer_id: u64,
        epoch: u16,
        base_sequence: i32,
        records: u32,
    ) -> Result<u64, TxnError> {
        let _ = (producer_id, epoch, base_sequence, records, &self.coordinator);
        todo!()
    }
}
