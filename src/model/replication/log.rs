//! One replica's copy of the partition log: records stamped with their leader
//! epoch, the high watermark, and the leader-epoch cache (KIP-101).

use std::sync::Arc;

use crate::model::kernel::ChunkedVec;

/// One record as a replica stores it (a `RecordBatch` of one record, magic v2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogRecord {
    /// The leader epoch stamped on the batch by the leader that appended it (`partitionLeaderEpoch`).
    pub leader_epoch: i32,
    /// Which sent record this is: the durability ledger's id (the record's value, numbered).
    pub record_id: u64,
    /// The idempotent producer's sequence number, if the producer is idempotent.
    pub sequence: Option<u64>,
}

/// How a replica keeps a record: [`LogRecord`] in 12 bytes rather than 32 on wasm32 (seven
/// replicas of a quarter of a million records are most of a heavy run's memory). Record ids
/// and sequences stay far below `u32::MAX`: the work budget bounds the records a run sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StoredRecord {
    record_id: u32,
    leader_epoch: i32,
    /// The sequence, or [`NO_SEQUENCE`].
    sequence: u32,
}

const NO_SEQUENCE: u32 = u32::MAX;
/// The sequence index's "no record holds this sequence".
const NO_OFFSET: u32 = u32::MAX;

impl StoredRecord {
    fn pack(record: LogRecord) -> Self {
        let narrow = |n: u64| u32::try_from(n).ok().filter(|n| *n != u32::MAX).expect("ids stay below u32::MAX");
        Self {
            record_id: narrow(record.record_id),
            leader_epoch: record.leader_epoch,
            sequence: record.sequence.map_or(NO_SEQUENCE, narrow),
        }
    }

    fn unpack(self) -> LogRecord {
        LogRecord {
            leader_epoch: self.leader_epoch,
            record_id: u64::from(self.record_id),
            sequence: (self.sequence != NO_SEQUENCE).then_some(u64::from(self.sequence)),
        }
    }
}

/// A replica's records, read as [`LogRecord`]s.
#[derive(Clone, Copy, Debug)]
pub struct Records<'a>(&'a ChunkedVec<StoredRecord>);

impl<'a> Records<'a> {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The record at `offset`.
    pub fn get(&self, offset: usize) -> Option<LogRecord> {
        self.0.get(offset).map(|r| r.unpack())
    }

    /// The records from offset 0.
    pub fn iter(&self) -> impl Iterator<Item = LogRecord> + 'a {
        self.0.iter().map(|r| r.unpack())
    }

    /// The records from `offset` on (skipping whole chunks to get there).
    pub fn iter_from(&self, offset: usize) -> impl Iterator<Item = LogRecord> + 'a {
        self.0.iter_from(offset).map(|r| r.unpack())
    }
}

/// Kafka's `LeaderEpochFileCache` (leader-epoch-checkpoint): `(epoch, start offset)` pairs, both increasing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeaderEpochCache {
    entries: Vec<(i32, i64)>,
}

/// The answer to OffsetsForLeaderEpoch: the largest epoch ≤ the one asked and where it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpochEndOffset {
    /// `None` is Kafka's UNDEFINED_EPOCH (-1) with UNDEFINED_EPOCH_OFFSET.
    pub leader_epoch: Option<i32>,
    pub end_offset: i64,
}

impl LeaderEpochCache {
    /// `(epoch, start offset)` pairs, oldest first.
    pub fn entries(&self) -> &[(i32, i64)] {
        &self.entries
    }

    pub fn latest_epoch(&self) -> Option<i32> {
        self.entries.last().map(|(epoch, _)| *epoch)
    }

    /// `assign`: records that `epoch` starts at `start_offset`, dropping entries it contradicts.
    pub fn assign(&mut self, epoch: i32, start_offset: i64) {
        if let Some(&(last_epoch, last_start)) = self.entries.last() {
            if last_epoch == epoch && last_start <= start_offset {
                return;
            }
        }
        self.entries.retain(|&(e, start)| e < epoch && start < start_offset);
        self.entries.push((epoch, start_offset));
    }

    /// `truncateFromEnd`: forget epochs that start at or after `end_offset`.
    pub fn truncate_from_end(&mut self, end_offset: i64) {
        self.entries.retain(|&(_, start)| start < end_offset);
    }

    /// `endOffsetFor`: the largest known epoch ≤ `requested` and the start offset of the next
    /// epoch (or `log_end_offset` if `requested` is the latest epoch).
    pub fn end_offset_for(&self, requested: i32, log_end_offset: i64) -> EpochEndOffset {
        const UNDEFINED: EpochEndOffset = EpochEndOffset { leader_epoch: None, end_offset: -1 };
        if self.latest_epoch() == Some(requested) {
            return EpochEndOffset { leader_epoch: Some(requested), end_offset: log_end_offset };
        }
        let Some(&(_, higher_start)) = self.entries.iter().find(|(e, _)| *e > requested) else {
            return UNDEFINED;
        };
        let floor = self.entries.iter().rev().find(|(e, _)| *e <= requested).map(|(e, _)| *e);
        EpochEndOffset { leader_epoch: Some(floor.unwrap_or(requested)), end_offset: higher_start }
    }
}

/// A replica's `UnifiedLog` as far as replication sees it: records, high watermark, epoch cache,
/// and how much of it has reached the disk (the rest lives in the page cache). Records and the
/// sequence index live in shared chunks, so a time-travel snapshot copies pointers, not the log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplicaLog {
    records: ChunkedVec<StoredRecord>,
    high_watermark: i64,
    epochs: LeaderEpochCache,
    /// Records below this offset survive a power failure (written back by the OS).
    flushed_offset: i64,
    /// The HW last written to `replication-offset-checkpoint` (read back on restart).
    checkpointed_high_watermark: i64,
    /// Where each idempotent sequence first sits in `records`, indexed by sequence (the
    /// producer's sequences are its dense record ids; Kafka keeps producer state beside the log
    /// too), so spotting a duplicate does not scan the whole log.
    sequences: ChunkedVec<u32>,
}

/// The records a fetch returns, shared by the response in flight and every snapshot holding it.
pub type FetchedRecords = Arc<Vec<LogRecord>>;

impl ReplicaLog {
    /// The log end offset: the offset the next record will get.
    pub fn log_end_offset(&self) -> i64 {
        self.records.len() as i64
    }

    pub fn high_watermark(&self) -> i64 {
        self.high_watermark
    }

    pub fn records(&self) -> Records<'_> {
        Records(&self.records)
    }

    pub fn epochs(&self) -> &LeaderEpochCache {
        &self.epochs
    }

    pub fn flushed_offset(&self) -> i64 {
        self.flushed_offset
    }

    pub fn checkpointed_high_watermark(&self) -> i64 {
        self.checkpointed_high_watermark
    }

    /// Appends one record, keeping the epoch cache in step with the record's epoch.
    pub fn append(&mut self, record: LogRecord) {
        let offset = self.log_end_offset();
        if self.epochs.latest_epoch() != Some(record.leader_epoch) {
            self.epochs.assign(record.leader_epoch, offset);
        }
        let stored = StoredRecord::pack(record);
        if stored.sequence != NO_SEQUENCE {
            let index = stored.sequence as usize;
            self.sequences.extend_to(index + 1, &NO_OFFSET);
            let slot = self.sequences.get_mut(index).expect("just extended");
            if *slot == NO_OFFSET {
                *slot = u32::try_from(offset).expect("offsets stay below u32::MAX");
            }
        }
        self.records.push(stored);
        self.check();
    }

    /// The offset where an idempotent producer's `sequence` already sits, if it does.
    pub fn offset_of_sequence(&self, sequence: u64) -> Option<i64> {
        let index = usize::try_from(sequence).ok()?;
        self.sequences.get(index).filter(|at| **at != NO_OFFSET).map(|at| i64::from(*at))
    }

    /// Drops every record at or after `offset` (the caller clamps it to the log), and the
    /// sequences that first sat among them.
    fn drop_records_from(&mut self, offset: i64) {
        let dropped: Vec<u32> =
            self.records.iter_from(offset as usize).map(|r| r.sequence).filter(|s| *s != NO_SEQUENCE).collect();
        for sequence in dropped {
            if let Some(slot) = self.sequences.get_mut(sequence as usize) {
                if *slot != NO_OFFSET && i64::from(*slot) >= offset {
                    *slot = NO_OFFSET;
                }
            }
        }
        self.records.truncate(offset as usize);
    }

    /// Records from `from_offset` to the end (what a fetch at that offset returns).
    pub fn read_from(&self, from_offset: i64) -> FetchedRecords {
        let from = from_offset.clamp(0, self.log_end_offset()) as usize;
        Arc::new(self.records.iter_from(from).map(|r| r.unpack()).collect())
    }

    /// `updateHighWatermark`: sets the HW, bounded by the log end offset.
    pub fn set_high_watermark(&mut self, high_watermark: i64) {
        self.high_watermark = high_watermark.clamp(0, self.log_end_offset());
        self.check();
    }

    /// `truncateTo`: drops every record at or after `offset`; HW and epoch cache follow.
    pub fn truncate_to(&mut self, offset: i64) {
        let offset = offset.clamp(0, self.log_end_offset());
        self.drop_records_from(offset);
        self.epochs.truncate_from_end(offset);
        self.high_watermark = self.high_watermark.min(offset);
        self.flushed_offset = self.flushed_offset.min(offset);
        self.check();
    }

    /// A new leader records where its epoch starts (`maybeAssignEpochStartOffset`).
    pub fn assign_epoch_start(&mut self, epoch: i32, start_offset: i64) {
        self.epochs.assign(epoch, start_offset);
    }

    /// The OS wrote the page cache back and the HW checkpoint file was written.
    pub fn flush_and_checkpoint(&mut self) {
        self.flushed_offset = self.log_end_offset();
        self.checkpointed_high_watermark = self.high_watermark;
    }

    /// The HW checkpoint alone (`replica.high.watermark.checkpoint.interval.ms`).
    pub fn checkpoint_high_watermark(&mut self) {
        self.checkpointed_high_watermark = self.high_watermark;
    }

    /// The OS page-cache writeback alone: what is in the log is now on disk.
    pub fn flush(&mut self) {
        self.flushed_offset = self.log_end_offset();
    }

    /// A process restart: the log is intact, the HW comes back from its checkpoint file.
    pub fn recover_after_crash(&mut self) {
        self.high_watermark = self.checkpointed_high_watermark.min(self.log_end_offset());
        self.check();
    }

    /// A power failure: whatever the OS had not written back is gone, then a normal recovery.
    pub fn recover_after_power_loss(&mut self) {
        let kept = self.flushed_offset.clamp(0, self.log_end_offset());
        self.drop_records_from(kept);
        self.epochs.truncate_from_end(kept);
        self.recover_after_crash();
    }

    fn check(&self) {
        debug_assert!(self.high_watermark <= self.log_end_offset(), "HW must never pass the LEO");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(epoch: i32, id: u64) -> LogRecord {
        LogRecord { leader_epoch: epoch, record_id: id, sequence: None }
    }

    #[test]
    fn epoch_cache_answers_like_offsets_for_leader_epoch() {
        let mut cache = LeaderEpochCache::default();
        cache.assign(0, 0);
        cache.assign(2, 5);
        cache.assign(4, 9);
        // The latest epoch ends at the log end offset.
        assert_eq!(cache.end_offset_for(4, 12), EpochEndOffset { leader_epoch: Some(4), end_offset: 12 });
        // An epoch in the middle ends where the next one starts.
        assert_eq!(cache.end_offset_for(2, 12), EpochEndOffset { leader_epoch: Some(2), end_offset: 9 });
        // An epoch this leader never had: the largest smaller one, ending where the next starts.
        assert_eq!(cache.end_offset_for(3, 12), EpochEndOffset { leader_epoch: Some(2), end_offset: 9 });
        // Newer than anything known: undefined.
        assert_eq!(cache.end_offset_for(7, 12).leader_epoch, None);
    }

    #[test]
    fn epoch_cache_drops_entries_a_new_assignment_contradicts() {
        let mut cache = LeaderEpochCache::default();
        cache.assign(0, 0);
        cache.assign(1, 4);
        cache.assign(2, 3);
        assert_eq!(cache.entries(), &[(0, 0), (2, 3)]);
        cache.truncate_from_end(3);
        assert_eq!(cache.entries(), &[(0, 0)]);
    }

    #[test]
    fn truncation_pulls_the_high_watermark_down_with_the_log() {
        let mut log = ReplicaLog::default();
        for id in 0..4 {
            log.append(record(0, id));
        }
        log.set_high_watermark(9);
        assert_eq!(log.high_watermark(), 4);
        log.truncate_to(2);
        assert_eq!((log.log_end_offset(), log.high_watermark()), (2, 2));
    }

    #[test]
    fn a_sequence_cut_off_by_truncation_is_no_longer_a_duplicate_and_lands_anew() {
        let mut log = ReplicaLog::default();
        for id in 0..3 {
            log.append(LogRecord { leader_epoch: 0, record_id: id, sequence: Some(id) });
        }
        assert_eq!(log.offset_of_sequence(2), Some(2));
        log.truncate_to(1);
        assert_eq!((log.offset_of_sequence(0), log.offset_of_sequence(2)), (Some(0), None));
        log.append(LogRecord { leader_epoch: 1, record_id: 2, sequence: Some(2) });
        assert_eq!(log.offset_of_sequence(2), Some(1));
    }

    #[test]
    fn power_loss_keeps_only_what_was_flushed_and_the_checkpointed_hw() {
        let mut log = ReplicaLog::default();
        log.append(record(0, 0));
        log.set_high_watermark(1);
        log.flush_and_checkpoint();
        log.append(record(0, 1));
        log.set_high_watermark(2);
        log.recover_after_power_loss();
        assert_eq!((log.log_end_offset(), log.high_watermark()), (1, 1));
    }
}
