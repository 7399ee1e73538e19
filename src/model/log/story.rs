//! The log scene's stories: which facts are key moments, and what each preset shows.
//! The captions and answers themselves are computed in `story_say`.

use super::story_say as say;
use super::{Fact, LogLab};
use crate::model::kernel::{Message, Moment, Salience, Salient};
use crate::model::story::{Beat, Cue, Story};

impl Salient for Fact {
    fn salience(&self) -> Salience {
        match self {
            // One line per burst or command: shown, never folded.
            Fact::BurstSent { .. }
            | Fact::ProducerStarted { .. }
            | Fact::TombstoneSent { .. }
            | Fact::ConfigUpdated { .. }
            | Fact::ReaderStarted { .. } => Salience::Notable,
            // The rename to `.deleted` is the deletion; removing the files later is housekeeping.
            Fact::SegmentFilesRemoved { .. } => Salience::Notable,
            Fact::SegmentRolled { .. } => Salience::Key(Moment::Roll),
            Fact::SegmentsDeleted { .. } | Fact::RecordsDeleted { .. } => Salience::Key(Moment::Deletion),
            Fact::Cleaned { .. } => Salience::Key(Moment::Cleaning),
            // retention.ms ran out for records the active segment keeps.
            Fact::RetentionHeldBack { .. } => Salience::Key(Moment::Expiry),
            Fact::OffsetFound { .. }
            | Fact::ReadFailed(_)
            | Fact::TimestampFound { .. }
            | Fact::NoRecordThatLate { .. } => Salience::Key(Moment::Answer),
        }
    }
}

crate::messages! {
    pub STORY_KEYS;
    PENDING = "log.story.pending" => "not yet";
    DEFAULT_QUESTION = "log.story.default.question" => "What is on disk for orders-0 right now?";
    DEFAULT_WATCH = "log.story.default.watch" =>
        "Press Play: a steady producer appends 1 KiB records, and the active segment grows until segment.bytes rolls it.";
    DEFAULT_INTRO = "log.story.default.intro" =>
        "One partition, orders-0, with Kafka's defaults: segment.bytes = {segment_bytes} B, retention.ms = {retention}. Press Play to start a steady producer.";
    DEFAULT_ANSWER = "log.story.default.answer" =>
        "{segments, plural, one {# segment} other {# segments}}, {records, plural, =0 {no record} one {# record} other {# records}} ({bytes} B); log start offset {start}, LEO {leo}; the active segment holds {active} of {limit} B";
    LAB1_QUESTION = "log.story.lab1.question" =>
        "How many segments do 100,000 records of 1 KiB make with the default segment.bytes, and how many more after segment.bytes = 1 MiB?";
    LAB1_WATCH = "log.story.lab1.watch" => "Watch the directory: how many .log files after each burst?";
    LAB1_INTRO = "log.story.lab1.intro" =>
        "A new partition with segment.bytes = {segment_bytes} B. {records, plural, one {# record} other {# records}} of {bytes} B are about to be appended: count the segments in the directory.";
    LAB1_ONE = "log.story.lab1.one" =>
        "{records, plural, one {# record} other {# records}}, {bytes} B, and still {segments, plural, one {# segment} other {# segments}}: the active segment is far from segment.bytes, so it never rolled.";
    LAB1_SET = "log.story.lab1.set" =>
        "segment.bytes is now {segment_bytes} B (Kafka's minimum). Another {records, plural, one {# record} other {# records}}: from now on, a batch that would not fit rolls a new segment.";
    LAB1_ROLLED = "log.story.lab1.rolled" =>
        "{rolls, plural, one {# roll} other {# rolls}}: a segment closes when the next batch would pass segment.bytes, after about {per, plural, one {# record} other {# records}}. Each file is named after its base offset.";
    LAB1_ANSWER = "log.story.lab1.answer" =>
        "{segments, plural, one {# segment} other {# segments}}: the first holds {first, plural, one {# record} other {# records}} (default segment.bytes = {default_bytes} B); after segment.bytes = {segment_bytes} B, {rolls, plural, one {# roll} other {# rolls}}, about {per, plural, one {# record} other {# records}} per segment";
    FIND_QUESTION = "log.story.find.question" =>
        "How does the broker find offset 368500: which segment, which .index entry, how much scanning?";
    FIND_WATCH = "log.story.find.watch" =>
        "Watch the lookup panel when the consumer asks for offset 368500: the segment, the .index entry, then the scan.";
    FIND_INTRO = "log.story.find.intro" =>
        "{records, plural, one {# record} other {# records}} of {bytes} B will exactly fill a first segment (segment.bytes = {segment_bytes} B); a second burst opens another. Then a consumer fetches offset 368500.";
    FIND_FULL = "log.story.find.full" =>
        "The first segment holds {records, plural, one {# record} other {# records}}, {bytes} B: the next batch would pass segment.bytes = {limit} B, so {more, plural, one {# more record opens} other {# more records open}} a second segment.";
    FIND_ROLL = "log.story.find.roll" =>
        "The second segment is named after its base offset: {file}. A lookup picks its segment by comparing these base offsets.";
    FIND_FOUND = "log.story.find.found" =>
        "1) Binary search on the base offsets → {file}. 2) Binary search in its .index → entry {entry_offset} at byte {entry_position}. 3) Sequential scan of batch headers from that byte to the batch holding {target}.";
    FIND_ANSWER = "log.story.find.answer" =>
        "{file}; .index slot {slot} of {entries, plural, one {# entry} other {# entries}}: {entry_offset} → byte {entry_position} ({probes, plural, one {# probe} other {# probes}}); scan: {batches, plural, one {# batch header} other {# batch headers}}, {scanned} B, to the batch at byte {position} (offsets {first}–{last})";
    TRAP_QUESTION = "log.story.trap.question" => "retention.ms is 1 hour: how much does retention delete in a day of low traffic?";
    TRAP_WATCH = "log.story.trap.watch" =>
        "Watch the log start offset and the segment list: does anything go once the first records are an hour old?";
    TRAP_INTRO = "log.story.trap.intro" =>
        "retention.ms = {retention}, and one small record every {interval} into a segment with segment.bytes = {segment_bytes} B and segment.ms = {segment_ms}. Watch whether anything is deleted.";
    TRAP_HELD = "log.story.trap.held" =>
        "At the retention check at {at}, the first records were {oldest} old, past retention.ms, yet nothing went: retention deletes whole segments by their newest record, and the active segment's newest was {newest} old.";
    TRAP_HALF = "log.story.trap.half" =>
        "{elapsed} in: {records, plural, one {# record} other {# records}}, still {segments, plural, one {# segment} other {# segments}}. It rolls only at segment.bytes = {segment_bytes} B or segment.ms = {segment_ms}.";
    TRAP_DAY = "log.story.trap.day" =>
        "{elapsed} kept under a retention.ms of 1 hour: the oldest record is {oldest} old. The fix is a shorter segment.ms (low-traffic-fixed).";
    TRAP_ANSWER = "log.story.trap.answer" =>
        "{deleted, plural, =0 {nothing deleted} one {# segment deleted} other {# segments deleted}} in {elapsed} with retention.ms = {retention}: {records, plural, one {# record} other {# records}} in {segments, plural, one {# segment} other {# segments}}, the oldest {oldest} old";
    FIXED_QUESTION = "log.story.fixed.question" =>
        "With segment.ms = 10 min, when does retention first delete, and how old is the oldest record it keeps?";
    FIXED_WATCH = "log.story.fixed.watch" =>
        "Watch for the first roll, then the first deletion: segments roll every 10 minutes and expire an hour after their newest record.";
    FIXED_INTRO = "log.story.fixed.intro" =>
        "The same trickle and retention.ms = {retention}, but segment.ms = {segment_ms}: the active segment rolls at the first append after it is that old.";
    FIXED_ROLL = "log.story.fixed.roll" =>
        "First roll at {at}: segment.ms passed since the segment's first record, and the next append rolled it. Closed segments can now expire.";
    FIXED_DELETED = "log.story.fixed.deleted" =>
        "First deletion at {at}: the newest record of {file} is older than retention.ms. Its files are renamed .deleted and removed after file.delete.delay.ms = {delay}.";
    FIXED_DAY = "log.story.fixed.day" =>
        "A day later: {deleted, plural, one {# segment} other {# segments}} deleted, and the oldest record on disk is {oldest} old: retention.ms plus up to one segment.ms and one retention check interval.";
    FIXED_ANSWER = "log.story.fixed.answer" =>
        "first deletion at {first}; {deleted, plural, one {# segment} other {# segments}} ({bytes} B) deleted in {elapsed}; the oldest record on disk is {oldest} old (retention.ms = {retention})";
    TOMB_QUESTION = "log.story.tombstone.question" =>
        "A slow reader rebuilds its table from a compacted topic: which deleted key comes back, and why?";
    TOMB_WATCH = "log.story.tombstone.watch" =>
        "Watch the reader's offset and the tombstone: does the reader reach it before the cleaner removes it?";
    TOMB_INTRO = "log.story.tombstone.intro" =>
        "A compacted topic with delete.retention.ms = {delete_retention}. The producer writes {records, plural, one {# record} other {# records}} over {keys, plural, one {# key} other {# keys}}; a reader rebuilds its table from offset 0, one record a second.";
    TOMB_SENT = "log.story.tombstone.sent" =>
        "{key} was deleted with a tombstone at offset {offset}. The reader is at offset {position}: to drop {key} from its table, it must read that far before the cleaner removes the tombstone.";
    TOMB_HORIZON = "log.story.tombstone.horizon" =>
        "The cleaner compacts {before} → {after, plural, one {# record} other {# records}}. The tombstone stays, with a delete horizon at {horizon}: delete.retention.ms after this pass.";
    TOMB_GONE = "log.story.tombstone.gone" =>
        "Past its delete horizon, the cleaner removed the tombstone before the reader got to offset {offset}: the reader will never see the delete, so {keys} stays in its table.";
    TOMB_ANSWER = "log.story.tombstone.answer" =>
        "{keys} came back: its tombstone (offset {offset}) was kept only delete.retention.ms = {delete_retention} past the cleaning that first saw it and removed at {removed}, before the reader, at {pace, plural, one {# record} other {# records}} a second, got there; the reader still holds {keys}";
    TOMB_NONE = "log.story.tombstone.none" => "no key came back: the reader has read every tombstone still in the log";
}

const LAB1_BEATS: &[Beat<LogLab>] = &[
    Beat { cue: Cue::Start, say: say::lab1_intro },
    Beat { cue: Cue::At(2), say: say::lab1_one },
    Beat { cue: Cue::At(4), say: say::lab1_set },
    Beat { cue: Cue::Nth(Moment::Roll, 1), say: say::lab1_rolled },
];

const FIND_BEATS: &[Beat<LogLab>] = &[
    Beat { cue: Cue::Start, say: say::find_intro },
    Beat { cue: Cue::At(3), say: say::find_full },
    Beat { cue: Cue::Nth(Moment::Roll, 1), say: say::find_roll },
    Beat { cue: Cue::Nth(Moment::Answer, 1), say: say::find_found },
];

const TRAP_BEATS: &[Beat<LogLab>] = &[
    Beat { cue: Cue::Start, say: say::trap_intro },
    Beat { cue: Cue::Nth(Moment::Expiry, 1), say: say::trap_held },
    Beat { cue: Cue::At(12), say: say::trap_half },
    Beat { cue: Cue::End, say: say::trap_day },
];

const FIXED_BEATS: &[Beat<LogLab>] = &[
    Beat { cue: Cue::Start, say: say::fixed_intro },
    Beat { cue: Cue::Nth(Moment::Roll, 1), say: say::fixed_roll },
    Beat { cue: Cue::Nth(Moment::Deletion, 1), say: say::fixed_deleted },
    Beat { cue: Cue::End, say: say::fixed_day },
];

const TOMB_BEATS: &[Beat<LogLab>] = &[
    Beat { cue: Cue::Start, say: say::tomb_intro },
    Beat { cue: Cue::At(5), say: say::tomb_sent },
    Beat { cue: Cue::At(7), say: say::tomb_horizon },
    Beat { cue: Cue::Last(Moment::Cleaning), say: say::tomb_gone },
];

const DEFAULT_BEATS: &[Beat<LogLab>] = &[Beat { cue: Cue::Start, say: say::default_intro }];

/// The scene's story for `preset` (`None`: the scene's default).
pub fn story(preset: Option<&str>) -> Story<LogLab> {
    match preset {
        Some("lab1-segments") => Story {
            start: Cue::At(1),
            // 30 s of simulated time: 6 s of Play.
            speed: 5.0,
            question: |_| Message::new(LAB1_QUESTION),
            watch: |_| Message::new(LAB1_WATCH),
            outcome: Cue::Last(Moment::Roll),
            answer: say::lab1_answer,
            beats: LAB1_BEATS,
        },
        Some("find-368500") => Story {
            start: Cue::At(1),
            // 41 s of simulated time, most of it the first burst: 4 s of Play.
            speed: 10.0,
            question: |_| Message::new(FIND_QUESTION),
            watch: |_| Message::new(FIND_WATCH),
            outcome: Cue::Nth(Moment::Answer, 1),
            answer: say::find_answer,
            beats: FIND_BEATS,
        },
        Some("low-traffic-trap") => Story {
            start: Cue::At(0),
            // An hour of simulated time a real second.
            speed: 3600.0,
            question: |_| Message::new(TRAP_QUESTION),
            watch: |_| Message::new(TRAP_WATCH),
            outcome: Cue::Nth(Moment::Expiry, 1),
            answer: say::trap_answer,
            beats: TRAP_BEATS,
        },
        Some("low-traffic-fixed") => Story {
            start: Cue::At(0),
            speed: 3600.0,
            question: |_| Message::new(FIXED_QUESTION),
            watch: |_| Message::new(FIXED_WATCH),
            outcome: Cue::Nth(Moment::Deletion, 1),
            answer: say::fixed_answer,
            beats: FIXED_BEATS,
        },
        Some("tombstone-resurrection") => Story {
            start: Cue::At(1),
            // 152 s of simulated time to the tombstone's removal: 5 s of Play.
            speed: 30.0,
            question: |_| Message::new(TOMB_QUESTION),
            watch: |_| Message::new(TOMB_WATCH),
            outcome: Cue::Last(Moment::Cleaning),
            answer: say::tomb_answer,
            beats: TOMB_BEATS,
        },
        _ => Story {
            start: Cue::At(0),
            // The steady producer fills a 1 GiB segment in about 10 s of Play.
            speed: 10.0,
            question: |_| Message::new(DEFAULT_QUESTION),
            watch: |_| Message::new(DEFAULT_WATCH),
            outcome: Cue::Start,
            answer: say::default_answer,
            beats: DEFAULT_BEATS,
        },
    }
}
