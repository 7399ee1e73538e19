//! Finding an offset or a timestamp in a partition log, phase by phase, as Kafka's
//! `LocalLog.read` → `LogSegment.translateOffset` → `FileRecords.searchForOffsetWithSize`
//! and `UnifiedLog.fetchOffsetByTimestamp` do it.

use super::facts::ReadError;
use super::index::IndexProbe;
use super::partition::PartitionLog;
use super::segment::Segment;

/// Most batch headers a trace keeps for the animation (the counts cover the rest).
pub const MAX_TRACED_BATCHES: usize = 64;

/// A batch header (`FileLogInputStream`'s batch) read during the forward scan of a `.log` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScannedBatch {
    pub base_offset: i64,
    pub last_offset: i64,
    pub position: u32,
    pub size_bytes: u32,
}

/// Phase 3 (`FileRecords.searchForOffsetWithSize`): the forward scan from the index's position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ScanPhase {
    pub start_position: u32,
    /// Batch headers read, in order (at most [`MAX_TRACED_BATCHES`]).
    pub batches: Vec<ScannedBatch>,
    pub batches_read: u64,
    /// Bytes stepped over between the start position and the found batch.
    pub bytes_scanned: u64,
}

/// The same lookup with a dense index or no index (no Kafka counterpart; reads `index.interval.bytes` via the index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookupComparison {
    /// Probes of a binary search over an entry for every record of the segment.
    pub dense_index_probes: u32,
    /// Bytes a dense index for the segment would take (8 per record).
    pub dense_index_bytes: u64,
    /// Bytes the real sparse index of the segment takes.
    pub sparse_index_bytes: u64,
    /// Batches and bytes read scanning from the start of the log with no index.
    pub full_scan_batches: u64,
    pub full_scan_bytes: u64,
}

/// A traced `UnifiedLog.read` position lookup: (1) segment by base offset, (2) `OffsetIndex`, (3) forward scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetLookup {
    pub target: i64,
    /// Phase 1: base offsets compared by the binary search over segments.
    pub segments_compared: Vec<i64>,
    pub segment_base_offset: i64,
    pub segment_file: String,
    /// Phase 2: entries of the `.index` probed, and the entry used (offset, position).
    pub index_probes: Vec<IndexProbe>,
    pub index_entries: usize,
    pub index_entry: (i64, u32),
    pub scan: ScanPhase,
    /// The batch holding the first record with offset ≥ target.
    pub found_batch: ScannedBatch,
    /// That record's offset (> target when compaction left a gap there) and CreateTime.
    pub found_offset: i64,
    pub found_timestamp_ms: i64,
    pub comparison: LookupComparison,
}

/// A traced `offsetsForTimes`: time index → offset index → scan to the first record at or after the time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeLookup {
    pub target_ms: i64,
    /// Segments checked in order with their largest timestamp, until one reaches the target.
    pub segments_checked: Vec<(i64, i64)>,
    pub segment_base_offset: Option<i64>,
    pub time_index_probes: Vec<IndexProbe>,
    /// The time index entry used: (timestamp, offset), or (-1, base offset).
    pub time_entry: (i64, i64),
    pub index_probes: Vec<IndexProbe>,
    pub index_entry: (i64, u32),
    pub scan: ScanPhase,
    pub records_examined: u64,
    /// The first record with CreateTime ≥ target: (offset, timestamp); None when no record is that late.
    pub found: Option<(i64, i64)>,
}

impl PartitionLog {
    fn check_readable(&self, offset: i64) -> Result<(), ReadError> {
        let (start, end) = (self.log_start_offset(), self.log_end_offset());
        if offset < start {
            return Err(ReadError::BeforeLogStart { offset, log_start_offset: start });
        }
        if offset > end {
            return Err(ReadError::PastLogEnd { offset, log_end_offset: end });
        }
        if offset == end {
            return Err(ReadError::AtLogEndOffset { offset });
        }
        Ok(())
    }

    /// Finds the record at `target` (or the first after it, across compaction gaps), phase by phase.
    pub fn lookup_offset(&self, target: i64) -> Result<OffsetLookup, ReadError> {
        self.check_readable(target)?;
        let (floor, segments_compared) = self.floor_segment(target.max(self.log_start_offset()));
        let mut index = floor.expect("a readable offset has a segment");
        loop {
            let segment = &self.segments[index];
            let ((entry_offset, position), search) = segment.offset_index().lookup_traced(target);
            let scan = scan_for_offset(segment, target, position);
            if let Some((scan, batch_index)) = scan {
                let batch = segment.batch(batch_index);
                let (found_offset, found_timestamp_ms) = segment
                    .batch_records(batch)
                    .map(|r| {
                        (
                            batch.base_offset + i64::from(r.offset_delta),
                            batch.first_timestamp_ms + i64::from(r.timestamp_delta_ms),
                        )
                    })
                    .find(|(offset, _)| *offset >= target)
                    .unwrap_or((batch.next_offset(), batch.max_timestamp_ms));
                let found_batch = scanned(batch);
                let comparison = self.comparison(index, batch.position);
                return Ok(OffsetLookup {
                    target,
                    segments_compared,
                    segment_base_offset: segment.base_offset(),
                    segment_file: format!("{}.log", segment.file_stem()),
                    index_probes: search.probes,
                    index_entries: segment.offset_index().len(),
                    index_entry: (entry_offset, position),
                    scan,
                    found_batch,
                    found_offset,
                    found_timestamp_ms,
                    comparison,
                });
            }
            index += 1;
            if index >= self.segments.len() {
                return Err(ReadError::NothingAfter { offset: target, log_end_offset: self.log_end_offset() });
            }
        }
    }

    fn comparison(&self, segment_index: usize, found_position: u32) -> LookupComparison {
        let segment = &self.segments[segment_index];
        let records = segment.record_count() as u64;
        let before: u64 = self.segments[..segment_index].iter().map(|s| u64::from(s.size_bytes())).sum();
        let batches_before: u64 = self.segments[..segment_index].iter().map(|s| s.batches().len() as u64).sum();
        LookupComparison {
            dense_index_probes: 64 - records.leading_zeros(),
            dense_index_bytes: records * 8,
            sparse_index_bytes: segment.offset_index().size_bytes() as u64,
            full_scan_batches: batches_before + segment.batch_at_position(found_position) as u64 + 1,
            full_scan_bytes: before + u64::from(found_position),
        }
    }

    /// Kafka's `offsetsForTimes` for `target_ms` (CreateTime), phase by phase.
    pub fn lookup_timestamp(&self, target_ms: i64) -> TimeLookup {
        let mut result = TimeLookup {
            target_ms,
            segments_checked: Vec::new(),
            segment_base_offset: None,
            time_index_probes: Vec::new(),
            time_entry: (-1, 0),
            index_probes: Vec::new(),
            index_entry: (0, 0),
            scan: ScanPhase::default(),
            records_examined: 0,
            found: None,
        };
        let Some(segment) = self.segments.iter().find(|s| {
            result.segments_checked.push((s.base_offset(), s.largest_timestamp_ms()));
            s.size_bytes() > 0 && s.largest_timestamp_ms() >= target_ms
        }) else {
            return result;
        };
        let start_offset = self.log_start_offset();
        result.segment_base_offset = Some(segment.base_offset());
        let (time_entry, time_search) = segment.time_index().lookup_traced(target_ms);
        let ((offset, position), search) = segment.offset_index().lookup_traced(time_entry.1.max(start_offset));
        result.time_entry = time_entry;
        result.time_index_probes = time_search.probes;
        result.index_probes = search.probes;
        result.index_entry = (offset, position);
        result.scan.start_position = position;
        for batch_index in segment.batch_at_position(position)..segment.batches().len() {
            let batch = segment.batch(batch_index);
            trace_batch(&mut result.scan, batch, position);
            if batch.max_timestamp_ms < target_ms {
                continue;
            }
            for record in segment.batch_records(batch) {
                result.records_examined += 1;
                let offset = batch.base_offset + i64::from(record.offset_delta);
                let timestamp = batch.first_timestamp_ms + i64::from(record.timestamp_delta_ms);
                if timestamp >= target_ms && offset >= start_offset {
                    result.found = Some((offset, timestamp));
                    return result;
                }
            }
        }
        result
    }
}

fn scanned(batch: &super::record::Batch) -> ScannedBatch {
    ScannedBatch {
        base_offset: batch.base_offset,
        last_offset: batch.last_offset(),
        position: batch.position,
        size_bytes: batch.size_bytes,
    }
}

fn trace_batch(scan: &mut ScanPhase, batch: &super::record::Batch, start: u32) {
    scan.batches_read += 1;
    scan.bytes_scanned = u64::from(batch.position - start);
    if scan.batches.len() < MAX_TRACED_BATCHES {
        scan.batches.push(scanned(batch));
    }
}

/// `FileRecords.searchForOffsetWithSize`: batch headers from `position` until one ends at or after `target`.
fn scan_for_offset(segment: &Segment, target: i64, position: u32) -> Option<(ScanPhase, usize)> {
    let mut scan = ScanPhase { start_position: position, ..ScanPhase::default() };
    for batch_index in segment.batch_at_position(position)..segment.batches().len() {
        let batch = segment.batch(batch_index);
        trace_batch(&mut scan, batch, position);
        if batch.last_offset() >= target {
            return Some((scan, batch_index));
        }
    }
    None
}
