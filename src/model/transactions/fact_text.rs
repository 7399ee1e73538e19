//! The English templates of the scene's facts (catalog keys `transactions.fact.*`) and how
//! each fact fills them.

use super::core::KafkaError;
use super::facts::{isolation_name, Fact};
use crate::model::kernel::{Arg, Describe, Key, Message};

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
    SENT = "transactions.fact.sent" => "sends {records}{sequence} (attempt {attempt})";
    SEQUENCE = "transactions.fact.sequence" => ", base sequence {sequence}";
    NO_SEQUENCE = "transactions.fact.no_sequence" => "";
    WRITTEN = "transactions.fact.written" => "appended {offsets}{producer}{txn}";
    WRITTEN_BY = "transactions.fact.written.by" => " from producer {pid} epoch {epoch}{sequence}";
    WRITTEN_TXN = "transactions.fact.written.txn" => ", inside its open transaction";
    DUPLICATE = "transactions.fact.duplicate" => "record {record} written again at offset {offset}: a duplicate of offset {earlier}";
    REORDERED = "transactions.fact.reordered" =>
        "record {record} lands at offset {offset}, after record {after}: the partition's order is broken";
    DEDUPED = "transactions.fact.deduped" =>
        "sequence {sequence} matches one of the producer's last 5 batches: answered with {offsets}, nothing written again";
    REFUSED = "transactions.fact.refused" => "refused producer {pid} epoch {epoch} sequence {sequence}: {error}";
    NOT_ENOUGH = "transactions.fact.not_enough" => "answers {records} with {error}: nothing written";
    DROPPED = "transactions.fact.dropped" =>
        "wrote {offsets}, then the connection dropped: the producer never gets the answer";
    RETRYING = "transactions.fact.retrying" => "{records} failed with {error}: sent again after retry.backoff.ms = {backoff}";
    INIT_RETRY = "transactions.fact.init_retry" => "InitProducerId answered {error}: initTransactions tries again after retry.backoff.ms = {backoff}";
    GAVE_UP = "transactions.fact.gave_up" => "{records} failed for good: {error}";
    CLIENT_FENCED = "transactions.fact.client_fenced" =>
        "{label} epoch {epoch} is fenced ({error}): a newer incarnation owns the transactional.id";
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
        "{isolation} fetched {records, plural, one {# record} other {# records}} ({offsets}){duplicates}";
    FETCHED_DUPLICATES = "transactions.fact.fetched.duplicates" =>
        ", {count, plural, one {# record} other {# records}} it had already received";
    FETCHED_CLEAN = "transactions.fact.fetched.clean" => "";
    POLLED = "transactions.fact.polled" => "the processor polls payments {offsets} and transforms them";
    ROWS = "transactions.fact.rows" => "inserts database rows for {payments}{again}";
    ROWS_AGAIN = "transactions.fact.rows.again" => ": {count, plural, one {# row} other {# rows}} inserted a second time";
    ROWS_FIRST = "transactions.fact.rows.first" => "";
    COMMITTED = "transactions.fact.committed" => "commitSync: offset {offset} of payments committed to __consumer_offsets";
    OFFSETS_TXN = "transactions.fact.offsets_txn" =>
        "sendOffsetsToTransaction: offset {offset} of payments goes into the transaction (a write to __consumer_offsets)";
    OFFSETS_COMMIT = "transactions.fact.offsets.commit" => "__consumer_offsets: offset {offset} committed with the transaction";
    OFFSETS_ABORT = "transactions.fact.offsets.abort" => "__consumer_offsets: offset {offset} aborted with the transaction";
    RESUMED_FROM = "transactions.fact.resumed_from" =>
        "the processor resumes from the committed offset {committed}: {processed, plural, =0 {nothing} one {# record} other {# records}} to process again";
    STREAM = "transactions.fact.stream" =>
        "producer-2 sends {per_sec, plural, one {# record} other {# records}} a second";
    COMMIT_WORD = "transactions.word.commit" => "COMMIT";
    ONE_RECORD = "transactions.span.record" => "record {first}";
    RECORDS = "transactions.span.records" => "records {first}–{last}";
    ONE_OFFSET = "transactions.span.offset" => "offset {first}";
    OFFSETS = "transactions.span.offsets" => "offsets {first}–{last}";
    ONE_PAYMENT = "transactions.span.payment" => "payment {first}";
    PAYMENTS = "transactions.span.payments" => "payments {first}–{last}";
    ABORT_WORD = "transactions.word.abort" => "ABORT";
}

/// `record 3` or `records 3–7` (likewise offsets and payments).
pub(super) fn span(one: Key, many: Key, first: u64, last: u64) -> Arg {
    let key = if first == last { one } else { many };
    nested(Message::new(key).with("first", Arg::int(first)).with("last", Arg::int(last)))
}

pub(super) fn records(first: u64, last: u64) -> Arg {
    span(ONE_RECORD, RECORDS, first, last)
}

/// `payment 3` or `payments 3–7`.
pub(super) fn payments(first: u64, last: u64) -> Arg {
    span(ONE_PAYMENT, PAYMENTS, first, last)
}

fn offsets(first: u64, last: u64) -> Arg {
    span(ONE_OFFSET, OFFSETS, first, last)
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
        .with("records", records(first, last))
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
        .with("offsets", offsets(base, last))
        .with("producer", nested(producer))
        .with("txn", nested(txn))
}

fn either(key_if: bool, yes: Key, no: Key) -> Message {
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
            Fact::DuplicateAnswered { sequence, base, last } => {
                Message::new(DEDUPED).with("sequence", Arg::int(*sequence)).with("offsets", offsets(*base, *last))
            }
            Fact::ProduceRefused { producer_id, epoch, sequence, error } => Message::new(REFUSED)
                .with("pid", Arg::int(*producer_id))
                .with("epoch", Arg::int(*epoch))
                .with("sequence", Arg::int(*sequence))
                .with("error", kafka_error(*error)),
            Fact::NotEnoughReplicas { first, last } => Message::new(NOT_ENOUGH)
                .with("records", records(*first, *last))
                .with("error", Arg::kafka("NOT_ENOUGH_REPLICAS")),
            Fact::ConnectionDropped { base, last } => Message::new(DROPPED).with("offsets", offsets(*base, *last)),
            Fact::Retrying { first, last, error, backoff_ms } => Message::new(RETRYING)
                .with("records", records(*first, *last))
                .with("error", Arg::kafka(*error))
                .with("backoff", Arg::Duration(*backoff_ms)),
            Fact::InitRetrying { error, backoff_ms } => {
                Message::new(INIT_RETRY).with("error", kafka_error(*error)).with("backoff", Arg::Duration(*backoff_ms))
            }
            Fact::GaveUp { first, last, error } => {
                Message::new(GAVE_UP).with("records", records(*first, *last)).with("error", Arg::kafka(*error))
            }
            other => later_message(other),
        }
    }
}

/// The second half of [`Fact`]'s messages: transactions' end, faults, consumers, processor.
fn later_message(fact: &Fact) -> Message {
    match fact {
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
        Fact::TransactionTimedOut { producer_id, epoch, new_epoch, started_ms, timeout_ms } => Message::new(TIMED_OUT)
            .with("pid", Arg::int(*producer_id))
            .with("epoch", Arg::int(*epoch))
            .with("new", Arg::int(*new_epoch))
            .with("started", Arg::Duration(*started_ms))
            .with("timeout", Arg::Duration(*timeout_ms)),
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
                .with("offsets", offsets(*first, *last))
                .with("duplicates", nested(duplicates))
        }
        Fact::Polled { from, to } => Message::new(POLLED).with("offsets", offsets(*from, *to)),
        Fact::RowsInserted { first, last, again } => {
            let again = if *again > 0 {
                Message::new(ROWS_AGAIN).with("count", Arg::int(*again))
            } else {
                Message::new(ROWS_FIRST)
            };
            Message::new(ROWS).with("payments", payments(*first, *last)).with("again", nested(again))
        }
        Fact::OffsetsCommitted { offset } => Message::new(COMMITTED).with("offset", Arg::int(*offset)),
        Fact::OffsetsSentToTransaction { offset } => Message::new(OFFSETS_TXN).with("offset", Arg::int(*offset)),
        Fact::TransactionalOffsets { offset, commit } => {
            either(*commit, OFFSETS_COMMIT, OFFSETS_ABORT).with("offset", Arg::int(*offset))
        }
        Fact::ResumedFromCommitted { committed, processed } => {
            Message::new(RESUMED_FROM).with("committed", Arg::int(*committed)).with("processed", Arg::int(*processed))
        }
        Fact::StreamStarted { per_sec } => Message::new(STREAM).with("per_sec", Arg::int(*per_sec)),
        _ => unreachable!("handled by Fact::message"),
    }
}

crate::display_as_message!(Fact);
