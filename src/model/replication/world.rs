//! The replication scene's world: brokers hosting one partition's replicas, the
//! controller, the network between them, one producer, and the durability ledger.

use std::collections::{BTreeMap, BTreeSet};

use super::ledger::Ledger;
use super::log::EpochEndOffset;
use super::partition::{FetchRequest, FetchResponse, PartitionError, ReplicatedPartition};
use super::producer::ProducerState;
use super::schema::Settings;
use crate::model::config::Config;
use crate::model::kernel::Ctx;

/// The topic the scene's partition belongs to.
pub const TOPIC: &str = "orders";

/// A network endpoint: a broker, the (KRaft) controller, or the producer client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Node {
    Broker(u32),
    Controller,
    Producer,
}

impl Node {
    /// The endpoint as logs and links name it (`broker-2`, `controller`, `producer`).
    pub fn name(self) -> String {
        match self {
            Node::Broker(id) => format!("broker-{id}"),
            Node::Controller => "controller".into(),
            Node::Producer => "producer".into(),
        }
    }
}

/// A broker process as the scene runs it (a KafkaServer's liveness and its controller session).
#[derive(Clone, Debug, PartialEq)]
pub struct BrokerState {
    pub id: u32,
    pub alive: bool,
    /// Inside a stop-the-world GC pause: it neither sends nor handles anything.
    pub paused: bool,
    /// Fenced by the controller after `broker.session.timeout.ms` without a heartbeat.
    pub fenced: bool,
    /// Extra delay before each of its follower fetches (a slow follower), in ms.
    pub slow_fetch_delay_ms: u64,
    /// Bumped on every change of its controller session, to void a stale expiry timer.
    pub(super) session_token: u64,
    pub(super) pause_token: u64,
    /// Bumped whenever it becomes leader, so only one ISR-expiration task runs.
    pub(super) leader_task_token: u64,
    /// Bumped whenever its fetcher restarts, to void stale fetch responses.
    pub(super) fetch_session: u64,
    /// Id of its latest fetcher request; an answer or timeout for any other is stale.
    pub(super) fetch_attempt: u64,
    pub(super) awaiting_fetch: bool,
    /// Its last fetch attempt was refused (logged once per streak).
    pub(super) fetch_refused: bool,
    /// Whether its heartbeats currently reach the controller.
    pub(super) heartbeating: bool,
    /// Events that arrived while paused, handled when the pause ends.
    pub(super) stash: Vec<Event>,
}

/// A produce request of one record batch (one record) to the partition leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProduceRequest {
    pub request_id: u64,
    pub record_id: u64,
    pub sequence: Option<u64>,
    pub acks_all: bool,
    pub acks_none: bool,
}

/// The scene's events: messages arriving (with their send time, for drawing progress) and timers.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A follower's fetcher thread issues its next request.
    FetcherWakeup {
        follower: u32,
        session: u64,
    },
    FetchArrives {
        leader: u32,
        request: FetchRequest,
        request_id: u64,
        sent_ms: u64,
    },
    FetchResponseArrives {
        follower: u32,
        leader: u32,
        response: FetchResponse,
        request_id: u64,
        sent_ms: u64,
    },
    EpochRequestArrives {
        leader: u32,
        follower: u32,
        leader_epoch: i32,
        current_leader_epoch: i32,
        request_id: u64,
        sent_ms: u64,
    },
    EpochResponseArrives {
        follower: u32,
        leader: u32,
        answer: Result<EpochEndOffset, PartitionError>,
        request_id: u64,
        sent_ms: u64,
    },
    /// No answer within `replica.socket.timeout.ms`.
    FetchTimedOut {
        follower: u32,
        request_id: u64,
    },
    /// A fetch parked in the leader's fetch purgatory reaches `replica.fetch.wait.max.ms`.
    DelayedFetchExpires {
        leader: u32,
        follower: u32,
        request_id: u64,
    },
    ProduceArrives {
        leader: u32,
        request: ProduceRequest,
        sent_ms: u64,
    },
    ProduceResponseArrives {
        from: u32,
        request_id: u64,
        result: Result<i64, PartitionError>,
        sent_ms: u64,
    },
    /// An acks=all produce in the leader's purgatory reaches its timeout.
    DelayedProduceExpires {
        leader: u32,
        request_id: u64,
    },
    /// The producer's own `request.timeout.ms` for an in-flight request.
    ProduceTimedOut {
        request_id: u64,
    },
    /// The producer sends (or retries) a record after `retry.backoff.ms`.
    ProducerRetry {
        record_id: u64,
    },
    /// The producer's steady load (`lab.producer.records.per.sec`).
    ProducerTick,
    /// A leader's periodic `isr-expiration` task (every `replica.lag.time.max.ms` / 2).
    IsrExpiration {
        broker: u32,
        token: u64,
    },
    /// Page-cache writeback and `replication-offset-checkpoint` on every live broker.
    Checkpoint,
    OsFlush,
    /// The controller's heartbeat deadline for a broker.
    SessionExpired {
        broker: u32,
        token: u64,
    },
    /// A GC pause ends.
    PauseEnds {
        broker: u32,
        token: u64,
    },
}

impl Event {
    /// The broker whose process handles this event, if any (paused brokers stash it).
    pub fn target_broker(&self) -> Option<u32> {
        match *self {
            Event::FetcherWakeup { follower, .. }
            | Event::FetchResponseArrives { follower, .. }
            | Event::EpochResponseArrives { follower, .. }
            | Event::FetchTimedOut { follower, .. } => Some(follower),
            Event::FetchArrives { leader, .. }
            | Event::EpochRequestArrives { leader, .. }
            | Event::DelayedFetchExpires { leader, .. }
            | Event::ProduceArrives { leader, .. }
            | Event::DelayedProduceExpires { leader, .. } => Some(leader),
            Event::IsrExpiration { broker, .. } => Some(broker),
            _ => None,
        }
    }
}

/// What a learner can do: produce, and inject faults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Produce {
        records: u32,
    },
    /// kill -9 of a broker process (the log survives in the page cache).
    Kill(u32),
    /// Power failure of a broker's machine: records the OS had not written back are lost.
    PowerFail(u32),
    Restart(u32),
    /// A stop-the-world pause of `duration_ms`.
    Pause {
        broker: u32,
        duration_ms: u64,
    },
    /// Every fetch of this follower waits `delay_ms` more (0 ends it).
    Slow {
        broker: u32,
        delay_ms: u64,
    },
    Cut(Node, Node),
    Heal(Node, Node),
    /// `kafka-configs --alter --add-config unclean.leader.election.enable=...`.
    SetUncleanElection(bool),
}

/// An acks=all produce waiting in a leader's produce purgatory (`DelayedProduce`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DelayedProduce {
    pub request_id: u64,
    pub required_offset: i64,
}

/// A follower fetch parked in a leader's fetch purgatory (`DelayedFetch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DelayedFetch {
    pub follower: u32,
    pub fetch_offset: i64,
    pub request_id: u64,
}

/// The replication scene: Kafka's `ReplicaManager` + fetcher threads on each broker, the
/// controller, and a `KafkaProducer`. Reads the properties in `REPLICATION_SCHEMA`.
#[derive(Clone, Debug)]
pub struct Replication {
    pub(super) settings: Settings,
    pub(super) partition: ReplicatedPartition,
    pub(super) brokers: Vec<BrokerState>,
    pub(super) cut_links: BTreeSet<(Node, Node)>,
    pub(super) produce_purgatory: BTreeMap<u32, Vec<DelayedProduce>>,
    pub(super) fetch_purgatory: BTreeMap<u32, Vec<DelayedFetch>>,
    pub(super) ledger: Ledger,
    pub(super) producer: ProducerState,
    /// The leader whose log the ledger reads when the partition is offline.
    pub(super) last_leader: u32,
}

impl Replication {
    /// Builds the scene for a validated config: brokers 1..=n, replicas on brokers 1..=RF, leader 1.
    pub fn new(config: &Config) -> Result<Self, String> {
        let settings = Settings::from_config(config)?;
        let replicas: Vec<u32> = (1..=settings.replication_factor).collect();
        let mut partition = ReplicatedPartition::new(&replicas, 1);
        partition.set_leader_epoch_enabled(settings.leader_epoch_enabled);
        let brokers = (1..=settings.brokers)
            .map(|id| BrokerState {
                id,
                alive: true,
                paused: false,
                fenced: false,
                slow_fetch_delay_ms: 0,
                session_token: 0,
                pause_token: 0,
                leader_task_token: 0,
                fetch_session: 0,
                fetch_attempt: 0,
                awaiting_fetch: false,
                fetch_refused: false,
                heartbeating: true,
                stash: Vec::new(),
            })
            .collect();
        Ok(Self {
            settings,
            partition,
            brokers,
            cut_links: BTreeSet::new(),
            produce_purgatory: BTreeMap::new(),
            fetch_purgatory: BTreeMap::new(),
            ledger: Ledger::default(),
            producer: ProducerState::default(),
            last_leader: 1,
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn partition(&self) -> &ReplicatedPartition {
        &self.partition
    }

    pub fn brokers(&self) -> &[BrokerState] {
        &self.brokers
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    pub(super) fn broker(&self, id: u32) -> &BrokerState {
        &self.brokers[(id - 1) as usize]
    }

    pub(super) fn broker_mut(&mut self, id: u32) -> &mut BrokerState {
        &mut self.brokers[(id - 1) as usize]
    }

    pub(super) fn hosts_replica(&self, id: u32) -> bool {
        self.partition.assignment().contains(&id)
    }

    /// Whether a link between two endpoints is up (both directions are cut together).
    pub fn link_up(&self, a: Node, b: Node) -> bool {
        !self.cut_links.contains(&(a.min(b), a.max(b)))
    }

    /// Whether a node can take part in the network right now (a dead or paused broker cannot).
    pub(super) fn node_running(&self, node: Node) -> bool {
        match node {
            Node::Broker(id) => self.broker(id).alive && !self.broker(id).paused,
            _ => true,
        }
    }

    /// Sends a message: it arrives after `lab.network.delay.ms` (and is dropped on arrival if the
    /// link was cut or the receiver died). False if the receiver's process is down (refused).
    pub(super) fn send(
        &self,
        from: Node,
        to: Node,
        event: Event,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> bool {
        if let Node::Broker(id) = to {
            if !self.broker(id).alive {
                return false;
            }
        }
        let _ = from;
        ctx.schedule(self.settings.network_delay_ms, event);
        true
    }

    /// The nodes a message event travels between, for the arrival check.
    fn endpoints(event: &Event) -> Option<(Node, Node)> {
        Some(match *event {
            Event::FetchArrives { leader, request, .. } => (Node::Broker(request.follower), Node::Broker(leader)),
            Event::FetchResponseArrives { follower, leader, .. } => (Node::Broker(leader), Node::Broker(follower)),
            Event::EpochRequestArrives { leader, follower, .. } => (Node::Broker(follower), Node::Broker(leader)),
            Event::EpochResponseArrives { follower, leader, .. } => (Node::Broker(leader), Node::Broker(follower)),
            Event::ProduceArrives { leader, .. } => (Node::Producer, Node::Broker(leader)),
            Event::ProduceResponseArrives { from, .. } => (Node::Broker(from), Node::Producer),
            _ => return None,
        })
    }

    pub(super) fn dispatch(&mut self, event: Event, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        match event {
            Event::FetcherWakeup { follower, session } => self.fetcher_wakeup(follower, session, ctx),
            Event::FetchArrives { leader, request, request_id, .. } => self.on_fetch(leader, request, request_id, ctx),
            Event::FetchResponseArrives { follower, leader, response, request_id, .. } => {
                self.on_fetch_response(follower, leader, response, request_id, ctx)
            }
            Event::EpochRequestArrives { leader, follower, leader_epoch, current_leader_epoch, request_id, .. } => {
                self.on_epoch_request(leader, follower, leader_epoch, current_leader_epoch, request_id, ctx)
            }
            Event::EpochResponseArrives { follower, leader, answer, request_id, .. } => {
                self.on_epoch_response(follower, leader, answer, request_id, ctx)
            }
            Event::FetchTimedOut { follower, request_id } => self.on_fetch_timeout(follower, request_id, ctx),
            Event::DelayedFetchExpires { leader, follower, request_id } => {
                self.on_delayed_fetch_expired(leader, follower, request_id, ctx)
            }
            Event::ProduceArrives { leader, request, .. } => self.on_produce(leader, request, ctx),
            Event::ProduceResponseArrives { from, request_id, result, .. } => {
                self.on_produce_response(from, request_id, result, ctx)
            }
            Event::DelayedProduceExpires { leader, request_id } => {
                self.on_delayed_produce_expired(leader, request_id, ctx)
            }
            Event::ProduceTimedOut { request_id } => self.on_produce_timeout(request_id, ctx),
            Event::ProducerRetry { record_id } => self.send_record(record_id, ctx),
            Event::ProducerTick => self.on_producer_tick(ctx),
            Event::IsrExpiration { broker, token } => self.on_isr_expiration(broker, token, ctx),
            Event::Checkpoint => self.on_checkpoint(ctx),
            Event::OsFlush => self.on_os_flush(ctx),
            Event::SessionExpired { broker, token } => self.on_session_expired(broker, token, ctx),
            Event::PauseEnds { broker, token } => self.on_pause_end(broker, token, ctx),
        }
    }
}

impl crate::model::kernel::LegacyWorld for Replication {
    type Event = Event;
    type Command = Command;

    fn start(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let replicas = self.partition.assignment().to_vec();
        ctx.log(
            "controller",
            format!(
                "created {TOPIC}-0: Leader: 1 Replicas: {} Isr: {} LeaderEpoch: 0",
                join(&replicas),
                join(&replicas)
            ),
        );
        for follower in replicas.iter().copied().filter(|b| *b != 1) {
            ctx.schedule(0, Event::FetcherWakeup { follower, session: 0 });
        }
        ctx.schedule(self.settings.replica_lag_time_max_ms / 2, Event::IsrExpiration { broker: 1, token: 0 });
        ctx.schedule(self.settings.hw_checkpoint_interval_ms, Event::Checkpoint);
        ctx.schedule(self.settings.os_flush_interval_ms, Event::OsFlush);
        if let Some(gap_ms) = 1000u64.checked_div(self.settings.producer_records_per_sec) {
            ctx.schedule(gap_ms, Event::ProducerTick);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        if let Some((from, to)) = Self::endpoints(&event) {
            if !self.link_up(from, to) {
                return;
            }
        }
        if let Some(id) = event.target_broker() {
            if !self.broker(id).alive {
                return;
            }
            if self.broker(id).paused {
                self.broker_mut(id).stash.push(event);
                return;
            }
        }
        self.dispatch(event, ctx);
        self.check_invariants();
    }

    fn apply(&mut self, command: &Command, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        self.validate(command)?;
        self.run_command(command, ctx);
        self.check_invariants();
        Ok(())
    }
}

impl Replication {
    /// Kafka's invariants, checked after every event in debug builds: HW ≤ LEO everywhere.
    pub(super) fn check_invariants(&self) {
        for broker in self.partition.assignment() {
            debug_assert!(
                self.partition.hw(*broker) <= self.partition.leo(*broker),
                "HW passed LEO on broker {broker}"
            );
        }
    }
}

pub(super) fn join(ids: &[u32]) -> String {
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

crate::legacy_world!(Replication);
