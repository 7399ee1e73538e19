//! What the exactly-once scene reports: typed facts for the event log and typed refusals,
//! with English templates beside them (the UI renders them through the catalog).

use super::core::{Isolation, KafkaError};

/// One line of the scene's event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// At the start: the transactional id's row from earlier runs (its epoch history).
    EarlierRuns {
        inits: u32,
        producer_id: u64,
        epoch: u16,
    },
    /// InitProducerId answered (a new producer id, or the transactional id's next epoch).
    ProducerIdAssigned {
        label: &'static str,
        producer_id: u64,
        epoch: u16,
        transactional: bool,
    },
    /// InitProducerId found the previous epoch's transaction open: fenced and aborted.
    OpenTransactionFenced {
        producer_id: u64,
        old_epoch: u16,
        new_epoch: u16,
    },
    /// A producer without idempotence: no producer id, no sequence numbers.
    PlainProducer {
        label: &'static str,
    },
    /// AddPartitionsToTxn (or AddOffsetsToTxn for `__consumer_offsets`).
    PartitionAdded {
        partition: String,
        epoch: u16,
    },
    /// A produce request left the client.
    BatchSent {
        label: &'static str,
        first: u64,
        last: u64,
        sequence: Option<i32>,
        attempt: u32,
    },
    /// The leader appended a batch.
    Written {
        producer_id: Option<u64>,
        epoch: u16,
        sequence: Option<i32>,
        base: u64,
        last: u64,
        transactional: bool,
    },
    /// A record the log already holds (not aborted) was written again.
    DuplicateWritten {
        record: u64,
        offset: u64,
        earlier: u64,
    },
    /// A record landed after a later record of the same producer.
    Reordered {
        record: u64,
        offset: u64,
        after: u64,
    },
    /// A retried batch matched one of the producer's last 5: answered, nothing written.
    DuplicateAnswered {
        sequence: i32,
        base: u64,
        last: u64,
    },
    /// The leader refused a batch (epoch or sequence check).
    ProduceRefused {
        producer_id: u64,
        epoch: u16,
        sequence: i32,
        error: KafkaError,
    },
    /// The lab's `fail-next`: answered NOT_ENOUGH_REPLICAS, nothing written.
    NotEnoughReplicas {
        first: u64,
        last: u64,
    },
    /// The lab's `lose-ack`: written, then the connection dropped before the answer.
    ConnectionDropped {
        base: u64,
        last: u64,
    },
    /// A batch failed and will be sent again after retry.backoff.ms.
    Retrying {
        first: u64,
        last: u64,
        error: &'static str,
        backoff_ms: u64,
    },
    /// InitProducerId must be sent again (the previous epoch's abort is still completing).
    InitRetrying {
        error: KafkaError,
        backoff_ms: u64,
    },
    /// A batch failed for good (retries used up, or a fatal error).
    GaveUp {
        first: u64,
        last: u64,
        error: &'static str,
    },
    /// The client learned that its epoch is fenced: it can only close.
    ClientFenced {
        label: &'static str,
        epoch: u16,
        error: KafkaError,
    },
    /// commitTransaction / abortTransaction sent EndTxn.
    EndTxn {
        epoch: u16,
        commit: bool,
    },
    /// The coordinator refused a request.
    CoordinatorRefused {
        request: &'static str,
        epoch: u16,
        error: KafkaError,
    },
    /// The client cannot reach the coordinator: the request waits.
    CoordinatorUnreachable {
        request: &'static str,
    },
    /// WriteTxnMarkers: a COMMIT or ABORT control record on the output partition.
    MarkerWritten {
        producer_id: u64,
        epoch: u16,
        commit: bool,
        offset: u64,
        timed_out: bool,
    },
    /// The coordinator aborted a transaction older than transaction.timeout.ms.
    TransactionTimedOut {
        producer_id: u64,
        epoch: u16,
        new_epoch: u16,
        started_ms: u64,
        timeout_ms: u64,
    },
    Crashed {
        label: &'static str,
        epoch: u16,
    },
    Restarted {
        incarnation: u32,
    },
    Paused {
        duration_ms: Option<u64>,
    },
    Resumed {
        label: &'static str,
        epoch: u16,
    },
    CoordinatorCut,
    CoordinatorHealed,
    /// A downstream consumer fetched records.
    Fetched {
        isolation: Isolation,
        records: u64,
        first: u64,
        last: u64,
        duplicates: u64,
    },
    /// The processor polled input records.
    Polled {
        from: u64,
        to: u64,
    },
    /// The processor inserted rows into the database (`again`: rows already inserted before).
    RowsInserted {
        first: u64,
        last: u64,
        again: u64,
    },
    /// A plain offset commit (commitSync) to `__consumer_offsets`.
    OffsetsCommitted {
        offset: u64,
    },
    /// sendOffsetsToTransaction: the offset commit is a write inside the transaction.
    OffsetsSentToTransaction {
        offset: u64,
    },
    /// The transaction's marker on `__consumer_offsets`: its offset commit counts, or not.
    TransactionalOffsets {
        offset: u64,
        commit: bool,
    },
    /// A restarted processor resumes from its committed offset.
    ResumedFromCommitted {
        committed: u64,
        processed: u64,
    },
    /// The other producer started its steady stream.
    StreamStarted {
        per_sec: u64,
    },
}

/// `read_committed`, as Kafka spells the isolation level.
pub fn isolation_name(isolation: Isolation) -> &'static str {
    match isolation {
        Isolation::ReadUncommitted => "read_uncommitted",
        Isolation::ReadCommitted => "read_committed",
    }
}

pub use super::fact_text::FACT_KEYS;
pub use super::refusal::{Refusal, REFUSAL_KEYS};
