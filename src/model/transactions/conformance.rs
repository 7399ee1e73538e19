//! The conformance API (`TxnPartition`): a thin adapter over the core components — one
//! partition on its leader (HW = LEO), a transaction coordinator, Kafka's defaults
//! (`transaction.timeout.ms` 60000, `transaction.max.timeout.ms` 900000, the timeout check every
//! 10000 ms) and virtual time from 0 ms. Markers are written at once (Kafka sends them
//! asynchronously from the coordinator). The adapter plays the TV1 producer client: it sends
//! AddPartitionsToTxn before its first write in a transaction, numbers its records per
//! (producer id, epoch), and retries InitProducerId after CONCURRENT_TRANSACTIONS.

use crate::model::kernel::sorted::{SortedMap, SortedSet};
use std::fmt;

use super::core::coordinator::{ABORT_CHECK_INTERVAL_MS, DEFAULT_MAX_TIMEOUT_MS, DEFAULT_TXN_TIMEOUT_MS};
use super::core::{
    Appended, Batch, Epoch, Isolation, KafkaError, Markers, PartitionLog, ProducerId, TopicPartition,
    TransactionCoordinator,
};

/// The partition the adapter models.
const PARTITION: TopicPartition = TopicPartition { topic: crate::model::TOPIC, partition: 0 };

/// An error of the conformance API; Display (and Debug) show Kafka's error name
/// (`PRODUCER_FENCED`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TxnError(pub KafkaError);

impl fmt::Display for TxnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Debug for TxnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TxnError({})", self.0)
    }
}

impl std::error::Error for TxnError {}

impl From<KafkaError> for TxnError {
    fn from(error: KafkaError) -> Self {
        TxnError(error)
    }
}

/// One partition on its leader with a transaction coordinator.
#[derive(Clone, Debug)]
pub struct TxnPartition {
    log: PartitionLog,
    coordinator: TransactionCoordinator,
    now_ms: u64,
    next_check_ms: u64,
    next_record_id: u64,
    /// Each incarnation's producer id, by (transactional id, epoch).
    incarnations: SortedMap<(String, Epoch), ProducerId>,
    /// The next sequence each (producer id, epoch) sends.
    next_sequence: SortedMap<(ProducerId, Epoch), i32>,
    /// Incarnations that believe they added the partition to their current transaction.
    in_transaction: SortedSet<(String, Epoch)>,
    /// The offset of each transactional id's last marker (the answer to a retried EndTxn).
    last_marker: SortedMap<String, u64>,
}

impl Default for TxnPartition {
    fn default() -> Self {
        Self::new()
    }
}

impl TxnPartition {
    pub fn new() -> Self {
        TxnPartition {
            log: PartitionLog::new(),
            coordinator: TransactionCoordinator::new(DEFAULT_MAX_TIMEOUT_MS),
            now_ms: 0,
            next_check_ms: ABORT_CHECK_INTERVAL_MS,
            next_record_id: 0,
            incarnations: SortedMap::new(),
            next_sequence: SortedMap::new(),
            in_transaction: SortedSet::new(),
            last_marker: SortedMap::new(),
        }
    }

    /// The leader's log (for tests that look deeper than offsets).
    pub fn log(&self) -> &PartitionLog {
        &self.log
    }

    /// The coordinator (for tests that look at transaction states).
    pub fn coordinator(&self) -> &TransactionCoordinator {
        &self.coordinator
    }

    /// A plain producer's batch (no producer id): the offsets of its records.
    pub fn append_plain(&mut self, records: u32) -> Vec<u64> {
        let batch = self.batch(None, 0, -1, records, false);
        match self.log.append(&batch) {
            Ok(Appended::Written { base_offset, last_offset }) => (base_offset..=last_offset).collect(),
            _ => Vec::new(),
        }
    }

    /// InitProducerId for `transactional_id`: the new epoch. An open transaction of the previous
    /// incarnation is fenced and aborted first (its marker written), and the retry after Kafka's
    /// CONCURRENT_TRANSACTIONS bumps the epoch once more.
    pub fn init_producer_id(&mut self, transactional_id: &str) -> Result<u16, TxnError> {
        let now_ms = self.now_ms;
        let init =
            |c: &mut TransactionCoordinator| c.init_producer_id(Some(transactional_id), DEFAULT_TXN_TIMEOUT_MS, now_ms);
        let (mut producer_id, mut epoch, markers) = init(&mut self.coordinator)?;
        if let Some(markers) = markers {
            self.write_markers(transactional_id, &markers)?;
            (producer_id, epoch, _) = init(&mut self.coordinator)?;
        }
        self.incarnations.insert((transactional_id.to_string(), epoch), producer_id);
        Ok(epoch)
    }

    /// A transactional batch of `records` from the incarnation (`transactional_id`, `epoch`):
    /// AddPartitionsToTxn first if it has not added the partition to its current transaction.
    pub fn append_txn(&mut self, transactional_id: &str, epoch: u16, records: u32) -> Result<Vec<u64>, TxnError> {
        if records == 0 {
            return Ok(Vec::new());
        }
        let producer_id = self.producer_id_of(transactional_id, epoch)?;
        let incarnation = (transactional_id.to_string(), epoch);
        if !self.in_transaction.contains(&incarnation) {
            self.coordinator.add_partitions(transactional_id, producer_id, epoch, &[PARTITION], self.now_ms)?;
            self.in_transaction.insert(incarnation);
        }
        let base_offset = self.send(producer_id, epoch, records, true)?;
        Ok((base_offset..base_offset + u64::from(records)).collect())
    }

    /// EndTxn from the incarnation: the offset of the marker written on the partition.
    pub fn end_txn(&mut self, transactional_id: &str, epoch: u16, commit: bool) -> Result<u64, TxnError> {
        let producer_id = self.producer_id_of(transactional_id, epoch)?;
        let markers = self.coordinator.end_txn(transactional_id, producer_id, epoch, commit, self.now_ms)?;
        if markers.partitions.is_empty() {
            // A retried EndTxn after completion: Kafka answers NONE and writes no new marker.
            return self.last_marker.get(transactional_id).copied().ok_or(TxnError(KafkaError::InvalidTxnState));
        }
        self.in_transaction.remove(&(transactional_id.to_string(), epoch));
        self.write_markers(transactional_id, &markers)
    }

    /// Moves virtual time to `now_ms`, running the coordinator's timeout check at every multiple
    /// of `transaction.abort.timed.out.transaction.cleanup.interval.ms` on the way and writing the
    /// abort markers of the transactions it expires.
    pub fn advance_to(&mut self, now_ms: u64) {
        while self.next_check_ms <= now_ms {
            let check_ms = self.next_check_ms;
            self.now_ms = check_ms;
            for (transactional_id, markers) in self.coordinator.abort_timed_out(check_ms) {
                // A timed-out transaction's markers carry the fencing epoch, newer than any write.
                let written = self.write_markers(&transactional_id, &markers);
                debug_assert!(written.is_ok(), "a fencing abort marker is always accepted");
            }
            self.next_check_ms += ABORT_CHECK_INTERVAL_MS;
        }
        self.now_ms = self.now_ms.max(now_ms);
    }

    pub fn leo(&self) -> u64 {
        self.log.log_end_offset()
    }

    pub fn lso(&self) -> u64 {
        self.log.last_stable_offset()
    }

    /// The data offsets a read_committed fetch from `from` returns.
    pub fn read_committed(&self, from: u64) -> Vec<u64> {
        self.log.read(from, Isolation::ReadCommitted).iter().map(|e| e.offset).collect()
    }

    /// The data offsets a read_uncommitted fetch from `from` returns.
    pub fn read_uncommitted(&self, from: u64) -> Vec<u64> {
        self.log.read(from, Isolation::ReadUncommitted).iter().map(|e| e.offset).collect()
    }

    /// InitProducerId without a transactional id: (producer id, epoch 0).
    pub fn init_idempotent(&mut self) -> (u64, u16) {
        let (producer_id, epoch, _) = self
            .coordinator
            .init_producer_id(None, DEFAULT_TXN_TIMEOUT_MS, self.now_ms)
            .expect("an idempotent producer id is always granted");
        (producer_id, epoch)
    }

    /// An idempotent producer's batch: its base offset, also for a retry answered as a duplicate.
    pub fn produce_idempotent(
        &mut self,
        producer_id: u64,
        epoch: u16,
        base_sequence: i32,
        records: u32,
    ) -> Result<u64, TxnError> {
        let batch = self.batch(Some(producer_id), epoch, base_sequence, records, false);
        match self.log.append(&batch)? {
            Appended::Written { base_offset, .. } | Appended::Duplicate { base_offset, .. } => Ok(base_offset),
        }
    }

    /// The producer id an incarnation uses (its own; a never-issued epoch uses the current id).
    fn producer_id_of(&self, transactional_id: &str, epoch: Epoch) -> Result<ProducerId, TxnError> {
        if let Some(&id) = self.incarnations.get(&(transactional_id.to_string(), epoch)) {
            return Ok(id);
        }
        let metadata = self.coordinator.metadata(transactional_id).ok_or(KafkaError::InvalidProducerIdMapping)?;
        Ok(metadata.producer_id)
    }

    /// Sends the incarnation's next batch; its sequence advances only when the leader wrote it.
    fn send(
        &mut self,
        producer_id: ProducerId,
        epoch: Epoch,
        records: u32,
        transactional: bool,
    ) -> Result<u64, TxnError> {
        let base_sequence = *self.next_sequence.get(&(producer_id, epoch)).unwrap_or(&0);
        let batch = self.batch(Some(producer_id), epoch, base_sequence, records, transactional);
        let appended = self.log.append(&batch)?;
        let (Appended::Written { base_offset, .. } | Appended::Duplicate { base_offset, .. }) = appended;
        let next = super::core::producer_state::increment_sequence(base_sequence, records as i32);
        self.next_sequence.insert((producer_id, epoch), next);
        Ok(base_offset)
    }

    /// Writes a transaction's markers (here: on the one partition) and completes it.
    fn write_markers(&mut self, transactional_id: &str, markers: &Markers) -> Result<u64, TxnError> {
        debug_assert!(markers.partitions.iter().all(|p| *p == PARTITION));
        let offset = self.log.append_marker(markers.producer_id, markers.epoch, markers.commit)?;
        self.coordinator.markers_written(transactional_id, self.now_ms);
        self.last_marker.insert(transactional_id.to_string(), offset);
        Ok(offset)
    }

    fn batch(
        &mut self,
        producer_id: Option<ProducerId>,
        epoch: Epoch,
        base_sequence: i32,
        records: u32,
        transactional: bool,
    ) -> Batch {
        let first_id = self.next_record_id;
        self.next_record_id += u64::from(records);
        Batch {
            producer_id,
            epoch,
            base_sequence,
            records,
            transactional,
            record_ids: (first_id..self.next_record_id).collect(),
        }
    }
}
