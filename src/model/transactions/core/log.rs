//! One partition's log on its leader (one replica, so the high watermark is the log end offset).

use super::fetch::fetch;
use super::producer_state::increment_sequence;
use super::{Batch, BatchMetadata, Epoch, KafkaError, ProducerId, ProducerStateManager, ProducerStateView};

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

/// One partition's log on its leader, with the leader's producer state and its aborted
/// transaction index. One replica: the high watermark is the log end offset.
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

    /// A produce request's batch for this partition (`UnifiedLog.append` as leader): a retry of
    /// one of the producer's last 5 batches is answered with its first offsets and not written
    /// (`analyzeAndValidateProducerState`); otherwise the producer state validates the batch
    /// (`ProducerAppendInfo.appendDataBatch`) and its records take the next offsets.
    pub fn append(&mut self, batch: &Batch) -> Result<Appended, KafkaError> {
        let records = i32::try_from(batch.records).map_err(|_| KafkaError::InvalidRecord)?;
        if records == 0 || batch.record_ids.len() != batch.records as usize {
            return Err(KafkaError::InvalidRecord);
        }
        let base_offset = self.log_end_offset();
        let last_offset = base_offset + u64::from(batch.records) - 1;
        let Some(producer_id) = batch.producer_id else {
            if batch.transactional {
                return Err(KafkaError::InvalidRecord);
            }
            self.push_data(batch, None);
            return Ok(Appended::Written { base_offset, last_offset });
        };
        if batch.base_sequence < 0 {
            return Err(KafkaError::InvalidRecord);
        }
        let last_sequence = increment_sequence(batch.base_sequence, records - 1);
        if let Some(dup) = self.producers.find_duplicate(producer_id, batch.epoch, batch.base_sequence, last_sequence) {
            return Ok(Appended::Duplicate { base_offset: dup.first_offset, last_offset: dup.last_offset });
        }
        self.producers.check_data(producer_id, batch.epoch, batch.base_sequence, batch.transactional)?;
        let metadata = BatchMetadata {
            first_sequence: batch.base_sequence,
            last_sequence,
            first_offset: base_offset,
            last_offset,
        };
        self.producers.record_data(producer_id, batch.epoch, metadata, batch.transactional);
        self.push_data(batch, Some(producer_id));
        Ok(Appended::Written { base_offset, last_offset })
    }

    /// WriteTxnMarkers: a control record taking the next offset; it ends the producer's open
    /// transaction on this partition, and an ABORT marker indexes the aborted range
    /// (`UnifiedLog.append` of a control batch, `LogSegment.updateTxnIndex`).
    pub fn append_marker(&mut self, producer_id: ProducerId, epoch: Epoch, commit: bool) -> Result<u64, KafkaError> {
        self.producers.check_marker(producer_id, epoch)?;
        let offset = self.log_end_offset();
        self.entries.push(Entry { offset, kind: EntryKind::Control { producer_id, epoch, commit } });
        if let Some(done) = self.producers.record_marker(producer_id, epoch, offset, commit) {
            if done.aborted {
                self.aborted.push(AbortedTxn {
                    producer_id,
                    first_offset: done.first_offset,
                    last_offset: done.last_offset,
                });
            }
        }
        Ok(offset)
    }

    pub fn log_end_offset(&self) -> u64 {
        self.entries.len() as u64
    }

    /// One replica: the high watermark is the log end offset.
    pub fn high_watermark(&self) -> u64 {
        self.log_end_offset()
    }

    /// The first offset of the earliest open transaction, else the high watermark
    /// (`UnifiedLog.lastStableOffset` from `firstUnstableOffset`).
    pub fn last_stable_offset(&self) -> u64 {
        let hw = self.high_watermark();
        let lso = self.producers.first_unstable_offset().map_or(hw, |first| first.min(hw));
        debug_assert!(lso <= hw, "the LSO never passes the high watermark");
        lso
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Is the record at `offset` (below the LEO) plain, in an open, committed or aborted
    /// transaction, or a marker? A transactional record's fate is its producer's next marker.
    ///
    /// # Panics
    /// If `offset` is not below the log end offset.
    pub fn status(&self, offset: u64) -> RecordStatus {
        let entry = &self.entries[usize::try_from(offset).expect("offset fits usize")];
        match entry.kind {
            EntryKind::Control { commit, .. } => RecordStatus::Control { commit },
            EntryKind::Data { transactional: false, .. } | EntryKind::Data { producer_id: None, .. } => {
                RecordStatus::Plain
            }
            EntryKind::Data { producer_id: Some(id), .. } => self.entries[entry.offset as usize + 1..]
                .iter()
                .find_map(|later| match later.kind {
                    EntryKind::Control { producer_id, commit, .. } if producer_id == id => Some(commit),
                    _ => None,
                })
                .map_or(
                    RecordStatus::Open,
                    |commit| {
                        if commit {
                            RecordStatus::Committed
                        } else {
                            RecordStatus::Aborted
                        }
                    },
                ),
        }
    }

    /// What a fetch from `from` returns under `isolation`: data entries only (control records
    /// are never delivered); read_committed stops at the LSO and drops aborted records.
    pub fn read(&self, from: u64, isolation: Isolation) -> Vec<&Entry> {
        let upper = match isolation {
            Isolation::ReadUncommitted => self.high_watermark(),
            Isolation::ReadCommitted => self.last_stable_offset(),
        };
        fetch(&self.entries, &self.aborted, from, upper, isolation)
    }

    /// The aborted-transaction index (`TransactionIndex`), in marker order.
    pub fn aborted_transactions(&self) -> &[AbortedTxn] {
        &self.aborted
    }

    pub fn producer_state(&self, producer_id: ProducerId) -> Option<ProducerStateView> {
        self.producers.view(producer_id)
    }

    /// The leader's producer state for every producer.
    pub fn producer_states(&self) -> &ProducerStateManager {
        &self.producers
    }

    fn push_data(&mut self, batch: &Batch, producer_id: Option<ProducerId>) {
        for (n, &record_id) in batch.record_ids.iter().enumerate() {
            let sequence = producer_id.map(|_| increment_sequence(batch.base_sequence, n as i32));
            let offset = self.log_end_offset();
            let kind = EntryKind::Data {
                record_id,
                producer_id,
                epoch: batch.epoch,
                sequence,
                transactional: batch.transactional,
            };
            self.entries.push(Entry { offset, kind });
        }
    }
}
