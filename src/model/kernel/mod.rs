//! The discrete-event simulation kernel every scene runs on: a virtual clock,
//! an ordered event queue, one seeded RNG, an event log, and time travel.
//!
//! A scene's model is a [`World`]: it reacts to its own events and to user
//! commands (actions and faults), scheduling more events through [`Ctx`].

mod actor;
mod chunked;
mod event_log;
mod fault;
mod history;
mod keys;
mod message;
mod moment;
pub mod order;
mod queue;
mod rounding;
mod snapshots;
pub mod sorted;
mod tape;
mod token;

pub use actor::{Actor, ACTOR_KEYS};
pub use chunked::ChunkedVec;
pub use event_log::{EventLog, LogEntry, TraceHasher};
pub use fault::{Fault, Node};
pub use history::{History, Input, Mark, Record, MAX_SILENT_STEPS};
pub use keys::{ids as catalog_ids, short_id};
pub use message::{
    english_plural, fill, group_digits, write_decimal, write_duration, Arg, Describe, DurationUnits, Key, Message,
    Plural,
};
pub use moment::{Moment, Salience, Salient, MOMENT_KEYS};
pub use queue::{EventQueue, Watched};
pub use rounding::decimal_units;
pub use snapshots::{MAX_SNAPSHOTS, MAX_SNAPSHOT_ITEMS, SNAPSHOT_EVERY, SNAPSHOT_EVERY_EVENTS};
pub use tape::{decode_tape, encode_tape, CommandCodec, TapeError, MAX_TAPE_INPUTS, MAX_WAIT_MS, TAPE_KEYS};
pub use token::{parse_number, parse_signed, Token, TokenError, TOKEN_KEYS};

use std::fmt::Debug;
use std::hash::Hash;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Everything a world may touch besides its own state: clock, queue, RNG and log.
#[derive(Clone, Debug)]
pub struct Ctx<E, F> {
    now_ms: u64,
    queue: EventQueue<E>,
    rng: ChaCha8Rng,
    log: EventLog<F>,
    /// Events handled since the run began: the measure of a run's work.
    handled: u64,
}

impl<E: Watched, F: Hash> Ctx<E, F> {
    fn new(seed: u64) -> Self {
        Self {
            now_ms: 0,
            queue: EventQueue::default(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            log: EventLog::default(),
            handled: 0,
        }
    }

    /// Virtual time in milliseconds.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Schedules `event` `delay_ms` from now.
    pub fn schedule(&mut self, delay_ms: u64, event: E) {
        self.queue.push(self.now_ms.saturating_add(delay_ms), event);
    }

    /// Counts `events` more toward the run's work: a handler whose one event does the work of
    /// many (a cleaner pass rewriting a million records) charges it, so the work budget and
    /// Play's per-tick allowance stop a run that would otherwise freeze on a few huge events.
    pub fn charge(&mut self, events: u64) {
        self.handled = self.handled.saturating_add(events);
    }

    /// Drops pending events for which `keep` is false (e.g. a dead broker's timers).
    pub fn cancel_where(&mut self, mut drop: impl FnMut(&E) -> bool) {
        self.queue.retain(|event| !drop(event));
    }

    /// Records a fact in the event log at the current time.
    pub fn record(&mut self, actor: Actor, fact: F) {
        self.log.push(self.now_ms, actor, fact);
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

    pub fn log_entries(&self) -> &EventLog<F> {
        &self.log
    }
}

/// More events at one virtual instant than any scene needs: past it a run is stuck in a
/// loop of zero-delay events and stops (see [`Sim::advance_within`]).
pub const MAX_EVENTS_AT_ONE_INSTANT: u64 = 100_000;

/// How much work one wait may do: events to handle, and the length the event log may reach
/// (its lines are kept for the whole run, so they are a memory budget of their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    pub events: u64,
    pub log_len: usize,
}

impl From<u64> for Allowance {
    /// An allowance of `events`, with no limit on the log.
    fn from(events: u64) -> Self {
        Self { events, log_len: usize::MAX }
    }
}

/// A scene's model. `Clone` is what makes snapshots (and so step-back) possible.
///
/// The contract: [`World::check`] decides, without changing anything, whether a
/// command may run; [`World::apply`] then runs it and cannot fail. So a refused
/// command changes nothing, and the compiler holds every scene to that.
pub trait World: Clone {
    type Event: Clone + Debug + Watched;
    type Command: Clone + Debug + PartialEq;
    /// What the event log records: typed, rendered by the UI's catalog.
    type Fact: Clone + Debug + PartialEq + Hash + Describe + Salient;
    /// Why a command is refused.
    type Refusal: Clone + Debug + Describe;

    /// Called once when the simulation starts: schedule the first events.
    fn start(&mut self, ctx: &mut Ctx<Self::Event, Self::Fact>);

    /// Reacts to one of its events at `ctx.now_ms()`.
    fn handle(&mut self, event: Self::Event, ctx: &mut Ctx<Self::Event, Self::Fact>);

    /// Whether `command` may be applied now; never changes anything.
    fn check(&self, command: &Self::Command, ctx: &Ctx<Self::Event, Self::Fact>) -> Result<(), Self::Refusal>;

    /// Applies a command that [`World::check`] accepted.
    fn apply(&mut self, command: &Self::Command, ctx: &mut Ctx<Self::Event, Self::Fact>);

    /// How many items a copy of this world duplicates: its collections that grow with the run
    /// and are not in shared chunks ([`ChunkedVec`]). Snapshots count it against their budget.
    fn copied_items(&self) -> usize {
        0
    }
}

/// A world plus its kernel context: the whole deterministic state of a run.
#[derive(Clone, Debug)]
pub struct Sim<W: World> {
    world: W,
    ctx: Ctx<W::Event, W::Fact>,
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

    pub fn log(&self) -> &EventLog<W::Fact> {
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
        self.ctx.handled += 1;
        self.world.handle(event, &mut self.ctx);
        true
    }

    /// Events handled since the run began.
    pub fn events_handled(&self) -> u64 {
        self.ctx.handled
    }

    /// What a copy of this state duplicates, in items: the pending events and the world's own
    /// (see [`World::copied_items`]); the snapshots' memory budget counts it.
    pub fn copied_items(&self) -> usize {
        self.ctx.queue.len().saturating_add(self.world.copied_items())
    }

    /// Processes every event due within `duration_ms`, then sets the clock to its end.
    /// Only an instant stuck past [`MAX_EVENTS_AT_ONE_INSTANT`] stops it early, with the clock
    /// left at that instant (never past events still pending).
    pub fn advance(&mut self, duration_ms: u64) {
        let _stuck_at_ms = self.advance_within(duration_ms, u64::MAX);
    }

    /// Like [`Sim::advance`], handling at most about the allowance's events, and stopping once
    /// the log holds its `log_len` lines (always past the first instant after the start): then
    /// it stops between two instants — every event up to the clock handled, none after — and says
    /// where (`Err(now_ms)`), so `advance(now_ms - start)` from the same state ends here too.
    /// An instant that alone needs more than [`MAX_EVENTS_AT_ONE_INSTANT`] events (a model
    /// scheduling itself with no delay) stops there too rather than never returning.
    pub fn advance_within(&mut self, duration_ms: u64, allowance: impl Into<Allowance>) -> Result<(), u64> {
        let allowance = allowance.into();
        let (start_ms, until_ms) = (self.ctx.now_ms, self.ctx.now_ms.saturating_add(duration_ms));
        let limit = self.ctx.handled.saturating_add(allowance.events);
        let mut at_this_instant = 0;
        while let Some(next_ms) = self.ctx.queue.next_time_ms().filter(|at_ms| *at_ms <= until_ms) {
            if next_ms > self.ctx.now_ms {
                // Past the start instant at least, so a stop always moves the clock: the events
                // it ran are then a wait a link can write (`w0` is not one).
                let spent = self.ctx.handled >= limit || self.ctx.log.len() >= allowance.log_len;
                if spent && self.ctx.now_ms > start_ms {
                    return Err(self.ctx.now_ms);
                }
                at_this_instant = 0;
            }
            at_this_instant += 1;
            if at_this_instant > MAX_EVENTS_AT_ONE_INSTANT {
                return Err(self.ctx.now_ms);
            }
            self.step();
        }
        self.ctx.now_ms = until_ms;
        Ok(())
    }

    /// Applies a command now if the world accepts it; a refusal changes nothing.
    pub fn apply(&mut self, command: &W::Command) -> Result<(), W::Refusal> {
        self.world.check(command, &self.ctx)?;
        self.world.apply(command, &mut self.ctx);
        Ok(())
    }

    /// Applies one recorded input (a step, an advance or a command).
    pub fn run_input(&mut self, input: &Input<W::Command>) -> Result<(), W::Refusal> {
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

#[cfg(test)]
mod budget_tests;
