//! A partition's log (Kafka's `UnifiedLog` over `LocalLog`): its segments, log
//! start offset and log end offset, and appends that roll segments.

use super::record::{batch_size_bytes, Batch, RecordEntry, NULL_KEY};
use super::schema::LogSettings;
use super::segment::{RollParams, RollReason, Segment};

/// The topic the lab's partition belongs to.
pub use crate::model::TOPIC;
/// The partition the lab shows.
pub const PARTITION: u32 = 0;

/// One record handed to [`PartitionLog::append`]: key id, value length, CreateTime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewRecord {
    pub key_id: u32,
    pub value_bytes: u32,
    pub timestamp_ms: i64,
}

/// What an append did: where the batch went and whether a segment was rolled first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppendInfo {
    pub base_offset: i64,
    pub last_offset: i64,
    pub size_bytes: u32,
    pub rolled: Option<RollReason>,
}

/// Kafka's `UnifiedLog` for one partition: segments (last = active), log start offset, LEO;
/// reads the [`LogSettings`] properties.
#[derive(Clone, Debug)]
pub struct PartitionLog {
    pub(super) settings: LogSettings,
    pub(super) segments: Vec<Segment>,
    /// Segments renamed `.deleted`, waiting `file.delete.delay.ms` to be removed.
    pub(super) deleted: Vec<Segment>,
    pub(super) log_start_offset: i64,
    /// The cleaner's checkpoint: where the dirty part starts (None before the first cleaning).
    pub(super) cleaner_checkpoint: Option<i64>,
}

impl PartitionLog {
    pub fn new(settings: LogSettings, now_ms: i64) -> Self {
        let first = Segment::new(0, settings.segment_index_bytes, now_ms);
        Self { settings, segments: vec![first], deleted: Vec::new(), log_start_offset: 0, cleaner_checkpoint: None }
    }

    pub fn settings(&self) -> &LogSettings {
        &self.settings
    }

    pub fn set_settings(&mut self, settings: LogSettings) {
        self.settings = settings;
    }

    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    pub fn deleted_segments(&self) -> &[Segment] {
        &self.deleted
    }

    pub fn active_segment(&self) -> &Segment {
        self.segments.last().expect("a log always has an active segment")
    }

    pub fn log_start_offset(&self) -> i64 {
        self.log_start_offset
    }

    /// The log end offset: the offset the next record gets.
    pub fn log_end_offset(&self) -> i64 {
        self.active_segment().next_offset()
    }

    /// The high watermark: this single-replica lab has every record replicated, so HW = LEO.
    pub fn high_watermark(&self) -> i64 {
        self.log_end_offset()
    }

    /// Total bytes of the live segments (`UnifiedLog.size`).
    pub fn size_bytes(&self) -> u64 {
        self.segments.iter().map(|s| u64::from(s.size_bytes())).sum()
    }

    /// Live records (after compaction, fewer than LEO − log start offset).
    pub fn record_count(&self) -> usize {
        self.segments.iter().map(Segment::record_count).sum()
    }

    /// Appends `records` as one V2 batch at the LEO, rolling first if Kafka's roll check says so.
    pub fn append(&mut self, records: &[NewRecord], now_ms: i64) -> AppendInfo {
        debug_assert!(!records.is_empty());
        let base_offset = self.log_end_offset();
        let first_ts = records[0].timestamp_ms;
        let entries: Vec<RecordEntry> = records
            .iter()
            .enumerate()
            .map(|(i, r)| RecordEntry {
                key_id: r.key_id,
                value_bytes: r.value_bytes,
                offset_delta: i as u32,
                timestamp_delta_ms: (r.timestamp_ms - first_ts).max(0) as u32,
            })
            .collect();
        let size_bytes = batch_size_bytes(&entries, first_ts, first_ts);
        let max_ts = records.iter().map(|r| r.timestamp_ms).max().unwrap_or(first_ts);
        let batch = Batch {
            base_offset,
            first_timestamp_ms: first_ts,
            max_timestamp_ms: max_ts,
            delete_horizon_ms: -1,
            position: 0,
            size_bytes,
            first_record: 0,
            record_count: 0,
            last_offset_delta: (records.len() - 1) as u32,
        };
        let params = RollParams {
            segment_ms: self.settings.segment_ms,
            segment_bytes: self.settings.segment_bytes,
            max_timestamp_in_batch_ms: max_ts,
            last_offset_in_batch: batch.last_offset(),
            batch_size_bytes: size_bytes,
        };
        let rolled = self.active_segment().roll_reason(&params);
        if rolled.is_some() {
            self.roll(base_offset, now_ms);
        }
        let interval = self.settings.index_interval_bytes;
        self.segments.last_mut().expect("active segment").append(batch, &entries, interval, now_ms);
        debug_assert!(self.log_start_offset <= self.log_end_offset());
        AppendInfo { base_offset, last_offset: batch.last_offset(), size_bytes, rolled }
    }

    /// Kafka's `roll`: closes the active segment and opens one at `next_offset`.
    pub(super) fn roll(&mut self, next_offset: i64, now_ms: i64) {
        let active = self.segments.last_mut().expect("active segment");
        if active.size_bytes() == 0 && active.base_offset() == next_offset {
            return;
        }
        active.on_become_inactive();
        self.segments.push(Segment::new(next_offset, self.settings.segment_index_bytes, now_ms));
    }

    /// Index of the segment holding `offset`: the last whose base offset is ≤ it (binary search),
    /// with each base offset compared on the way.
    pub fn floor_segment(&self, offset: i64) -> (Option<usize>, Vec<i64>) {
        let mut compared = Vec::new();
        let (mut low, mut high) = (0usize, self.segments.len());
        while low < high {
            let mid = (low + high) / 2;
            let base = self.segments[mid].base_offset();
            compared.push(base);
            if base <= offset {
                low = mid + 1
            } else {
                high = mid
            }
        }
        (low.checked_sub(1), compared)
    }

    /// Whether records without a key are refused (a compacted topic).
    pub fn rejects_null_keys(&self) -> bool {
        self.settings.compact
    }

    pub fn is_null_key(key_id: u32) -> bool {
        key_id == NULL_KEY
    }
}
