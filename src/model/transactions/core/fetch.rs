//! What a fetch returns to the consumer: the broker's range (up to the high watermark, or the
//! last stable offset under read_committed, with the aborted transactions overlapping it —
//! `UnifiedLog.read` / `LogSegment.collectAbortedTxns`) and the consumer's filtering of that
//! range (`CompletedFetch.nextFetchedRecord`: control batches are never returned; under
//! read_committed a transactional batch of a producer in the aborted set is skipped, the set
//! growing as the fetch reaches each aborted transaction's first offset and shrinking at its
//! ABORT marker).
//!
//! Simplified: one entry stands for one batch (a batch holds one producer's records, so they
//! share their fate), and a fetch has no size limit.

use crate::model::kernel::sorted::SortedSet;

use super::{AbortedTxn, Entry, EntryKind, Isolation};

/// The data entries a consumer receives from a fetch at `from`, reading up to `upper`
/// (exclusive: the HW or the LSO).
pub fn fetch<'a>(
    entries: &'a [Entry],
    aborted: &[AbortedTxn],
    from: u64,
    upper: u64,
    isolation: Isolation,
) -> Vec<&'a Entry> {
    let range = entries.iter().filter(|e| e.offset >= from && e.offset < upper);
    if isolation == Isolation::ReadUncommitted {
        return range.filter(|e| matches!(e.kind, EntryKind::Data { .. })).collect();
    }
    // The broker sends the aborted transactions that overlap the fetched range.
    let mut pending: Vec<AbortedTxn> =
        aborted.iter().filter(|a| a.last_offset >= from && a.first_offset < upper).copied().collect();
    crate::model::kernel::order::sort_by_key(&mut pending, |a| (a.first_offset, a.producer_id));
    let mut pending = pending.into_iter().peekable();
    let mut aborted_producers = SortedSet::new();
    let mut delivered = Vec::new();
    for entry in range {
        while let Some(next) = pending.next_if(|a| a.first_offset <= entry.offset) {
            aborted_producers.insert(next.producer_id);
        }
        match entry.kind {
            EntryKind::Control { producer_id, commit, .. } => {
                if !commit {
                    aborted_producers.remove(&producer_id);
                }
            }
            EntryKind::Data { producer_id: Some(id), transactional: true, .. } if aborted_producers.contains(&id) => {}
            EntryKind::Data { .. } => delivered.push(entry),
        }
    }
    delivered
}
