//! A tiny, self-contained broker that puts real traffic on the wheel (lab model, not the
//! replication scene): leader broker-1 of orders-0 with followers broker-2 and broker-3,
//! one acks=all producer and one consumer. Kafka's `DelayedProduce` waits until the
//! high watermark passes its records; `DelayedFetch` waits for min bytes or max wait.

mod fetch;

use super::world::{Event, TaskKind, Tasks};
use crate::model::config::Config;
use crate::model::kernel::Ctx;

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
    pub waiting_produces: Vec<(u64, u64, u64)>,
    pub consumer_offset: u64,
    pub completed_produces: u64,
    pub expired_produces: u64,
}

fn join(ids: &[u32]) -> String {
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

impl Purgatory {
    pub fn new(config: &Config) -> Result<Self, String> {
        let ms = |name: &str| config.int(name) as u64;
        if ms("replica.fetch.wait.max.ms") > ms("replica.lag.time.max.ms") {
            return Err("replica.fetch.wait.max.ms must be at most replica.lag.time.max.ms, or followers would keep dropping out of the ISR.".into());
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
            acks_all: config.str("acks") != "1",
            request_timeout_ms: ms("request.timeout.ms"),
            replica_wait_ms: ms("replica.fetch.wait.max.ms"),
            replica_min_bytes: ms("replica.fetch.min.bytes"),
            lag_max_ms: ms("replica.lag.time.max.ms"),
            session_timeout_ms: ms("broker.session.timeout.ms"),
            consumer_wait_ms: ms("fetch.max.wait.ms"),
            consumer_min_bytes: ms("fetch.min.bytes"),
            network_ms: ms("lab.network.delay.ms"),
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

    pub(super) fn start(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        ctx.log(
            "broker-1",
            "leader of orders-0 (Replicas 1,2,3, Isr 1,2,3); followers and the consumer start fetching",
        );
        for follower in &self.followers {
            ctx.schedule(
                self.network_ms,
                Event::FollowerFetch { replica: follower.id, incarnation: 0, fetch_offset: 0 },
            );
        }
        ctx.schedule(self.network_ms, Event::ConsumerFetch { fetch_offset: 0 });
        ctx.schedule((self.lag_max_ms / 2).max(1), Event::IsrExpiration);
    }

    pub(super) fn handle(
        &mut self,
        event: Event,
        tasks: &mut Tasks,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) {
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
            Event::Reaper => {}
        }
    }

    /// A timer task of the purgatory ran: the operation timed out.
    pub(super) fn on_expired(&mut self, task: u64, kind: TaskKind, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        match kind {
            TaskKind::DelayedProduce { request } => self.expire_produce(request, task, ctx),
            TaskKind::FollowerFetch { replica } => self.expire_follower_fetch(replica, task, ctx),
            TaskKind::ConsumerFetch => self.expire_consumer_fetch(task, ctx),
            TaskKind::Sandbox => {}
        }
    }

    /// The producer's request: the leader appends, then acks=all waits in the produce purgatory.
    pub(super) fn produce(
        &mut self,
        records: u32,
        tasks: &mut Tasks,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        if records == 0 || records > 100 {
            return Err(format!("A produce request here carries 1 to 100 records, not {records}."));
        }
        let request = self.next_request;
        self.next_request += 1;
        let first_offset = self.log_end_offset;
        self.log_end_offset += u64::from(records);
        let required_offset = self.log_end_offset;
        ctx.log(
            "broker-1",
            format!(
                "produce request #{request}: appended offsets {first_offset}..{} to orders-0 (LEO {required_offset})",
                required_offset - 1
            ),
        );
        self.wake_follower_fetches(tasks, ctx);
        self.advance_high_watermark(tasks, ctx);
        if !self.acks_all {
            ctx.log(
                "broker-1",
                format!("produce request #{request}: acks=1, acknowledged at once (no DelayedProduce)"),
            );
            return Ok(());
        }
        if self.high_watermark >= required_offset {
            self.completed += 1;
            ctx.log(
                "broker-1",
                format!(
                    "produce request #{request}: acks=all already satisfied (Isr {}), acknowledged",
                    join(&self.isr)
                ),
            );
            return Ok(());
        }
        let origin = format!("DelayedProduce #{request} (HW ≥ {required_offset})");
        let (task, parked) = tasks.schedule(self.request_timeout_ms, TaskKind::DelayedProduce { request }, origin, ctx);
        ctx.log(
            "broker-1",
            format!(
                "produce request #{request}: acks=all waits in the produce purgatory until HW ≥ {required_offset} (timeout {} ms)",
                self.request_timeout_ms
            ),
        );
        self.produces.push(WaitingProduce { request, required_offset, task, sent_ms: ctx.now_ms() });
        if !parked {
            self.expire_produce(request, task, ctx);
        }
        Ok(())
    }

    fn expire_produce(&mut self, request: u64, task: u64, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let Some(position) = self.produces.iter().position(|p| p.request == request && p.task == task) else {
            return;
        };
        let waiting = self.produces.remove(position);
        self.expired += 1;
        ctx.log(
            "broker-1",
            format!(
                "DelayedProduce #{request} expired after request.timeout.ms={} (HW {} < {}): REQUEST_TIMED_OUT",
                ctx.now_ms() - waiting.sent_ms,
                self.high_watermark,
                waiting.required_offset
            ),
        );
    }

    /// The HW is the smallest log end offset in the ISR; produces it passes complete.
    fn advance_high_watermark(&mut self, tasks: &mut Tasks, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let new_hw = self
            .isr
            .iter()
            .map(|&id| if id == LEADER { self.log_end_offset } else { self.follower(id).fetched_offset })
            .min()
            .unwrap_or(self.log_end_offset);
        if new_hw <= self.high_watermark {
            return;
        }
        ctx.log("broker-1", format!("high watermark {} → {new_hw} (Isr {})", self.high_watermark, join(&self.isr)));
        self.high_watermark = new_hw;
        debug_assert!(self.high_watermark <= self.log_end_offset, "HW must not pass the LEO");
        let (done, still): (Vec<_>, Vec<_>) = self.produces.iter().partition(|p| p.required_offset <= new_hw);
        self.produces = still;
        for waiting in done {
            self.completed += 1;
            let waited_ms = ctx.now_ms() - waiting.sent_ms;
            ctx.log(
                "broker-1",
                format!("DelayedProduce #{} completed after {waited_ms} ms (HW {new_hw}): acknowledged, its timer task is cancelled", waiting.request),
            );
            tasks.cancel(waiting.task, ctx);
        }
        self.wake_consumer_fetch(tasks, ctx);
    }

    /// Crash a follower (kill -9): fetches stop, and the controller fences it after broker.session.timeout.ms.
    pub(super) fn kill(&mut self, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        let timeout_ms = self.session_timeout_ms;
        let follower = self.follower_checked(id)?;
        if !follower.alive {
            return Err(format!("broker-{id} is already down."));
        }
        follower.alive = false;
        follower.stalled = false;
        let incarnation = follower.incarnation;
        ctx.log(format!("broker-{id}"), "crashed: its fetches and its heartbeats to the controller stop");
        ctx.schedule(timeout_ms, Event::SessionExpired { replica: id, incarnation });
        Ok(())
    }

    /// Stall a follower's fetcher while its process keeps heartbeating: only the leader's
    /// replica.lag.time.max.ms check can take it out of the ISR.
    pub(super) fn stall(&mut self, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        let follower = self.follower_checked(id)?;
        if !follower.fetching() {
            return Err(format!("broker-{id} is not fetching already."));
        }
        follower.stalled = true;
        ctx.log(
            format!("broker-{id}"),
            "replica fetcher stalled: no more fetches, but the broker still heartbeats to the controller",
        );
        Ok(())
    }

    /// Restart a crashed follower, or un-stall its fetcher: it fetches again from its log end.
    pub(super) fn restart(&mut self, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        let network_ms = self.network_ms;
        let follower = self.follower_checked(id)?;
        if follower.fetching() {
            return Err(format!("broker-{id} is already running."));
        }
        let what = if follower.alive { "replica fetcher resumed" } else { "restarted and unfenced" };
        follower.alive = true;
        follower.stalled = false;
        follower.fenced = false;
        follower.incarnation += 1;
        let event = Event::FollowerFetch {
            replica: id,
            incarnation: follower.incarnation,
            fetch_offset: follower.log_end_offset,
        };
        ctx.log(format!("broker-{id}"), format!("{what}: fetching from offset {}", follower.log_end_offset));
        ctx.schedule(network_ms, event);
        Ok(())
    }

    fn follower_checked(&mut self, id: u32) -> Result<&mut Follower, String> {
        self.followers
            .iter_mut()
            .find(|f| f.id == id)
            .ok_or_else(|| format!("broker-{id} is not a follower here: the followers are broker-2 and broker-3."))
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
            waiting_produces: self.produces.iter().map(|p| (p.request, p.required_offset, p.task)).collect(),
            consumer_offset: self.consumer_offset,
            completed_produces: self.completed,
            expired_produces: self.expired,
        }
    }
}
