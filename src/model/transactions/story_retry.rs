//! The consume–transform–produce crash presets and the retry presets: what is written twice,
//! what lands out of order, and what idempotence or a transaction prevents.

use super::core::{EntryKind, Isolation, RecordStatus};
use super::facts::Fact;
use super::story_say::{duplicates, ids_at, ids_with, latest, payments_arg, pending, records_arg};
use super::TxnLab;
use crate::model::kernel::sorted::SortedSet;
use crate::model::kernel::{Arg, Message, Sim};

crate::messages! {
    pub RETRY_STORY_KEYS;
    CRASH_QUESTION = "transactions.story.crash.question" =>
        "The processor crashes after writing its output but before committing its input offset. What do the consumers downstream get?";
    CRASH_WATCH = "transactions.story.crash.watch" =>
        "Watch the committed offset, the crash, and what the restarted processor writes again.";
    CRASH_NO_TXN_ANSWER = "transactions.story.crash.plain.answer" =>
        "{duplicates, plural, =0 {no duplicate} one {# duplicate} other {# duplicates}} downstream: read_committed received {received} records for {distinct} payments, because the restart resumed from offset {committed} and processed payments it had already written";
    CRASH_EOS_ANSWER = "transactions.story.crash.eos.answer" =>
        "{duplicates, plural, =0 {no duplicate} one {# duplicate} other {# duplicates}} for read_committed: {received} records for {distinct} payments; the {aborted} records written before the crash were aborted when the new instance's initTransactions fenced epoch {old} (it now runs with epoch {new}); read_uncommitted, which reads aborted records, got {uncommitted, plural, =0 {no duplicate} one {# duplicate} other {# duplicates}}";
    DB_QUESTION = "transactions.story.db.question" =>
        "Exactly-once is on and the processor also inserts a database row per payment. After the same crash, is the database exactly once too?";
    DB_WATCH = "transactions.story.db.watch" =>
        "Watch two things after the restart: read_committed's records, and the database's rows.";
    DB_ANSWER = "transactions.story.db.answer" =>
        "read_committed: {duplicates, plural, =0 {no duplicate} one {# duplicate} other {# duplicates}}; the database: {rows} rows, {again, plural, =0 {none inserted twice} one {# inserted twice} other {# inserted twice}}: the transaction covers topic → process → topic, not the INSERT";
    CRASH_INTRO = "transactions.story.crash.intro" =>
        "The processor has processed {done} and committed their offset ({committed}). It now polls the next payments.";
    CRASH_DOWN = "transactions.story.crash.down" =>
        "It crashes after writing {payments} to payments-validated, before committing offset {offset}: the committed offset is still {committed}.";
    CRASH_BACK = "transactions.story.crash.back" =>
        "A new instance starts and resumes from the committed offset {committed}: it will process {payments} again.";
    CRASH_TWICE = "transactions.story.crash.twice" =>
        "The restarted processor writes {payments} a second time. Nothing in Kafka knows the new records repeat the old ones.";
    CRASH_FENCED = "transactions.story.crash.fenced" =>
        "initTransactions of the new instance finds epoch {old}'s transaction open: the coordinator fences it and writes an ABORT marker. The first copies of {payments} are aborted.";
    CRASH_COMMITTED = "transactions.story.crash.committed" =>
        "The reprocessed payments commit together with the input offset (sendOffsetsToTransaction). read_committed gets each payment once.";
    DB_TWICE = "transactions.story.db.twice" =>
        "The database rows of {payments} are inserted again: the aborted transaction could not take them back.";
    DUP_QUESTION = "transactions.story.dup.question" =>
        "Idempotence is off and a produce response is lost. What does the retry do to the partition?";
    DUP_WATCH = "transactions.story.dup.watch" => "Watch record 2: written, its answer lost, sent again.";
    DUP_ANSWER = "transactions.story.dup.answer" =>
        "record {record} is in the log at offsets {first} and {second}: {count, plural, one {# duplicate} other {# duplicates}}, and read_committed received it {times, plural, one {once} =2 {twice} other {# times}}; without a producer id and a sequence number the leader cannot tell a retry from a new record";
    DUP_INTRO = "transactions.story.dup.intro" =>
        "producer-1 runs without idempotence: its batches carry no producer id and no sequence number. The next response will be lost.";
    DUP_DROPPED = "transactions.story.dup.dropped" =>
        "The leader wrote {records}, then the connection dropped: the producer never hears that it succeeded.";
    DUP_RETRY = "transactions.story.dup.retry" =>
        "The producer sees a NETWORK_EXCEPTION and waits retry.backoff.ms = {backoff} before sending {records} again.";
    DUP_WRITTEN = "transactions.story.dup.written" => "The retry is appended as a new record: record {record} is in the log twice.";
    REORDER_QUESTION = "transactions.story.reorder.question" =>
        "Idempotence is off and up to 5 requests are in flight. The first of two batches fails. In what order do the records land?";
    REORDER_WATCH = "transactions.story.reorder.watch" =>
        "Watch records 2 and 3, sent back to back: record 2 is refused with a retriable error.";
    REORDER_ANSWER = "transactions.story.reorder.answer" =>
        "the partition holds records {order}: record {late} landed after record {early}, because the retry of the failed batch went behind the one already in flight (max.in.flight.requests.per.connection = {in_flight})";
    REORDER_INTRO = "transactions.story.reorder.intro" =>
        "producer-1 runs without idempotence, with max.in.flight.requests.per.connection = {in_flight}. Records 2 and 3 will go out as two requests, the first will fail.";
    REORDER_FAILED = "transactions.story.reorder.failed" =>
        "The leader refuses {failed} with NOT_ENOUGH_REPLICAS but appends {next}, already in flight behind it.";
    REORDER_RETRY = "transactions.story.reorder.retry" => "The producer sends {records} again after retry.backoff.ms = {backoff}.";
    REORDER_LANDED = "transactions.story.reorder.landed" => "Record {record} lands after record {after}: per-partition order is broken.";
    IDEM_QUESTION = "transactions.story.idem.question" =>
        "The same two failures with idempotence on: a lost response, then a failed batch with another in flight behind it. Any duplicate, any reordering?";
    IDEM_WATCH = "transactions.story.idem.watch" => "Watch the sequence numbers the leader checks.";
    IDEM_ANSWER = "transactions.story.idem.answer" =>
        "{records} records, {distinct} distinct, in order ({order}): the retry after the lost response was answered with offset {offset} and not written again, and the batch behind the failed one got OUT_OF_ORDER_SEQUENCE_NUMBER and went out again after it";
    IDEM_INTRO = "transactions.story.idem.intro" =>
        "producer-1 is idempotent (Kafka's default): producer id {pid}, and each batch carries its base sequence.";
    IDEM_DEDUP = "transactions.story.idem.dedup" =>
        "The retry of sequence {sequence} matches a batch the leader remembers: it answers with the original offset, {offset}, and writes nothing.";
    IDEM_ORDER = "transactions.story.idem.order" =>
        "The leader refuses {failed} (sequence {expected}) with NOT_ENOUGH_REPLICAS; the batch right behind it, sequence {sequence}, gets OUT_OF_ORDER_SEQUENCE_NUMBER: the leader expects sequence {expected}. The producer resends both, in sequence order.";
    IDEM_DONE = "transactions.story.idem.done" => "Every record once, in the order it was sent.";
}

/// Record ids of the data records in the log, in offset order.
fn log_records(sim: &Sim<TxnLab>) -> Vec<(u64, u64)> {
    sim.world()
        .log()
        .entries()
        .iter()
        .filter_map(|e| match e.kind {
            EntryKind::Data { record_id, .. } => Some((e.offset, record_id)),
            EntryKind::Control { .. } => None,
        })
        .collect()
}

fn distinct(ids: &[u64]) -> usize {
    ids.iter().collect::<SortedSet<_>>().len()
}

fn committed(sim: &Sim<TxnLab>) -> u64 {
    sim.world().processor().map_or(0, |p| p.committed)
}

pub fn crash_intro(sim: &Sim<TxnLab>) -> Message {
    let committed = committed(sim);
    let done = (committed > 0).then_some((1, committed));
    Message::new(CRASH_INTRO).with("done", payments_arg(done)).with("committed", Arg::int(committed))
}

/// The payments of the latest poll (input offset o is payment o + 1).
fn polled(sim: &Sim<TxnLab>) -> Option<(u64, u64)> {
    latest(sim, |f| match f {
        Fact::Polled { from, to } => Some((from + 1, to + 1)),
        _ => None,
    })
}

pub fn crash_down(sim: &Sim<TxnLab>) -> Message {
    let offset = polled(sim).map_or(0, |(_, last)| last);
    Message::new(CRASH_DOWN)
        .with("payments", payments_arg(polled(sim)))
        .with("offset", Arg::int(offset))
        .with("committed", Arg::int(committed(sim)))
}

pub fn crash_back(sim: &Sim<TxnLab>) -> Message {
    let again = latest(sim, |f| match f {
        Fact::ResumedFromCommitted { committed, processed } => Some((committed + 1, committed + processed)),
        _ => None,
    });
    Message::new(CRASH_BACK).with("committed", Arg::int(committed(sim))).with("payments", payments_arg(again))
}

/// The payments written a second time (the duplicates the broker logged).
fn written_twice(sim: &Sim<TxnLab>) -> Option<(u64, u64)> {
    let ids: Vec<u64> = sim
        .log()
        .iter()
        .filter_map(|e| match e.fact {
            Fact::DuplicateWritten { record, .. } => Some(record),
            _ => None,
        })
        .collect();
    ids.iter().min().copied().zip(ids.iter().max().copied())
}

pub fn crash_twice(sim: &Sim<TxnLab>) -> Message {
    Message::new(CRASH_TWICE).with("payments", payments_arg(written_twice(sim)))
}

pub fn db_twice(sim: &Sim<TxnLab>) -> Message {
    let again = latest(sim, |f| match f {
        Fact::RowsInserted { first, last, again } if *again > 0 => Some((*first, *last)),
        _ => None,
    });
    Message::new(DB_TWICE).with("payments", payments_arg(again))
}

/// The epoch fenced at the restart and the app's epoch after it.
fn fence_epochs(sim: &Sim<TxnLab>) -> (Option<u16>, Option<u16>) {
    let old = sim.log().iter().find_map(|e| match e.fact {
        Fact::OpenTransactionFenced { old_epoch, .. } => Some(old_epoch),
        _ => None,
    });
    let new = sim.log().iter().rev().find_map(|e| match e.fact {
        Fact::ProducerIdAssigned { epoch, transactional: true, .. } => Some(epoch),
        _ => None,
    });
    (old, new)
}

pub fn crash_fenced(sim: &Sim<TxnLab>) -> Message {
    let open = ids_with(sim, |s| matches!(s, RecordStatus::Open | RecordStatus::Aborted));
    Message::new(CRASH_FENCED)
        .with("old", fence_epochs(sim).0.map_or_else(pending, Arg::int))
        .with("payments", payments_arg(open))
}

pub fn crash_no_txn_answer(sim: &Sim<TxnLab>) -> Message {
    let consumer = sim.world().consumer(Isolation::ReadCommitted);
    Message::new(CRASH_NO_TXN_ANSWER)
        .with("duplicates", Arg::int(duplicates(sim, Isolation::ReadCommitted)))
        .with("received", Arg::int(consumer.received.len()))
        .with("distinct", Arg::int(distinct(&consumer.record_ids)))
        .with("committed", Arg::int(restart_offset(sim)))
}

/// The committed offset a restarted processor resumed from.
fn restart_offset(sim: &Sim<TxnLab>) -> u64 {
    sim.log()
        .iter()
        .find_map(|e| match e.fact {
            Fact::ResumedFromCommitted { committed, .. } => Some(committed),
            _ => None,
        })
        .unwrap_or(0)
}

pub fn crash_eos_answer(sim: &Sim<TxnLab>) -> Message {
    let consumer = sim.world().consumer(Isolation::ReadCommitted);
    let aborted = sim.world().statuses().into_iter().filter(|s| *s == RecordStatus::Aborted).count();
    let (old, new) = fence_epochs(sim);
    Message::new(CRASH_EOS_ANSWER)
        .with("duplicates", Arg::int(duplicates(sim, Isolation::ReadCommitted)))
        .with("received", Arg::int(consumer.received.len()))
        .with("distinct", Arg::int(distinct(&consumer.record_ids)))
        .with("aborted", Arg::int(aborted))
        .with("old", old.map_or_else(pending, Arg::int))
        .with("new", new.map_or_else(pending, Arg::int))
        .with("uncommitted", Arg::int(duplicates(sim, Isolation::ReadUncommitted)))
}

pub fn db_answer(sim: &Sim<TxnLab>) -> Message {
    let rows = sim.world().sink_rows();
    let again: u64 = rows.map_or(0, |r| r.values().map(|n| u64::from(n.saturating_sub(1))).sum());
    Message::new(DB_ANSWER)
        .with("duplicates", Arg::int(duplicates(sim, Isolation::ReadCommitted)))
        .with("rows", Arg::int(rows.map_or(0, |r| r.len())))
        .with("again", Arg::int(again))
}

/// The records of the latest retried batch.
fn retried(sim: &Sim<TxnLab>) -> Option<(u64, u64)> {
    latest(sim, |f| match f {
        Fact::Retrying { first, last, .. } => Some((*first, *last)),
        _ => None,
    })
}

pub fn dup_retry(sim: &Sim<TxnLab>) -> Message {
    Message::new(DUP_RETRY)
        .with("backoff", Arg::Duration(sim.world().settings().retry_backoff_ms))
        .with("records", records_arg(retried(sim)))
}

pub fn reorder_retry(sim: &Sim<TxnLab>) -> Message {
    Message::new(REORDER_RETRY)
        .with("backoff", Arg::Duration(sim.world().settings().retry_backoff_ms))
        .with("records", records_arg(retried(sim)))
}

/// The records whose answer the dropped connection lost.
pub fn dropped(sim: &Sim<TxnLab>) -> Message {
    let ids = latest(sim, |f| match f {
        Fact::ConnectionDropped { base, last } => Some((*base, *last)),
        _ => None,
    })
    .map(|(base, last)| ids_at(sim, base, last));
    let span = ids.and_then(|ids| ids.first().copied().zip(ids.last().copied()));
    Message::new(DUP_DROPPED).with("records", records_arg(span))
}

pub fn dup_written(sim: &Sim<TxnLab>) -> Message {
    let record = latest(sim, |f| match f {
        Fact::DuplicateWritten { record, .. } => Some(*record),
        _ => None,
    });
    Message::new(DUP_WRITTEN).with("record", record.map_or_else(pending, Arg::int))
}

/// The records the leader refused with NOT_ENOUGH_REPLICAS, and the sequence they carried.
fn not_enough(sim: &Sim<TxnLab>) -> Option<(u64, u64)> {
    latest(sim, |f| match f {
        Fact::NotEnoughReplicas { first, last } => Some((*first, *last)),
        _ => None,
    })
}

pub fn reorder_failed(sim: &Sim<TxnLab>) -> Message {
    let next = latest(sim, |f| match f {
        Fact::Written { base, last, .. } => Some((*base, *last)),
        _ => None,
    })
    .map(|(base, last)| ids_at(sim, base, last));
    let next = next.and_then(|ids| ids.first().copied().zip(ids.last().copied()));
    Message::new(REORDER_FAILED).with("failed", records_arg(not_enough(sim))).with("next", records_arg(next))
}

pub fn reorder_landed(sim: &Sim<TxnLab>) -> Message {
    let pair = latest(sim, |f| match f {
        Fact::Reordered { record, after, .. } => Some((*record, *after)),
        _ => None,
    });
    Message::new(REORDER_LANDED)
        .with("record", pair.map_or_else(pending, |(r, _)| Arg::int(r)))
        .with("after", pair.map_or_else(pending, |(_, a)| Arg::int(a)))
}

pub fn idem_dedup(sim: &Sim<TxnLab>) -> Message {
    let answered = latest(sim, |f| match f {
        Fact::DuplicateAnswered { sequence, base, .. } => Some((*sequence, *base)),
        _ => None,
    });
    Message::new(IDEM_DEDUP)
        .with("sequence", answered.map_or_else(pending, |(s, _)| Arg::int(s)))
        .with("offset", answered.map_or_else(pending, |(_, o)| Arg::int(o)))
}

pub fn idem_order(sim: &Sim<TxnLab>) -> Message {
    let failed = not_enough(sim);
    let expected = failed.and_then(|(first, _)| {
        latest(sim, |f| match f {
            Fact::BatchSent { first: sent, sequence, .. } if *sent == first => *sequence,
            _ => None,
        })
    });
    let refused = latest(sim, |f| match f {
        Fact::ProduceRefused { sequence, error: super::core::KafkaError::OutOfOrderSequenceNumber, .. } => {
            Some(*sequence)
        }
        _ => None,
    });
    Message::new(IDEM_ORDER)
        .with("failed", records_arg(failed))
        .with("expected", expected.map_or_else(pending, Arg::int))
        .with("sequence", refused.map_or_else(pending, Arg::int))
}

pub fn dup_answer(sim: &Sim<TxnLab>) -> Message {
    let records = log_records(sim);
    let twice = records.iter().find(|(o, id)| records.iter().any(|(p, other)| other == id && p < o));
    let first = twice.and_then(|(_, id)| records.iter().find(|(_, other)| other == id)).map(|(o, _)| *o);
    let ids: Vec<u64> = records.iter().map(|(_, id)| *id).collect();
    Message::new(DUP_ANSWER)
        .with("record", twice.map_or_else(pending, |(_, id)| Arg::int(*id)))
        .with("first", first.map_or_else(pending, Arg::int))
        .with("second", twice.map_or_else(pending, |(o, _)| Arg::int(*o)))
        .with("count", Arg::int(ids.len() - distinct(&ids)))
        .with("times", Arg::int(received_times(sim, twice.map(|(_, id)| *id))))
}

/// How many times read_committed received `record`.
fn received_times(sim: &Sim<TxnLab>, record: Option<u64>) -> usize {
    let consumer = sim.world().consumer(Isolation::ReadCommitted);
    record.map_or(0, |record| consumer.record_ids.iter().filter(|id| **id == record).count())
}

/// `1, 3, 2, 4`: the record ids in offset order.
fn order(sim: &Sim<TxnLab>) -> String {
    log_records(sim).iter().map(|(_, id)| id.to_string()).collect::<Vec<_>>().join(", ")
}

pub fn reorder_intro(sim: &Sim<TxnLab>) -> Message {
    Message::new(REORDER_INTRO).with("in_flight", Arg::int(sim.world().settings().max_in_flight))
}

pub fn reorder_answer(sim: &Sim<TxnLab>) -> Message {
    let pair = sim.log().iter().find_map(|e| match e.fact {
        Fact::Reordered { record, after, .. } => Some((record, after)),
        _ => None,
    });
    Message::new(REORDER_ANSWER)
        .with("order", Arg::text(order(sim)))
        .with("late", pair.map_or_else(pending, |(r, _)| Arg::int(r)))
        .with("early", pair.map_or_else(pending, |(_, a)| Arg::int(a)))
        .with("in_flight", Arg::int(sim.world().settings().max_in_flight))
}

pub fn idem_intro(sim: &Sim<TxnLab>) -> Message {
    let pid = sim.world().clients().first().and_then(|c| c.producer_id).unwrap_or(0);
    Message::new(IDEM_INTRO).with("pid", Arg::int(pid))
}

pub fn idem_answer(sim: &Sim<TxnLab>) -> Message {
    let ids: Vec<u64> = log_records(sim).iter().map(|(_, id)| *id).collect();
    let offset = sim.log().iter().find_map(|e| match e.fact {
        Fact::DuplicateAnswered { base, .. } => Some(base),
        _ => None,
    });
    Message::new(IDEM_ANSWER)
        .with("records", Arg::int(ids.len()))
        .with("distinct", Arg::int(distinct(&ids)))
        .with("order", Arg::text(order(sim)))
        .with("offset", offset.map_or_else(pending, Arg::int))
}
