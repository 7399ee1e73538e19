//! One partition's log on its leader (one replica, so the high watermark is the log end offset).

use super::{Batch, Epoch, KafkaError, ProducerId, ProducerStateManager, ProducerStateView};

/// What an append did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Appended {
    Written {
        base_offset: u64,
        last_offset: u64,
    },
    /// A retry of one of the last 5 batches: answered with the original offsets, nothing written.
    Duplicate {
        base_offset: u64,
        last_offset: u64,
    },
}

/// What one offset of the log holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Data {
        record_id: u64,
        producer_id: Option<ProducerId>,
        epoch: Epoch,
        sequence: Option<i32>,
        transactional: bool,
    },
    /// A transaction marker (control record): COMMIT or ABORT.
    Control {
        producer_id: ProducerId,
        epoch: Epoch,
        commit: bool,
    },
}

/// One offset of the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub offset: u64,
    pub kind: EntryKind,
}

/// An entry of the aborted-transaction index (Kafka's `AbortedTxn`): the producer's data from
/// `first_offset` to the abort marker at `last_offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbortedTxn {
    pub producer_id: ProducerId,
    pub first_offset: u64,
    pub last_offset: u64,
}

/// `isolation.level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Isolation {
    ReadUncommitted,
    ReadCommitted,
}

/// Where a record stands with respect to transactions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RecordStatus {
    /// Not transactional.
    Plain,
    /// In a transaction that has no marker on this partition yet.
    Open,
    Committed,
    Aborted,
    /// A transaction marker.
    Control {
        commit: bool,
    },
}

/// One partition's log on its leader, with the leader's producer state.
#[derive(Clone, Debug, Default)]
pub struct PartitionLog {
    entries: Vec<Entry>,
    producers: ProducerStateManager,
    aborted: Vec<AbortedTxn>,
}

impl PartitionLog {
    pub fn new() -> Self {
        Self::default()
    }

    /// A produce request's batch: validated against the producer state, then written.
    pub fn append(&mut self, batch: &Batch) -> Result<Appended, KafkaError> {
        let _ = batch;
        todo!()
    }

    /// WriteTxnMarkers: a control record; ends the producer's open transaction on this partition.
    pub fn append_marker(&mut self, producer_id: ProducerId, epoch: Epoch, commit: bool) -> Result<u64, KafkaError> {
        let _ = (producer_id, epoch, commit);
        todo!()
    }

    pub fn log_end_offset(&self) -> u64 {
        self.entries.len() as u64
    }

    /// One replica: the high watermark is the log end offset.
    pub fn high_watermark(&self) -> u64 {
        self.log_end_offset()
    }

    pub fn last_stable_offset(&self) -> u64 {
        todo!()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Is the record at `offset` plain, in an open, committed or aborted transaction, or a marker?
    pub fn status(&self, offset: u64) -> RecordStatus {
        let _ = offset;
        todo!()
    }

    /// What a fetch from `from` returns under `isolation` (data entries only).
    pub fn read(&self, from: u64, isolation: Isolation) -> Vec<&Entry> {
        let _ = (from, isolation);
        todo!()
    }

    pub fn aborted_transactions(&self) -> &[AbortedTxn] {
        &self.aborted
    }

    pub fn producer_state(&self, producer_id: ProducerId) -> Option<ProducerStateView> {
        self.producers.view(producer_id)
    }
}
