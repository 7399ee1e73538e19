//! What the log scene reports: typed facts for the event log and read errors. English templates keep the lab's wording; Kafka's own messages
//! (exceptions, CLI output) travel as [`Arg::Kafka`].

use super::{PARTITION, TOPIC};
use crate::model::kernel::{Arg, Describe, Message};

/// Why a segment was rolled, with the limit in force then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollCause {
    /// `segment.bytes` would be exceeded by the incoming batch.
    Size { segment_bytes: u32 },
    /// `segment.ms` has passed since the segment's first record.
    Time { segment_ms: i64 },
    /// An index reached `segment.index.bytes`.
    IndexFull { segment_index_bytes: u32 },
    /// The batch's offsets do not fit 4 bytes relative to the base offset.
    OffsetOverflow,
}

/// Why retention deleted segments, with the limit in force then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeletionCause {
    LogStartOffset,
    RetentionBytes { retention_bytes: i64 },
    RetentionMs { retention_ms: i64 },
}

/// Why a read at an offset found nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReadError {
    /// Kafka's `OffsetOutOfRangeException`: the offset is below the log start offset.
    BeforeLogStart { offset: i64, log_start_offset: i64 },
    /// Kafka's `OffsetOutOfRangeException`: the offset is past the log end offset.
    PastLogEnd { offset: i64, log_end_offset: i64 },
    /// The offset is the LEO: Kafka answers with no records (the consumer's fetch waits).
    AtLogEndOffset { offset: i64 },
    /// Compaction removed every record from the offset to the LEO.
    NothingAfter { offset: i64, log_end_offset: i64 },
}

impl ReadError {
    /// Kafka's exception class for this error, if Kafka raises one.
    pub fn exception(&self) -> Option<&'static str> {
        match self {
            ReadError::BeforeLogStart { .. } | ReadError::PastLogEnd { .. } => Some("OffsetOutOfRangeException"),
            ReadError::AtLogEndOffset { .. } | ReadError::NothingAfter { .. } => None,
        }
    }
}

/// One line of the log scene's event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The log rolled a new active segment starting at `base_offset`.
    SegmentRolled { base_offset: i64, cause: RollCause },
    /// The producer finished a burst (`keys` = 0: no key).
    BurstSent { records: u32, value_bytes: u32, keys: u32, log_end_offset: i64 },
    /// The producer sent a tombstone (null value) for `key`.
    TombstoneSent { key: u32, offset: i64 },
    /// `kafka-configs --alter` succeeded.
    ConfigUpdated { name: String, value: String },
    /// `kafka-delete-records` moved the log start offset.
    RecordsDeleted { low_watermark: i64 },
    /// The table reader started from `from_offset`.
    ReaderStarted { from_offset: i64, records_per_sec: u32 },
    /// Retention scheduled whole segments for deletion (renamed `.deleted`).
    SegmentsDeleted {
        base_offsets: Vec<i64>,
        bytes: u64,
        cause: DeletionCause,
        rolled_first: bool,
        log_start_offset: i64,
    },
    /// The `.deleted` files of a segment were removed after `file.delete.delay.ms`.
    SegmentFilesRemoved { base_offset: i64 },
    /// One pass of the log cleaner.
    Cleaned {
        first_dirty_offset: i64,
        end_offset: i64,
        records_before: u64,
        records_after: u64,
        bytes_before: u64,
        bytes_after: u64,
        tombstones_removed: u64,
        horizons_set: u64,
    },
    /// An offset lookup found its batch.
    OffsetFound {
        target: i64,
        segment_base_offset: i64,
        batch_position: u32,
        index_entry: (i64, u32),
        bytes_scanned: u64,
    },
    /// An offset lookup found nothing.
    ReadFailed(ReadError),
    /// `offsetsForTimes` found the first record at or after `target_ms`.
    TimestampFound { target_ms: i64, offset: i64, timestamp_ms: i64 },
    /// `offsetsForTimes` found no record that late.
    NoRecordThatLate { target_ms: i64 },
    // New facts go last: the derived Hash numbers the variants, and the trace hash hashes typed facts.
    /// The steady producer started: `records_per_sec` records of `value_bytes`, at most `max_records`.
    ProducerStarted { records_per_sec: u64, value_bytes: u32, keys: u32, max_records: u32 },
    /// A retention check left the active segment in place though its first records are older than
    /// `retention.ms`: its newest record is younger, and it has not rolled.
    RetentionHeldBack {
        base_offset: i64,
        oldest_age_ms: i64,
        newest_age_ms: i64,
        retention_ms: i64,
        segment_ms: i64,
        segment_bytes: u32,
    },
}

crate::messages! {
    pub FACT_KEYS;
    ROLLED = "log.fact.rolled" => "Rolled new log segment at offset {offset} ({why})";
    ROLL_SIZE = "log.fact.roll.size" => "segment.bytes={limit} would be exceeded";
    ROLL_TIME = "log.fact.roll.time" => "segment.ms={limit} has passed since the segment's first record";
    ROLL_INDEX = "log.fact.roll.index" => "an index reached segment.index.bytes={limit}";
    ROLL_OVERFLOW = "log.fact.roll.overflow" => "offsets no longer fit 4 bytes relative to the base offset";
    BURST = "log.fact.burst" => "sent {records, plural, one {# record} other {# records}} of {bytes} B ({keys}); LEO is now {leo}";
    NO_KEY = "log.fact.burst.no_key" => "no key";
    KEYS = "log.fact.burst.keys" => "keys key-0..key-{last}";
    STEADY = "log.fact.steady" =>
        "started a steady producer: {pace} records/s of {bytes} B ({keys}), up to {max, plural, one {# record} other {# records}}";
    HELD_BACK = "log.fact.held_back" =>
        "Retention kept {file}: its first records are {oldest} old, past retention.ms={limit}, but its newest is {newest} old, and it is the active segment until segment.ms={segment_ms} or segment.bytes={segment_bytes} rolls it";
    TOMBSTONE = "log.fact.tombstone" => "sent a tombstone for {key} at offset {offset}";
    CONFIG = "log.fact.config" => "{kafka}";
    DELETE_RECORDS = "log.fact.delete_records" => "{kafka}";
    READER = "log.fact.reader" => "started rebuilding its table from offset {offset} at {pace} records/s";
    SCHEDULED = "log.fact.deletion" =>
        "Scheduled deletion of {files} ({bytes} B) due to {why}{rolled}; renamed to .deleted; log start offset is now {start}";
    DUE_START = "log.fact.deletion.start" => "log start offset breach";
    DUE_BYTES = "log.fact.deletion.bytes" => "retention.bytes={limit} breach";
    DUE_MS = "log.fact.deletion.ms" => "retention.ms={limit} breach based on the largest record timestamp in the segment";
    ROLLED_FIRST = "log.fact.deletion.rolled" => "; rolled a new active segment first";
    NOT_ROLLED = "log.fact.deletion.not_rolled" => "";
    REMOVED = "log.fact.removed" => "Deleted log, index and time index files of segment {stem}";
    CLEANED = "log.fact.cleaned" =>
        "Cleaned {partition} offsets [{from}, {to}): {records_before} → {records_after, plural, one {# record} other {# records}}, {bytes_before} → {bytes_after} B, {tombstones, plural, one {# tombstone} other {# tombstones}} removed, {horizons, plural, one {# delete horizon} other {# delete horizons}} set";
    FOUND = "log.fact.lookup.found" =>
        "offset {target} is in {file} at batch position {position} (index entry {entry_offset} → {entry_position}, {scanned} B scanned)";
    TIME_FOUND = "log.fact.lookup.time" => "offsetsForTimes({target}) = offset {offset} (CreateTime {ts})";
    TIME_NONE = "log.fact.lookup.time_none" => "offsetsForTimes({target}) found no record that late";
    OUT_OF_RANGE = "log.fact.read.out_of_range" => "{kafka}";
    AT_LEO = "log.fact.read.at_leo" =>
        "Offset {offset} is the log end offset of {partition}: a fetch there returns no records and waits for the next append.";
    NOTHING_AFTER = "log.fact.read.nothing_after" =>
        "No record at or after offset {offset} before the log end offset {end} (compaction removed them).";
}

/// `orders-0`: the topic-partition as Kafka writes it.
fn partition_arg() -> Arg {
    Arg::text(format!("{TOPIC}-{PARTITION}"))
}

/// `00000000000000368421`: a segment's file stem.
fn stem(base_offset: i64) -> String {
    format!("{base_offset:020}")
}

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

impl Describe for RollCause {
    fn message(&self) -> Message {
        match *self {
            RollCause::Size { segment_bytes } => Message::new(ROLL_SIZE).with("limit", Arg::int(segment_bytes)),
            RollCause::Time { segment_ms } => Message::new(ROLL_TIME).with("limit", Arg::int(segment_ms)),
            RollCause::IndexFull { segment_index_bytes } => {
                Message::new(ROLL_INDEX).with("limit", Arg::int(segment_index_bytes))
            }
            RollCause::OffsetOverflow => Message::new(ROLL_OVERFLOW),
        }
    }
}

impl Describe for DeletionCause {
    fn message(&self) -> Message {
        match *self {
            DeletionCause::LogStartOffset => Message::new(DUE_START),
            DeletionCause::RetentionBytes { retention_bytes } => {
                Message::new(DUE_BYTES).with("limit", Arg::int(retention_bytes))
            }
            DeletionCause::RetentionMs { retention_ms } => Message::new(DUE_MS).with("limit", Arg::int(retention_ms)),
        }
    }
}

impl Describe for ReadError {
    fn message(&self) -> Message {
        let kafka = |text: String| Message::new(OUT_OF_RANGE).with("kafka", Arg::kafka(text));
        match *self {
            ReadError::BeforeLogStart { offset, log_start_offset } => kafka(format!(
                "Received request for offset {offset} for partition {TOPIC}-{PARTITION}, but we only have log \
                 segments starting from offset: {log_start_offset}."
            )),
            ReadError::PastLogEnd { offset, log_end_offset } => kafka(format!(
                "Received request for offset {offset} for partition {TOPIC}-{PARTITION}, but we only have log \
                 segments upto {log_end_offset}."
            )),
            ReadError::AtLogEndOffset { offset } => {
                Message::new(AT_LEO).with("offset", Arg::int(offset)).with("partition", partition_arg())
            }
            ReadError::NothingAfter { offset, log_end_offset } => {
                Message::new(NOTHING_AFTER).with("offset", Arg::int(offset)).with("end", Arg::int(log_end_offset))
            }
        }
    }
}

fn keys_message(keys: u32) -> Message {
    match keys {
        0 => Message::new(NO_KEY),
        _ => Message::new(KEYS).with("last", Arg::int(keys - 1)),
    }
}

fn steady(records_per_sec: u64, value_bytes: u32, keys: u32, max_records: u32) -> Message {
    Message::new(STEADY)
        .with("pace", Arg::int(records_per_sec))
        .with("bytes", Arg::int(value_bytes))
        .with("keys", nested(keys_message(keys)))
        .with("max", Arg::int(max_records))
}

fn held_back(fact: (i64, i64, i64), retention_ms: i64, segment_ms: i64, segment_bytes: u32) -> Message {
    let (base_offset, oldest_age_ms, newest_age_ms) = fact;
    Message::new(HELD_BACK)
        .with("file", Arg::text(format!("{}.log", stem(base_offset))))
        .with("oldest", Arg::Duration(oldest_age_ms.max(0) as u64))
        .with("newest", Arg::Duration(newest_age_ms.max(0) as u64))
        .with("limit", Arg::int(retention_ms))
        .with("segment_ms", Arg::int(segment_ms))
        .with("segment_bytes", Arg::int(segment_bytes))
}

/// An offset lookup's line: `(target, segment base offset)`, the batch position, the index entry used.
fn found(target: (i64, i64), batch_position: u32, index_entry: (i64, u32), bytes_scanned: u64) -> Message {
    Message::new(FOUND)
        .with("target", Arg::int(target.0))
        .with("file", Arg::text(format!("{}.log", stem(target.1))))
        .with("position", Arg::int(batch_position))
        .with("entry_offset", Arg::int(index_entry.0))
        .with("entry_position", Arg::int(index_entry.1))
        .with("scanned", Arg::int(bytes_scanned))
}

fn deletion(files: &[i64], bytes: u64, cause: DeletionCause, rolled_first: bool, start: i64) -> Message {
    let names = files.iter().map(|base| format!("{}.log", stem(*base))).collect::<Vec<_>>().join(", ");
    Message::new(SCHEDULED)
        .with("files", Arg::text(names))
        .with("bytes", Arg::int(bytes))
        .with("why", nested(cause.message()))
        .with("rolled", nested(Message::new(if rolled_first { ROLLED_FIRST } else { NOT_ROLLED })))
        .with("start", Arg::int(start))
}

impl Describe for Fact {
    fn message(&self) -> Message {
        match self {
            Fact::SegmentRolled { base_offset, cause } => {
                Message::new(ROLLED).with("offset", Arg::int(*base_offset)).with("why", nested(cause.message()))
            }
            Fact::BurstSent { records, value_bytes, keys, log_end_offset } => Message::new(BURST)
                .with("records", Arg::int(*records))
                .with("bytes", Arg::int(*value_bytes))
                .with("keys", nested(keys_message(*keys)))
                .with("leo", Arg::int(*log_end_offset)),
            Fact::ProducerStarted { records_per_sec, value_bytes, keys, max_records } => {
                steady(*records_per_sec, *value_bytes, *keys, *max_records)
            }
            Fact::RetentionHeldBack {
                base_offset,
                oldest_age_ms,
                newest_age_ms,
                retention_ms,
                segment_ms,
                segment_bytes,
            } => held_back((*base_offset, *oldest_age_ms, *newest_age_ms), *retention_ms, *segment_ms, *segment_bytes),
            Fact::TombstoneSent { key, offset } => Message::new(TOMBSTONE)
                .with("key", Arg::text(super::record::key_text(*key)))
                .with("offset", Arg::int(*offset)),
            Fact::ConfigUpdated { name, value } => Message::new(CONFIG)
                .with("kafka", Arg::kafka(format!("Completed updating config for topic {TOPIC}: {name}={value}"))),
            Fact::RecordsDeleted { low_watermark } => Message::new(DELETE_RECORDS)
                .with("kafka", Arg::kafka(format!("{TOPIC}-{PARTITION}: low_watermark {low_watermark}"))),
            Fact::ReaderStarted { from_offset, records_per_sec } => {
                Message::new(READER).with("offset", Arg::int(*from_offset)).with("pace", Arg::int(*records_per_sec))
            }
            Fact::SegmentsDeleted { base_offsets, bytes, cause, rolled_first, log_start_offset } => {
                deletion(base_offsets, *bytes, *cause, *rolled_first, *log_start_offset)
            }
            Fact::SegmentFilesRemoved { base_offset } => {
                Message::new(REMOVED).with("stem", Arg::text(stem(*base_offset)))
            }
            Fact::Cleaned {
                first_dirty_offset,
                end_offset,
                records_before,
                records_after,
                bytes_before,
                bytes_after,
                tombstones_removed,
                horizons_set,
            } => Message::new(CLEANED)
                .with("partition", partition_arg())
                .with("from", Arg::int(*first_dirty_offset))
                .with("to", Arg::int(*end_offset))
                .with("records_before", Arg::int(*records_before))
                .with("records_after", Arg::int(*records_after))
                .with("bytes_before", Arg::int(*bytes_before))
                .with("bytes_after", Arg::int(*bytes_after))
                .with("tombstones", Arg::int(*tombstones_removed))
                .with("horizons", Arg::int(*horizons_set)),
            Fact::OffsetFound { target, segment_base_offset, batch_position, index_entry, bytes_scanned } => {
                found((*target, *segment_base_offset), *batch_position, *index_entry, *bytes_scanned)
            }
            Fact::ReadFailed(error) => error.message(),
            Fact::TimestampFound { target_ms, offset, timestamp_ms } => Message::new(TIME_FOUND)
                .with("target", Arg::int(*target_ms))
                .with("offset", Arg::int(*offset))
                .with("ts", Arg::int(*timestamp_ms)),
            Fact::NoRecordThatLate { target_ms } => Message::new(TIME_NONE).with("target", Arg::int(*target_ms)),
        }
    }
}

crate::display_as_message!(ReadError, Fact);
