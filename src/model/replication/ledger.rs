//! The durability ledger: every record the producer sent, what it was told, and
//! whether the record is still on the partition leader (once, twice, or not at all).

use std::borrow::Borrow;

use super::facts::SendError;
use super::log::LogRecord;
use crate::model::kernel::ChunkedVec;

/// What the producer's send callback reported for a record (so far).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not answered yet (in flight, in a retry back-off, or waiting for a leader).
    Pending,
    /// The callback got success (for acks=0: immediately, without any broker answer).
    Acked,
    /// The callback got an exception (e.g. `TimeoutException` after `delivery.timeout.ms`).
    Failed(SendError),
}

/// One sent record, as the producer's callback and the ledger see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerEntry {
    pub record_id: u64,
    pub sent_ms: u64,
    /// Produce requests that carried it (1 + retries).
    pub attempts: u32,
    pub outcome: Outcome,
    /// The offset in the acknowledgement (-1 for acks=0).
    pub acked_offset: Option<i64>,
}

/// The run's ledger of sent records, indexed by record id (ids are dense from 1; an id the
/// producer never sent is a hole). Shared chunks keep time-travel snapshots cheap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    entries: ChunkedVec<Option<LedgerEntry>>,
}

/// The ledger's totals against one log (the current leader's): the table the lab shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LedgerSummary {
    pub sent: u64,
    pub acked: u64,
    pub failed: u64,
    pub pending: u64,
    /// Acknowledged to the producer but absent from the leader's log: the headline number.
    pub acked_lost: u64,
    /// Records present more than once on the leader's log (retries without idempotence).
    pub duplicated: u64,
    /// Copies beyond the first, summed over duplicated records.
    pub extra_copies: u64,
    /// Present on the leader although the producer was told it failed (or not told yet).
    pub unacked_but_present: u64,
}

impl Ledger {
    pub fn record_sent(&mut self, record_id: u64, now_ms: u64) {
        let entry =
            LedgerEntry { record_id, sent_ms: now_ms, attempts: 0, outcome: Outcome::Pending, acked_offset: None };
        let index = usize::try_from(record_id).expect("record ids stay below the work budget");
        self.entries.extend_to(index + 1, &None);
        *self.entries.get_mut(index).expect("just extended") = Some(entry);
    }

    pub fn get(&self, record_id: u64) -> Option<&LedgerEntry> {
        self.entries.get(usize::try_from(record_id).ok()?)?.as_ref()
    }

    pub fn entries(&self) -> impl Iterator<Item = &LedgerEntry> {
        self.entries.iter().flatten()
    }

    fn entry_mut(&mut self, record_id: u64) -> &mut LedgerEntry {
        let index = usize::try_from(record_id).ok();
        index.and_then(|i| self.entries.get_mut(i)?.as_mut()).expect("ledger has every sent record")
    }

    pub(super) fn attempt(&mut self, record_id: u64) -> u32 {
        let entry = self.entry_mut(record_id);
        entry.attempts += 1;
        entry.attempts
    }

    /// The first success wins; a late duplicate answer changes nothing.
    pub(super) fn acked(&mut self, record_id: u64, offset: i64) -> bool {
        let entry = self.entry_mut(record_id);
        if entry.outcome != Outcome::Pending {
            return false;
        }
        entry.outcome = Outcome::Acked;
        entry.acked_offset = Some(offset);
        true
    }

    pub(super) fn failed(&mut self, record_id: u64, why: SendError) {
        let entry = self.entry_mut(record_id);
        if entry.outcome == Outcome::Pending {
            entry.outcome = Outcome::Failed(why);
        }
    }

    /// How many copies of each record the ledger knows `log` holds, by record id: one
    /// counter per id the producer used (ids are its sequence, dense from 0), not a map.
    fn copies_in(&self, log: impl IntoIterator<Item = impl Borrow<LogRecord>>) -> Vec<u32> {
        let mut copies: Vec<u32> = vec![0; self.entries.len()];
        for record in log {
            let record = record.borrow();
            if let Some(count) = copies.get_mut(record.record_id as usize) {
                *count = count.saturating_add(1);
            }
        }
        copies
    }

    /// Record ids acknowledged to the producer that `log` no longer holds.
    pub fn acked_lost(&self, log: impl IntoIterator<Item = impl Borrow<LogRecord>>) -> Vec<u64> {
        let copies = self.copies_in(log);
        self.entries()
            .filter(|e| e.outcome == Outcome::Acked && copies[e.record_id as usize] == 0)
            .map(|e| e.record_id)
            .collect()
    }

    /// The totals against `log`.
    pub fn summarize(&self, log: impl IntoIterator<Item = impl Borrow<LogRecord>>) -> LedgerSummary {
        let copies = self.copies_in(log);
        let mut summary = LedgerSummary::default();
        for entry in self.entries() {
            summary.sent += 1;
            let present = copies[entry.record_id as usize];
            match entry.outcome {
                Outcome::Acked => summary.acked += 1,
                Outcome::Failed(_) => summary.failed += 1,
                Outcome::Pending => summary.pending += 1,
            }
            if entry.outcome == Outcome::Acked && present == 0 {
                summary.acked_lost += 1;
            }
            if entry.outcome != Outcome::Acked && present > 0 {
                summary.unacked_but_present += 1;
            }
            if present > 1 {
                summary.duplicated += 1;
                summary.extra_copies += u64::from(present - 1);
            }
        }
        summary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(id: u64) -> LogRecord {
        LogRecord { leader_epoch: 0, record_id: id, sequence: None }
    }

    #[test]
    fn an_acked_record_missing_from_the_leader_counts_as_lost_and_a_double_as_duplicated() {
        let mut ledger = Ledger::default();
        for id in 1..=4 {
            ledger.record_sent(id, 0);
        }
        ledger.acked(1, 0);
        ledger.acked(2, 1);
        ledger.acked(3, 2);
        ledger.failed(4, SendError::RequestTimeout);
        let log = [stored(1), stored(3), stored(3), stored(4)];
        let summary = ledger.summarize(log);
        assert_eq!((summary.sent, summary.acked, summary.failed), (4, 3, 1));
        assert_eq!(summary.acked_lost, 1);
        assert_eq!(ledger.acked_lost(log), vec![2]);
        assert_eq!((summary.duplicated, summary.extra_copies), (1, 1));
        assert_eq!(summary.unacked_but_present, 1);
    }
}
