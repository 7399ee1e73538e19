//! Retention (Kafka's `UnifiedLog.deleteOldSegments`): whole segments go, oldest first,
//! by log start offset, `retention.bytes` and `retention.ms`; files are renamed `.deleted`
//! and removed `file.delete.delay.ms` later.

use super::partition::PartitionLog;
use super::refusal::DeleteRecordsError;
use super::segment::Segment;

/// Why segments were deleted (Kafka's `SegmentDeletionReason` kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeletionReason {
    /// Every record is below the log start offset (deleteRecords, or earlier deletions).
    LogStartOffset,
    /// The log is larger than `retention.bytes`.
    RetentionBytes,
    /// The segment's largest timestamp is older than `retention.ms`.
    RetentionMs,
}

/// The active segment holds records older than `retention.ms` that retention cannot delete yet:
/// Kafka's time predicate (`UnifiedLog.deleteRetentionMsBreachedSegments`) compares the
/// segment's *largest* timestamp, and the active segment only closes when `LogSegment.shouldRoll`
/// says so (`segment.bytes`, `segment.ms`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldBack {
    pub base_offset: i64,
    /// Age of the active segment's first batch.
    pub oldest_age_ms: i64,
    /// Age of its newest record (what `retention.ms` is compared with).
    pub newest_age_ms: i64,
}

/// One deletion round's outcome for the event log and the UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deletion {
    pub reason: DeletionReason,
    pub base_offsets: Vec<i64>,
    pub bytes: u64,
    /// True when every segment was deletable, so Kafka rolled a fresh active segment first.
    pub rolled_first: bool,
    pub new_log_start_offset: i64,
}

impl PartitionLog {
    /// Kafka's `deletableSegments`: segments from the oldest while `deletable(segment, next)` holds,
    /// never past the high watermark and never a last segment that is empty.
    fn deletable_count(&self, mut deletable: impl FnMut(&Segment, Option<&Segment>) -> bool) -> usize {
        let mut count = 0;
        for (i, segment) in self.segments.iter().enumerate() {
            let next = self.segments.get(i + 1);
            let last_and_empty = next.is_none() && segment.size_bytes() == 0;
            let upper_bound = next.map_or(self.log_end_offset(), Segment::base_offset);
            if self.high_watermark() >= upper_bound && deletable(segment, next) && !last_and_empty {
                count += 1;
            } else {
                break;
            }
        }
        count
    }

    /// Kafka's `deleteOldSegments`: start-offset breach always; size and time breaches when
    /// `cleanup.policy` includes `delete`.
    pub fn delete_old_segments(&mut self, now_ms: i64) -> Vec<Deletion> {
        let mut rounds = Vec::new();
        let start = self.log_start_offset;
        let count = self.deletable_count(|_, next| next.is_some_and(|n| n.base_offset() <= start));
        rounds.extend(self.delete_segments(count, DeletionReason::LogStartOffset, now_ms));
        if !self.settings.delete {
            return rounds;
        }
        let retention_bytes = self.settings.retention_bytes;
        if retention_bytes >= 0 && self.size_bytes() as i64 >= retention_bytes {
            let mut over = self.size_bytes() as i64 - retention_bytes;
            let count = self.deletable_count(|segment, _| {
                let fits = over - i64::from(segment.size_bytes()) >= 0;
                if fits {
                    over -= i64::from(segment.size_bytes());
                }
                fits
            });
            rounds.extend(self.delete_segments(count, DeletionReason::RetentionBytes, now_ms));
        }
        let retention_ms = self.settings.retention_ms;
        if retention_ms >= 0 {
            let count = self.deletable_count(|segment, _| now_ms - segment.largest_timestamp_ms() > retention_ms);
            rounds.extend(self.delete_segments(count, DeletionReason::RetentionMs, now_ms));
        }
        rounds
    }

    /// Kafka's `deleteSegments`: rolls first if every segment goes, moves the log start offset,
    /// then renames the files `.deleted`.
    fn delete_segments(&mut self, count: usize, reason: DeletionReason, now_ms: i64) -> Option<Deletion> {
        if count == 0 {
            return None;
        }
        let rolled_first = count == self.segments.len();
        if rolled_first {
            let end = self.log_end_offset();
            self.roll(end, now_ms);
        }
        let new_start = self.segments[count].base_offset();
        self.log_start_offset = self.log_start_offset.max(new_start);
        let removed: Vec<Segment> = self.segments.drain(..count).collect();
        let base_offsets = removed.iter().map(Segment::base_offset).collect();
        let bytes = removed.iter().map(|s| u64::from(s.size_bytes())).sum();
        for mut segment in removed {
            segment.deleted_at_ms = Some(now_ms.max(0) as u64);
            self.deleted.push(segment);
        }
        debug_assert!(self.log_start_offset <= self.high_watermark(), "log start offset passed the HW");
        Some(Deletion { reason, base_offsets, bytes, rolled_first, new_log_start_offset: self.log_start_offset })
    }

    /// Removes `.deleted` files whose `file.delete.delay.ms` has passed; returns their base offsets.
    pub fn remove_deleted_files(&mut self, now_ms: i64) -> Vec<i64> {
        let delay_ms = self.settings.file_delete_delay_ms;
        let due = |s: &Segment| s.deleted_at_ms.is_some_and(|at| at as i64 + delay_ms <= now_ms);
        let removed = self.deleted.iter().filter(|s| due(s)).map(Segment::base_offset).collect();
        self.deleted.retain(|s| !due(s));
        removed
    }

    /// The active segment's records past `retention.ms` that the time predicate keeps, if any
    /// (only while `cleanup.policy` has `delete` and `retention.ms` is not -1).
    pub fn retention_held_back(&self, now_ms: i64) -> Option<HeldBack> {
        let retention_ms = self.settings.retention_ms;
        if !self.settings.delete || retention_ms < 0 {
            return None;
        }
        let active = self.active_segment();
        let oldest_age_ms = now_ms - active.first_batch_timestamp_ms()?;
        let newest_age_ms = now_ms - active.largest_timestamp_ms();
        (oldest_age_ms > retention_ms && newest_age_ms <= retention_ms).then_some(HeldBack {
            base_offset: active.base_offset(),
            oldest_age_ms,
            newest_age_ms,
        })
    }

    /// Whether `kafka-delete-records` may move the log start offset to `before_offset`
    /// (`-1` means the high watermark); the target offset if so.
    pub fn check_delete_records(&self, before_offset: i64) -> Result<i64, DeleteRecordsError> {
        let high_watermark = self.high_watermark();
        let offset = if before_offset == -1 { high_watermark } else { before_offset };
        if offset < 0 {
            return Err(DeleteRecordsError::InvalidOffset { before_offset });
        }
        if offset > high_watermark {
            return Err(DeleteRecordsError::AboveHighWatermark { offset, high_watermark });
        }
        Ok(offset)
    }

    /// Kafka's `deleteRecords` (`maybeIncrementLogStartOffset`) for an offset
    /// [`check_delete_records`](Self::check_delete_records) accepted: moves the log start
    /// offset up and returns it. Segments go at the next retention check.
    pub fn delete_records(&mut self, before_offset: i64) -> i64 {
        let checked = self.check_delete_records(before_offset);
        debug_assert!(checked.is_ok(), "delete_records without check: {checked:?}");
        if let Ok(offset) = checked {
            self.log_start_offset = self.log_start_offset.max(offset);
        }
        self.log_start_offset
    }
}
