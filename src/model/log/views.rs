//! Read-only views of the log scene for the UI: the partition directory, index
//! ticks, `kafka-dump-log`-shaped batches, and the offsets that bound the log.

use super::partition::PartitionLog;
use super::reader::TableReader;
use super::segment::Segment;
use super::LogLab;

/// One segment's files as `ls -l` of the partition directory would show them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentFileView {
    pub base_offset: i64,
    /// `00000000000000368421.log` (with `.deleted` appended once scheduled for deletion).
    pub log_file: String,
    pub index_file: String,
    pub time_index_file: String,
    pub size_bytes: u32,
    pub index_entries: usize,
    pub time_index_entries: usize,
    /// The offset after the segment's last batch.
    pub next_offset: i64,
    pub largest_timestamp_ms: i64,
    pub active: bool,
    pub deleted: bool,
    /// Record batches in the `.log`.
    pub batches: usize,
    /// When a `.deleted` file disappears (`file.delete.delay.ms` after the rename).
    pub removal_at_ms: Option<u64>,
}

/// One sparse-index entry drawn as a tick over the `.log`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexTickView {
    pub offset: i64,
    pub position: u32,
}

/// One line of `kafka-dump-log --files X.log`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DumpBatchView {
    pub base_offset: i64,
    pub last_offset: i64,
    pub count: u32,
    pub position: u32,
    pub size_bytes: u32,
    /// The batch's max timestamp (`CreateTime`).
    pub create_time_ms: i64,
    /// Set by the cleaner on batches holding tombstones, else -1.
    pub delete_horizon_ms: i64,
}

/// The offsets that bound the log, and its totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffsetsView {
    pub log_start_offset: i64,
    /// A single-replica lab: the HW equals the LEO (the replication scene moves it).
    pub high_watermark: i64,
    pub log_end_offset: i64,
    pub size_bytes: u64,
    pub records: usize,
}

/// What retention and the roll check compare right now (for the "why was nothing deleted?" panel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetentionView {
    /// Live segments other than the active one: only these can expire without a roll.
    pub closed_segments: usize,
    /// Age of the oldest live segment's newest record (what `retention.ms` compares), if any record.
    pub oldest_newest_record_age_ms: Option<i64>,
    pub retention_ms: i64,
    pub active_size_bytes: u32,
    pub segment_bytes: u32,
    /// Time since the active segment's first batch (what `segment.ms` compares); None while empty.
    pub active_open_ms: Option<i64>,
    pub segment_ms: i64,
    /// Whether `cleanup.policy` has `delete` (else retention never deletes by time or size).
    pub delete_policy: bool,
}

/// The table reader's progress and what it got wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReaderView {
    pub position: i64,
    pub records_read: u64,
    pub keys_in_table: usize,
    pub caught_up: bool,
    /// Keys the reader still holds though the log deleted them (it never saw the tombstone).
    pub resurrected_keys: Vec<u32>,
}

fn file_view(segment: &Segment, active: bool, delay_ms: i64) -> SegmentFileView {
    let stem = segment.file_stem();
    let suffix = if segment.is_deleted() { ".deleted" } else { "" };
    SegmentFileView {
        base_offset: segment.base_offset(),
        log_file: format!("{stem}.log{suffix}"),
        index_file: format!("{stem}.index{suffix}"),
        time_index_file: format!("{stem}.timeindex{suffix}"),
        size_bytes: segment.size_bytes(),
        index_entries: segment.offset_index().len(),
        time_index_entries: segment.time_index().len(),
        next_offset: segment.next_offset(),
        largest_timestamp_ms: segment.largest_timestamp_ms(),
        active,
        deleted: segment.is_deleted(),
        batches: segment.batches().len(),
        removal_at_ms: segment.deleted_at_ms.map(|at| at + delay_ms.max(0) as u64),
    }
}

impl PartitionLog {
    /// The directory: `.deleted` files first (they are the oldest), then live segments; the last is active.
    pub fn segment_files(&self) -> Vec<SegmentFileView> {
        let delay_ms = self.settings.file_delete_delay_ms;
        let live = self.segments.len();
        self.deleted
            .iter()
            .map(|s| file_view(s, false, delay_ms))
            .chain(self.segments.iter().enumerate().map(|(i, s)| file_view(s, i + 1 == live, delay_ms)))
            .collect()
    }

    fn segment_by_base(&self, base_offset: i64) -> Option<&Segment> {
        self.segments.iter().chain(self.deleted.iter()).find(|s| s.base_offset() == base_offset)
    }

    /// The segment's index entries, evenly thinned to at most `max_ticks` for drawing.
    pub fn index_ticks(&self, base_offset: i64, max_ticks: usize) -> Vec<IndexTickView> {
        let Some(segment) = self.segment_by_base(base_offset) else {
            return Vec::new();
        };
        let index = segment.offset_index();
        let step = index.len().div_ceil(max_ticks.max(1)).max(1);
        (0..index.len())
            .step_by(step)
            .filter_map(|slot| index.entry(slot))
            .map(|(offset, position)| IndexTickView { offset, position })
            .collect()
    }

    /// `kafka-dump-log` lines for batches `first_batch..first_batch+max_batches` of a segment.
    pub fn dump_batches(&self, base_offset: i64, first_batch: usize, max_batches: usize) -> Vec<DumpBatchView> {
        let Some(segment) = self.segment_by_base(base_offset) else {
            return Vec::new();
        };
        segment
            .batches()
            .iter()
            .skip(first_batch)
            .take(max_batches)
            .map(|b| DumpBatchView {
                base_offset: b.base_offset,
                last_offset: b.last_offset(),
                count: b.record_count,
                position: b.position,
                size_bytes: b.size_bytes,
                create_time_ms: b.max_timestamp_ms,
                delete_horizon_ms: b.delete_horizon_ms,
            })
            .collect()
    }

    /// `kafka-dump-log --files X.index` lines `first..first+max` (offset → position).
    pub fn index_entries(&self, base_offset: i64, first: usize, max: usize) -> Vec<IndexTickView> {
        let Some(segment) = self.segment_by_base(base_offset) else {
            return Vec::new();
        };
        let index = segment.offset_index();
        (first..index.len().min(first.saturating_add(max)))
            .filter_map(|slot| index.entry(slot))
            .map(|(offset, position)| IndexTickView { offset, position })
            .collect()
    }

    /// `kafka-dump-log --files X.timeindex` lines `first..first+max`: (timestamp, offset).
    pub fn time_index_entries(&self, base_offset: i64, first: usize, max: usize) -> Vec<(i64, i64)> {
        let Some(segment) = self.segment_by_base(base_offset) else {
            return Vec::new();
        };
        let index = segment.time_index();
        (first..index.len().min(first.saturating_add(max))).filter_map(|slot| index.entry(slot)).collect()
    }

    /// Which batch of the segment starts at or after `position` (to page the dump to a lookup's batch).
    pub fn batch_index_at(&self, base_offset: i64, position: u32) -> Option<usize> {
        self.segment_by_base(base_offset).map(|s| s.batch_at_position(position))
    }

    pub fn retention_view(&self, now_ms: i64) -> RetentionView {
        let active = self.active_segment();
        RetentionView {
            closed_segments: self.segments.len() - 1,
            oldest_newest_record_age_ms: self
                .segments
                .first()
                .filter(|s| s.size_bytes() > 0)
                .map(|s| now_ms - s.largest_timestamp_ms()),
            retention_ms: self.settings.retention_ms,
            active_size_bytes: active.size_bytes(),
            segment_bytes: self.settings.segment_bytes,
            active_open_ms: active.first_batch_timestamp_ms().map(|first| now_ms - first),
            segment_ms: self.settings.segment_ms,
            delete_policy: self.settings.delete,
        }
    }

    pub fn offsets_view(&self) -> OffsetsView {
        OffsetsView {
            log_start_offset: self.log_start_offset(),
            high_watermark: self.high_watermark(),
            log_end_offset: self.log_end_offset(),
            size_bytes: self.size_bytes(),
            records: self.record_count(),
        }
    }
}

impl LogLab {
    pub fn reader_view(&self) -> Option<ReaderView> {
        self.reader.as_ref().map(|r: &TableReader| ReaderView {
            position: r.position,
            records_read: r.records_read,
            keys_in_table: r.table.len(),
            caught_up: r.caught_up,
            resurrected_keys: r.resurrected_keys(&self.log),
        })
    }
}
