//! Why the exactly-once scene refuses a config or a command. Config refusals carry Kafka's
//! ConfigException (or error) text verbatim: learners meet the same words from real Kafka.

use crate::model::kernel::{Arg, Describe, Message};

/// Why a config or a command is refused.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// An explicit enable.idempotence=true with retries=0.
    IdempotenceRetries,
    /// An explicit enable.idempotence=true with acks other than all.
    IdempotenceAcks,
    /// More than 5 requests in flight with idempotence asked for.
    IdempotenceInFlight {
        max_in_flight: u32,
    },
    /// A transactional.id while idempotence is off.
    TransactionsWithoutIdempotence,
    /// transaction.timeout.ms above the broker's transaction.max.timeout.ms (INVALID_TRANSACTION_TIMEOUT).
    TransactionTimeoutTooLarge {
        timeout_ms: u64,
        max_ms: u64,
    },
    /// An explicit delivery.timeout.ms below linger.ms + request.timeout.ms.
    DeliveryTimeoutTooSmall {
        delivery_timeout_ms: u64,
    },
    /// The lab's partition is full.
    LogFull {
        max: u64,
    },
    RecordCount {
        records: u32,
    },
    /// commit or abort on a producer without a transactional.id (and no processor offsets to commit).
    NotTransactional,
    /// commit or abort with no transaction open.
    NoTransaction,
    /// commit or abort already called; the client is finishing the transaction.
    EndPending,
    /// process-N without the processor (lab.processor=false).
    NoProcessor,
    /// Fewer input records left than asked for.
    InputExhausted {
        left: u64,
    },
    /// The app is not running (crashed, paused or fenced): it can do nothing.
    AppNotRunning,
    AlreadyRunning,
    AlreadyDown,
    AlreadyCut,
    NotCut,
    /// Only the app (p) and its link to the coordinator (cut-p-c) take faults here.
    FaultNotModelled,
    StreamRunning,
}

crate::messages! {
    pub REFUSAL_KEYS;
    KAFKA_CONFIG = "transactions.refusal.config" => "{kafka}";
    TIMEOUT_TOO_LARGE = "transactions.refusal.timeout" =>
        "{kafka}: initTransactions() fails with INVALID_TRANSACTION_TIMEOUT ({timeout} > {max})";
    RECORD_COUNT = "transactions.refusal.records" => "A command takes 1 to 100 records, not {records}.";
    LOG_FULL = "transactions.refusal.log_full" => "The lab's partition holds at most {max} offsets.";
    NOT_TRANSACTIONAL = "transactions.refusal.not_transactional" =>
        "This producer has no transactional.id: there is no transaction to commit or abort.";
    NO_TRANSACTION = "transactions.refusal.no_transaction" => "No transaction is open: produce or process first.";
    END_PENDING = "transactions.refusal.end_pending" => "The transaction is already being committed or aborted.";
    NO_PROCESSOR = "transactions.refusal.no_processor" => "There is no processor here: set lab.processor=true.";
    INPUT_EXHAUSTED = "transactions.refusal.input" =>
        "The payments topic has {left, plural, =0 {no record} one {# record} other {# records}} left to process.";
    NOT_RUNNING = "transactions.refusal.not_running" => "The application is not running: restart it first (restart-p).";
    ALREADY_RUNNING = "transactions.refusal.running" => "The application is already running.";
    ALREADY_DOWN = "transactions.refusal.down" => "The application is already down.";
    ALREADY_CUT = "transactions.refusal.cut" => "The link to the coordinator is already cut.";
    NOT_CUT = "transactions.refusal.not_cut" => "The link to the coordinator is not cut.";
    FAULT = "transactions.refusal.fault" =>
        "This scene can crash, restart and pause the application (p) and cut its link to the coordinator (cut-p-c).";
    STREAM_RUNNING = "transactions.refusal.stream" => "producer-2 is already sending.";
}

/// Kafka's texts (`ProducerConfig.postProcessAndValidateIdempotenceConfigs` and
/// `Errors.INVALID_TRANSACTION_TIMEOUT`), word for word as Kafka prints them.
fn kafka_text(refusal: &Refusal) -> Option<String> {
    Some(match refusal {
        Refusal::IdempotenceRetries => "Must set retries to non-zero when using the idempotent producer.".into(),
        Refusal::IdempotenceAcks => {
            "Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."
                .into()
        }
        Refusal::IdempotenceInFlight { max_in_flight } => format!(
            "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. \
             Current value is {max_in_flight}."
        ),
        Refusal::TransactionsWithoutIdempotence => {
            "Cannot set a transactional.id without also enabling idempotence.".into()
        }
        Refusal::DeliveryTimeoutTooSmall { .. } => {
            "delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms".into()
        }
        Refusal::TransactionTimeoutTooLarge { .. } => {
            "The transaction timeout is larger than the maximum value allowed by the broker \
             (as configured by transaction.max.timeout.ms)."
                .into()
        }
        _ => return None,
    })
}

impl Describe for Refusal {
    fn message(&self) -> Message {
        if let Refusal::TransactionTimeoutTooLarge { timeout_ms, max_ms } = self {
            return Message::new(TIMEOUT_TOO_LARGE)
                .with("kafka", Arg::kafka(kafka_text(self).unwrap_or_default()))
                .with("timeout", Arg::int(*timeout_ms))
                .with("max", Arg::int(*max_ms));
        }
        if let Some(text) = kafka_text(self) {
            return Message::new(KAFKA_CONFIG).with("kafka", Arg::kafka(text));
        }
        match self {
            Refusal::RecordCount { records } => Message::new(RECORD_COUNT).with("records", Arg::int(*records)),
            Refusal::LogFull { max } => Message::new(LOG_FULL).with("max", Arg::int(*max)),
            Refusal::NotTransactional => Message::new(NOT_TRANSACTIONAL),
            Refusal::NoTransaction => Message::new(NO_TRANSACTION),
            Refusal::EndPending => Message::new(END_PENDING),
            Refusal::NoProcessor => Message::new(NO_PROCESSOR),
            Refusal::InputExhausted { left } => Message::new(INPUT_EXHAUSTED).with("left", Arg::int(*left)),
            Refusal::AppNotRunning => Message::new(NOT_RUNNING),
            Refusal::AlreadyRunning => Message::new(ALREADY_RUNNING),
            Refusal::AlreadyDown => Message::new(ALREADY_DOWN),
            Refusal::AlreadyCut => Message::new(ALREADY_CUT),
            Refusal::NotCut => Message::new(NOT_CUT),
            Refusal::StreamRunning => Message::new(STREAM_RUNNING),
            _ => Message::new(FAULT),
        }
    }
}

crate::display_as_message!(Refusal);
