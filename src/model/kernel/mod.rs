//! The discrete-event simulation kernel every scene runs on: a virtual clock,
//! an ordered event queue, one seeded RNG, an event log, and time travel.
//!
//! A scene's model is a [`World`]: it reacts to its own events and to user
//! commands (actions and faults), scheduling more events through [`Ctx`].

mod history;
mod log;
mod queue;
mod tape;

pub use history::{History, Input, SNAPSHOT_EVERY};
pub use log::{EventLog, LogEntry};
pub use queue::EventQueue;
pub use tape::{decode_tape, encode_tape, CommandCodec, MAX_TAPE_INPUTS};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Everything a world may touch besides its own state: clock, queue, RNG and log.
#[derive(Clone, Debug)]
pub struct Ctx<E> {
    now_ms: u64,
    queue: EventQueue<E>,
    rng: ChaCha8Rng,
    log: EventLog,
}

impl<E> Ctx<E> {
    fn new(seed: u64) -> Self {
        Self { now_ms: 0, queue: EventQueue::default(), rng: ChaCha8Rng::seed_from_u64(seed), log: EventLog::default() }
    }

    /// Virtual time in milliseconds.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Schedules `event` `delay_ms` from now.
    pub fn schedule(&mut self, delay_ms: u64, event: E) {
        self.queue.push(self.now_ms + delay_ms, event);
    }

    /// Drops pending events for which `keep` is false (e.g. a dead broker's timers).
    pub fn cancel_where(&mut self, mut drop: impl FnMut(&E) -> bool) {
        self.queue.retain(|event| !drop(event));
    }

    /// Appends a line to the event log at the current time.
    pub fn log(&mut self, actor: impl Into<String>, text: impl Into<String>) {
        self.log.push(self.now_ms, actor, text);
    }

    /// A uniform integer in `[low, high]` (u64 so native and wasm32 draw alike).
    pub fn random_between(&mut self, low: u64, high: u64) -> u64 {
        debug_assert!(low <= high);
        self.rng.random_range(low..=high)
    }

    /// A raw 64-bit draw, for seeding sub-generators such as Java's `Random`.
    pub fn random_u64(&mut self) -> u64 {
        self.rng.random()
    }

    pub fn queue(&self) -> &EventQueue<E> {
        &self.queue
    }

    pub fn log_entries(&self) -> &EventLog {
        &self.log
    }
}

/// A scene's model. `Clone` is what makes snapshots (and so step-back) possible.
pub trait World: Clone {
    type Event: Clone + std::fmt::Debug;
    type Command: Clone + std::fmt::Debug + PartialEq;

    /// Called once when the simulation starts: schedule the first events.
    fn start(&mut self, ctx: &mut Ctx<Self::Event>);

    /// Reacts to one of its events at `ctx.now_ms()`.
    fn handle(&mut self, event: Self::Event, ctx: &mut Ctx<Self::Event>);

    /// Applies a user action or fault. On `Err` nothing may have changed.
    fn apply(&mut self, command: &Self::Command, ctx: &mut Ctx<Self::Event>) -> Result<(), String>;
}

/// A world plus its kernel context: the whole deterministic state of a run.
#[derive(Clone, Debug)]
pub struct Sim<W: World> {
    world: W,
    ctx: Ctx<W::Event>,
    seed: u64,
}

impl<W: World> Sim<W> {
    pub fn new(seed: u64, mut world: W) -> Self {
        let mut ctx = Ctx::new(seed);
        world.start(&mut ctx);
        Self { world, ctx, seed }
    }

    pub fn world(&self) -> &W {
        &self.world
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn now_ms(&self) -> u64 {
        self.ctx.now_ms
    }

    pub fn log(&self) -> &EventLog {
        &self.ctx.log
    }

    pub fn queue(&self) -> &EventQueue<W::Event> {
        &self.ctx.queue
    }

    /// Digest of the event log: same seed and inputs give the same hash.
    pub fn trace_hash(&self) -> u64 {
        self.ctx.log.trace_hash()
    }

    /// Processes the next event; false when nothing is pending.
    pub fn step(&mut self) -> bool {
        let Some((at_ms, event)) = self.ctx.queue.pop() else {
            return false;
        };
        debug_assert!(at_ms >= self.ctx.now_ms, "an event fired in the past");
        self.ctx.now_ms = at_ms;
        self.world.handle(event, &mut self.ctx);
        true
    }

    /// Processes every event due within `duration_ms`, then sets the clock to its end.
    pub fn advance(&mut self, duration_ms: u64) {
        let until_ms = self.ctx.now_ms + duration_ms;
        while self.ctx.queue.next_time_ms().is_some_and(|at_ms| at_ms <= until_ms) {
            self.step();
        }
        self.ctx.now_ms = until_ms;
    }

    /// Applies a command now; on error nothing changed.
    pub fn apply(&mut self, command: &W::Command) -> Result<(), String> {
        self.world.apply(command, &mut self.ctx)
    }

    /// Applies one recorded input (a step, an advance or a command).
    pub fn run_input(&mut self, input: &Input<W::Command>) -> Result<(), String> {
        match input {
            Input::Step => {
                self.step();
                Ok(())
            }
            Input::Advance(duration_ms) => {
                self.advance(*duration_ms);
                Ok(())
            }
            Input::Command(command) => self.apply(command),
        }
    }
}
