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

impl TxnState {
    /// Kafka's name of the state (`TransactionState`), as `kafka-transactions.sh describe` prints it.
    pub fn name(self) -> &'static str {
        match self {
            TxnState::Empty => "Empty",
            TxnState::Ongoing => "Ongoing",
            TxnState::PrepareCommit => "PrepareCommit",
            TxnState::PrepareAbort => "PrepareAbort",
            TxnState::CompleteCommit => "CompleteCommit",
            TxnState::CompleteAbort => "CompleteAbort",
            TxnState::PrepareEpochFence => "PrepareEpochFence",
            TxnState::Dead => "Dead",
        }
    }
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

/// The highest epoch a client may be given: at `Short.MaxValue - 1` the epoch is exhausted and the
/// next InitProducerId rotates to a new producer id (`TransactionMetadata.isEpochExhausted`).
pub const EXHAUSTED_EPOCH: Epoch = i16::MAX as Epoch - 1;

impl TransactionMetadata {
    /// A transactional id's first InitProducerId: a fresh producer id at epoch 0 (Kafka creates
    /// the row at NO_PRODUCER_EPOCH and `prepareIncrementProducerEpoch` bumps it to 0).
    pub(super) fn new(transactional_id: &str, producer_id: ProducerId, txn_timeout_ms: u64) -> Self {
        TransactionMetadata {
            transactional_id: transactional_id.to_string(),
            producer_id,
            producer_epoch: 0,
            state: TxnState::Empty,
            partitions: Vec::new(),
            txn_start_ms: None,
            txn_timeout_ms,
        }
    }

    /// `isProducerEpochExhausted`.
    pub fn is_epoch_exhausted(&self) -> bool {
        self.producer_epoch >= EXHAUSTED_EPOCH
    }

    /// Markers are being written (PrepareCommit / PrepareAbort): Kafka answers
    /// CONCURRENT_TRANSACTIONS until the transaction completes.
    pub fn is_completing(&self) -> bool {
        matches!(self.state, TxnState::PrepareCommit | TxnState::PrepareAbort)
    }

    /// When the coordinator's periodic check starts treating the open transaction as timed out:
    /// it is aborted by the first check strictly after this instant
    /// (`TransactionStateManager.timedOutTransactions`: `start + timeout < now`).
    pub fn expires_ms(&self) -> Option<u64> {
        match (self.state, self.txn_start_ms) {
            (TxnState::Ongoing, Some(start_ms)) => Some(start_ms + self.txn_timeout_ms),
            _ => None,
        }
    }

    /// `prepareIncrementProducerEpoch` (no expected epoch: KIP-360's retry path is not modelled).
    pub(super) fn increment_epoch(&mut self, txn_timeout_ms: u64) {
        debug_assert!(!self.is_epoch_exhausted(), "cannot allocate more epochs");
        self.producer_epoch += 1;
        self.reset(txn_timeout_ms);
    }

    /// `prepareProducerIdRotation`: the epoch is exhausted, a new producer id starts at epoch 0.
    pub(super) fn rotate_producer_id(&mut self, producer_id: ProducerId, txn_timeout_ms: u64) {
        debug_assert!(!self.is_completing() && self.state != TxnState::Ongoing);
        self.producer_id = producer_id;
        self.producer_epoch = 0;
        self.reset(txn_timeout_ms);
    }

    fn reset(&mut self, txn_timeout_ms: u64) {
        self.state = TxnState::Empty;
        self.partitions.clear();
        self.txn_start_ms = None;
        self.txn_timeout_ms = txn_timeout_ms;
    }

    /// `prepareFenceProducerEpoch` then the abort `endTransaction` runs with the bumped epoch:
    /// PrepareEpochFence is only Kafka's pending state, so the row goes straight to PrepareAbort
    /// at epoch + 1 (not past `Short.MaxValue`).
    pub(super) fn fence_and_abort(&mut self) {
        debug_assert_eq!(self.state, TxnState::Ongoing);
        if self.producer_epoch < i16::MAX as Epoch {
            self.producer_epoch += 1;
        }
        self.state = TxnState::PrepareAbort;
    }

    /// `prepareAddPartitions`: a transaction starts (its clock too) with its first partition.
    pub(super) fn add_partitions(&mut self, partitions: &[TopicPartition], now_ms: u64) {
        if matches!(self.state, TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort) {
            self.txn_start_ms = Some(now_ms);
            self.partitions.clear();
        }
        for partition in partitions {
            if !self.partitions.contains(partition) {
                self.partitions.push(*partition);
            }
        }
        crate::model::kernel::order::sort(&mut self.partitions);
        self.state = TxnState::Ongoing;
    }

    /// `prepareAbortOrCommit` (TV1: the epoch stays).
    pub(super) fn prepare_end(&mut self, commit: bool) {
        debug_assert_eq!(self.state, TxnState::Ongoing);
        self.state = if commit { TxnState::PrepareCommit } else { TxnState::PrepareAbort };
    }

    /// `prepareComplete`: every marker is written.
    pub(super) fn complete(&mut self) {
        debug_assert!(self.is_completing());
        self.state = match self.state {
            TxnState::PrepareCommit => TxnState::CompleteCommit,
            TxnState::PrepareAbort => TxnState::CompleteAbort,
            other => other,
        };
        self.partitions.clear();
    }
}
