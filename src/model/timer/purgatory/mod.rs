//! A tiny, self-contained broker that puts real traffic on the wheel (lab model, not the
//! replication scene): leader broker-1 of orders-0 with followers broker-2 and broker-3,
//! one acks=all producer and one consumer. Kafka's `DelayedProduce` waits until the
//! high watermark passes its records; `DelayedFetch` waits for min bytes or max wait.

mod fetch;
mod produce;

use super::tasks::Tasks;
use super::{Event, Fact, Fetcher, PurgatoryFact, Refusal, Settings, TaskOrigin, TimerCtx};
use crate::model::kernel::{Actor, Fault, Node};

/// Every record in this model is this big (the fetch min-bytes checks count it).
pub const RECORD_BYTES: u64 = 100;
const LEADER: u32 = 1;
const FOLLOWER_IDS: [u32; 2] = [2, 3];

/// A fetch parked in the fetch purgatory (its timer task and the offset it asked for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ParkedFetch {
    task: u64,
    fetch_offset: u64,
    incarnation: u32,
}

/// A follower replica (Kafka's `Replica` state kept by the leader plus the follower's own log end).
#[derive(Clone, Debug)]
struct Follower {
    id: u32,
    /// The broker process runs (it heartbeats to the controller).
    alive: bool,
    /// Its fetcher thread is stuck although the process runs (no fencing, no fetches).
    stalled: bool,
    /// Fenced by the controller after broker.session.timeout.ms without heartbeats.
    fenced: bool,
    incarnation: u32,
    /// The follower's own log end offset.
    log_end_offset: u64,
    /// What the leader last learnt of it (the offset of its last fetch).
    fetched_offset: u64,
    last_caught_up_ms: u64,
    last_fetch_ms: u64,
    last_fetch_leader_leo: u64,
    parked: Option<ParkedFetch>,
}

impl Follower {
    fn fetching(&self) -> bool {
        self.alive && !self.stalled
    }
}

/// A produce request waiting in the produce purgatory (Kafka's `DelayedProduce`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WaitingProduce {
    request: u64,
    required_offset: u64,
    task: u64,
    sent_ms: u64,
}

/// Leader-side purgatories and replica state; reads acks, request.timeout.ms,
/// replica.fetch.wait.max.ms, replica.fetch.min.bytes, replica.lag.time.max.ms,
/// broker.session.timeout.ms, fetch.max.wait.ms, fetch.min.bytes and lab.network.delay.ms.
#[derive(Clone, Debug)]
pub struct Purgatory {
    acks_all: bool,
    request_timeout_ms: u64,
    replica_wait_ms: u64,
    replica_min_bytes: u64,
    lag_max_ms: u64,
    session_timeout_ms: u64,
    consumer_wait_ms: u64,
    consumer_min_bytes: u64,
    network_ms: u64,
    log_end_offset: u64,
    high_watermark: u64,
    isr: Vec<u32>,
    followers: Vec<Follower>,
    produces: Vec<WaitingProduce>,
    next_request: u64,
    consumer_offset: u64,
    consumer_parked: Option<ParkedFetch>,
    completed: u64,
    expired: u64,
}

/// A replica box for the UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaView {
    pub broker: u32,
    pub leader: bool,
    /// The broker process runs (false after a crash until it is restarted).
    pub alive: bool,
    /// Running and fetching (false when crashed or its fetcher is stalled).
    pub fetching: bool,
    /// Fenced by the controller after broker.session.timeout.ms without heartbeats.
    pub fenced: bool,
    pub in_isr: bool,
    pub log_end_offset: u64,
    /// The timer task of its fetch parked in the purgatory, if any.
    pub parked_fetch_task: Option<u64>,
}

/// The purgatory's state for the UI: offsets, ISR, waiting produces (request, required offset, task).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PurgatoryView {
    pub log_end_offset: u64,
    pub high_watermark: u64,
    pub isr: Vec<u32>,
    pub replicas: Vec<ReplicaView>,
    pub waiting_produces: Vec<WaitingProduceView>,
    pub consumer_offset: u64,
    pub completed_produces: u64,
    pub expired_produces: u64,
}

/// A produce request waiting in the produce purgatory, for the UI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaitingProduceView {
    pub request: u64,
    /// The HW it waits for.
    pub required_offset: u64,
    /// Its `DelayedProduce` timer task.
    pub task: u64,
}

/// Records a purgatory fact.
fn record(ctx: &mut TimerCtx, actor: Actor, fact: PurgatoryFact) {
    ctx.record(actor, Fact::Purgatory(fact));
}

/// The most records one produce request carries here.
const MAX_PRODUCE_RECORDS: u32 = 100;

impl Purgatory {
    pub fn new(settings: &Settings) -> Result<Self, Refusal> {
        if settings.replica_fetch_wait_max_ms > settings.replica_lag_time_max_ms {
            return Err(Refusal::FetchWaitAboveLagTime);
        }
        let followers = FOLLOWER_IDS
            .iter()
            .map(|&id| Follower {
                id,
                alive: true,
                stalled: false,
                fenced: false,
                incarnation: 0,
                log_end_offset: 0,
                fetched_offset: 0,
                last_caught_up_ms: 0,
                last_fetch_ms: 0,
                last_fetch_leader_leo: 0,
                parked: None,
            })
            .collect();
        Ok(Self {
            acks_all: settings.acks.waits_for_isr(),
            request_timeout_ms: settings.request_timeout_ms,
            replica_wait_ms: settings.replica_fetch_wait_max_ms,
            replica_min_bytes: settings.replica_fetch_min_bytes,
            lag_max_ms: settings.replica_lag_time_max_ms,
            session_timeout_ms: settings.broker_session_timeout_ms,
            consumer_wait_ms: settings.fetch_max_wait_ms,
            consumer_min_bytes: settings.fetch_min_bytes,
            network_ms: settings.network_delay_ms,
            log_end_offset: 0,
            high_watermark: 0,
            isr: vec![LEADER, 2, 3],
            followers,
            produces: Vec::new(),
            next_request: 1,
            consumer_offset: 0,
            consumer_parked: None,
            completed: 0,
            expired: 0,
        })
    }

    pub(super) fn start(&mut self, ctx: &mut TimerCtx) {
        let replicas = [LEADER].into_iter().chain(FOLLOWER_IDS).collect();
        record(ctx, Actor::Broker(LEADER), PurgatoryFact::LeaderStarted { replicas, isr: self.isr.clone() });
        for follower in &self.followers {
            ctx.schedule(
                self.network_ms,
                Event::FollowerFetch { replica: follower.id, incarnation: 0, fetch_offset: 0 },
            );
        }
        ctx.schedule(self.network_ms, Event::ConsumerFetch { fetch_offset: 0 });
        ctx.schedule((self.lag_max_ms / 2).max(1), Event::IsrExpiration);
    }

    pub(super) fn handle(&mut self, event: Event, tasks: &mut Tasks, ctx: &mut TimerCtx) {
        match event {
            Event::FollowerFetch { replica, incarnation, fetch_offset } => {
                self.on_follower_fetch(replica, incarnation, fetch_offset, tasks, ctx)
            }
            Event::FollowerResponse { replica, incarnation, up_to_offset } => {
                self.on_follower_response(replica, incarnation, up_to_offset, ctx)
            }
            Event::ConsumerFetch { fetch_offset } => self.on_consumer_fetch(fetch_offset, tasks, ctx),
            Event::ConsumerResponse { up_to_offset } => self.on_consumer_response(up_to_offset, ctx),
            Event::IsrExpiration => {
                self.shrink_isr(tasks, ctx);
                ctx.schedule((self.lag_max_ms / 2).max(1), Event::IsrExpiration);
            }
            Event::SessionExpired { replica, incarnation } => self.session_expired(replica, incarnation, tasks, ctx),
            Event::Reaper | Event::StreamTick => {}
        }
    }

    /// A timer task of the purgatory ran: the operation timed out.
    pub(in crate::model::timer) fn on_expired(&mut self, task: u64, origin: &TaskOrigin, ctx: &mut TimerCtx) {
        match *origin {
            TaskOrigin::DelayedProduce { request, .. } => self.expire_produce(request, task, ctx),
            TaskOrigin::DelayedFetch { fetcher: Fetcher::Follower(replica), .. } => {
                self.expire_follower_fetch(replica, task, ctx)
            }
            TaskOrigin::DelayedFetch { fetcher: Fetcher::Consumer, .. } => self.expire_consumer_fetch(task, ctx),
            TaskOrigin::User { .. } | TaskOrigin::Stream { .. } => {}
        }
    }

    /// Why a fault on broker `id` is refused, if it is (the fault is crash, stall or restart).
    pub(in crate::model::timer) fn fault_refusal(&self, id: u32, fault: &Fault) -> Option<Refusal> {
        let Some(follower) = self.followers.iter().find(|f| f.id == id) else {
            return Some(Refusal::NotAFollower { id });
        };
        match fault {
            Fault::Crash(_) => (!follower.alive).then_some(Refusal::AlreadyDown { id }),
            Fault::Pause { .. } => (!follower.fetching()).then_some(Refusal::NotFetching { id }),
            Fault::Restart(_) => follower.fetching().then_some(Refusal::AlreadyRunning { id }),
            _ => Some(Refusal::FaultNotModelled),
        }
    }

    /// Applies a follower fault that [`Purgatory::fault_refusal`] accepted.
    pub(in crate::model::timer) fn fault(&mut self, fault: &Fault, ctx: &mut TimerCtx) {
        match *fault {
            Fault::Crash(Node::Id(id)) => self.kill(id, ctx),
            Fault::Pause { node: Node::Id(id), duration_ms: None } => self.stall(id, ctx),
            Fault::Restart(Node::Id(id)) => self.restart(id, ctx),
            _ => debug_assert!(false, "fault not modelled: {fault:?}"),
        }
    }

    /// Crash a follower (kill -9): fetches stop, and the controller fences it after broker.session.timeout.ms.
    fn kill(&mut self, id: u32, ctx: &mut TimerCtx) {
        let timeout_ms = self.session_timeout_ms;
        let follower = self.follower_mut(id);
        follower.alive = false;
        follower.stalled = false;
        let incarnation = follower.incarnation;
        record(ctx, Actor::Broker(id), PurgatoryFact::FollowerCrashed);
        ctx.schedule(timeout_ms, Event::SessionExpired { replica: id, incarnation });
    }

    /// Stall a follower's fetcher while its process keeps heartbeating: only the leader's
    /// replica.lag.time.max.ms check can take it out of the ISR.
    fn stall(&mut self, id: u32, ctx: &mut TimerCtx) {
        self.follower_mut(id).stalled = true;
        record(ctx, Actor::Broker(id), PurgatoryFact::FetcherStalled);
    }

    /// Restart a crashed follower, or un-stall its fetcher: it fetches again from its log end.
    fn restart(&mut self, id: u32, ctx: &mut TimerCtx) {
        let network_ms = self.network_ms;
        let follower = self.follower_mut(id);
        let from_offset = follower.log_end_offset;
        let fact = if follower.alive {
            PurgatoryFact::FetcherResumed { from_offset }
        } else {
            PurgatoryFact::FollowerRestarted { from_offset }
        };
        follower.alive = true;
        follower.stalled = false;
        follower.fenced = false;
        follower.incarnation += 1;
        let event = Event::FollowerFetch { replica: id, incarnation: follower.incarnation, fetch_offset: from_offset };
        record(ctx, Actor::Broker(id), fact);
        ctx.schedule(network_ms, event);
    }

    fn follower(&self, id: u32) -> &Follower {
        self.followers.iter().find(|f| f.id == id).expect("a follower id")
    }

    fn follower_mut(&mut self, id: u32) -> &mut Follower {
        self.followers.iter_mut().find(|f| f.id == id).expect("a follower id")
    }

    pub fn view(&self) -> PurgatoryView {
        let mut replicas = vec![ReplicaView {
            broker: LEADER,
            leader: true,
            alive: true,
            fetching: true,
            fenced: false,
            in_isr: true,
            log_end_offset: self.log_end_offset,
            parked_fetch_task: None,
        }];
        replicas.extend(self.followers.iter().map(|f| ReplicaView {
            broker: f.id,
            leader: false,
            alive: f.alive,
            fetching: f.fetching(),
            fenced: f.fenced,
            in_isr: self.isr.contains(&f.id),
            log_end_offset: f.log_end_offset,
            parked_fetch_task: f.parked.map(|p| p.task),
        }));
        PurgatoryView {
            log_end_offset: self.log_end_offset,
            high_watermark: self.high_watermark,
            isr: self.isr.clone(),
            replicas,
            waiting_produces: self
                .produces
                .iter()
                .map(|p| WaitingProduceView { request: p.request, required_offset: p.required_offset, task: p.task })
                .collect(),
            consumer_offset: self.consumer_offset,
            completed_produces: self.completed,
            expired_produces: self.expired,
        }
    }
}
