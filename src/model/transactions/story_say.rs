//! What the stories say: the default card, and helpers every preset's story shares.

use super::core::{EntryKind, Isolation, RecordStatus};
use super::facts::Fact;
use super::TxnLab;
use crate::model::kernel::{Arg, Message, Sim};

crate::messages! {
    pub STORY_KEYS;
    DEFAULT_QUESTION = "transactions.story.default.question" =>
        "What does each consumer receive from payments-validated, and where are the high watermark and the last stable offset?";
    DEFAULT_WATCH = "transactions.story.default.watch" =>
        "Press Play: producer-2 writes a record a second. Produce, commit, abort, crash or pause the application to see what changes.";
    DEFAULT_ANSWER = "transactions.story.default.answer" =>
        "log end offset {leo}, high watermark {hw}, last stable offset {lso}; read_uncommitted received {uncommitted, plural, one {# record} other {# records}}, read_committed {committed, plural, one {# record} other {# records}}";
    PENDING = "transactions.story.pending" => "not yet";
}

pub fn default_question(_: &Sim<TxnLab>) -> Message {
    Message::new(DEFAULT_QUESTION)
}

pub fn default_watch(_: &Sim<TxnLab>) -> Message {
    Message::new(DEFAULT_WATCH)
}

pub fn default_answer(sim: &Sim<TxnLab>) -> Message {
    let world = sim.world();
    let log = world.log();
    Message::new(DEFAULT_ANSWER)
        .with("leo", Arg::int(log.log_end_offset()))
        .with("hw", Arg::int(log.high_watermark()))
        .with("lso", Arg::int(log.last_stable_offset()))
        .with("uncommitted", Arg::int(world.consumer(Isolation::ReadUncommitted).received.len()))
        .with("committed", Arg::int(world.consumer(Isolation::ReadCommitted).received.len()))
}

/// When the first fact `is` accepts was logged.
pub fn first_at(sim: &Sim<TxnLab>, is: impl Fn(&Fact) -> bool) -> Option<u64> {
    sim.log().iter().find(|e| is(&e.fact)).map(|e| e.time_ms)
}

pub fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

/// "not yet", for a figure the run has not reached.
pub fn pending() -> Arg {
    nested(Message::new(PENDING))
}

/// Records a consumer received whose payment it had already received.
pub fn duplicates(sim: &Sim<TxnLab>, isolation: Isolation) -> u64 {
    super::views::repeats(&sim.world().consumer(isolation).record_ids)
}

/// The latest fact `pick` accepts.
pub fn latest<T>(sim: &Sim<TxnLab>, pick: impl Fn(&Fact) -> Option<T>) -> Option<T> {
    sim.log().iter().rev().find_map(|e| pick(&e.fact))
}

/// The record ids at offsets `base..=last` of the log.
pub fn ids_at(sim: &Sim<TxnLab>, base: u64, last: u64) -> Vec<u64> {
    let entries = sim.world().log().entries();
    (base..=last)
        .filter_map(|o| match entries.get(o as usize).map(|e| e.kind) {
            Some(EntryKind::Data { record_id, .. }) => Some(record_id),
            _ => None,
        })
        .collect()
}

/// The smallest and largest record id of the data records whose status `want` accepts.
pub fn ids_with(sim: &Sim<TxnLab>, want: impl Fn(RecordStatus) -> bool) -> Option<(u64, u64)> {
    let world = sim.world();
    let ids: Vec<u64> = world
        .log()
        .entries()
        .iter()
        .zip(world.statuses())
        .filter(|(_, status)| want(*status))
        .filter_map(|(e, _)| match e.kind {
            EntryKind::Data { record_id, .. } => Some(record_id),
            EntryKind::Control { .. } => None,
        })
        .collect();
    ids.iter().min().copied().zip(ids.iter().max().copied())
}

/// `records 3–7` (or `record 3`) for a span, "not yet" without one.
pub fn records_arg(span: Option<(u64, u64)>) -> Arg {
    span.map_or_else(pending, |(first, last)| super::fact_text::records(first, last))
}

/// `payments 3–7` (or `payment 3`) for a span, "not yet" without one.
pub fn payments_arg(span: Option<(u64, u64)>) -> Arg {
    span.map_or_else(pending, |(first, last)| super::fact_text::payments(first, last))
}
