//! The log's housekeeping as the event log reports it: scheduled deletions, cleaner
//! passes (`log.cleaner.backoff.ms`), retention held back by the active segment, and lookups.

use super::retention::{Deletion, DeletionReason};
use super::{DeletionCause, Event, Fact, LogCtx, LogLab, LookupResult, LOG_CLEANER, PARTITION_LOG};
use crate::model::kernel::Actor;

/// How many records a cleaner pass maps or rewrites for one event of the run's work budget.
const CLEANED_RECORDS_PER_EVENT: u64 = 2;

impl LogLab {
    pub(super) fn record_deletions(&self, deletions: &[Deletion], ctx: &mut LogCtx) {
        let settings = self.log.settings();
        for d in deletions {
            let cause = match d.reason {
                DeletionReason::LogStartOffset => DeletionCause::LogStartOffset,
                DeletionReason::RetentionBytes => {
                    DeletionCause::RetentionBytes { retention_bytes: settings.retention_bytes }
                }
                DeletionReason::RetentionMs => DeletionCause::RetentionMs { retention_ms: settings.retention_ms },
            };
            let fact = Fact::SegmentsDeleted {
                base_offsets: d.base_offsets.clone(),
                bytes: d.bytes,
                cause,
                rolled_first: d.rolled_first,
                log_start_offset: d.new_log_start_offset,
            };
            ctx.record(PARTITION_LOG, fact);
        }
        if !deletions.is_empty() {
            ctx.schedule(settings.file_delete_delay_ms as u64, Event::DeleteFiles);
        }
    }

    /// After a retention check: says once per active segment that it keeps records past
    /// `retention.ms` (Kafka logs nothing then; the lab makes the silent trap visible).
    pub(super) fn report_held_back(&mut self, now_ms: i64, ctx: &mut LogCtx) {
        let Some(held) = self.log.retention_held_back(now_ms) else {
            return;
        };
        if self.held_back_reported == Some(held.base_offset) {
            return;
        }
        self.held_back_reported = Some(held.base_offset);
        let settings = self.log.settings();
        let fact = Fact::RetentionHeldBack {
            base_offset: held.base_offset,
            oldest_age_ms: held.oldest_age_ms,
            newest_age_ms: held.newest_age_ms,
            retention_ms: settings.retention_ms,
            segment_ms: settings.segment_ms,
            segment_bytes: settings.segment_bytes,
        };
        ctx.record(PARTITION_LOG, fact);
    }

    pub(super) fn cleaner_pass(&mut self, ctx: &mut LogCtx) {
        let now_ms = ctx.now_ms() as i64;
        self.last_cleaner_check = self.log.cleaner_check(now_ms);
        let cleaned = self.log.clean(now_ms);
        if let Some(c) = &cleaned {
            // The pass read the dirty range into its offset map and rewrote `records_before`
            // records: about one event's work per two records (issue 18: a two-million-record
            // log cleaned back to back froze the page on 31 events).
            let mapped = u64::try_from(c.end_offset - c.first_dirty_offset).unwrap_or(0);
            ctx.charge(c.records_before.saturating_add(mapped) / CLEANED_RECORDS_PER_EVENT);
            let fact = Fact::Cleaned {
                first_dirty_offset: c.first_dirty_offset,
                end_offset: c.end_offset,
                records_before: c.records_before,
                records_after: c.records_after,
                bytes_before: c.bytes_before,
                bytes_after: c.bytes_after,
                tombstones_removed: c.tombstones_removed,
                horizons_set: c.horizons_set,
            };
            ctx.record(LOG_CLEANER, fact);
        }
        if self.log.settings().compact {
            let deletions = self.log.delete_old_segments(now_ms);
            self.record_deletions(&deletions, ctx);
        }
        let backoff_ms = self.settings.cleaner_backoff_ms;
        ctx.schedule(if cleaned.is_some() { 0 } else { backoff_ms }, Event::CleanerPass);
    }

    pub(super) fn lookup(&mut self, result: LookupResult, ctx: &mut LogCtx) {
        let fact = match &result {
            LookupResult::Offset(Ok(found)) => Fact::OffsetFound {
                target: found.target,
                segment_base_offset: found.segment_base_offset,
                batch_position: found.found_batch.position,
                index_entry: found.index_entry,
                bytes_scanned: found.scan.bytes_scanned,
            },
            LookupResult::Offset(Err(error)) => Fact::ReadFailed(error.clone()),
            LookupResult::Timestamp(t) => match t.found {
                Some((offset, timestamp_ms)) => Fact::TimestampFound { target_ms: t.target_ms, offset, timestamp_ms },
                None => Fact::NoRecordThatLate { target_ms: t.target_ms },
            },
        };
        ctx.record(Actor::Lookup, fact);
        self.last_lookup = Some(result);
    }
}
