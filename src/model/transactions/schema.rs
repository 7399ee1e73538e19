//! The properties the exactly-once scene reads, with Kafka 4.0's names and defaults, and the
//! producer's idempotence checks as `ProducerConfig.postProcessAndValidateIdempotenceConfigs`
//! makes them (refused with Kafka's ConfigException text).

use super::facts::Refusal;
use crate::model::config::{Config, Kind, Property};

/// The transactional id every transactional preset uses (seed 000's `procesador-pagos-0`).
pub const TRANSACTIONAL_ID: &str = "payments-processor-0";

/// Kafka's producer default `request.timeout.ms`, which this scene does not change.
pub const REQUEST_TIMEOUT_MS: u64 = 30_000;

/// Kafka's `MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE`.
pub const MAX_IN_FLIGHT_FOR_IDEMPOTENCE: u32 = 5;

/// Producer properties first (Kafka 3.0+ defaults: idempotence on, acks=all, five requests in
/// flight, retries bounded by delivery.timeout.ms), then the broker's transaction properties,
/// then the lab's own knobs.
pub const TXN_SCHEMA: &[Property] = &[
    Property { name: "enable.idempotence", default: "true", kind: Kind::Bool, scope: "producer" },
    Property { name: "acks", default: "all", kind: Kind::OneOf(&["all", "-1", "0", "1"]), scope: "producer" },
    Property {
        name: "max.in.flight.requests.per.connection",
        default: "5",
        kind: Kind::Int { min: 1, max: 100 },
        scope: "producer",
    },
    Property {
        name: "retries",
        default: "2147483647",
        kind: Kind::Int { min: 0, max: 2_147_483_647 },
        scope: "producer",
    },
    Property { name: "retry.backoff.ms", default: "100", kind: Kind::Int { min: 0, max: 60_000 }, scope: "producer" },
    Property {
        name: "delivery.timeout.ms",
        default: "120000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "producer",
    },
    Property { name: "linger.ms", default: "5", kind: Kind::Int { min: 0, max: 60_000 }, scope: "producer" },
    // Kafka's default is null (no transactions); the lab's only transactional id is seed 000's.
    Property {
        name: "transactional.id",
        default: "null",
        kind: Kind::OneOf(&["null", TRANSACTIONAL_ID]),
        scope: "producer",
    },
    Property {
        name: "transaction.timeout.ms",
        default: "60000",
        kind: Kind::Int { min: 1, max: 2_147_483_647 },
        scope: "producer",
    },
    Property {
        name: "transaction.max.timeout.ms",
        default: "900000",
        kind: Kind::Int { min: 1, max: 2_147_483_647 },
        scope: "broker",
    },
    Property {
        name: "transaction.abort.timed.out.transaction.cleanup.interval.ms",
        default: "10000",
        kind: Kind::Int { min: 1, max: 2_147_483_647 },
        scope: "broker",
    },
    Property { name: "lab.processor", default: "false", kind: Kind::Bool, scope: "lab" },
    Property { name: "lab.db.sink", default: "false", kind: Kind::Bool, scope: "lab" },
    Property { name: "lab.input.records", default: "20", kind: Kind::Int { min: 0, max: 1000 }, scope: "lab" },
    Property {
        name: "lab.other.producer.records.per.sec",
        default: "0",
        kind: Kind::Int { min: 0, max: 10 },
        scope: "lab",
    },
    Property { name: "lab.previous.inits", default: "4", kind: Kind::Int { min: 0, max: 1000 }, scope: "lab" },
    Property { name: "lab.network.delay.ms", default: "10", kind: Kind::Int { min: 1, max: 10_000 }, scope: "lab" },
    Property { name: "lab.consumer.poll.ms", default: "500", kind: Kind::Int { min: 10, max: 60_000 }, scope: "lab" },
];

/// The scene's config, decoded once and checked as Kafka checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Idempotence in force (after Kafka turned it off for an implicit default that conflicts).
    pub idempotence: bool,
    /// `acks=0`: no response at all, so nothing is ever retried.
    pub acks_none: bool,
    pub max_in_flight: u32,
    pub retries: u32,
    pub retry_backoff_ms: u64,
    pub delivery_timeout_ms: u64,
    pub linger_ms: u64,
    pub transactional: bool,
    pub transaction_timeout_ms: u64,
    pub transaction_max_timeout_ms: u64,
    pub abort_check_interval_ms: u64,
    pub processor: bool,
    pub db_sink: bool,
    pub input_records: u64,
    pub other_records_per_sec: u64,
    /// How many times `payments-processor-0` was initialized before the scene starts (its epoch history).
    pub previous_inits: u32,
    pub network_delay_ms: u64,
    pub consumer_poll_ms: u64,
}

impl Settings {
    /// Decodes and validates `config` (Kafka: `ProducerConfig.postProcessAndValidateIdempotenceConfigs`;
    /// an explicit `enable.idempotence=true` with a conflicting value is refused, an implicit one
    /// is turned off; more than 5 requests in flight is refused whenever idempotence is asked for).
    pub fn from_config(config: &Config) -> Result<Self, Refusal> {
        let int = |name: &str| u64::try_from(config.int(name)).unwrap_or(0);
        let explicit_idempotence = config.is_set("enable.idempotence");
        let mut idempotence = config.bool("enable.idempotence");
        let acks_all = matches!(config.str("acks"), "all" | "-1");
        let retries = u32::try_from(config.int("retries")).unwrap_or(u32::MAX);
        let max_in_flight = u32::try_from(config.int("max.in.flight.requests.per.connection")).unwrap_or(u32::MAX);
        if idempotence {
            let mut disable = false;
            if retries == 0 {
                if explicit_idempotence {
                    return Err(Refusal::IdempotenceRetries);
                }
                disable = true;
            }
            if !acks_all {
                if explicit_idempotence {
                    return Err(Refusal::IdempotenceAcks);
                }
                disable = true;
            }
            if max_in_flight > MAX_IN_FLIGHT_FOR_IDEMPOTENCE {
                return Err(Refusal::IdempotenceInFlight { max_in_flight });
            }
            idempotence = !disable;
        }
        // Kafka: KafkaProducer.configureDeliveryTimeout (only a value the user set is refused;
        // request.timeout.ms keeps Kafka's default, 30000, in this scene).
        let delivery_timeout_ms = int("delivery.timeout.ms");
        if config.is_set("delivery.timeout.ms") && delivery_timeout_ms < int("linger.ms") + REQUEST_TIMEOUT_MS {
            return Err(Refusal::DeliveryTimeoutTooSmall { delivery_timeout_ms });
        }
        let transactional = config.str("transactional.id") == TRANSACTIONAL_ID;
        if transactional && !idempotence {
            return Err(Refusal::TransactionsWithoutIdempotence);
        }
        let settings = Self {
            idempotence,
            acks_none: config.str("acks") == "0",
            max_in_flight,
            retries,
            retry_backoff_ms: int("retry.backoff.ms"),
            delivery_timeout_ms,
            linger_ms: int("linger.ms"),
            transactional,
            transaction_timeout_ms: int("transaction.timeout.ms"),
            transaction_max_timeout_ms: int("transaction.max.timeout.ms"),
            abort_check_interval_ms: int("transaction.abort.timed.out.transaction.cleanup.interval.ms"),
            processor: config.bool("lab.processor"),
            db_sink: config.bool("lab.db.sink"),
            input_records: int("lab.input.records"),
            other_records_per_sec: int("lab.other.producer.records.per.sec"),
            previous_inits: u32::try_from(config.int("lab.previous.inits")).unwrap_or(0),
            network_delay_ms: int("lab.network.delay.ms"),
            consumer_poll_ms: int("lab.consumer.poll.ms"),
        };
        // Kafka: TransactionCoordinator.handleInitProducerId answers INVALID_TRANSACTION_TIMEOUT, so
        // initTransactions() throws at the producer's start; the lab refuses the config instead.
        if settings.transactional && settings.transaction_timeout_ms > settings.transaction_max_timeout_ms {
            return Err(Refusal::TransactionTimeoutTooLarge {
                timeout_ms: settings.transaction_timeout_ms,
                max_ms: settings.transaction_max_timeout_ms,
            });
        }
        Ok(settings)
    }
}
