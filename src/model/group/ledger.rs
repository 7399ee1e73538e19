//! The lab's delivery ledger: which records each partition's consumers processed, how many twice
//! (duplicates) and how many never although their offsets were committed (losses).

/// One partition's ledger line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionLedger {
    /// One past the highest offset processed so far (processing is in offset order per partition).
    pub processed_up_to: i64,
    pub processed: u64,
    pub duplicates: u64,
    /// Records skipped because a committed offset was past them (committed but never processed).
    pub lost: u64,
    /// Records skipped because no offset was committed and `auto.offset.reset=latest`.
    pub skipped_by_reset: u64,
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

    /// Records that offsets `[from, to)` of `partition` were processed.
    pub fn process(&mut self, partition: u32, from: i64, to: i64) {
        if to <= from {
            return;
        }
        let line = &mut self.partitions[partition as usize];
        if from > line.processed_up_to {
            line.lost += (from - line.processed_up_to) as u64;
            line.processed_up_to = from;
        }
        let repeated = (to.min(line.processed_up_to) - from).max(0);
        line.duplicates += repeated as u64;
        line.processed += (to - from) as u64;
        line.processed_up_to = line.processed_up_to.max(to);
        debug_assert!(line.duplicates <= line.processed);
    }

    /// A new owner starts at the committed `offset`: anything committed but never processed below
    /// it is lost for good (nobody will fetch it again).
    pub fn start_from_committed(&mut self, partition: u32, offset: i64) {
        let line = &mut self.partitions[partition as usize];
        if offset > line.processed_up_to {
            line.lost += (offset - line.processed_up_to) as u64;
            line.processed_up_to = offset;
        }
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
        ledger.process(0, 80, 120);
        assert_eq!(ledger.partitions[0].duplicates, 20);
        ledger.process(0, 150, 160);
        assert_eq!(ledger.partitions[0].lost, 30);
        assert_eq!(ledger.partitions[0].processed_up_to, 160);
        ledger.skip_by_reset(0, 200);
        assert_eq!((ledger.partitions[0].skipped_by_reset, ledger.total_lost()), (40, 30));
        ledger.process(0, 5, 5);
        assert_eq!(ledger.total_processed(), 150);
    }
}
