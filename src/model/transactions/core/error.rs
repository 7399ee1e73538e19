//! The Kafka error codes the lab's transaction components return.

use std::fmt;

/// Kafka's error codes the lab can return; Display shows Kafka's name (`PRODUCER_FENCED`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KafkaError {
    /// Coordinator side: a request from an older epoch than the transactional id's current one.
    ProducerFenced,
    /// Partition leader side: a produce or marker from an older epoch than the last one written.
    InvalidProducerEpoch,
    /// A batch whose first sequence does not follow the producer's last one.
    OutOfOrderSequenceNumber,
    /// Kafka's name for a duplicate; a 4.0 leader answers a retried batch with its original
    /// offsets instead, so the lab never returns it.
    DuplicateSequenceNumber,
    /// A transition the transaction's state does not allow (e.g. EndTxn with no transaction).
    InvalidTxnState,
    /// The coordinator is still completing the previous transaction; the client retries.
    ConcurrentTransactions,
    /// The producer id does not belong to this transactional id.
    InvalidProducerIdMapping,
    TransactionalIdNotFound,
    /// `transaction.timeout.ms` above the broker's `transaction.max.timeout.ms`.
    InvalidTransactionTimeout,
    /// A malformed request (an empty transactional id).
    InvalidRequest,
    /// A malformed batch (no records, a transactional batch without a producer id).
    InvalidRecord,
}

impl KafkaError {
    /// Kafka's name of the error (`Errors` enum), as the protocol and the logs print it.
    pub fn name(self) -> &'static str {
        match self {
            KafkaError::ProducerFenced => "PRODUCER_FENCED",
            KafkaError::InvalidProducerEpoch => "INVALID_PRODUCER_EPOCH",
            KafkaError::OutOfOrderSequenceNumber => "OUT_OF_ORDER_SEQUENCE_NUMBER",
            KafkaError::DuplicateSequenceNumber => "DUPLICATE_SEQUENCE_NUMBER",
            KafkaError::InvalidTxnState => "INVALID_TXN_STATE",
            KafkaError::ConcurrentTransactions => "CONCURRENT_TRANSACTIONS",
            KafkaError::InvalidProducerIdMapping => "INVALID_PRODUCER_ID_MAPPING",
            KafkaError::TransactionalIdNotFound => "TRANSACTIONAL_ID_NOT_FOUND",
            KafkaError::InvalidTransactionTimeout => "INVALID_TRANSACTION_TIMEOUT",
            KafkaError::InvalidRequest => "INVALID_REQUEST",
            KafkaError::InvalidRecord => "INVALID_RECORD",
        }
    }
}

impl fmt::Display for KafkaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::error::Error for KafkaError {}
