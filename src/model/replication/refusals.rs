//! Why the replication scene refuses a command or a config, in today's words.

use super::wording::node_arg;
use crate::model::kernel::{Arg, Describe, Message, Node};

/// Why the replication scene refuses a command or a config.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Kafka's InvalidReplicationFactorException at topic creation.
    ReplicationFactorTooLarge {
        replication_factor: u32,
        brokers: u32,
    },
    /// Kafka's ConfigException: an explicit `delivery.timeout.ms` below `linger.ms + request.timeout.ms`.
    DeliveryTimeoutTooSmall {
        delivery_timeout_ms: u64,
        linger_ms: u64,
        request_timeout_ms: u64,
    },
    /// KafkaConfig: `replica.fetch.wait.max.ms` above `replica.socket.timeout.ms`.
    FetchWaitAboveSocketTimeout,
    /// KafkaConfig: `replica.fetch.wait.max.ms` above `replica.lag.time.max.ms`.
    FetchWaitAboveLagTime,
    /// ProducerConfig: `enable.idempotence=true` set explicitly with `retries=0`.
    IdempotenceNeedsRetries,
    /// ProducerConfig: `enable.idempotence=true` set explicitly with acks other than all.
    IdempotenceNeedsAcksAll,
    NoSuchBroker {
        id: u32,
        brokers: u32,
    },
    ProduceCount {
        records: u32,
    },
    AlreadyDown {
        id: u32,
    },
    AlreadyRunning {
        id: u32,
    },
    CannotPause {
        id: u32,
    },
    PauseLength {
        duration_ms: u64,
    },
    FetchDelay {
        delay_ms: u64,
    },
    SameEndpoints,
    LinkAlreadyCut {
        a: Node,
        b: Node,
    },
    LinkNotCut {
        a: Node,
        b: Node,
    },
    /// A steady load already runs.
    LoadRunning {
        records_per_sec: u64,
    },
    LoadRate {
        records_per_sec: u32,
    },
    /// A fault this scene does not model (a stall, or a process fault aimed at no broker).
    FaultNotModelled,
}

crate::messages! {
    pub REFUSAL_KEYS;
    RF_TOO_LARGE = "replication.refusal.rf" => "{kafka}";
    DELIVERY_TOO_SMALL = "replication.refusal.delivery" =>
        "{kafka} (here {delivery} < {linger} + {request}: this lab's producer sends each record at once, so its linger.ms is 0; Kafka 4.0's default is 5)";
    FETCH_WAIT_SOCKET = "replication.refusal.fetch_wait_socket" => "{kafka}";
    FETCH_WAIT_LAG = "replication.refusal.fetch_wait_lag" => "{kafka}";
    IDEMPOTENCE_RETRIES = "replication.refusal.idempotence_retries" => "{kafka}";
    IDEMPOTENCE_ACKS = "replication.refusal.idempotence_acks" => "{kafka}";
    NO_SUCH_BROKER = "replication.refusal.no_broker" => "There is no broker {id}: this cluster has brokers 1 to {brokers}.";
    PRODUCE_COUNT = "replication.refusal.produce" => "Produce takes 1 to 10000 records, not {records}.";
    ALREADY_DOWN = "replication.refusal.down" => "broker-{id} is already down.";
    ALREADY_RUNNING = "replication.refusal.running" => "broker-{id} is already running.";
    CANNOT_PAUSE = "replication.refusal.pause" => "broker-{id} is not running, so it cannot be paused.";
    PAUSE_LENGTH = "replication.refusal.pause_ms" => "A pause lasts 1 to 600000 ms, not {ms}.";
    FETCH_DELAY = "replication.refusal.slow_ms" => "A fetch delay is 0 to 600000 ms, not {ms}.";
    SAME_ENDPOINTS = "replication.refusal.same" => "A link joins two different endpoints.";
    ALREADY_CUT = "replication.refusal.cut" => "The link {a} ↔ {b} is already cut.";
    NOT_CUT = "replication.refusal.not_cut" => "The link {a} ↔ {b} is not cut.";
    LOAD_RUNNING = "replication.refusal.load_running" =>
        "A steady producer already sends {rate} records per second.";
    LOAD_RATE = "replication.refusal.load_rate" => "A steady producer sends 1 to 1000 records per second, not {rate}.";
    FAULT_NOT_MODELLED = "replication.refusal.fault" =>
        "This scene kills, power-fails, restarts, pauses and slows brokers only.";
}

impl Describe for Refusal {
    fn message(&self) -> Message {
        match *self {
            Refusal::ReplicationFactorTooLarge { replication_factor, brokers } => Message::new(RF_TOO_LARGE).with(
                "kafka",
                Arg::kafka(format!(
                    "The target replication factor of {replication_factor} cannot be reached because only \
                     {brokers} broker(s) are registered."
                )),
            ),
            // Kafka: KafkaProducer.configureDeliveryTimeout's ConfigException.
            Refusal::DeliveryTimeoutTooSmall { delivery_timeout_ms, linger_ms, request_timeout_ms } => {
                Message::new(DELIVERY_TOO_SMALL)
                    .with("kafka", Arg::kafka("delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms"))
                    .with("delivery", Arg::int(delivery_timeout_ms))
                    .with("linger", Arg::int(linger_ms))
                    .with("request", Arg::int(request_timeout_ms))
            }
            // Kafka: KafkaConfig.validateValues (Scala `require`, hence "requirement failed: ").
            Refusal::FetchWaitAboveSocketTimeout => Message::new(FETCH_WAIT_SOCKET).with(
                "kafka",
                Arg::kafka(
                    "requirement failed: replica.socket.timeout.ms should always be at least \
                     replica.fetch.wait.max.ms to prevent unnecessary socket timeouts",
                ),
            ),
            Refusal::FetchWaitAboveLagTime => Message::new(FETCH_WAIT_LAG).with(
                "kafka",
                Arg::kafka(
                    "requirement failed: replica.fetch.wait.max.ms should always be less than or equal to \
                     replica.lag.time.max.ms to prevent frequent changes in ISR",
                ),
            ),
            // Kafka: ProducerConfig.postProcessAndValidateIdempotenceConfigs's ConfigExceptions.
            Refusal::IdempotenceNeedsRetries => Message::new(IDEMPOTENCE_RETRIES).with(
                "kafka",
                Arg::kafka("Must set retries to non-zero when using the idempotent producer."),
            ),
            Refusal::IdempotenceNeedsAcksAll => Message::new(IDEMPOTENCE_ACKS).with(
                "kafka",
                Arg::kafka("Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."),
            ),
            Refusal::NoSuchBroker { id, brokers } => {
                Message::new(NO_SUCH_BROKER).with("id", Arg::int(id)).with("brokers", Arg::int(brokers))
            }
            Refusal::ProduceCount { records } => Message::new(PRODUCE_COUNT).with("records", Arg::int(records)),
            Refusal::AlreadyDown { id } => Message::new(ALREADY_DOWN).with("id", Arg::int(id)),
            Refusal::AlreadyRunning { id } => Message::new(ALREADY_RUNNING).with("id", Arg::int(id)),
            Refusal::CannotPause { id } => Message::new(CANNOT_PAUSE).with("id", Arg::int(id)),
            Refusal::PauseLength { duration_ms } => Message::new(PAUSE_LENGTH).with("ms", Arg::int(duration_ms)),
            Refusal::FetchDelay { delay_ms } => Message::new(FETCH_DELAY).with("ms", Arg::int(delay_ms)),
            Refusal::SameEndpoints => Message::new(SAME_ENDPOINTS),
            Refusal::LinkAlreadyCut { a, b } => Message::new(ALREADY_CUT).with("a", node_arg(a)).with("b", node_arg(b)),
            Refusal::LinkNotCut { a, b } => Message::new(NOT_CUT).with("a", node_arg(a)).with("b", node_arg(b)),
            Refusal::LoadRunning { records_per_sec } => {
                Message::new(LOAD_RUNNING).with("rate", Arg::int(records_per_sec))
            }
            Refusal::LoadRate { records_per_sec } => Message::new(LOAD_RATE).with("rate", Arg::int(records_per_sec)),
            Refusal::FaultNotModelled => Message::new(FAULT_NOT_MODELLED),
        }
    }
}

crate::display_as_message!(Refusal);
