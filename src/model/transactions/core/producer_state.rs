//! The leader's memory of each idempotent producer (Kafka's `ProducerStateManager`).

use std::collections::BTreeMap;

use super::{Epoch, ProducerId};

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

/// Every producer's state on one partition.
#[derive(Clone, Debug, Default)]
pub struct ProducerStateManager {
    producers: BTreeMap<ProducerId, ProducerStateView>,
}

impl ProducerStateManager {
    pub fn view(&self, producer_id: ProducerId) -> Option<ProducerStateView> {
        self.producers.get(&producer_id).cloned()
    }
}
