//! Kafka's idempotent-producer and transaction components, pure and kernel-free: one
//! partition's log with its producer state ([`PartitionLog`], [`ProducerStateManager`]) and the
//! transaction coordinator ([`TransactionCoordinator`], [`TransactionMetadata`]).
//!
//! Transaction version: TODO (written in the implementation commit).

pub mod coordinator;
mod error;
pub mod log;
pub mod metadata;
pub mod producer_state;

pub use coordinator::{Markers, TransactionCoordinator};
pub use error::KafkaError;
pub use log::{AbortedTxn, Appended, Entry, EntryKind, Isolation, PartitionLog, RecordStatus};
pub use metadata::{TopicPartition, TransactionMetadata, TxnState};
pub use producer_state::{BatchMetadata, ProducerStateManager, ProducerStateView};

/// A producer id handed out by InitProducerId (Kafka's `long producerId`).
pub type ProducerId = u64;
/// A producer epoch (Kafka's `short producerEpoch`, never negative once assigned).
pub type Epoch = u16;

/// A produce request's batch for one partition (the RecordBatch v2 header fields that matter here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// `None`: a plain producer (idempotence off), Kafka's NO_PRODUCER_ID.
    pub producer_id: Option<ProducerId>,
    pub epoch: Epoch,
    /// The batch's first sequence (Kafka's NO_SEQUENCE, -1, for a plain producer).
    pub base_sequence: i32,
    pub records: u32,
    pub transactional: bool,
    /// Lab ids of the records, one per record (for views and tests).
    pub record_ids: Vec<u64>,
}
