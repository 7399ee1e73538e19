//! The replication scene's world: building it, the network between its nodes, and the
//! kernel's `World` contract (check decides every refusal; apply cannot fail).

use crate::model::kernel::sorted::{SortedMap, SortedSet};

use super::{
    BrokerState, Command, Event, Fact, Fault, Ledger, Node, ProducerState, Refusal, RepCtx, ReplicatedPartition,
    Replication, Settings,
};
use crate::model::kernel::{Actor, World};

/// The most records one Produce command sends.
pub const MAX_PRODUCE_RECORDS: u32 = 10_000;

impl Replication {
    /// Builds the scene for a validated config: brokers 1..=n, replicas on brokers 1..=RF, leader 1.
    pub fn new(settings: Settings) -> Self {
        let replicas: Vec<u32> = (1..=settings.replication_factor).collect();
        let mut partition = ReplicatedPartition::new(&replicas, 1);
        partition.set_leader_epoch_enabled(settings.leader_epoch_enabled);
        partition.set_min_insync_replicas(settings.min_insync_replicas);
        partition.set_replica_lag_time_max_ms(settings.replica_lag_time_max_ms);
        partition.set_fetch_protocol(settings.fetch_protocol);
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
        Self {
            settings,
            partition,
            brokers,
            cut_links: SortedSet::new(),
            produce_purgatory: SortedMap::new(),
            fetch_purgatory: SortedMap::new(),
            ledger: Ledger::default(),
            producer: ProducerState { load_records_per_sec: settings.producer_records_per_sec, ..Default::default() },
            last_leader: 1,
            unclean_check_scheduled: false,
        }
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
            Node::Id(id) => self.broker(id).alive && !self.broker(id).paused,
            _ => true,
        }
    }

    /// Sends a message: it arrives after `lab.network.delay.ms` (and is dropped on arrival if the
    /// link was cut or the receiver died). False if the receiver's process is down (refused).
    pub(super) fn send(&self, from: Node, to: Node, event: Event, ctx: &mut RepCtx) -> bool {
        if let Node::Id(id) = to {
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
            Event::FetchArrives { leader, request, .. } => (Node::Id(request.follower), Node::Id(leader)),
            Event::FetchResponseArrives { follower, leader, .. } => (Node::Id(leader), Node::Id(follower)),
            Event::EpochRequestArrives { leader, follower, .. } => (Node::Id(follower), Node::Id(leader)),
            Event::EpochResponseArrives { follower, leader, .. } => (Node::Id(leader), Node::Id(follower)),
            Event::ProduceArrives { leader, .. } => (Node::Producer, Node::Id(leader)),
            Event::ProduceResponseArrives { from, .. } => (Node::Id(from), Node::Producer),
            _ => return None,
        })
    }

    pub(super) fn dispatch(&mut self, event: Event, ctx: &mut RepCtx) {
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
            Event::UncleanElectionCheck => self.on_unclean_check(ctx),
        }
    }
}

impl World for Replication {
    type Event = Event;
    type Command = Command;
    type Fact = Fact;
    type Refusal = Refusal;

    fn start(&mut self, ctx: &mut RepCtx) {
        let replicas = self.partition.assignment().to_vec();
        ctx.record(
            Actor::Controller,
            Fact::PartitionCreated { leader: 1, replicas: replicas.clone(), isr: replicas.clone() },
        );
        for follower in replicas.iter().copied().filter(|b| *b != 1) {
            ctx.schedule(0, Event::FetcherWakeup { follower, session: 0 });
        }
        ctx.schedule(self.settings.isr_expiration_period_ms(), Event::IsrExpiration { broker: 1, token: 0 });
        ctx.schedule(self.settings.hw_checkpoint_interval_ms, Event::Checkpoint);
        ctx.schedule(self.settings.os_flush_interval_ms, Event::OsFlush);
        if let Some(gap_ms) = 1000u64.checked_div(self.settings.producer_records_per_sec) {
            ctx.schedule(gap_ms, Event::ProducerTick);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut RepCtx) {
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
        self.partition.sync_clock(ctx.now_ms());
        self.dispatch(event, ctx);
        self.check_invariants();
    }

    fn check(&self, command: &Command, _ctx: &RepCtx) -> Result<(), Refusal> {
        self.refusal(command).map_or(Ok(()), Err)
    }

    fn apply(&mut self, command: &Command, ctx: &mut RepCtx) {
        debug_assert!(self.refusal(command).is_none(), "apply without check: {command:?}");
        self.partition.sync_clock(ctx.now_ms());
        self.run_command(command, ctx);
        self.check_invariants();
    }

    /// The producer's requests in flight and the leaders' purgatories grow with the load
    /// (30,000 parked produces at 1,000 records a second); replica logs and the ledger are shared.
    fn copied_items(&self) -> usize {
        let parked: usize = self.produce_purgatory.values().map(|p| p.parked.len()).sum();
        let fetches: usize = self.fetch_purgatory.values().map(Vec::len).sum();
        let producer = &self.producer;
        producer.in_flight.len()
            + producer.records_in_flight.len()
            + producer.waiting_for_leader.len()
            + parked
            + fetches
    }
}

/// The fastest steady load a command may start (as `lab.producer.records.per.sec` allows).
pub const MAX_LOAD_RECORDS_PER_SEC: u64 = 1000;

/// The longest pause or fetch delay a command may ask for, in ms.
const MAX_FAULT_MS: u64 = 600_000;

impl Replication {
    /// Why `command` cannot run now, if it cannot; changes nothing.
    fn refusal(&self, command: &Command) -> Option<Refusal> {
        match *command {
            Command::Produce { records } => {
                (records == 0 || records > MAX_PRODUCE_RECORDS).then_some(Refusal::ProduceCount { records })
            }
            Command::SetUncleanElection(_) | Command::ElectUncleanLeader => None,
            Command::SteadyLoad { records_per_sec } => self.load_refusal(records_per_sec),
            Command::Fault(fault) => self.fault_refusal(fault),
        }
    }

    fn fault_refusal(&self, fault: Fault) -> Option<Refusal> {
        match fault {
            Fault::Crash(Node::Id(id)) | Fault::PowerFail(Node::Id(id)) => {
                self.unknown_broker(id).or_else(|| (!self.broker(id).alive).then_some(Refusal::AlreadyDown { id }))
            }
            Fault::Restart(Node::Id(id)) => {
                self.unknown_broker(id).or_else(|| self.broker(id).alive.then_some(Refusal::AlreadyRunning { id }))
            }
            Fault::Pause { node: Node::Id(id), duration_ms: Some(duration_ms) } => {
                self.unknown_broker(id).or_else(|| {
                    let broker = self.broker(id);
                    if !broker.alive || broker.paused {
                        Some(Refusal::CannotPause { id })
                    } else {
                        (duration_ms == 0 || duration_ms > MAX_FAULT_MS).then_some(Refusal::PauseLength { duration_ms })
                    }
                })
            }
            Fault::Slow { node: Node::Id(id), delay_ms } => self
                .unknown_broker(id)
                .or_else(|| (delay_ms > MAX_FAULT_MS).then_some(Refusal::FetchDelay { delay_ms })),
            Fault::Cut(a, b) | Fault::Heal(a, b) => {
                let cut = matches!(fault, Fault::Cut(..));
                self.unknown_node(a).or_else(|| self.unknown_node(b)).or_else(|| {
                    if a == b {
                        Some(Refusal::SameEndpoints)
                    } else if cut != self.link_up(a, b) {
                        Some(if cut { Refusal::LinkAlreadyCut { a, b } } else { Refusal::LinkNotCut { a, b } })
                    } else {
                        None
                    }
                })
            }
            _ => Some(Refusal::FaultNotModelled),
        }
    }

    fn load_refusal(&self, records_per_sec: u32) -> Option<Refusal> {
        if self.producer.load_records_per_sec > 0 {
            Some(Refusal::LoadRunning { records_per_sec: self.producer.load_records_per_sec })
        } else {
            (records_per_sec == 0 || u64::from(records_per_sec) > MAX_LOAD_RECORDS_PER_SEC)
                .then_some(Refusal::LoadRate { records_per_sec })
        }
    }

    fn unknown_broker(&self, id: u32) -> Option<Refusal> {
        let brokers = self.settings.brokers;
        (id == 0 || id > brokers).then_some(Refusal::NoSuchBroker { id, brokers })
    }

    fn unknown_node(&self, node: Node) -> Option<Refusal> {
        node.id().and_then(|id| self.unknown_broker(id))
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
