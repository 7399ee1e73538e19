//! One transactional id's state on its coordinator (Kafka's `TransactionMetadata`).

use super::{Epoch, ProducerId};

/// Kafka's `TransactionState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TxnState {
    Empty,
    Ongoing,
    PrepareCommit,
    PrepareAbort,
    CompleteCommit,
    CompleteAbort,
    PrepareEpochFence,
    Dead,
}

/// A topic partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TopicPartition {
    pub topic: &'static str,
    pub partition: u32,
}

/// One transactional id's row in `__transaction_state`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransactionMetadata {
    pub transactional_id: String,
    pub producer_id: ProducerId,
    pub producer_epoch: Epoch,
    pub state: TxnState,
    pub partitions: Vec<TopicPartition>,
    pub txn_start_ms: Option<u64>,
    pub txn_timeout_ms: u64,
}
