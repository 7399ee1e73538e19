//! The properties the replication scene reads, with Kafka's names and defaults.

use super::{FetchProtocol, Refusal};
use crate::model::config::{Config, Kind, Property};

/// Broker, topic, producer and lab knobs of the replication scene.
pub const REPLICATION_SCHEMA: &[Property] = &[
    Property { name: "lab.brokers", default: "3", kind: Kind::Int { min: 1, max: 7 }, scope: "lab" },
    Property { name: "replication.factor", default: "3", kind: Kind::Int { min: 1, max: 7 }, scope: "topic" },
    Property { name: "min.insync.replicas", default: "1", kind: Kind::Int { min: 1, max: 7 }, scope: "topic" },
    Property { name: "unclean.leader.election.enable", default: "false", kind: Kind::Bool, scope: "topic" },
    Property {
        name: "unclean.leader.election.interval.ms",
        default: "300000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "controller",
    },
    Property {
        name: "replica.lag.time.max.ms",
        default: "30000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "broker",
    },
    Property {
        name: "replica.fetch.wait.max.ms",
        default: "500",
        kind: Kind::Int { min: 0, max: 60_000 },
        scope: "broker",
    },
    Property {
        name: "replica.fetch.backoff.ms",
        default: "1000",
        kind: Kind::Int { min: 0, max: 60_000 },
        scope: "broker",
    },
    Property {
        name: "replica.socket.timeout.ms",
        default: "30000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "broker",
    },
    Property {
        name: "replica.high.watermark.checkpoint.interval.ms",
        default: "5000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "broker",
    },
    Property {
        name: "broker.session.timeout.ms",
        default: "9000",
        kind: Kind::Int { min: 1, max: 600_000 },
        scope: "controller",
    },
    Property { name: "acks", default: "all", kind: Kind::OneOf(&["all", "-1", "0", "1"]), scope: "producer" },
    Property {
        name: "request.timeout.ms",
        default: "30000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "producer",
    },
    Property {
        name: "delivery.timeout.ms",
        default: "120000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "producer",
    },
    Property {
        name: "retries",
        default: "2147483647",
        kind: Kind::Int { min: 0, max: 2_147_483_647 },
        scope: "producer",
    },
    Property { name: "retry.backoff.ms", default: "100", kind: Kind::Int { min: 0, max: 600_000 }, scope: "producer" },
    Property {
        name: "retry.backoff.max.ms",
        default: "1000",
        kind: Kind::Int { min: 0, max: 600_000 },
        scope: "producer",
    },
    Property { name: "enable.idempotence", default: "true", kind: Kind::Bool, scope: "producer" },
    Property { name: "lab.leader.epoch.enabled", default: "true", kind: Kind::Bool, scope: "lab" },
    Property {
        name: "lab.fetch.protocol",
        default: "diverging-epoch",
        kind: Kind::OneOf(FetchProtocol::VALUES),
        scope: "lab",
    },
    Property { name: "lab.network.delay.ms", default: "20", kind: Kind::Int { min: 1, max: 10_000 }, scope: "lab" },
    Property {
        name: "lab.os.flush.interval.ms",
        default: "30000",
        kind: Kind::Int { min: 1, max: 3_600_000 },
        scope: "lab",
    },
    Property {
        name: "lab.producer.records.per.sec",
        default: "0",
        kind: Kind::Int { min: 0, max: 1000 },
        scope: "lab",
    },
    Property { name: "lab.producer.max.records", default: "0", kind: Kind::Int { min: 0, max: 100_000 }, scope: "lab" },
];

/// Which acknowledgement the producer asks for (`acks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Acks {
    /// acks=0: fire and forget; the send callback succeeds at once.
    None,
    /// acks=1: the leader's own append.
    Leader,
    /// acks=all (-1): the whole current ISR.
    All,
}

impl Acks {
    /// The value as the producer config writes it (`acks=all`).
    pub fn config_value(self) -> &'static str {
        match self {
            Acks::None => "0",
            Acks::Leader => "1",
            Acks::All => "all",
        }
    }
}

/// The config values the scene reads, decoded once (Kafka's `KafkaConfig` / `ProducerConfig` subset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub brokers: u32,
    pub replication_factor: u32,
    pub min_insync_replicas: usize,
    pub unclean_leader_election: bool,
    /// How often the controller looks for leaderless partitions to elect uncleanly.
    pub unclean_election_interval_ms: u64,
    pub replica_lag_time_max_ms: u64,
    pub replica_fetch_wait_max_ms: u64,
    pub replica_fetch_backoff_ms: u64,
    pub replica_socket_timeout_ms: u64,
    pub hw_checkpoint_interval_ms: u64,
    pub broker_session_timeout_ms: u64,
    pub acks: Acks,
    pub request_timeout_ms: u64,
    pub delivery_timeout_ms: u64,
    pub retries: u64,
    pub retry_backoff_ms: u64,
    pub retry_backoff_max_ms: u64,
    /// Effective idempotence: Kafka turns it off by default when acks is not all.
    pub idempotence: bool,
    pub leader_epoch_enabled: bool,
    /// How a follower finds its divergence: the 4.x Fetch with lastFetchedEpoch (default) or
    /// OffsetsForLeaderEpoch first (0.11–2.6), `lab.fetch.protocol`.
    pub fetch_protocol: FetchProtocol,
    pub network_delay_ms: u64,
    pub os_flush_interval_ms: u64,
    pub producer_records_per_sec: u64,
    /// The steady load stops after this many records (0: never).
    pub producer_max_records: u64,
}

impl Settings {
    /// How often a leader runs its `isr-expiration` task: `replica.lag.time.max.ms / 2`, as
    /// ReplicaManager.startup schedules `maybeShrinkIsr`; at least 1 ms, so a lag of 1 ms
    /// cannot schedule the task at its own instant for ever (Kafka's scheduler would refuse
    /// the zero period outright).
    pub fn isr_expiration_period_ms(&self) -> u64 {
        (self.replica_lag_time_max_ms / 2).max(1)
    }

    /// Reads and cross-checks the config: replication factor against brokers, the broker's
    /// fetch timeouts (KafkaConfig), then the producer's idempotence and delivery timeout.
    pub fn from_config(config: &Config) -> Result<Self, Refusal> {
        let int = |name: &str| u64::try_from(config.int(name)).unwrap_or(0);
        let small = |name: &str| u32::try_from(config.int(name)).unwrap_or(0);
        let (brokers, replication_factor) = (small("lab.brokers"), small("replication.factor"));
        if replication_factor > brokers {
            return Err(Refusal::ReplicationFactorTooLarge { replication_factor, brokers });
        }
        check_replica_fetch_wait(config)?;
        let acks = match config.str("acks") {
            "0" => Acks::None,
            "1" => Acks::Leader,
            _ => Acks::All,
        };
        let idempotence = idempotence(config, acks)?;
        let request_timeout_ms = int("request.timeout.ms");
        let delivery_timeout_ms = delivery_timeout_ms(config, request_timeout_ms)?;
        Ok(Self {
            brokers,
            replication_factor,
            min_insync_replicas: small("min.insync.replicas") as usize,
            unclean_leader_election: config.bool("unclean.leader.election.enable"),
            unclean_election_interval_ms: int("unclean.leader.election.interval.ms"),
            replica_lag_time_max_ms: int("replica.lag.time.max.ms"),
            replica_fetch_wait_max_ms: int("replica.fetch.wait.max.ms"),
            replica_fetch_backoff_ms: int("replica.fetch.backoff.ms"),
            replica_socket_timeout_ms: int("replica.socket.timeout.ms"),
            hw_checkpoint_interval_ms: int("replica.high.watermark.checkpoint.interval.ms"),
            broker_session_timeout_ms: int("broker.session.timeout.ms"),
            acks,
            request_timeout_ms,
            delivery_timeout_ms,
            retries: int("retries"),
            retry_backoff_ms: int("retry.backoff.ms"),
            retry_backoff_max_ms: int("retry.backoff.max.ms"),
            idempotence,
            leader_epoch_enabled: config.bool("lab.leader.epoch.enabled"),
            fetch_protocol: FetchProtocol::from_config_value(config.str("lab.fetch.protocol")),
            network_delay_ms: int("lab.network.delay.ms"),
            os_flush_interval_ms: int("lab.os.flush.interval.ms"),
            producer_records_per_sec: int("lab.producer.records.per.sec"),
            producer_max_records: int("lab.producer.max.records"),
        })
    }
}

/// The lab's producer sends each record as soon as `send()` is called: its `linger.ms` is 0
/// (Kafka 4.0's default is 5, which only delays a batch to fill it).
pub const LINGER_MS: u64 = 0;

/// KafkaConfig's checks of `replica.fetch.wait.max.ms` against the socket timeout and the lag limit.
fn check_replica_fetch_wait(config: &Config) -> Result<(), Refusal> {
    let int = |name: &str| u64::try_from(config.int(name)).unwrap_or(0);
    let fetch_wait_max_ms = int("replica.fetch.wait.max.ms");
    if fetch_wait_max_ms > int("replica.socket.timeout.ms") {
        return Err(Refusal::FetchWaitAboveSocketTimeout);
    }
    if fetch_wait_max_ms > int("replica.lag.time.max.ms") {
        return Err(Refusal::FetchWaitAboveLagTime);
    }
    Ok(())
}

/// `ProducerConfig.postProcessAndValidateIdempotenceConfigs`: idempotence needs retries > 0 and
/// acks=all. Set explicitly, a conflict is refused; left at its default, idempotence is turned off.
fn idempotence(config: &Config, acks: Acks) -> Result<bool, Refusal> {
    let explicit = config.is_set("enable.idempotence");
    if !config.bool("enable.idempotence") {
        return Ok(false);
    }
    if config.int("retries") == 0 {
        return if explicit { Err(Refusal::IdempotenceNeedsRetries) } else { Ok(false) };
    }
    if acks != Acks::All {
        return if explicit { Err(Refusal::IdempotenceNeedsAcksAll) } else { Ok(false) };
    }
    Ok(true)
}

/// `KafkaProducer.configureDeliveryTimeout`: below `linger.ms + request.timeout.ms`, an explicit
/// `delivery.timeout.ms` is refused and the default one is raised to that sum.
fn delivery_timeout_ms(config: &Config, request_timeout_ms: u64) -> Result<u64, Refusal> {
    let delivery_timeout_ms = u64::try_from(config.int("delivery.timeout.ms")).unwrap_or(0);
    let floor_ms = LINGER_MS + request_timeout_ms;
    if delivery_timeout_ms >= floor_ms {
        return Ok(delivery_timeout_ms);
    }
    if config.is_set("delivery.timeout.ms") {
        return Err(Refusal::DeliveryTimeoutTooSmall { delivery_timeout_ms, linger_ms: LINGER_MS, request_timeout_ms });
    }
    Ok(floor_ms)
}
