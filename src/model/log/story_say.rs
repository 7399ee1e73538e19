//! What the log scene's captions and result cards say, computed from the run at the current
//! step: the partition's segments, the last lookup, the table reader and the event log.

use super::record::key_text;
use super::story::*;
use super::{Fact, LogLab, LookupResult, OffsetLookup, PartitionLog, LOG_SCHEMA};
use crate::model::kernel::{Arg, Message, Sim};

fn log(sim: &Sim<LogLab>) -> &PartitionLog {
    sim.world().log()
}

/// A span of simulated time (negative spans read as 0).
fn span(ms: i64) -> Arg {
    Arg::Duration(ms.max(0) as u64)
}

/// A count that selects a plural form (its `#` is grouped as the locale writes counts).
fn count(n: impl TryInto<i64>) -> Arg {
    Arg::int(n)
}

/// A quantity shown as a number alone (bytes): grouped as the locale writes counts.
fn grouped(n: impl TryInto<i64>) -> Arg {
    Arg::Count(n.try_into().unwrap_or(i64::MAX))
}

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

fn pending() -> Arg {
    nested(Message::new(PENDING))
}

/// `00000000000000368421.log`.
fn file(base_offset: i64) -> Arg {
    Arg::text(format!("{base_offset:020}.log"))
}

/// When the first fact matching `is` was logged.
fn first_ms(sim: &Sim<LogLab>, is: impl Fn(&Fact) -> bool) -> Option<u64> {
    sim.log().iter().find(|e| is(&e.fact)).map(|e| e.time_ms)
}

/// Segments retention scheduled for deletion so far, and their bytes.
fn deleted(sim: &Sim<LogLab>) -> (usize, u64) {
    sim.log().iter().fold((0, 0), |(n, b), e| match &e.fact {
        Fact::SegmentsDeleted { base_offsets, bytes, .. } => (n + base_offsets.len(), b + bytes),
        _ => (n, b),
    })
}

fn rolls(sim: &Sim<LogLab>) -> usize {
    sim.log().iter().filter(|e| matches!(e.fact, Fact::SegmentRolled { .. })).count()
}

/// How old the first record still on disk is.
fn oldest_age(sim: &Sim<LogLab>) -> Arg {
    let log = log(sim);
    log.lookup_offset(log.log_start_offset())
        .map_or_else(|_| pending(), |found| span(sim.now_ms() as i64 - found.found_timestamp_ms))
}

fn elapsed(sim: &Sim<LogLab>) -> Arg {
    Arg::Duration(sim.now_ms())
}

/// Kafka's default `segment.bytes`, as the schema declares it.
fn default_segment_bytes() -> Arg {
    let default = LOG_SCHEMA.iter().find(|p| p.name == "segment.bytes").map_or("", |p| p.default);
    grouped(default.parse::<i64>().unwrap_or(0))
}

pub fn default_intro(sim: &Sim<LogLab>) -> Message {
    let settings = log(sim).settings();
    Message::new(DEFAULT_INTRO)
        .with("segment_bytes", grouped(settings.segment_bytes))
        .with("retention", span(settings.retention_ms))
}

pub fn default_answer(sim: &Sim<LogLab>) -> Message {
    let log = log(sim);
    let offsets = log.offsets_view();
    Message::new(DEFAULT_ANSWER)
        .with("segments", count(log.segments().len()))
        .with("records", count(offsets.records))
        .with("bytes", grouped(offsets.size_bytes))
        .with("start", Arg::int(offsets.log_start_offset))
        .with("leo", Arg::int(offsets.log_end_offset))
        .with("active", grouped(log.active_segment().size_bytes()))
        .with("limit", grouped(log.settings().segment_bytes))
}

/// The burst the producer is sending or about to send: (records, keys, value bytes).
fn queued_burst(sim: &Sim<LogLab>) -> (u32, u32, u32) {
    sim.world().producer.bursts.front().map_or((0, 0, 0), |b| (b.total, b.keys, b.value_bytes))
}

pub fn lab1_intro(sim: &Sim<LogLab>) -> Message {
    let (records, _, value_bytes) = queued_burst(sim);
    Message::new(LAB1_INTRO)
        .with("segment_bytes", grouped(log(sim).settings().segment_bytes))
        .with("records", count(records))
        .with("bytes", Arg::int(value_bytes))
}

pub fn lab1_one(sim: &Sim<LogLab>) -> Message {
    let log = log(sim);
    Message::new(LAB1_ONE)
        .with("records", count(log.record_count()))
        .with("bytes", grouped(log.size_bytes()))
        .with("segments", count(log.segments().len()))
}

pub fn lab1_set(sim: &Sim<LogLab>) -> Message {
    Message::new(LAB1_SET)
        .with("segment_bytes", grouped(log(sim).settings().segment_bytes))
        .with("records", count(queued_burst(sim).0))
}

/// Records in the first segment rolled under the new `segment.bytes` (0 before any).
fn records_per_new_segment(log: &PartitionLog) -> usize {
    log.segments().get(1).filter(|_| log.segments().len() > 2).map_or(0, |s| s.record_count())
}

pub fn lab1_rolled(sim: &Sim<LogLab>) -> Message {
    Message::new(LAB1_ROLLED).with("rolls", count(rolls(sim))).with("per", count(records_per_new_segment(log(sim))))
}

pub fn lab1_answer(sim: &Sim<LogLab>) -> Message {
    let log = log(sim);
    Message::new(LAB1_ANSWER)
        .with("segments", count(log.segments().len()))
        .with("first", count(log.segments()[0].record_count()))
        .with("default_bytes", default_segment_bytes())
        .with("segment_bytes", grouped(log.settings().segment_bytes))
        .with("rolls", count(rolls(sim)))
        .with("per", count(records_per_new_segment(log)))
}

pub fn find_intro(sim: &Sim<LogLab>) -> Message {
    let (records, _, value_bytes) = queued_burst(sim);
    Message::new(FIND_INTRO)
        .with("segment_bytes", grouped(log(sim).settings().segment_bytes))
        .with("records", count(records))
        .with("bytes", Arg::int(value_bytes))
}

pub fn find_full(sim: &Sim<LogLab>) -> Message {
    let log = log(sim);
    let first = &log.segments()[0];
    Message::new(FIND_FULL)
        .with("records", count(first.record_count()))
        .with("bytes", grouped(first.size_bytes()))
        .with("limit", grouped(log.settings().segment_bytes))
        .with("more", count(queued_burst(sim).0))
}

pub fn find_roll(sim: &Sim<LogLab>) -> Message {
    Message::new(FIND_ROLL).with("file", file(log(sim).active_segment().base_offset()))
}

fn last_found(sim: &Sim<LogLab>) -> Option<&OffsetLookup> {
    match sim.world().last_lookup() {
        Some(LookupResult::Offset(Ok(found))) => Some(found),
        _ => None,
    }
}

pub fn find_found(sim: &Sim<LogLab>) -> Message {
    let Some(found) = last_found(sim) else { return Message::new(PENDING) };
    Message::new(FIND_FOUND)
        .with("file", file(found.segment_base_offset))
        .with("entry_offset", Arg::int(found.index_entry.0))
        .with("entry_position", Arg::int(found.index_entry.1))
        .with("target", Arg::int(found.target))
}

/// The `.index` slot whose entry the lookup used (Kafka's `largestLowerBoundSlotFor`).
fn index_slot(log: &PartitionLog, found: &OffsetLookup) -> Option<usize> {
    let segment = log.segments().iter().find(|s| s.base_offset() == found.segment_base_offset)?;
    segment.offset_index().iter().position(|entry| entry == found.index_entry)
}

pub fn find_answer(sim: &Sim<LogLab>) -> Message {
    let Some(found) = last_found(sim) else { return Message::new(PENDING) };
    let slot = index_slot(log(sim), found).map_or_else(pending, Arg::int);
    Message::new(FIND_ANSWER)
        .with("file", file(found.segment_base_offset))
        .with("slot", slot)
        .with("entries", count(found.index_entries))
        .with("entry_offset", Arg::int(found.index_entry.0))
        .with("entry_position", Arg::int(found.index_entry.1))
        .with("probes", count(found.index_probes.len()))
        .with("batches", count(found.scan.batches_read))
        .with("scanned", grouped(found.scan.bytes_scanned))
        .with("position", Arg::int(found.found_batch.position))
        .with("first", Arg::int(found.found_batch.base_offset))
        .with("last", Arg::int(found.found_batch.last_offset))
}

pub fn trap_intro(sim: &Sim<LogLab>) -> Message {
    let lab = sim.world();
    let settings = lab.log().settings();
    Message::new(TRAP_INTRO)
        .with("retention", span(settings.retention_ms))
        .with("interval", Arg::Duration(lab.settings().trickle_interval_ms))
        .with("segment_bytes", grouped(settings.segment_bytes))
        .with("segment_ms", span(settings.segment_ms))
}

pub fn trap_held(sim: &Sim<LogLab>) -> Message {
    let held = sim.log().iter().find_map(|e| match e.fact {
        Fact::RetentionHeldBack { oldest_age_ms, newest_age_ms, .. } => Some((e.time_ms, oldest_age_ms, newest_age_ms)),
        _ => None,
    });
    Message::new(TRAP_HELD)
        .with("at", held.map_or_else(pending, |(at, _, _)| Arg::Duration(at)))
        .with("oldest", held.map_or_else(pending, |(_, oldest, _)| span(oldest)))
        .with("newest", held.map_or_else(pending, |(_, _, newest)| span(newest)))
}

pub fn trap_half(sim: &Sim<LogLab>) -> Message {
    let log = log(sim);
    Message::new(TRAP_HALF)
        .with("elapsed", elapsed(sim))
        .with("records", count(log.record_count()))
        .with("segments", count(log.segments().len()))
        .with("segment_bytes", grouped(log.settings().segment_bytes))
        .with("segment_ms", span(log.settings().segment_ms))
}

pub fn trap_day(sim: &Sim<LogLab>) -> Message {
    Message::new(TRAP_DAY).with("elapsed", elapsed(sim)).with("oldest", oldest_age(sim))
}

pub fn trap_answer(sim: &Sim<LogLab>) -> Message {
    let log = log(sim);
    Message::new(TRAP_ANSWER)
        .with("deleted", count(deleted(sim).0))
        .with("elapsed", elapsed(sim))
        .with("retention", span(log.settings().retention_ms))
        .with("records", count(log.record_count()))
        .with("segments", count(log.segments().len()))
        .with("oldest", oldest_age(sim))
}

pub fn fixed_intro(sim: &Sim<LogLab>) -> Message {
    let settings = log(sim).settings();
    Message::new(FIXED_INTRO)
        .with("retention", span(settings.retention_ms))
        .with("segment_ms", span(settings.segment_ms))
}

pub fn fixed_roll(sim: &Sim<LogLab>) -> Message {
    let at = first_ms(sim, |f| matches!(f, Fact::SegmentRolled { .. }));
    Message::new(FIXED_ROLL).with("at", at.map_or_else(pending, Arg::Duration))
}

fn first_deletion(sim: &Sim<LogLab>) -> Option<(u64, i64)> {
    sim.log().iter().find_map(|e| match &e.fact {
        Fact::SegmentsDeleted { base_offsets, .. } => base_offsets.first().map(|base| (e.time_ms, *base)),
        _ => None,
    })
}

pub fn fixed_deleted(sim: &Sim<LogLab>) -> Message {
    let first = first_deletion(sim);
    Message::new(FIXED_DELETED)
        .with("at", first.map_or_else(pending, |(at, _)| Arg::Duration(at)))
        .with("file", first.map_or_else(pending, |(_, base)| file(base)))
        .with("delay", span(log(sim).settings().file_delete_delay_ms))
}

pub fn fixed_day(sim: &Sim<LogLab>) -> Message {
    Message::new(FIXED_DAY).with("deleted", count(deleted(sim).0)).with("oldest", oldest_age(sim))
}

pub fn fixed_answer(sim: &Sim<LogLab>) -> Message {
    let (segments, bytes) = deleted(sim);
    Message::new(FIXED_ANSWER)
        .with("first", first_deletion(sim).map_or_else(pending, |(at, _)| Arg::Duration(at)))
        .with("deleted", count(segments))
        .with("bytes", grouped(bytes))
        .with("elapsed", elapsed(sim))
        .with("oldest", oldest_age(sim))
        .with("retention", span(log(sim).settings().retention_ms))
}

pub fn tomb_intro(sim: &Sim<LogLab>) -> Message {
    let (records, keys, _) = queued_burst(sim);
    Message::new(TOMB_INTRO)
        .with("delete_retention", span(log(sim).settings().delete_retention_ms))
        .with("records", count(records))
        .with("keys", count(keys))
}

/// The latest tombstone sent: (key, offset).
fn tombstone(sim: &Sim<LogLab>) -> Option<(u32, i64)> {
    sim.log().iter().rev().find_map(|e| match e.fact {
        Fact::TombstoneSent { key, offset } => Some((key, offset)),
        _ => None,
    })
}

fn reader_position(sim: &Sim<LogLab>) -> Arg {
    sim.world().reader_view().map_or_else(pending, |r| Arg::int(r.position))
}

/// The keys the reader holds though the log deleted them (`key-426`).
fn resurrected(sim: &Sim<LogLab>) -> Option<Arg> {
    let keys = sim.world().reader_view()?.resurrected_keys;
    let names: Vec<String> = keys.into_iter().map(key_text).collect();
    (!names.is_empty()).then(|| Arg::text(names.join(", ")))
}

pub fn tomb_sent(sim: &Sim<LogLab>) -> Message {
    let sent = tombstone(sim);
    Message::new(TOMB_SENT)
        .with("key", sent.map_or_else(pending, |(key, _)| Arg::text(key_text(key))))
        .with("offset", sent.map_or_else(pending, |(_, offset)| Arg::int(offset)))
        .with("position", reader_position(sim))
}

/// The earliest delete horizon the cleaner has set on a batch still in the log.
fn delete_horizon_ms(log: &PartitionLog) -> Option<i64> {
    let batches = log.segments().iter().flat_map(|s| s.batches().iter());
    batches.map(|b| b.delete_horizon_ms).filter(|h| *h >= 0).min()
}

pub fn tomb_horizon(sim: &Sim<LogLab>) -> Message {
    let first = sim.log().iter().find_map(|e| match e.fact {
        Fact::Cleaned { records_before, records_after, .. } => Some((records_before, records_after)),
        _ => None,
    });
    Message::new(TOMB_HORIZON)
        .with("before", first.map_or_else(pending, |(before, _)| grouped(before)))
        .with("after", count(first.map_or(0, |(_, after)| after)))
        .with("horizon", delete_horizon_ms(log(sim)).map_or_else(pending, span))
}

pub fn tomb_gone(sim: &Sim<LogLab>) -> Message {
    Message::new(TOMB_GONE)
        .with("offset", tombstone(sim).map_or_else(pending, |(_, offset)| Arg::int(offset)))
        .with("keys", resurrected(sim).unwrap_or_else(pending))
}

pub fn tomb_answer(sim: &Sim<LogLab>) -> Message {
    let Some(keys) = resurrected(sim) else { return Message::new(TOMB_NONE) };
    let removed = first_ms(sim, |f| matches!(f, Fact::Cleaned { tombstones_removed: 1.., .. }));
    Message::new(TOMB_ANSWER)
        .with("keys", keys)
        .with("offset", tombstone(sim).map_or_else(pending, |(_, offset)| Arg::int(offset)))
        .with("removed", removed.map_or_else(pending, Arg::Duration))
        .with("delete_retention", span(log(sim).settings().delete_retention_ms))
        .with("pace", sim.world().reader().map_or_else(pending, |r| count(r.records_per_sec)))
}
