//! The scene's world: Kafka's `SystemTimer` with its expiration reaper, the tasks parked on
//! it (sandbox tasks and purgatory operations), and a binary heap shadowing the same stream.

use super::purgatory::{Purgatory, PurgatoryView};
use super::stream::Stream;
use super::tasks::Tasks;
use super::views::{LevelView, MoveView, OpsView, PendingTaskView};
use super::{Command, Event, Fact, Refusal, Settings, TaskOrigin, Timer, TimerCtx, MAX_TASK_DELAY_MS};
use crate::model::kernel::{Actor, Fault, Node, World};

/// The "Timing wheel" scene: a `SystemTimer` sandbox, optionally fed by a tiny purgatory;
/// reads tickMs, wheelSize, lab.purgatory and the purgatory's properties.
#[derive(Clone, Debug)]
pub struct TimerLab {
    settings: Settings,
    pub(super) tasks: Tasks,
    purgatory: Option<Purgatory>,
    reaper_at_ms: Option<u64>,
    /// The steady workload, once started.
    stream: Option<Stream>,
}

impl TimerLab {
    pub fn new(settings: Settings) -> Result<Self, Refusal> {
        let purgatory = if settings.purgatory { Some(Purgatory::new(&settings)?) } else { None };
        Ok(Self {
            tasks: Tasks::new(settings.tick_ms, settings.wheel_size),
            settings,
            purgatory,
            reaper_at_ms: None,
            stream: None,
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The wheel itself (read-only).
    pub fn timer(&self) -> &Timer {
        &self.tasks.timer
    }

    /// A pending task's origin; today's empty label for an id with none (never for a pending task).
    fn pending_origin(&self, id: u64) -> TaskOrigin {
        self.tasks.pending_origin(id).cloned().unwrap_or(TaskOrigin::User { label: String::new() })
    }

    /// Every level's ring with its buckets and labelled tasks.
    pub fn levels(&self) -> Vec<LevelView> {
        self.tasks.timer.levels_view(|id| self.pending_origin(id))
    }

    pub fn pending_tasks(&self) -> Vec<PendingTaskView> {
        self.tasks.timer.pending_view(|id| self.pending_origin(id))
    }

    /// What the last expiration moved where (for the falling-task animation).
    pub fn last_moves(&self) -> Vec<MoveView> {
        self.tasks.timer.moves_view(|id| self.tasks.origin(id).cloned())
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
        self.tasks.pending_origin(id).is_some_and(TaskOrigin::is_user)
    }

    /// How many tasks the steady workload added (`None` until it is started).
    pub fn stream_added(&self) -> Option<u64> {
        self.stream.map(|stream| stream.added)
    }

    pub fn purgatory(&self) -> Option<PurgatoryView> {
        self.purgatory.as_ref().map(Purgatory::view)
    }

    /// Keeps exactly one reaper event, at the head bucket's expiration.
    fn sync_reaper(&mut self, ctx: &mut TimerCtx) {
        let next_ms = self.tasks.timer.next_expiration_ms();
        if next_ms != self.reaper_at_ms {
            ctx.cancel_where(|event| *event == Event::Reaper);
            if let Some(at_ms) = next_ms {
                ctx.schedule(at_ms.saturating_sub(ctx.now_ms()), Event::Reaper);
            }
            self.reaper_at_ms = next_ms;
        }
    }

    fn run_expired(&mut self, id: u64, origin: TaskOrigin, ctx: &mut TimerCtx) {
        match (origin, self.purgatory.as_mut()) {
            (origin @ (TaskOrigin::User { .. } | TaskOrigin::Stream { .. }), _) => {
                ctx.record(Actor::Timer, Fact::TaskRan { id, origin, at_ms: ctx.now_ms() });
            }
            (origin, Some(purgatory)) => purgatory.on_expired(id, &origin, ctx),
            (origin, None) => debug_assert!(false, "purgatory task {origin:?} without a purgatory"),
        }
    }

    fn add_task(&mut self, delay_ms: u64, origin: TaskOrigin, ctx: &mut TimerCtx) {
        let (id, parked) = self.tasks.schedule(delay_ms, origin.clone(), ctx);
        if !parked {
            self.tasks.ran_at_once(id, origin.clone());
            self.run_expired(id, origin, ctx);
        }
    }

    /// The stream's next task, then its next turn.
    fn stream_tick(&mut self, ctx: &mut TimerCtx) {
        let Some(stream) = self.stream.as_mut() else { return };
        let (origin, delay_ms) = stream.next_task(&self.settings);
        self.add_task(delay_ms, origin, ctx);
        Stream::schedule_next(ctx);
    }

    /// Why `command` cannot run now, if it cannot.
    fn refusal(&self, command: &Command) -> Option<Refusal> {
        match command {
            Command::AddTask { delay_ms, label } => {
                if *delay_ms > MAX_TASK_DELAY_MS {
                    Some(Refusal::DelayOutOfRange { delay_ms: *delay_ms })
                } else {
                    (!valid_label(label)).then(|| Refusal::BadLabel { label: label.clone() })
                }
            }
            Command::CancelTask(id) => match self.tasks.pending_origin(*id) {
                None => Some(Refusal::NotPending { id: *id }),
                Some(origin) if origin.is_user() => None,
                Some(origin) => Some(Refusal::PurgatoryTask { id: *id, origin: origin.clone() }),
            },
            Command::Produce { records } => match &self.purgatory {
                None => Some(Refusal::NoBroker),
                Some(purgatory) => purgatory.produce_refusal(*records),
            },
            Command::StartStream => self.stream.is_some().then_some(Refusal::StreamRunning),
            Command::Fault(fault) => {
                let Some(id) = follower_fault(fault).and_then(Node::id) else {
                    return Some(Refusal::FaultNotModelled);
                };
                match &self.purgatory {
                    None => Some(Refusal::NoBroker),
                    Some(purgatory) => purgatory.fault_refusal(id, fault),
                }
            }
        }
    }
}

/// The faults this scene models: crash, stall (a pause until restarted) and restart.
fn follower_fault(fault: &Fault) -> Option<Node> {
    match *fault {
        Fault::Crash(node) | Fault::Restart(node) | Fault::Pause { node, duration_ms: None } => Some(node),
        _ => None,
    }
}

/// Labels travel in links, so they are short words.
fn valid_label(label: &str) -> bool {
    (1..=24).contains(&label.len()) && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl World for TimerLab {
    type Event = Event;
    type Command = Command;
    type Fact = Fact;
    type Refusal = Refusal;

    fn start(&mut self, ctx: &mut TimerCtx) {
        if let Some(purgatory) = self.purgatory.as_mut() {
            purgatory.start(ctx);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut TimerCtx) {
        match event {
            Event::Reaper => {
                self.reaper_at_ms = None;
                for (id, origin) in self.tasks.expire(ctx) {
                    self.run_expired(id, origin, ctx);
                }
            }
            Event::StreamTick => self.stream_tick(ctx),
            other => {
                if let Some(purgatory) = self.purgatory.as_mut() {
                    purgatory.handle(other, &mut self.tasks, ctx);
                }
            }
        }
        self.sync_reaper(ctx);
    }

    fn check(&self, command: &Command, _ctx: &TimerCtx) -> Result<(), Refusal> {
        self.refusal(command).map_or(Ok(()), Err)
    }

    fn apply(&mut self, command: &Command, ctx: &mut TimerCtx) {
        debug_assert!(self.refusal(command).is_none(), "apply without check: {command:?}");
        match command {
            Command::AddTask { delay_ms, label } => {
                self.add_task(*delay_ms, TaskOrigin::User { label: label.clone() }, ctx)
            }
            Command::StartStream => {
                self.stream = Some(Stream::default());
                self.stream_tick(ctx);
            }
            Command::CancelTask(id) => {
                self.tasks.cancel(*id, ctx);
            }
            Command::Produce { records } => {
                if let Some(purgatory) = self.purgatory.as_mut() {
                    purgatory.produce(*records, &mut self.tasks, ctx);
                }
            }
            Command::Fault(fault) => {
                if let Some(purgatory) = self.purgatory.as_mut() {
                    purgatory.fault(fault, ctx);
                }
            }
        }
        self.sync_reaper(ctx);
    }
}

/// No view looks for particular pending events in this scene.
impl crate::model::kernel::Watched for Event {}
