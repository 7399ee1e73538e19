//! What the UI draws (txn-design.md's contract): the output partition's log with its HW and
//! LSO, every producer incarnation, the coordinator's transactions, both consumers, the
//! processor and the database sink. Read-only; the UI draws only this.

use std::collections::BTreeMap;

use super::core::{EntryKind, Isolation, RecordStatus, TxnState};
use super::{Client, TxnLab, OUTPUT_TOPIC};

/// A client process's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClientState {
    Running,
    /// Paused (a GC pause) or stalled: alive, doing nothing.
    Paused,
    Crashed,
    /// Its epoch is fenced: it can only close.
    Fenced,
}

/// The scene's whole picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxnView {
    /// The output topic the picture shows.
    pub topic: &'static str,
    /// The partition's log, oldest first.
    pub entries: Vec<EntryView>,
    pub log_end_offset: u64,
    pub high_watermark: u64,
    pub last_stable_offset: u64,
    /// Every incarnation of the app, oldest first (a zombie is an old one still alive), then
    /// the other producer when it runs.
    pub producers: Vec<ProducerView>,
    /// The coordinator's TransactionMetadata rows.
    pub transactions: Vec<TxnMetaView>,
    /// `[read_uncommitted, read_committed]`.
    pub consumers: Vec<ConsumerView>,
    pub processor: Option<ProcessorView>,
    pub sink: Option<SinkView>,
}

/// One offset of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryView {
    pub offset: u64,
    /// Index in `producers` of the incarnation that wrote it (by producer id and epoch).
    pub producer: Option<usize>,
    pub record_id: Option<u64>,
    pub sequence: Option<i32>,
    pub status: RecordStatus,
    /// The same record id already at this earlier offset (not aborted there).
    pub duplicate_of: Option<u64>,
    /// The producer epoch of the batch or marker (extension).
    pub epoch: Option<u16>,
}

/// One producer process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProducerView {
    /// `payments-processor-0`, `producer-1` (idempotent or plain) or `producer-2` (the other one).
    pub label: String,
    /// 0 when it has none (idempotence off; see `has_producer_id`).
    pub producer_id: u64,
    pub epoch: u16,
    pub next_sequence: i32,
    pub state: ClientState,
    pub transactional: bool,
    pub in_flight: u32,
    pub sent: u64,
    pub acked: u64,
    /// Extension: false for a producer without idempotence (Kafka's NO_PRODUCER_ID).
    pub has_producer_id: bool,
    /// Extension: a transaction is open on the client's side.
    pub txn_open: bool,
    /// Extension: batches waiting in the accumulator (unsent, or waiting for a retry).
    pub queued: u32,
    /// Extension: an older incarnation still alive (paused or running) while a newer one exists.
    pub zombie: bool,
}

/// One row of `__transaction_state`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxnMetaView {
    pub transactional_id: String,
    pub producer_id: u64,
    pub epoch: u16,
    pub state: TxnState,
    pub partitions: Vec<String>,
    pub started_ms: Option<u64>,
    /// When the coordinator may abort it (start + transaction.timeout.ms).
    pub expires_ms: Option<u64>,
}

/// A downstream consumer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerView {
    pub isolation: Isolation,
    pub position: u64,
    /// Offsets received, in order.
    pub received: Vec<u64>,
    /// high_watermark - position.
    pub lag: u64,
    /// Extension: records received whose record id it had already received.
    pub duplicates: u64,
    /// Extension: the largest lag seen at a poll.
    pub peak_lag: u64,
}

/// The consume–transform–produce processor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessorView {
    pub input_position: u64,
    pub committed_offset: u64,
    pub processed: u64,
    pub transactional: bool,
    pub state: ClientState,
    /// Extension: records in the input topic.
    pub input_records: u64,
    /// Extension: the offset sent with sendOffsetsToTransaction, waiting for the commit.
    pub pending_offset: Option<u64>,
}

/// The external database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SinkView {
    /// (record id, times inserted), by record id.
    pub rows: Vec<(u64, u32)>,
    /// Rows inserted more than once (extra inserts).
    pub duplicates: u64,
}

/// Duplicates among `record_ids`: each repeat counts once.
pub fn repeats(record_ids: &[u64]) -> u64 {
    let mut seen = std::collections::BTreeSet::new();
    record_ids.iter().filter(|id| !seen.insert(**id)).count() as u64
}

impl TxnLab {
    /// Every offset's status in one pass from the end (a transactional record takes the status
    /// of its producer's next marker; none yet: open) — `PartitionLog::status` for all offsets.
    pub fn statuses(&self) -> Vec<RecordStatus> {
        let mut next_marker: BTreeMap<u64, bool> = BTreeMap::new();
        let mut out: Vec<RecordStatus> = self
            .log
            .entries()
            .iter()
            .rev()
            .map(|entry| match entry.kind {
                EntryKind::Control { producer_id, commit, .. } => {
                    next_marker.insert(producer_id, commit);
                    RecordStatus::Control { commit }
                }
                EntryKind::Data { producer_id: Some(id), transactional: true, .. } => match next_marker.get(&id) {
                    Some(true) => RecordStatus::Committed,
                    Some(false) => RecordStatus::Aborted,
                    None => RecordStatus::Open,
                },
                EntryKind::Data { .. } => RecordStatus::Plain,
            })
            .collect();
        out.reverse();
        debug_assert!(out.last().is_none_or(|s| *s == self.log.status(out.len() as u64 - 1)));
        out
    }

    /// The picture at the current instant.
    pub fn view(&self) -> TxnView {
        let producers = self.producer_views();
        TxnView {
            topic: OUTPUT_TOPIC,
            entries: self.entry_views(),
            log_end_offset: self.log.log_end_offset(),
            high_watermark: self.log.high_watermark(),
            last_stable_offset: self.log.last_stable_offset(),
            producers,
            transactions: self.txn_views(),
            consumers: self.consumer_views(),
            processor: self.processor_view(),
            sink: self.sink_view(),
        }
    }

    /// The incarnations as the view lists them: the app's, then the other producer.
    fn listed_clients(&self) -> Vec<&Client> {
        self.clients.iter().chain(self.other.as_ref()).collect()
    }

    fn producer_views(&self) -> Vec<ProducerView> {
        let newest = self.clients.len().saturating_sub(1);
        let app = self.clients.len();
        self.listed_clients()
            .into_iter()
            .enumerate()
            .map(|(index, c)| ProducerView {
                label: c.label.to_string(),
                producer_id: c.producer_id.unwrap_or(0),
                epoch: c.epoch,
                next_sequence: c.next_sequence,
                state: c.state,
                transactional: c.transactional,
                in_flight: c.in_flight.len() as u32,
                sent: c.sent,
                acked: c.acked,
                has_producer_id: c.producer_id.is_some(),
                txn_open: c.txn_open,
                queued: c.queue.len() as u32,
                zombie: index < newest && index < app && matches!(c.state, ClientState::Running | ClientState::Paused),
            })
            .collect()
    }

    fn entry_views(&self) -> Vec<EntryView> {
        let clients = self.listed_clients();
        let writer = |pid: Option<u64>, epoch: u16| {
            let pid = pid?;
            // The incarnation with this producer id and epoch, else the latest with the id.
            clients
                .iter()
                .position(|c| c.producer_id == Some(pid) && c.epoch == epoch)
                .or_else(|| clients.iter().rposition(|c| c.producer_id == Some(pid)))
        };
        let mut first_at: BTreeMap<u64, u64> = BTreeMap::new();
        let mut out = Vec::new();
        let statuses = self.statuses();
        for (entry, status) in self.log.entries().iter().zip(statuses) {
            let view = match entry.kind {
                EntryKind::Data { record_id, producer_id, epoch, sequence, .. } => {
                    let duplicate_of = first_at.get(&record_id).copied();
                    if duplicate_of.is_none() && status != RecordStatus::Aborted {
                        first_at.insert(record_id, entry.offset);
                    }
                    EntryView {
                        offset: entry.offset,
                        producer: writer(producer_id, epoch),
                        record_id: Some(record_id),
                        sequence,
                        status,
                        duplicate_of: duplicate_of.filter(|_| status != RecordStatus::Aborted),
                        epoch: producer_id.map(|_| epoch),
                    }
                }
                EntryKind::Control { producer_id, epoch, .. } => EntryView {
                    offset: entry.offset,
                    producer: writer(Some(producer_id), epoch),
                    record_id: None,
                    sequence: None,
                    status,
                    duplicate_of: None,
                    epoch: Some(epoch),
                },
            };
            out.push(view);
        }
        out
    }

    fn txn_views(&self) -> Vec<TxnMetaView> {
        self.coordinator
            .transactions()
            .map(|m| TxnMetaView {
                transactional_id: m.transactional_id.clone(),
                producer_id: m.producer_id,
                epoch: m.producer_epoch,
                state: m.state,
                partitions: m.partitions.iter().map(|p| format!("{}-{}", p.topic, p.partition)).collect(),
                started_ms: m.txn_start_ms,
                expires_ms: m.txn_start_ms.map(|start| start + m.txn_timeout_ms),
            })
            .collect()
    }

    fn consumer_views(&self) -> Vec<ConsumerView> {
        let hw = self.log.high_watermark();
        self.consumers
            .iter()
            .map(|c| ConsumerView {
                isolation: c.isolation,
                position: c.position,
                received: c.received.clone(),
                lag: hw.saturating_sub(c.position),
                duplicates: repeats(&c.record_ids),
                peak_lag: c.peak_lag,
            })
            .collect()
    }

    fn processor_view(&self) -> Option<ProcessorView> {
        let processor = self.processor.as_ref()?;
        let app = self.clients.last().expect("the app has an incarnation");
        Some(ProcessorView {
            input_position: processor.position,
            committed_offset: processor.committed,
            processed: processor.processed,
            transactional: self.settings.transactional,
            state: app.state,
            input_records: self.settings.input_records,
            pending_offset: processor.pending_txn_offset,
        })
    }

    fn sink_view(&self) -> Option<SinkView> {
        let rows = self.sink.as_ref()?;
        Some(SinkView {
            rows: rows.iter().map(|(id, n)| (*id, *n)).collect(),
            duplicates: rows.values().map(|n| u64::from(n.saturating_sub(1))).sum(),
        })
    }
}
