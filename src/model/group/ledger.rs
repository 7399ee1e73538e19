//! The lab's delivery ledger: which records each partition's consumers processed, how many twice
//! (duplicates) and how many never although their offsets were committed (losses).

/// One partition's ledger line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartitionLedger {
    /// One past the highest offset processed so far (processing is in offset order per partition).
    pub processed_up_to: i64,
    pub processed: u64,
    pub duplicates: u64,
    /// Records skipped because a committed offset was past them (committed but never processed).
    pub lost: u64,
    /// Records skipped because no offset was committed and `auto.offset.reset=latest`.
    pub skipped_by_reset: u64,
    /// Offsets `[from, to)` below `processed_up_to` that a live member still holds in a fetched
    /// batch: processed later (not a duplicate), or lost if that member dies first.
    pub owed: Vec<(i64, i64)>,
}

/// Removes `[from, to)` from `ranges` and returns the pieces that were in it.
fn cut(ranges: &mut Vec<(i64, i64)>, from: i64, to: i64) -> Vec<(i64, i64)> {
    let mut taken = Vec::new();
    let mut kept = Vec::new();
    for &(a, b) in ranges.iter() {
        let (lo, hi) = (a.max(from), b.min(to));
        if lo < hi {
            taken.push((lo, hi));
            kept.extend([(a, lo), (hi, b)].into_iter().filter(|(x, y)| x < y));
        } else {
            kept.push((a, b));
        }
    }
    *ranges = kept;
    taken
}

fn total(ranges: &[(i64, i64)]) -> i64 {
    ranges.iter().map(|(a, b)| b - a).sum()
}

/// What one processed range did to the ledger: offsets skipped for good, offsets seen before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Processed {
    pub lost: Option<(i64, i64)>,
    pub repeated: Option<(i64, i64)>,
}

/// Per-partition delivery accounting (a lab instrument, no Kafka counterpart); reads nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    pub partitions: Vec<PartitionLedger>,
}

impl Ledger {
    pub fn new(partitions: usize) -> Self {
        Self { partitions: vec![PartitionLedger::default(); partitions] }
    }

    pub fn grow(&mut self, partitions: usize) {
        self.partitions.resize(partitions, PartitionLedger::default());
    }

    /// Records that offsets `[from, to)` of `partition` were processed; says which offsets were
    /// skipped (lost) and which were processed before (duplicates), each as `[from, to)`.
    pub fn process(&mut self, partition: u32, from: i64, to: i64) -> Processed {
        if to <= from {
            return Processed::default();
        }
        let lost = self.skip_to(partition, from);
        let line = &mut self.partitions[partition as usize];
        let repeated_to = to.min(line.processed_up_to);
        let settled = total(&cut(&mut line.owed, from, to));
        let repeated = (repeated_to - from).max(0) - settled;
        line.duplicates += repeated.max(0) as u64;
        line.processed += (to - from) as u64;
        line.processed_up_to = line.processed_up_to.max(to);
        debug_assert!(line.duplicates <= line.processed);
        Processed { lost, repeated: (repeated > 0).then_some((repeated_to - repeated, repeated_to)) }
    }

    /// A new owner starts at the committed `offset`: what was committed but never processed below
    /// it is lost for good (nobody fetches it again), unless a live member still holds it in a
    /// fetched batch (`pending`, processed later). Returns the lost pieces as `[from, to)`.
    pub fn start_from_committed(&mut self, partition: u32, offset: i64, pending: &[(i64, i64)]) -> Vec<(i64, i64)> {
        let line = &mut self.partitions[partition as usize];
        if offset <= line.processed_up_to {
            return Vec::new();
        }
        let mut gap = vec![(line.processed_up_to, offset)];
        for &(from, to) in pending {
            let held = cut(&mut gap, from, to);
            line.owed.extend(held);
        }
        line.lost += total(&gap) as u64;
        line.processed_up_to = offset;
        gap
    }

    /// A member died holding `[from, to)` of `partition` unprocessed: what of it was owed is lost.
    pub fn abandon(&mut self, partition: u32, from: i64, to: i64) -> Vec<(i64, i64)> {
        let line = &mut self.partitions[partition as usize];
        let lost = cut(&mut line.owed, from, to);
        line.lost += total(&lost) as u64;
        lost
    }

    fn skip_to(&mut self, partition: u32, offset: i64) -> Option<(i64, i64)> {
        let line = &mut self.partitions[partition as usize];
        let gap = (offset > line.processed_up_to).then_some((line.processed_up_to, offset));
        if let Some((from, to)) = gap {
            line.lost += (to - from) as u64;
            line.processed_up_to = to;
        }
        gap
    }

    /// A consumer started at `offset` because of `auto.offset.reset=latest`.
    pub fn skip_by_reset(&mut self, partition: u32, offset: i64) {
        let line = &mut self.partitions[partition as usize];
        if offset > line.processed_up_to {
            line.skipped_by_reset += (offset - line.processed_up_to) as u64;
            line.processed_up_to = offset;
        }
    }

    pub fn total_duplicates(&self) -> u64 {
        self.partitions.iter().map(|l| l.duplicates).sum()
    }

    pub fn total_lost(&self) -> u64 {
        self.partitions.iter().map(|l| l.lost).sum()
    }

    pub fn total_processed(&self) -> u64 {
        self.partitions.iter().map(|l| l.processed).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprocessing_counts_duplicates_and_a_committed_gap_counts_losses() {
        let mut ledger = Ledger::new(1);
        ledger.process(0, 0, 100);
        assert_eq!(ledger.process(0, 80, 120), Processed { lost: None, repeated: Some((80, 100)) });
        assert_eq!(ledger.partitions[0].duplicates, 20);
        assert_eq!(ledger.process(0, 150, 160), Processed { lost: Some((120, 150)), repeated: None });
        assert_eq!(ledger.partitions[0].lost, 30);
        assert_eq!(ledger.start_from_committed(0, 155, &[]), Vec::new());
        assert_eq!(ledger.partitions[0].processed_up_to, 160);
        // A new owner starts at 200 while a live worker still holds 170..190: only the rest is lost.
        assert_eq!(ledger.start_from_committed(0, 200, &[(170, 190)]), vec![(160, 170), (190, 200)]);
        assert_eq!(ledger.process(0, 170, 180), Processed::default(), "owed records are not duplicates");
        assert_eq!(ledger.abandon(0, 180, 190), vec![(180, 190)], "the worker died before the rest");
        assert_eq!(ledger.partitions[0].lost, 60);
        ledger.skip_by_reset(0, 200);
        assert_eq!((ledger.partitions[0].skipped_by_reset, ledger.total_lost()), (0, 60));
        ledger.process(0, 5, 5);
        assert_eq!(ledger.total_processed(), 160);
    }
}
