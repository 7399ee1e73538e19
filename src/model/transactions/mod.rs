//! The "Exactly once" scene (issue 16): the idempotent producer and transactions (KIP-98).
//!
//! `core/` holds Kafka's components (the partition log with its producer state, the
//! transaction coordinator); this module is the world around them: producer incarnations
//! with their sequences, in-flight requests and retries, the network between them, two
//! downstream consumers (read_uncommitted and read_committed), a consume–transform–produce
//! processor with its input topic and offset commits, and an external database sink.
//!
//! The protocol is transaction version 1 (see `core`): the epoch changes only at
//! InitProducerId and when the coordinator fences an abandoned or expired transaction, so an
//! incarnation keeps its epoch for all its transactions (seed 000's 4 → 5).
//!
//! Where the lab simplifies: one output partition with one replica (HW = LEO); the
//! coordinator's requests (InitProducerId, AddPartitionsToTxn, EndTxn) are answered at once
//! unless the app's link to it is cut, while produce requests and WriteTxnMarkers take
//! `lab.network.delay.ms` each way; no jitter on `retry.backoff.ms` and no exponential growth
//! (`retry.backoff.max.ms`); `lose-ack` drops the connection right after the leader writes a request:
//! that answer and every other request in flight on it are lost, and the client notices after
//! one network delay; a consumer
//! fetches everything up to its bound (HW or LSO) on each poll; the processor commits when
//! told to (`commit`), and inserts its database rows as it processes.

mod conformance;
pub mod core;
pub use conformance::{TxnError, TxnPartition};

mod broker;
mod clients;
mod fact_text;
mod facts;
mod faults;
mod processor;
mod refusal;
mod scene;
mod schema;
mod story;
mod story_retry;
mod story_say;
mod story_txn;
mod txn;
mod views;
mod world;

pub use facts::{Fact, Refusal, FACT_KEYS, REFUSAL_KEYS};
pub use schema::{Settings, TRANSACTIONAL_ID, TXN_SCHEMA};
pub use story::{RETRY_STORY_KEYS, STORY_KEYS, TXN_STORY_KEYS};
pub use views::{ClientState, ConsumerView, EntryView, ProcessorView, ProducerView, SinkView, TxnMetaView, TxnView};

/// The core types the views name, for the UI.
pub use self::core::{Isolation, RecordStatus, TxnState};

use self::core::{Batch, KafkaError, Markers, PartitionLog, TopicPartition, TransactionCoordinator};
use crate::model::kernel::{Ctx, Fault};

/// The topic the processor writes and the consumers read.
pub const OUTPUT_TOPIC: &str = "payments-validated";
/// The processor's input topic.
pub const INPUT_TOPIC: &str = "payments";
/// The output partition.
pub const OUTPUT: TopicPartition = TopicPartition { topic: OUTPUT_TOPIC, partition: 0 };
/// The processor's offsets partition, added to its transaction by sendOffsetsToTransaction.
pub const OFFSETS: TopicPartition = TopicPartition { topic: "__consumer_offsets", partition: 0 };
/// The label of the second producer (idempotent unless enable.idempotence=false, never transactional).
pub const OTHER_LABEL: &str = "producer-2";
/// Record ids of the second producer start here (the app's are payment numbers from 1).
pub const OTHER_FIRST_RECORD: u64 = 1001;

/// The scene's kernel context.
pub type TxnCtx = Ctx<Event, Fact>;

/// Which producer client: an incarnation of the app (by index, oldest first) or the other one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClientId {
    App(usize),
    Other,
}

/// A batch the producer holds until the leader acknowledges it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingBatch {
    /// The lab's request id (one per batch, kept across retries).
    pub id: u64,
    /// Sequence assigned at its first send (idempotent producer), kept on every retry.
    pub base_sequence: Option<i32>,
    pub record_ids: Vec<u64>,
    pub attempts: u32,
    /// Not to be sent again before this instant (retry.backoff.ms).
    pub not_before_ms: u64,
    /// When `send()` put it in the accumulator: delivery.timeout.ms counts from here.
    pub created_ms: u64,
}

/// How the leader answered a produce request (or that the answer never came).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProduceOutcome {
    Written {
        base_offset: u64,
        last_offset: u64,
    },
    Duplicate {
        base_offset: u64,
        last_offset: u64,
    },
    /// Not written: a retriable error (NOT_ENOUGH_REPLICAS) the lab injected.
    NotEnoughReplicas,
    Refused(KafkaError),
    /// The connection dropped before the answer: the client retries (NetworkException).
    Disconnected,
}

/// One producer process (an incarnation of the app, or the other producer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client {
    pub label: &'static str,
    /// `None`: idempotence off (Kafka's NO_PRODUCER_ID).
    pub producer_id: Option<u64>,
    pub epoch: u16,
    pub next_sequence: i32,
    pub state: ClientState,
    pub transactional: bool,
    /// The end of a pause, `None` while stalled until restarted.
    pub paused_until_ms: Option<u64>,
    /// Batches not yet sent, or waiting to be retried (the accumulator), in send order.
    pub queue: Vec<PendingBatch>,
    pub in_flight: Vec<PendingBatch>,
    pub sent: u64,
    pub acked: u64,
    /// A transaction is open on the client's side (beginTransaction … commit/abort).
    pub txn_open: bool,
    /// The output partition is in the open transaction (AddPartitionsToTxn answered).
    pub partition_added: bool,
    /// commitTransaction (true) or abortTransaction (false) called, waiting for the batches.
    pub end_requested: Option<bool>,
    /// Events that reached it while paused, handled when it resumes.
    pub deferred: Vec<Event>,
    /// initTransactions has not got its epoch yet (the coordinator is aborting the previous
    /// epoch's transaction, or cannot be reached): nothing is sent meanwhile.
    pub awaiting_init: bool,
}

/// The consume–transform–produce processor's consumer side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Processor {
    /// The next input offset to process.
    pub position: u64,
    /// The offset committed in __consumer_offsets (where a restart resumes).
    pub committed: u64,
    /// The offset sent with sendOffsetsToTransaction, committed with the transaction.
    pub pending_txn_offset: Option<u64>,
    /// commitSync called, waiting for the producer's batches (non-transactional).
    pub commit_requested: bool,
    pub processed: u64,
}

/// A downstream consumer of the output partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Consumer {
    pub isolation: Isolation,
    pub position: u64,
    pub received: Vec<u64>,
    /// Record ids received, in order (to count duplicates and order).
    pub record_ids: Vec<u64>,
    /// The distinct record ids received.
    pub seen: std::collections::BTreeSet<u64>,
    pub peak_lag: u64,
}

/// The scene's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The client's sender thread drains its accumulator (after linger.ms or a backoff).
    Drain(ClientId),
    /// A produce request reaches the partition leader.
    ProduceArrives { client: ClientId, batch: Batch, request: u64 },
    /// The leader's answer (or the dropped connection) reaches the client.
    ProduceAnswered { client: ClientId, request: u64, outcome: ProduceOutcome },
    /// The coordinator's WriteTxnMarkers reach the partitions.
    MarkersArrive { transactional_id: &'static str, markers: Markers, timed_out: bool },
    /// The coordinator's periodic check for expired transactions.
    AbortCheck,
    /// Both consumers poll.
    ConsumerPoll,
    /// The other producer sends its next record.
    OtherSend,
    /// A paused incarnation wakes up.
    Resume(usize),
}

impl crate::model::kernel::Watched for Event {
    fn watched(&self) -> bool {
        matches!(self, Event::ProduceArrives { .. } | Event::ProduceAnswered { .. } | Event::MarkersArrive { .. })
    }
}

/// What a learner can do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The app sends N records (in its transaction, if transactional). `produce-N`
    Produce { records: u32 },
    /// commitTransaction, or the processor's offset commit. `commit`
    Commit,
    /// abortTransaction. `abort`
    Abort,
    /// The processor polls N input records, writes one output record and one database row for each. `process-N`
    Process { records: u32 },
    /// The connection drops right after the leader writes the next produce request. `lose-ack`
    LoseAck,
    /// The leader answers the next produce request NOT_ENOUGH_REPLICAS without writing it. `fail-next`
    FailNext,
    /// The other producer starts sending a record a second (Play's default workload). `stream`
    Stream,
    /// Faults on the app (`p`) and its link to the coordinator (`c`).
    Fault(Fault),
}

/// The most records one command sends or processes.
pub const MAX_RECORDS: u32 = 100;
/// The lab's partition holds at most this many offsets (a link cannot grow it without bound).
pub const MAX_LOG_ENTRIES: u64 = 10_000;

/// The whole scene.
#[derive(Clone, Debug)]
pub struct TxnLab {
    settings: Settings,
    log: PartitionLog,
    coordinator: TransactionCoordinator,
    clients: Vec<Client>,
    other: Option<Client>,
    /// The other producer sends on its own (set by `stream` or the config).
    other_streaming: bool,
    consumers: Vec<Consumer>,
    processor: Option<Processor>,
    /// The database sink: record id → times inserted.
    sink: Option<std::collections::BTreeMap<u64, u32>>,
    /// Where each record id was written (the lab's index, to see duplicates and reordering).
    record_offsets: std::collections::BTreeMap<u64, Vec<u64>>,
    /// The next payment number the app's plain `produce` uses.
    next_record: u64,
    next_other_record: u64,
    next_request: u64,
    /// The link between the app and the transaction coordinator is cut.
    coordinator_cut: bool,
    lose_next_answer: bool,
    fail_next_request: bool,
}

impl TxnLab {
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn log(&self) -> &PartitionLog {
        &self.log
    }

    pub fn coordinator(&self) -> &TransactionCoordinator {
        &self.coordinator
    }

    /// The app's incarnations, oldest first.
    pub fn clients(&self) -> &[Client] {
        &self.clients
    }

    pub fn consumer(&self, isolation: Isolation) -> &Consumer {
        self.consumers.iter().find(|c| c.isolation == isolation).expect("both consumers exist")
    }

    pub fn processor(&self) -> Option<&Processor> {
        self.processor.as_ref()
    }

    /// How many times each record id was inserted into the database.
    pub fn sink_rows(&self) -> Option<&std::collections::BTreeMap<u64, u32>> {
        self.sink.as_ref()
    }

    fn client(&self, id: ClientId) -> Option<&Client> {
        match id {
            ClientId::App(index) => self.clients.get(index),
            ClientId::Other => self.other.as_ref(),
        }
    }

    fn client_mut(&mut self, id: ClientId) -> Option<&mut Client> {
        match id {
            ClientId::App(index) => self.clients.get_mut(index),
            ClientId::Other => self.other.as_mut(),
        }
    }

    /// The newest incarnation (the one `p` names).
    fn current(&self) -> usize {
        self.clients.len() - 1
    }
}
