//! The log's housekeeping as the event log reports it: scheduled deletions, cleaner
//! passes (`log.cleaner.backoff.ms`), and lookups.

use super::{Event, LogLab, LookupResult};
use crate::model::kernel::Ctx;
use crate::model::log::partition::{PARTITION, TOPIC};
use crate::model::log::retention::{Deletion, DeletionReason};

impl LogLab {
    pub(super) fn log_deletions(&self, deletions: &[Deletion], ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        for d in deletions {
            let why = match d.reason {
                DeletionReason::LogStartOffset => "log start offset breach".to_string(),
                DeletionReason::RetentionBytes => {
                    format!("retention.bytes={} breach", self.log.settings().retention_bytes)
                }
                DeletionReason::RetentionMs => {
                    format!(
                        "retention.ms={} breach based on the largest record timestamp in the segment",
                        self.log.settings().retention_ms
                    )
                }
            };
            let names: Vec<String> = d.base_offsets.iter().map(|b| format!("{b:020}.log")).collect();
            let rolled = if d.rolled_first { "; rolled a new active segment first" } else { "" };
            ctx.log(
                format!("{TOPIC}-{PARTITION}"),
                format!(
                    "Scheduled deletion of {} ({} B) due to {why}{rolled}; renamed to .deleted; log start offset is now {}",
                    names.join(", "),
                    d.bytes,
                    d.new_log_start_offset
                ),
            );
        }
        if !deletions.is_empty() {
            ctx.schedule(self.log.settings().file_delete_delay_ms as u64, Event::DeleteFiles);
        }
    }

    pub(super) fn cleaner_pass(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let now_ms = ctx.now_ms() as i64;
        self.last_cleaner_check = self.log.cleaner_check();
        let cleaned = self.log.clean(now_ms);
        if let Some(c) = &cleaned {
            ctx.log(
                "log-cleaner",
                format!(
                    "Cleaned {TOPIC}-{PARTITION} offsets [{}, {}): {} → {} records, {} → {} B, {} tombstones removed, {} delete horizons set",
                    c.first_dirty_offset, c.end_offset, c.records_before, c.records_after, c.bytes_before, c.bytes_after,
                    c.tombstones_removed, c.horizons_set
                ),
            );
        }
        if self.log.settings().compact {
            let deletions = self.log.delete_old_segments(now_ms);
            self.log_deletions(&deletions, ctx);
        }
        let backoff_ms = self.config.int("log.cleaner.backoff.ms") as u64;
        ctx.schedule(if cleaned.is_some() { 0 } else { backoff_ms }, Event::CleanerPass);
    }

    pub(super) fn lookup(&mut self, result: LookupResult, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let text = match &result {
            LookupResult::Offset(Ok(found)) => format!(
                "offset {} is in {} at batch position {} (index entry {} → {}, {} B scanned)",
                found.target,
                found.segment_file,
                found.found_batch.position,
                found.index_entry.0,
                found.index_entry.1,
                found.scan.bytes_scanned
            ),
            LookupResult::Offset(Err(error)) => error.to_string(),
            LookupResult::Timestamp(t) => match t.found {
                Some((offset, ts)) => format!("offsetsForTimes({}) = offset {offset} (CreateTime {ts})", t.target_ms),
                None => format!("offsetsForTimes({}) found no record that late", t.target_ms),
            },
        };
        ctx.log("lookup", text);
        self.last_lookup = Some(result);
    }
}
