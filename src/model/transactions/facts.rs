//! What the exactly-once scene reports: typed facts for the event log and typed refusals,
//! with English templates beside them (the UI renders them through the catalog).

use super::core::{Isolation, KafkaError};
use crate::model::kernel::{Arg, Describe, Message};

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

crate::messages! {
    pub FACT_KEYS;
    EARLIER_RUNS = "transactions.fact.earlier" =>
        "payments-processor-0 was initialized {inits, plural, one {# time} other {# times}} before this run: producer id {pid}, epoch {epoch}";
    ASSIGNED = "transactions.fact.assigned" => "InitProducerId for {label}: producer id {pid}, epoch {epoch}";
    ASSIGNED_TXN = "transactions.fact.assigned.txn" =>
        "InitProducerId for transactional.id {label}: producer id {pid}, epoch {epoch}; every older epoch is now fenced";
    OPEN_FENCED = "transactions.fact.open_fenced" =>
        "epoch {old} left a transaction open: the coordinator bumps producer {pid} to epoch {new} and aborts it";
    PLAIN = "transactions.fact.plain" => "{label} starts without idempotence: no producer id, no sequence numbers";
    ADDED = "transactions.fact.added" => "AddPartitionsToTxn: {partition} joins the transaction (epoch {epoch})";
    SENT = "transactions.fact.sent" => "sends records {first}–{last}{sequence} (attempt {attempt})";
    SEQUENCE = "transactions.fact.sequence" => ", base sequence {sequence}";
    NO_SEQUENCE = "transactions.fact.no_sequence" => "";
    WRITTEN = "transactions.fact.written" => "appended offsets {base}–{last}{producer}{txn}";
    WRITTEN_BY = "transactions.fact.written.by" => " from producer {pid} epoch {epoch}{sequence}";
    WRITTEN_TXN = "transactions.fact.written.txn" => ", inside its open transaction";
    DUPLICATE = "transactions.fact.duplicate" => "record {record} written again at offset {offset}: a duplicate of offset {earlier}";
    REORDERED = "transactions.fact.reordered" =>
        "record {record} lands at offset {offset}, after record {after}: the partition's order is broken";
    DEDUPED = "transactions.fact.deduped" =>
        "sequence {sequence} matches one of the producer's last 5 batches: answered with offsets {base}–{last}, nothing written again";
    REFUSED = "transactions.fact.refused" => "refused producer {pid} epoch {epoch} sequence {sequence}: {error}";
    NOT_ENOUGH = "transactions.fact.not_enough" => "answers records {first}–{last} with {error}: nothing written";
    DROPPED = "transactions.fact.dropped" =>
        "wrote offsets {base}–{last}, then the connection dropped: the producer never gets the answer";
    RETRYING = "transactions.fact.retrying" => "records {first}–{last} failed with {error}: sent again after retry.backoff.ms = {backoff}";
    GAVE_UP = "transactions.fact.gave_up" => "records {first}–{last} failed for good: {error}";
    CLIENT_FENCED = "transactions.fact.client_fenced" =>
        "{label} epoch {epoch} is fenced ({error}): a newer incarnation owns the transactional id";
    END_COMMIT = "transactions.fact.end.commit" => "commitTransaction: EndTxn(COMMIT) for epoch {epoch}";
    END_ABORT = "transactions.fact.end.abort" => "abortTransaction: EndTxn(ABORT) for epoch {epoch}";
    COORDINATOR_REFUSED = "transactions.fact.coordinator_refused" => "{request} from epoch {epoch} refused: {error}";
    UNREACHABLE = "transactions.fact.unreachable" => "{request} cannot reach the transaction coordinator: it waits";
    MARKER = "transactions.fact.marker" => "{kind} marker of producer {pid} epoch {epoch} written at offset {offset}{why}";
    MARKER_TIMEOUT = "transactions.fact.marker.timeout" => " (the transaction timed out)";
    MARKER_PLAIN = "transactions.fact.marker.plain" => "";
    TIMED_OUT = "transactions.fact.timed_out" =>
        "the transaction of producer {pid} epoch {epoch}, open since {started}, is older than transaction.timeout.ms = {timeout}: epoch {new} fences it and it is aborted";
    CRASHED = "transactions.fact.crashed" => "{label} (epoch {epoch}) crashed";
    RESTARTED = "transactions.fact.restarted" => "a new incarnation starts (number {incarnation})";
    PAUSED = "transactions.fact.paused" => "paused (a GC pause) for {duration}";
    STALLED = "transactions.fact.stalled" => "stalls: it does nothing until restarted";
    RESUMED = "transactions.fact.resumed" => "{label} (epoch {epoch}) wakes up and carries on where it stopped";
    CUT = "transactions.fact.cut" => "the link to the transaction coordinator is cut";
    HEALED = "transactions.fact.healed" => "the link to the transaction coordinator works again";
    FETCHED = "transactions.fact.fetched" =>
        "{isolation} fetched {records, plural, one {# record} other {# records}} (offsets {first}–{last}){duplicates}";
    FETCHED_DUPLICATES = "transactions.fact.fetched.duplicates" =>
        ", {count, plural, one {# record} other {# records}} it had already received";
    FETCHED_CLEAN = "transactions.fact.fetched.clean" => "";
    POLLED = "transactions.fact.polled" => "the processor polls payments offsets {from}–{to} and transforms them";
    ROWS = "transactions.fact.rows" => "inserts database rows for payments {first}–{last}{again}";
    ROWS_AGAIN = "transactions.fact.rows.again" => ": {count, plural, one {# row} other {# rows}} inserted a second time";
    ROWS_FIRST = "transactions.fact.rows.first" => "";
    COMMITTED = "transactions.fact.committed" => "commitSync: offset {offset} of payments committed to __consumer_offsets";
    OFFSETS_TXN = "transactions.fact.offsets_txn" =>
        "sendOffsetsToTransaction: offset {offset} of payments goes into the transaction (a write to __consumer_offsets)";
    OFFSETS_COMMIT = "transactions.fact.offsets.commit" => "__consumer_offsets: offset {offset} committed with the transaction";
    OFFSETS_ABORT = "transactions.fact.offsets.abort" => "__consumer_offsets: offset {offset} aborted with the transaction";
    RESUMED_FROM = "transactions.fact.resumed_from" =>
        "the processor resumes from the committed offset {committed}: {processed, plural, =0 {nothing} one {# record} other {# records}} to process again";
    STREAM = "transactions.fact.stream" => "producer-2 sends {per_sec} records a second";
    COMMIT_WORD = "transactions.word.commit" => "COMMIT";
    ABORT_WORD = "transactions.word.abort" => "ABORT";
}

/// `read_committed`, as Kafka spells the isolation level.
pub fn isolation_name(isolation: Isolation) -> &'static str {
    match isolation {
        Isolation::ReadUncommitted => "read_uncommitted",
        Isolation::ReadCommitted => "read_committed",
    }
}

fn kafka_error(error: KafkaError) -> Arg {
    Arg::kafka(error.name())
}

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

fn sent(first: u64, last: u64, sequence: Option<i32>, attempt: u32) -> Message {
    let sequence = sequence.map_or(Message::new(NO_SEQUENCE), |s| Message::new(SEQUENCE).with("sequence", Arg::int(s)));
    Message::new(SENT)
        .with("first", Arg::int(first))
        .with("last", Arg::int(last))
        .with("sequence", nested(sequence))
        .with("attempt", Arg::int(attempt))
}

fn written(producer_id: Option<u64>, epoch: u16, sequence: Option<i32>, base: u64, last: u64, txn: bool) -> Message {
    let producer = producer_id.map_or(Message::new(NO_SEQUENCE), |pid| {
        let sequence =
            sequence.map_or(Message::new(NO_SEQUENCE), |s| Message::new(SEQUENCE).with("sequence", Arg::int(s)));
        Message::new(WRITTEN_BY)
            .with("pid", Arg::int(pid))
            .with("epoch", Arg::int(epoch))
            .with("sequence", nested(sequence))
    });
    let txn = if txn { Message::new(WRITTEN_TXN) } else { Message::new(NO_SEQUENCE) };
    Message::new(WRITTEN)
        .with("base", Arg::int(base))
        .with("last", Arg::int(last))
        .with("producer", nested(producer))
        .with("txn", nested(txn))
}

fn either(key_if: bool, yes: crate::model::kernel::Key, no: crate::model::kernel::Key) -> Message {
    Message::new(if key_if { yes } else { no })
}

impl Describe for Fact {
    fn message(&self) -> Message {
        match self {
            Fact::EarlierRuns { inits, producer_id, epoch } => Message::new(EARLIER_RUNS)
                .with("inits", Arg::int(*inits))
                .with("pid", Arg::int(*producer_id))
                .with("epoch", Arg::int(*epoch)),
            Fact::ProducerIdAssigned { label, producer_id, epoch, transactional } => {
                either(*transactional, ASSIGNED_TXN, ASSIGNED)
                    .with("label", Arg::kafka(*label))
                    .with("pid", Arg::int(*producer_id))
                    .with("epoch", Arg::int(*epoch))
            }
            Fact::OpenTransactionFenced { producer_id, old_epoch, new_epoch } => Message::new(OPEN_FENCED)
                .with("pid", Arg::int(*producer_id))
                .with("old", Arg::int(*old_epoch))
                .with("new", Arg::int(*new_epoch)),
            Fact::PlainProducer { label } => Message::new(PLAIN).with("label", Arg::kafka(*label)),
            Fact::PartitionAdded { partition, epoch } => {
                Message::new(ADDED).with("partition", Arg::kafka(partition.clone())).with("epoch", Arg::int(*epoch))
            }
            Fact::BatchSent { first, last, sequence, attempt, .. } => sent(*first, *last, *sequence, *attempt),
            Fact::Written { producer_id, epoch, sequence, base, last, transactional } => {
                written(*producer_id, *epoch, *sequence, *base, *last, *transactional)
            }
            Fact::DuplicateWritten { record, offset, earlier } => Message::new(DUPLICATE)
                .with("record", Arg::int(*record))
                .with("offset", Arg::int(*offset))
                .with("earlier", Arg::int(*earlier)),
            Fact::Reordered { record, offset, after } => Message::new(REORDERED)
                .with("record", Arg::int(*record))
                .with("offset", Arg::int(*offset))
                .with("after", Arg::int(*after)),
            Fact::DuplicateAnswered { sequence, base, last } => Message::new(DEDUPED)
                .with("sequence", Arg::int(*sequence))
                .with("base", Arg::int(*base))
                .with("last", Arg::int(*last)),
            Fact::ProduceRefused { producer_id, epoch, sequence, error } => Message::new(REFUSED)
                .with("pid", Arg::int(*producer_id))
                .with("epoch", Arg::int(*epoch))
                .with("sequence", Arg::int(*sequence))
                .with("error", kafka_error(*error)),
            Fact::NotEnoughReplicas { first, last } => Message::new(NOT_ENOUGH)
                .with("first", Arg::int(*first))
                .with("last", Arg::int(*last))
                .with("error", Arg::kafka("NOT_ENOUGH_REPLICAS")),
            Fact::ConnectionDropped { base, last } => {
                Message::new(DROPPED).with("base", Arg::int(*base)).with("last", Arg::int(*last))
            }
            Fact::Retrying { first, last, error, backoff_ms } => Message::new(RETRYING)
                .with("first", Arg::int(*first))
                .with("last", Arg::int(*last))
                .with("error", Arg::kafka(*error))
                .with("backoff", Arg::Duration(*backoff_ms)),
            Fact::GaveUp { first, last, error } => Message::new(GAVE_UP)
                .with("first", Arg::int(*first))
                .with("last", Arg::int(*last))
                .with("error", Arg::kafka(*error)),
            Fact::ClientFenced { label, epoch, error } => Message::new(CLIENT_FENCED)
                .with("label", Arg::kafka(*label))
                .with("epoch", Arg::int(*epoch))
                .with("error", kafka_error(*error)),
            Fact::EndTxn { epoch, commit } => either(*commit, END_COMMIT, END_ABORT).with("epoch", Arg::int(*epoch)),
            Fact::CoordinatorRefused { request, epoch, error } => Message::new(COORDINATOR_REFUSED)
                .with("request", Arg::kafka(*request))
                .with("epoch", Arg::int(*epoch))
                .with("error", kafka_error(*error)),
            Fact::CoordinatorUnreachable { request } => Message::new(UNREACHABLE).with("request", Arg::kafka(*request)),
            Fact::MarkerWritten { producer_id, epoch, commit, offset, timed_out } => Message::new(MARKER)
                .with("kind", nested(either(*commit, COMMIT_WORD, ABORT_WORD)))
                .with("pid", Arg::int(*producer_id))
                .with("epoch", Arg::int(*epoch))
                .with("offset", Arg::int(*offset))
                .with("why", nested(either(*timed_out, MARKER_TIMEOUT, MARKER_PLAIN))),
            Fact::TransactionTimedOut { producer_id, epoch, new_epoch, started_ms, timeout_ms } => {
                Message::new(TIMED_OUT)
                    .with("pid", Arg::int(*producer_id))
                    .with("epoch", Arg::int(*epoch))
                    .with("new", Arg::int(*new_epoch))
                    .with("started", Arg::Duration(*started_ms))
                    .with("timeout", Arg::Duration(*timeout_ms))
            }
            Fact::Crashed { label, epoch } => {
                Message::new(CRASHED).with("label", Arg::kafka(*label)).with("epoch", Arg::int(*epoch))
            }
            Fact::Restarted { incarnation } => Message::new(RESTARTED).with("incarnation", Arg::int(*incarnation)),
            Fact::Paused { duration_ms: Some(ms) } => Message::new(PAUSED).with("duration", Arg::Duration(*ms)),
            Fact::Paused { duration_ms: None } => Message::new(STALLED),
            Fact::Resumed { label, epoch } => {
                Message::new(RESUMED).with("label", Arg::kafka(*label)).with("epoch", Arg::int(*epoch))
            }
            Fact::CoordinatorCut => Message::new(CUT),
            Fact::CoordinatorHealed => Message::new(HEALED),
            Fact::Fetched { isolation, records, first, last, duplicates } => {
                let duplicates = if *duplicates > 0 {
                    Message::new(FETCHED_DUPLICATES).with("count", Arg::int(*duplicates))
                } else {
                    Message::new(FETCHED_CLEAN)
                };
                Message::new(FETCHED)
                    .with("isolation", Arg::kafka(isolation_name(*isolation)))
                    .with("records", Arg::int(*records))
                    .with("first", Arg::int(*first))
                    .with("last", Arg::int(*last))
                    .with("duplicates", nested(duplicates))
            }
            Fact::Polled { from, to } => Message::new(POLLED).with("from", Arg::int(*from)).with("to", Arg::int(*to)),
            Fact::RowsInserted { first, last, again } => {
                let again = if *again > 0 {
                    Message::new(ROWS_AGAIN).with("count", Arg::int(*again))
                } else {
                    Message::new(ROWS_FIRST)
                };
                Message::new(ROWS)
                    .with("first", Arg::int(*first))
                    .with("last", Arg::int(*last))
                    .with("again", nested(again))
            }
            Fact::OffsetsCommitted { offset } => Message::new(COMMITTED).with("offset", Arg::int(*offset)),
            Fact::OffsetsSentToTransaction { offset } => Message::new(OFFSETS_TXN).with("offset", Arg::int(*offset)),
            Fact::TransactionalOffsets { offset, commit } => {
                either(*commit, OFFSETS_COMMIT, OFFSETS_ABORT).with("offset", Arg::int(*offset))
            }
            Fact::ResumedFromCommitted { committed, processed } => Message::new(RESUMED_FROM)
                .with("committed", Arg::int(*committed))
                .with("processed", Arg::int(*processed)),
            Fact::StreamStarted { per_sec } => Message::new(STREAM).with("per_sec", Arg::int(*per_sec)),
        }
    }
}

crate::display_as_message!(Fact);

pub use super::refusal::{Refusal, REFUSAL_KEYS};
