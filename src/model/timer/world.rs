//! The scene's world: Kafka's `SystemTimer` with its expiration reaper, the tasks parked on
//! it (sandbox tasks and purgatory operations), and a binary heap shadowing the same stream.

use std::collections::BTreeMap;

use super::purgatory::{Purgatory, PurgatoryView};
use super::view::{LevelView, MoveView, OpsView, PendingTaskView};
use super::{HeapTimer, Timer};
use crate::model::config::Config;
use crate::model::kernel::Ctx;

/// What a timer task stands for (Kafka's `TimerTask` subclasses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskKind {
    /// A task the user added in the sandbox.
    Sandbox,
    /// A `DelayedProduce` waiting for acks=all, by produce request number.
    DelayedProduce { request: u64 },
    /// A follower's `DelayedFetch` (replica.fetch.wait.max.ms).
    FollowerFetch { replica: u32 },
    /// The consumer's `DelayedFetch` (fetch.max.wait.ms).
    ConsumerFetch,
}

#[derive(Clone, Debug)]
struct TaskInfo {
    kind: TaskKind,
    origin: String,
}

/// The timer tasks: the wheel, a heap fed the same stream, and what each id stands for.
#[derive(Clone, Debug)]
pub struct Tasks {
    pub(super) timer: Timer,
    heap: HeapTimer,
    info: BTreeMap<u64, TaskInfo>,
    /// Origins of the tasks the last expiration ran, so the UI can still label them.
    last_fired: BTreeMap<u64, String>,
    next_id: u64,
}

impl Tasks {
    fn new(tick_ms: u64, wheel_size: usize) -> Self {
        let mut timer = Timer::new(tick_ms, wheel_size, 0);
        timer.set_tracing(true);
        let heap = HeapTimer::new(tick_ms, 0);
        Self { timer, heap, info: BTreeMap::new(), last_fired: BTreeMap::new(), next_id: 1 }
    }

    /// Adds a task expiring `delay_ms` from now. Returns its id and whether it was parked;
    /// when it was not (already expired) the caller runs it at once, as `SystemTimer` does.
    pub(super) fn schedule(
        &mut self,
        delay_ms: u64,
        kind: TaskKind,
        origin: String,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> (u64, bool) {
        let id = self.next_id;
        self.next_id += 1;
        let expiration_ms = ctx.now_ms() + delay_ms;
        let parked = self.timer.add(id, expiration_ms);
        if parked {
            self.heap.add(id, expiration_ms);
            let (level, bucket) = self.timer.location(id).expect("just parked");
            ctx.log(
                "timer",
                format!("task #{id} ({origin}) expires at {expiration_ms} ms: level {level} bucket {bucket}"),
            );
            self.info.insert(id, TaskInfo { kind, origin });
        } else {
            let current_ms = self.timer.current_time();
            ctx.log(
                "timer",
                format!(
                    "task #{id} ({origin}) expires at {expiration_ms} ms, before currentTime {current_ms} + tickMs {}: already expired, it runs now",
                    self.timer.tick_ms()
                ),
            );
        }
        (id, parked)
    }

    /// Cancels a pending task (an operation completed before its timeout); says where it was.
    pub(super) fn cancel(
        &mut self,
        id: u64,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Option<(usize, usize)> {
        let location = self.timer.location(id)?;
        self.timer.cancel(id);
        self.heap.cancel(id);
        let info = self.info.remove(&id).expect("every pending task has its info");
        ctx.log(
            "timer",
            format!("task #{id} ({}) cancelled: removed from level {} bucket {}", info.origin, location.0, location.1),
        );
        Some(location)
    }

    fn origin(&self, id: u64) -> String {
        self.info
            .get(&id)
            .map(|info| info.origin.clone())
            .or_else(|| self.last_fired.get(&id).cloned())
            .unwrap_or_default()
    }

    /// Kafka's expiration reaper: expires every due bucket and returns the tasks that ran.
    fn expire(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Vec<(u64, TaskKind)> {
        let mut fired = Vec::new();
        self.timer.expire_due(ctx.now_ms(), &mut fired);
        self.heap.advance_to(ctx.now_ms());
        for step in self.timer.last_moves() {
            if let Some((level, bucket)) = step.to {
                let origin = &self.info[&step.id].origin;
                ctx.log(
                    "timer",
                    format!(
                        "bucket level {} #{} expired at {} ms: task #{} ({origin}) fell into level {level} bucket {bucket}",
                        step.from.0, step.from.1, step.at_ms, step.id
                    ),
                );
            }
        }
        self.last_fired.clear();
        fired
            .into_iter()
            .map(|id| {
                let info = self.info.remove(&id).expect("every pending task has its info");
                self.last_fired.insert(id, info.origin);
                (id, info.kind)
            })
            .collect()
    }

    pub(super) fn kind_of(&self, id: u64) -> Option<&TaskKind> {
        self.info.get(&id).map(|info| &info.kind)
    }
}

/// The scene's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Kafka's `ExpirationReaper`: the head bucket of the timer's delay queue is due.
    Reaper,
    /// A follower's FetchRequest reaches the leader.
    FollowerFetch { replica: u32, incarnation: u32, fetch_offset: u64 },
    /// The leader's FetchResponse reaches a follower.
    FollowerResponse { replica: u32, incarnation: u32, up_to_offset: u64 },
    /// The consumer's FetchRequest reaches the leader.
    ConsumerFetch { fetch_offset: u64 },
    /// The leader's FetchResponse reaches the consumer.
    ConsumerResponse { up_to_offset: u64 },
    /// The leader's periodic `isr-expiration` check (every replica.lag.time.max.ms / 2).
    IsrExpiration,
    /// The controller's heartbeat deadline for a crashed follower (broker.session.timeout.ms).
    SessionExpired { replica: u32, incarnation: u32 },
}

/// What a user can do in the scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Add a sandbox task that expires `delay_ms` from now, labelled for the rings.
    AddTask { delay_ms: u64, label: String },
    /// Cancel a pending sandbox task by id.
    CancelTask(u64),
    /// (purgatory) The producer sends one produce request with `records` records.
    Produce { records: u32 },
    /// (purgatory) Crash a follower: fetches and heartbeats stop; the controller fences it later.
    KillFollower(u32),
    /// (purgatory) Stall a follower's fetcher while the broker keeps heartbeating.
    StallFollower(u32),
    /// (purgatory) Start a crashed follower again.
    RestartFollower(u32),
}

const NO_BROKER: &str = "There is no broker in the sandbox: set lab.purgatory=true.";

/// The longest delay a sandbox task may have (one day).
pub const MAX_TASK_DELAY_MS: u64 = 86_400_000;

/// The "Timing wheel" scene: a `SystemTimer` sandbox, optionally fed by a tiny purgatory;
/// reads tickMs, wheelSize, lab.purgatory and the purgatory's properties.
#[derive(Clone, Debug)]
pub struct TimerLab {
    config: Config,
    pub(super) tasks: Tasks,
    purgatory: Option<Purgatory>,
    reaper_at_ms: Option<u64>,
}

impl TimerLab {
    pub fn new(config: Config) -> Result<Self, String> {
        let tick_ms = config.int("tickMs") as u64;
        let wheel_size = config.int("wheelSize") as usize;
        let purgatory = if config.bool("lab.purgatory") { Some(Purgatory::new(&config)?) } else { None };
        Ok(Self { tasks: Tasks::new(tick_ms, wheel_size), config, purgatory, reaper_at_ms: None })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The wheel itself (read-only).
    pub fn timer(&self) -> &Timer {
        &self.tasks.timer
    }

    /// Every level's ring with its buckets and labelled tasks.
    pub fn levels(&self) -> Vec<LevelView> {
        self.tasks.timer.levels_view(|id| self.tasks.origin(id))
    }

    pub fn pending_tasks(&self) -> Vec<PendingTaskView> {
        self.tasks.timer.pending_view(|id| self.tasks.origin(id))
    }

    /// What the last expiration moved where (for the falling-task animation).
    pub fn last_moves(&self) -> Vec<MoveView> {
        self.tasks.timer.moves_view(|id| self.tasks.origin(id))
    }

    pub fn ops(&self) -> OpsView {
        OpsView {
            wheel: self.tasks.timer.ops(),
            heap: self.tasks.heap.ops(),
            wheel_levels: self.tasks.timer.level_count(),
            heap_entries: self.tasks.heap.heap_len(),
        }
    }

    /// When the next bucket expires: "advance to the next bucket expiration" waits until then.
    pub fn next_bucket_expiration_ms(&self) -> Option<u64> {
        self.tasks.timer.next_expiration_ms()
    }

    /// True for a pending task the user added (only those can be cancelled by hand).
    pub fn is_sandbox_task(&self, id: u64) -> bool {
        self.tasks.kind_of(id) == Some(&TaskKind::Sandbox)
    }

    pub fn purgatory(&self) -> Option<PurgatoryView> {
        self.purgatory.as_ref().map(Purgatory::view)
    }

    /// Keeps exactly one reaper event, at the head bucket's expiration.
    fn sync_reaper(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let next_ms = self.tasks.timer.next_expiration_ms();
        if next_ms != self.reaper_at_ms {
            ctx.cancel_where(|event| *event == Event::Reaper);
            if let Some(at_ms) = next_ms {
                ctx.schedule(at_ms.saturating_sub(ctx.now_ms()), Event::Reaper);
            }
            self.reaper_at_ms = next_ms;
        }
    }

    fn run_expired(&mut self, id: u64, kind: TaskKind, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        match (kind, self.purgatory.as_mut()) {
            (TaskKind::Sandbox, _) => {
                let origin = self.tasks.origin(id);
                ctx.log("timer", format!("task #{id} ({origin}) expired and ran at {} ms", ctx.now_ms()));
            }
            (kind, Some(purgatory)) => purgatory.on_expired(id, kind, ctx),
            (kind, None) => debug_assert!(false, "purgatory task {kind:?} without a purgatory"),
        }
    }

    fn add_task(
        &mut self,
        delay_ms: u64,
        label: &str,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        if delay_ms > MAX_TASK_DELAY_MS {
            return Err(format!("A task's delay is 0 to {MAX_TASK_DELAY_MS} ms, not {delay_ms}."));
        }
        validate_label(label)?;
        let (id, parked) = self.tasks.schedule(delay_ms, TaskKind::Sandbox, label.to_string(), ctx);
        if !parked {
            self.tasks.last_fired.clear();
            self.tasks.last_fired.insert(id, label.to_string());
            self.run_expired(id, TaskKind::Sandbox, ctx);
        }
        Ok(())
    }

    fn cancel_task(&mut self, id: u64, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        match self.tasks.kind_of(id) {
            None => Err(format!("Task #{id} is not pending: it already ran, was cancelled, or never existed.")),
            Some(TaskKind::Sandbox) => {
                self.tasks.cancel(id, ctx);
                Ok(())
            }
            Some(kind) => {
                Err(format!("Task #{id} belongs to the purgatory ({kind:?}): the broker completes or expires it."))
            }
        }
    }

    fn purgatory_mut(&mut self) -> Result<&mut Purgatory, String> {
        self.purgatory.as_mut().ok_or_else(|| NO_BROKER.to_string())
    }
}

/// Labels travel in links, so they are short words.
fn validate_label(label: &str) -> Result<(), String> {
    let ok = (1..=24).contains(&label.len()) && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!("A task label is 1 to 24 letters, digits or '_', not \"{label}\"."))
    }
}

impl crate::model::kernel::LegacyWorld for TimerLab {
    type Event = Event;
    type Command = Command;

    fn start(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        if let Some(purgatory) = self.purgatory.as_mut() {
            purgatory.start(ctx);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        match event {
            Event::Reaper => {
                self.reaper_at_ms = None;
                for (id, kind) in self.tasks.expire(ctx) {
                    self.run_expired(id, kind, ctx);
                }
            }
            other => {
                if let Some(purgatory) = self.purgatory.as_mut() {
                    purgatory.handle(other, &mut self.tasks, ctx);
                }
            }
        }
        self.sync_reaper(ctx);
    }

    fn apply(&mut self, command: &Command, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        match command {
            Command::AddTask { delay_ms, label } => self.add_task(*delay_ms, label, ctx)?,
            Command::CancelTask(id) => self.cancel_task(*id, ctx)?,
            Command::Produce { records } => {
                let purgatory = self.purgatory.as_mut().ok_or(NO_BROKER)?;
                purgatory.produce(*records, &mut self.tasks, ctx)?
            }
            Command::KillFollower(id) => self.purgatory_mut()?.kill(*id, ctx)?,
            Command::StallFollower(id) => self.purgatory_mut()?.stall(*id, ctx)?,
            Command::RestartFollower(id) => self.purgatory_mut()?.restart(*id, ctx)?,
        }
        self.sync_reaper(ctx);
        Ok(())
    }
}

crate::legacy_world!(TimerLab);
