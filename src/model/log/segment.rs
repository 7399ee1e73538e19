//! One segment of a partition log (Kafka's `LogSegment`): the `.log` batches,
//! the `.index` and `.timeindex`, and the append and roll rules.

use super::index::{OffsetIndex, TimeIndex};
use super::record::{Batch, RecordEntry};
use crate::model::kernel::ChunkedVec;

/// Kafka's `LogSegment`; reads `index.interval.bytes` (index cadence) and `segment.index.bytes` (index capacity).
#[derive(Clone, Debug)]
pub struct Segment {
    base_offset: i64,
    batches: ChunkedVec<Batch>,
    records: ChunkedVec<RecordEntry>,
    offset_index: OffsetIndex,
    time_index: TimeIndex,
    size_bytes: u32,
    bytes_since_last_index_entry: u32,
    /// The first batch's max timestamp: `segment.ms` counts from here (`rollingBasedTimestamp`).
    rolling_timestamp_ms: Option<i64>,
    /// `maxTimestampAndOffsetSoFar`: (-1, base) until a record arrives.
    max_timestamp_so_far: (i64, i64),
    next_offset: i64,
    /// Virtual time the file was last written (its mtime).
    pub(super) last_modified_ms: i64,
    /// When the segment was renamed `.deleted` (None while live).
    pub(super) deleted_at_ms: Option<u64>,
}

/// The arguments of Kafka's roll check (`RollParams`).
#[derive(Clone, Copy, Debug)]
pub struct RollParams {
    pub segment_ms: i64,
    pub segment_bytes: u32,
    pub max_timestamp_in_batch_ms: i64,
    pub last_offset_in_batch: i64,
    pub batch_size_bytes: u32,
}

/// Which of Kafka's roll conditions fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollReason {
    /// `segment.bytes` would be exceeded by the incoming batch.
    Size,
    /// `segment.ms` has passed since the segment's first batch's timestamp.
    Time,
    /// The offset or time index reached `segment.index.bytes`.
    IndexFull,
    /// The batch's offsets do not fit 4 bytes relative to the base offset.
    OffsetOverflow,
}

impl Segment {
    pub fn new(base_offset: i64, max_index_bytes: u32, now_ms: i64) -> Self {
        Self {
            base_offset,
            batches: ChunkedVec::default(),
            records: ChunkedVec::default(),
            offset_index: OffsetIndex::with_max_bytes(base_offset, max_index_bytes),
            time_index: TimeIndex::with_max_bytes(base_offset, max_index_bytes),
            size_bytes: 0,
            bytes_since_last_index_entry: 0,
            rolling_timestamp_ms: None,
            max_timestamp_so_far: (-1, base_offset),
            next_offset: base_offset,
            last_modified_ms: now_ms,
            deleted_at_ms: None,
        }
    }

    pub fn base_offset(&self) -> i64 {
        self.base_offset
    }

    pub fn size_bytes(&self) -> u32 {
        self.size_bytes
    }

    /// The offset after this segment's last batch (its base offset when empty).
    pub fn next_offset(&self) -> i64 {
        self.next_offset
    }

    pub fn batches(&self) -> &ChunkedVec<Batch> {
        &self.batches
    }

    pub fn batch(&self, index: usize) -> &Batch {
        self.batches.get(index).expect("batch index in range")
    }

    pub fn batch_records(&self, batch: &Batch) -> impl Iterator<Item = &RecordEntry> + '_ {
        let first = batch.first_record as usize;
        (first..first + batch.record_count as usize).filter_map(|i| self.records.get(i))
    }

    pub fn record_count(&self) -> usize {
        self.records.len()
    }

    pub fn offset_index(&self) -> &OffsetIndex {
        &self.offset_index
    }

    pub fn time_index(&self) -> &TimeIndex {
        &self.time_index
    }

    /// `maxTimestampSoFar`, the timestamp retention.ms compares against (`largestTimestamp`).
    pub fn largest_timestamp_ms(&self) -> i64 {
        if self.max_timestamp_so_far.0 >= 0 {
            self.max_timestamp_so_far.0
        } else {
            self.last_modified_ms
        }
    }

    pub fn first_batch_timestamp_ms(&self) -> Option<i64> {
        self.rolling_timestamp_ms
    }

    pub fn is_deleted(&self) -> bool {
        self.deleted_at_ms.is_some()
    }

    /// The file stem: the base offset zero-padded to 20 digits.
    pub fn file_stem(&self) -> String {
        format!("{:020}", self.base_offset)
    }

    /// Kafka's `shouldRoll`: which condition (if any) says the batch must go to a new segment.
    pub fn roll_reason(&self, params: &RollParams) -> Option<RollReason> {
        let waited_ms = self.rolling_timestamp_ms.map(|first| params.max_timestamp_in_batch_ms - first).unwrap_or(0);
        if i64::from(self.size_bytes) > i64::from(params.segment_bytes) - i64::from(params.batch_size_bytes) {
            Some(RollReason::Size)
        } else if self.size_bytes > 0 && waited_ms > params.segment_ms {
            Some(RollReason::Time)
        } else if self.offset_index.is_full() || self.time_index.is_full() {
            Some(RollReason::IndexFull)
        } else if !self.offset_index.can_append_offset(params.last_offset_in_batch) {
            Some(RollReason::OffsetOverflow)
        } else {
            None
        }
    }

    /// Kafka's `LogSegment.append`: writes the batch at the end of the `.log` and, when more than
    /// `index_interval_bytes` were written since the last entry, indexes this batch.
    pub fn append(&mut self, mut batch: Batch, records: &[RecordEntry], index_interval_bytes: u32, now_ms: i64) {
        debug_assert!(batch.base_offset >= self.next_offset, "offsets only grow within a segment");
        let position = self.size_bytes;
        batch.position = position;
        batch.first_record = self.records.len() as u32;
        batch.record_count = records.len() as u32;
        if position == 0 {
            self.rolling_timestamp_ms = Some(batch.max_timestamp_ms);
        }
        if batch.max_timestamp_ms > self.max_timestamp_so_far.0 {
            self.max_timestamp_so_far = (batch.max_timestamp_ms, batch.last_offset());
        }
        if self.bytes_since_last_index_entry > index_interval_bytes {
            // The index has room: the roll check ran before this append.
            let appended = self.offset_index.append(batch.last_offset(), position);
            debug_assert!(appended.is_ok(), "{appended:?}");
            let (max_ts, max_ts_offset) = self.max_timestamp_so_far;
            let timed = self.time_index.maybe_append(max_ts, max_ts_offset, false);
            debug_assert!(timed.is_ok(), "{timed:?}");
            self.bytes_since_last_index_entry = 0;
        }
        self.bytes_since_last_index_entry += batch.size_bytes;
        self.size_bytes += batch.size_bytes;
        self.next_offset = batch.next_offset();
        for record in records {
            self.records.push(*record);
        }
        self.batches.push(batch);
        self.last_modified_ms = now_ms;
    }

    /// Kafka's `onBecomeInactiveSegment`: the time index gets the largest timestamp seen.
    pub fn on_become_inactive(&mut self) {
        let (max_ts, offset) = self.max_timestamp_so_far;
        if max_ts >= 0 {
            let appended = self.time_index.maybe_append(max_ts, offset, true);
            debug_assert!(appended.is_ok(), "{appended:?}");
        }
    }

    /// Index of the first batch whose start position is ≥ `position` (a binary search on positions).
    pub fn batch_at_position(&self, position: u32) -> usize {
        let (mut low, mut high) = (0usize, self.batches.len());
        while low < high {
            let mid = (low + high) / 2;
            if self.batch(mid).position < position {
                low = mid + 1
            } else {
                high = mid
            }
        }
        low
    }

    /// Heap bytes held by the `.log` model and by the two indexes.
    pub fn heap_bytes(&self) -> (usize, usize) {
        (
            self.batches.heap_bytes() + self.records.heap_bytes(),
            self.offset_index.heap_bytes() + self.time_index.heap_bytes(),
        )
    }
}
