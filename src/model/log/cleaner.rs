//! Compaction (Kafka's `LogCleanerManager.cleanableOffsets`, `LogToClean` and
//! `Cleaner.doClean`): keep the latest record per key, keep offsets (gaps appear),
//! and drop tombstones once their batch's delete horizon has passed.

use super::partition::PartitionLog;
use super::record::{batch_size_bytes, Batch, RecordEntry, NULL_KEY};
use super::segment::Segment;
use std::collections::BTreeMap;

/// What the cleaner sees when it looks at the log (`LogToClean`); reads `min.cleanable.dirty.ratio`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CleanerCheck {
    pub first_dirty_offset: i64,
    /// The active segment's base offset (or the HW, if lower): cleaning stops here.
    pub first_uncleanable_offset: i64,
    pub clean_bytes: u64,
    pub cleanable_bytes: u64,
    /// cleanable ÷ (clean + cleanable).
    pub dirty_ratio: f64,
    /// A dirty record in a closed segment is older than `max.compaction.lag.ms` (`needCompactionNow`).
    pub need_compaction_now: bool,
    /// Kafka cleans when the ratio is strictly above `min.cleanable.dirty.ratio`, or when
    /// `need_compaction_now` and there are cleanable bytes.
    pub will_clean: bool,
}

/// What one cleaning pass did; reads `delete.retention.ms`, `segment.bytes`, `segment.index.bytes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cleaning {
    pub first_dirty_offset: i64,
    /// The new checkpoint: the next cleaning's first dirty offset.
    pub end_offset: i64,
    pub records_before: u64,
    pub records_after: u64,
    pub tombstones_removed: u64,
    /// Batches that got a delete horizon (now + `delete.retention.ms`) for their tombstones.
    pub horizons_set: u64,
    pub bytes_before: u64,
    pub bytes_after: u64,
    pub segments_before: Vec<i64>,
    pub segments_after: Vec<i64>,
}

impl PartitionLog {
    /// Kafka's `nonActiveLogSegmentsFrom(first_dirty)`: the closed segments from the one holding it.
    fn dirty_closed_segments(&self, first_dirty: i64) -> &[Segment] {
        let from = self.floor_segment(first_dirty).0.unwrap_or(0);
        &self.segments[from.min(self.segments.len() - 1)..self.segments.len() - 1]
    }

    /// `cleanableOffsets`' third bound: the first dirty closed segment whose newest record is younger
    /// than `min.compaction.lag.ms` (None when the lag is 0).
    fn min_lag_bound(&self, first_dirty: i64, now_ms: i64) -> Option<i64> {
        let lag_ms = self.settings.min_compaction_lag_ms.max(0);
        if lag_ms == 0 {
            return None;
        }
        let young = |s: &&Segment| s.largest_timestamp_ms() > now_ms.saturating_sub(lag_ms);
        self.dirty_closed_segments(first_dirty).iter().find(young).map(Segment::base_offset)
    }

    /// Kafka's `maxCompactionDelay` > 0: the earliest first-batch timestamp (> 0) of the dirty closed
    /// segments is before now − `max.compaction.lag.ms`.
    fn need_compaction_now(&self, first_dirty: i64, now_ms: i64) -> bool {
        let clean_until_ms = now_ms.saturating_sub(self.settings.max_compaction_lag_ms.max(0));
        let first_batches =
            self.dirty_closed_segments(first_dirty).iter().filter_map(Segment::first_batch_timestamp_ms);
        first_batches.filter(|ts| *ts > 0).min().is_some_and(|earliest| earliest < clean_until_ms)
    }

    /// `cleanableOffsets` + `LogToClean` + `grabFilthiestCompactedLog`'s test at `now_ms`
    /// (None unless `cleanup.policy` has `compact`).
    pub fn cleaner_check(&self, now_ms: i64) -> Option<CleanerCheck> {
        if !self.settings.compact {
            return None;
        }
        let start = self.log_start_offset;
        let checkpoint = self.cleaner_checkpoint.unwrap_or(start);
        let first_dirty = if checkpoint < start || checkpoint > self.log_end_offset() { start } else { checkpoint };
        let min_lag_bound = self.min_lag_bound(first_dirty, now_ms).unwrap_or(i64::MAX);
        let uncleanable =
            self.high_watermark().min(self.active_segment().base_offset()).min(min_lag_bound).max(first_dirty);
        let active_index = self.segments.len() - 1;
        let floor = |offset: i64| self.floor_segment(offset).0.unwrap_or(0);
        let uncleanable_segment = floor(uncleanable).min(active_index);
        let uncleanable_base = self.segments[uncleanable_segment].base_offset();
        let from = floor(first_dirty.min(uncleanable_base));
        let size = |s: &Segment| u64::from(s.size_bytes());
        let cleanable_bytes: u64 =
            self.segments[from..].iter().take_while(|s| s.base_offset() < uncleanable_base).map(size).sum();
        let clean_bytes: u64 = self.segments.iter().take_while(|s| s.base_offset() < first_dirty).map(size).sum();
        let total = clean_bytes + cleanable_bytes;
        if total == 0 {
            return None;
        }
        let dirty_ratio = cleanable_bytes as f64 / total as f64;
        let need_compaction_now = self.need_compaction_now(first_dirty, now_ms);
        let will_clean =
            (need_compaction_now && cleanable_bytes > 0) || dirty_ratio > self.settings.min_cleanable_dirty_ratio;
        Some(CleanerCheck {
            first_dirty_offset: first_dirty,
            first_uncleanable_offset: uncleanable_base,
            clean_bytes,
            cleanable_bytes,
            dirty_ratio,
            need_compaction_now,
            will_clean,
        })
    }

    /// The offset map: each key's latest offset in the dirty range, and the range's last offset.
    fn build_offset_map(&self, first_dirty: i64, uncleanable: i64) -> (BTreeMap<u32, i64>, i64) {
        let mut map = BTreeMap::new();
        let mut latest = -1;
        for segment in self.segments.iter().filter(|s| s.next_offset() > first_dirty && s.base_offset() < uncleanable) {
            for batch in
                segment.batches().iter().filter(|b| b.last_offset() >= first_dirty && b.base_offset < uncleanable)
            {
                for record in segment.batch_records(batch) {
                    let offset = batch.base_offset + i64::from(record.offset_delta);
                    if offset >= first_dirty && record.key_id != NULL_KEY {
                        map.insert(record.key_id, offset);
                    }
                }
                latest = latest.max(batch.last_offset());
            }
        }
        (map, latest)
    }

    /// One cleaning pass (`Cleaner.doClean`) at `now_ms`, if the check says the log is dirty enough.
    pub fn clean(&mut self, now_ms: i64) -> Option<Cleaning> {
        let check = self.cleaner_check(now_ms).filter(|c| c.will_clean)?;
        let (map, latest) = self.build_offset_map(check.first_dirty_offset, check.first_uncleanable_offset);
        let end_offset = latest + 1;
        let count =
            self.segments.iter().take_while(|s| s.base_offset() < end_offset).count().min(self.segments.len() - 1);
        let mut stats = Cleaning {
            first_dirty_offset: check.first_dirty_offset,
            end_offset,
            records_before: 0,
            records_after: 0,
            tombstones_removed: 0,
            horizons_set: 0,
            bytes_before: 0,
            bytes_after: 0,
            segments_before: self.segments[..count].iter().map(Segment::base_offset).collect(),
            segments_after: Vec::new(),
        };
        let old: Vec<Segment> = self.segments.drain(..count).collect();
        let mut cleaned = Vec::new();
        for group in self.group_by_size(&old) {
            let filter = Filter {
                map: &map,
                latest,
                upper_bound: check.first_uncleanable_offset,
                now_ms,
                delete_retention_ms: self.settings.delete_retention_ms,
            };
            cleaned.push(self.clean_group(group, &filter, &mut stats));
        }
        stats.segments_after = cleaned.iter().map(Segment::base_offset).collect();
        self.segments.splice(..0, cleaned);
        self.cleaner_checkpoint = Some(end_offset);
        Some(stats)
    }

    /// `groupSegmentsBySize`: consecutive segments whose total fits `segment.bytes` and, for each index,
    /// `segment.index.bytes`.
    fn group_by_size<'a>(&self, segments: &'a [Segment]) -> Vec<&'a [Segment]> {
        let max_bytes = u64::from(self.settings.segment_bytes);
        let max_index = self.settings.segment_index_bytes as usize;
        let mut groups = Vec::new();
        let mut start = 0;
        while start < segments.len() {
            let first = &segments[start];
            let (mut end, mut bytes) = (start + 1, u64::from(first.size_bytes()));
            let (mut index, mut time_index) = (first.offset_index().size_bytes(), first.time_index().size_bytes());
            while end < segments.len()
                && bytes + u64::from(segments[end].size_bytes()) <= max_bytes
                && index + segments[end].offset_index().size_bytes() <= max_index
                && time_index + segments[end].time_index().size_bytes() <= max_index
            {
                bytes += u64::from(segments[end].size_bytes());
                index += segments[end].offset_index().size_bytes();
                time_index += segments[end].time_index().size_bytes();
                end += 1;
            }
            groups.push(&segments[start..end]);
            start = end;
        }
        groups
    }

    fn clean_group(&self, group: &[Segment], filter: &Filter, stats: &mut Cleaning) -> Segment {
        let mut out = Segment::new(group[0].base_offset(), self.settings.segment_index_bytes, filter.now_ms);
        for segment in group {
            stats.bytes_before += u64::from(segment.size_bytes());
            for batch in segment.batches().iter() {
                let records: Vec<RecordEntry> = segment.batch_records(batch).copied().collect();
                stats.records_before += records.len() as u64;
                if let Some((new_batch, kept)) = filter.apply(batch, &records, stats) {
                    stats.records_after += kept.len() as u64;
                    out.append(new_batch, &kept, self.settings.index_interval_bytes, filter.now_ms);
                }
            }
        }
        out.on_become_inactive();
        out.last_modified_ms = group.last().map_or(filter.now_ms, |s| s.last_modified_ms);
        stats.bytes_after += u64::from(out.size_bytes());
        out
    }
}

/// The cleaner's record filter (`cleanInto` + `shouldRetainRecord` + `MemoryRecords.filterTo`).
struct Filter<'a> {
    map: &'a BTreeMap<u32, i64>,
    latest: i64,
    upper_bound: i64,
    now_ms: i64,
    delete_retention_ms: i64,
}

impl Filter<'_> {
    fn retains(&self, batch: &Batch, record: &RecordEntry) -> bool {
        let offset = batch.base_offset + i64::from(record.offset_delta);
        if offset > self.latest {
            return true;
        }
        if record.key_id == NULL_KEY {
            return false;
        }
        let newest = self.map.get(&record.key_id).is_none_or(|latest| offset >= *latest);
        let keep_delete = batch.delete_horizon_ms < 0 || self.now_ms < batch.delete_horizon_ms;
        newest && (!record.is_tombstone() || keep_delete)
    }

    /// The batch as it is written back, or None when it disappears.
    fn apply(&self, batch: &Batch, records: &[RecordEntry], stats: &mut Cleaning) -> Option<(Batch, Vec<RecordEntry>)> {
        let kept: Vec<RecordEntry> = records.iter().copied().filter(|r| self.retains(batch, r)).collect();
        stats.tombstones_removed += records.iter().filter(|r| r.is_tombstone()).count() as u64
            - kept.iter().filter(|r| r.is_tombstone()).count() as u64;
        if kept.is_empty() {
            // An empty header keeps the last offset of the cleaning round (`RETAIN_EMPTY`).
            let keep_empty = batch.next_offset() == self.upper_bound;
            let empty = Batch { size_bytes: super::record::BATCH_HEADER_BYTES, ..*batch };
            return keep_empty.then_some((empty, kept));
        }
        let needs_horizon = batch.delete_horizon_ms < 0 && kept.iter().any(RecordEntry::is_tombstone);
        if kept.len() == records.len() && !needs_horizon {
            return Some((*batch, kept));
        }
        if needs_horizon {
            stats.horizons_set += 1;
        }
        // `delete.retention.ms` may be Long.MAX_VALUE: a horizon past the clock's end, never reached.
        let horizon_ms =
            if needs_horizon { self.now_ms.saturating_add(self.delete_retention_ms) } else { batch.delete_horizon_ms };
        let first_ts = batch.first_timestamp_ms + i64::from(kept[0].timestamp_delta_ms);
        let shift = kept[0].timestamp_delta_ms;
        let kept: Vec<RecordEntry> = kept
            .iter()
            .map(|r| RecordEntry { timestamp_delta_ms: r.timestamp_delta_ms.saturating_sub(shift), ..*r })
            .collect();
        let max_ts = kept.iter().map(|r| first_ts + i64::from(r.timestamp_delta_ms)).max().unwrap_or(first_ts);
        let wire_base = if horizon_ms >= 0 { horizon_ms } else { first_ts };
        let rewritten = Batch {
            first_timestamp_ms: first_ts,
            max_timestamp_ms: max_ts,
            delete_horizon_ms: horizon_ms,
            size_bytes: batch_size_bytes(&kept, first_ts, wire_base),
            ..*batch
        };
        Some((rewritten, kept))
    }
}
