//! How a preset tells its story: where it opens, what the caption says at each step, which
//! moments the timeline marks, the question its result card asks and the answer the model
//! gives when the story reaches it, and how Play paces it (one simulated second per real
//! second at 1×, holding a moment at each authored caption).

use crate::model::kernel::{Allowance, Describe, History, Input, Message, Moment, Salience, Sim};
use crate::model::scene::{budget_left, LabScene};

/// A message computed from the run at the current step (captions, questions, answers).
pub type Say<S> = fn(&Sim<S>) -> Message;

/// A point of a story on the tape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// Where the story opens (its `start`).
    Start,
    /// After this many inputs.
    At(usize),
    /// Where the `n`th (from 1) key moment of this kind is recorded.
    Nth(Moment, usize),
    /// Where the last key moment of this kind is recorded.
    Last(Moment),
    /// The end of the tape.
    End,
}

/// An authored caption at a point of the story.
#[derive(Clone, Copy)]
pub struct Beat<S: LabScene> {
    pub cue: Cue,
    pub say: Say<S>,
}

/// A preset's (or a scene's default) story.
#[derive(Clone, Copy)]
pub struct Story<S: LabScene> {
    /// Where a preset link without `t=` opens (`Cue::At(0)` for the very start).
    pub start: Cue,
    /// Play's speed when the story opens, in simulated seconds per real second.
    pub speed: f64,
    /// The result card's question.
    pub question: Say<S>,
    /// What the card says to watch for before the outcome.
    pub watch: Say<S>,
    /// Where the answer is reached.
    pub outcome: Cue,
    /// The answer, computed from the run at the current step.
    pub answer: Say<S>,
    /// Authored captions, in story order.
    pub beats: &'static [Beat<S>],
}

impl Cue {
    /// The position this cue names on `history`'s tape, if the tape reaches it.
    pub fn resolve<S: LabScene>(self, story_start: usize, history: &History<S>) -> Option<usize> {
        let len = history.tape().len();
        match self {
            Cue::Start => Some(story_start.min(len)),
            Cue::At(position) => (position <= len).then_some(position),
            Cue::Nth(moment, n) => {
                history.marks().filter(|(_, mark)| mark.moment == moment).nth(n.saturating_sub(1)).map(|(p, _)| p)
            }
            Cue::Last(moment) => history.marks().filter(|(_, mark)| mark.moment == moment).last().map(|(p, _)| p),
            Cue::End => Some(len),
        }
    }
}

/// What the caption line shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Caption {
    /// The story's words for this step (or for the stretch since its last beat).
    Authored(Message),
    /// The most telling fact the latest step recorded, with who recorded it.
    Fact { actor: Message, fact: Message, time_ms: u64 },
    /// Nothing has happened yet: how to start.
    Idle,
}

/// The result card: the question, and the answer once the story reaches it.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub question: Message,
    pub watch: Message,
    /// `Some` once the current step is at or past the outcome.
    pub answer: Option<Message>,
}

impl<S: LabScene> Story<S> {
    /// The tape position the story opens at.
    pub fn start_position(&self, history: &History<S>) -> usize {
        self.start.resolve(0, history).unwrap_or(0)
    }

    /// Each beat's position on this tape (beats the tape never reaches are left out).
    pub fn beat_positions(&self, history: &History<S>) -> Vec<(usize, Say<S>)> {
        let start = self.start_position(history);
        self.beats.iter().filter_map(|beat| beat.cue.resolve(start, history).map(|p| (p, beat.say))).collect()
    }

    /// Where Play holds for a moment: each beat and the outcome.
    pub fn stops(&self, history: &History<S>) -> Vec<usize> {
        let mut stops: Vec<usize> = self.beat_positions(history).into_iter().map(|(p, _)| p).collect();
        stops.extend(self.outcome_position(history));
        crate::model::kernel::order::sort(&mut stops);
        stops.dedup();
        stops
    }

    pub fn outcome_position(&self, history: &History<S>) -> Option<usize> {
        self.outcome.resolve(self.start_position(history), history)
    }

    /// The caption for the current step: the latest beat, unless a notable fact came after it
    /// (routine lines — appends, fetches — never replace the story's words).
    pub fn caption(&self, history: &History<S>) -> Caption {
        let position = history.position();
        let beats = self.beat_positions(history);
        let beat = beats.iter().filter(|(p, _)| *p <= position).max_by_key(|(p, _)| *p);
        let floor = beat.map_or(0, |(p, _)| *p);
        let notable = (floor.max(1)..=position)
            .rev()
            .take(CAPTION_LOOKBACK)
            .find(|&p| telling_at(history, p) > Some(Salience::Routine));
        match (beat, notable) {
            (Some((at, _)), Some(p)) if p > *at => most_telling(history, p).unwrap_or(Caption::Idle),
            (Some((_, say)), _) => Caption::Authored(say(history.current())),
            (None, Some(p)) => most_telling(history, p).unwrap_or(Caption::Idle),
            (None, None) => match (1..=position).rev().take(CAPTION_LOOKBACK).find(|&p| history.logged_at(p)) {
                Some(p) => most_telling(history, p).unwrap_or(Caption::Idle),
                None => Caption::Idle,
            },
        }
    }

    /// The result card at the current step.
    pub fn verdict(&self, history: &History<S>) -> Verdict {
        let sim = history.current();
        let reached = self.outcome_position(history).is_some_and(|at| history.position() >= at);
        Verdict {
            question: (self.question)(sim),
            watch: (self.watch)(sim),
            answer: reached.then(|| (self.answer)(sim)),
        }
    }
}

/// How many steps back the caption looks for a notable fact.
const CAPTION_LOOKBACK: usize = 5_000;

/// The highest salience among the facts the input that led to `position` recorded.
fn telling_at<S: LabScene>(history: &History<S>, position: usize) -> Option<Salience> {
    let log = history.current().log();
    history
        .recorded_at(position)
        .filter_map(|i| log.get(i))
        .map(|e| crate::model::kernel::Salient::salience(&e.fact))
        .max()
}

/// The highest-salience fact recorded by the input that led to `position` (the first of equals).
fn most_telling<S: LabScene>(history: &History<S>, position: usize) -> Option<Caption> {
    let log = history.current().log();
    let entries = history.recorded_at(position).filter_map(|i| log.get(i));
    let mut best: Option<(Salience, &crate::model::kernel::LogEntry<S::Fact>)> = None;
    for entry in entries {
        let salience = crate::model::kernel::Salient::salience(&entry.fact);
        if best.as_ref().is_none_or(|(b, _)| salience > *b) {
            best = Some((salience, entry));
        }
    }
    best.map(|(_, e)| Caption::Fact { actor: e.actor.message(), fact: e.fact.message(), time_ms: e.time_ms })
}

/// The speeds Play offers (simulated seconds per real second); below 1 is slow motion.
pub const SPEEDS: &[f64] = &[0.01, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0];

/// A speed of [`SPEEDS`] as plain text (`0.25`, `3600`), as `f64`'s `Display` writes it but
/// from whole hundredths (every speed there is one), so a page links no float formatting.
pub fn speed_text(speed: f64) -> String {
    let hundredths = (speed * 100.0).round() as u64;
    let (whole, fraction) = (hundredths / 100, hundredths % 100);
    match fraction {
        0 => whole.to_string(),
        f if f % 10 == 0 => format!("{whole}.{}", f / 10),
        f => format!("{whole}.{f:02}"),
    }
}

/// Real milliseconds between two Play ticks.
pub const TICK_MS: u64 = 100;
/// Ticks Play holds at a story's stop, so its caption can be read.
pub const HOLD_TICKS: u32 = 12;
/// Inputs one tick replays at most (a guard for very fast speeds).
const MAX_INPUTS_PER_TICK: usize = 20_000;
/// Events one tick handles at most by default, so a tick holds the page for about a frame at
/// most; the rest of the tick's time waits for the next one, and a model busier than that
/// plays slower than the speed asks. The browser adapts it to the device (see
/// [`next_tick_events`]).
pub const PLAY_TICK_EVENTS: u64 = 15_000;
/// The fewest and the most events the browser lets one tick handle.
pub const TICK_EVENTS_RANGE: (u64, u64) = (500, 60_000);
/// The model work one tick may take in the browser, in real ms (half a frame: drawing the
/// result takes the rest).
pub const TICK_WORK_MS: f64 = 8.0;

/// The event allowance for the next tick, from the last one's: `handled` events in `took_ms`
/// real ms. Over [`TICK_WORK_MS`] it shrinks in proportion; well under it, when the tick used
/// its whole allowance, it grows by half.
pub fn next_tick_events(allowance: u64, handled: u64, took_ms: f64) -> u64 {
    let (low, high) = TICK_EVENTS_RANGE;
    let next = if took_ms > TICK_WORK_MS {
        (allowance as f64 * TICK_WORK_MS / took_ms) as u64
    } else if handled >= allowance && took_ms < TICK_WORK_MS / 2.0 {
        allowance + allowance / 2
    } else {
        allowance
    };
    next.clamp(low, high)
}

/// What one tick of Play did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tick {
    /// Time passed or inputs were replayed.
    Moved,
    /// Held at a stop (nothing changed).
    Held,
    /// The replay reached the end of the recorded tape: Play pauses there.
    Ended,
    /// The run holds as much work as a link may ask for (the event and log-line budgets of
    /// [`crate::model::scene::budget_left`]): Play stops
    /// there, so the link it writes reopens the same state.
    Limit,
}

/// Paces Play: each tick grants `TICK_MS × speed` simulated ms; recorded inputs are replayed
/// when the granted time covers them (an `Advance` costs its duration, a `Step` the time to the
/// next event, a command nothing); past the tape's end, time simply passes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Player {
    carry_ms: f64,
    hold_ticks: u32,
    /// Play started inside the recorded tape (so it pauses at its end).
    replaying: bool,
}

impl Player {
    /// A player starting at the current position.
    pub fn new<S: LabScene>(history: &History<S>) -> Self {
        Self { carry_ms: 0.0, hold_ticks: 0, replaying: history.position() < history.tape().len() }
    }

    /// One tick at `speed`; `stops` are the positions to hold at.
    pub fn tick<S: LabScene>(&mut self, history: &mut History<S>, speed: f64, stops: &[usize]) -> Tick {
        self.tick_within(history, speed, stops, PLAY_TICK_EVENTS)
    }

    /// One tick handling at most about `max_events` events (the browser passes what fits in a
    /// frame on this device; the rest of the tick's time waits for the next tick).
    pub fn tick_within<S: LabScene>(
        &mut self,
        history: &mut History<S>,
        speed: f64,
        stops: &[usize],
        max_events: u64,
    ) -> Tick {
        if self.hold_ticks > 0 {
            self.hold_ticks -= 1;
            return Tick::Held;
        }
        self.carry_ms += TICK_MS as f64 * speed;
        if history.position() == history.tape().len() {
            return if self.replaying { Tick::Ended } else { self.live(history, speed, max_events) };
        }
        let events_before = history.current().events_handled();
        for _ in 0..MAX_INPUTS_PER_TICK {
            let Some(cost_ms) = next_cost_ms(history) else { break };
            if cost_ms as f64 > self.carry_ms || history.current().events_handled() - events_before >= PLAY_TICK_EVENTS
            {
                break;
            }
            self.carry_ms -= cost_ms as f64;
            history.step_forward();
            let position = history.position();
            if stops.binary_search(&position).is_ok() {
                self.hold_ticks = HOLD_TICKS;
                self.carry_ms = 0.0;
                break;
            }
        }
        if history.position() == history.tape().len() {
            self.carry_ms = 0.0;
        }
        Tick::Moved
    }

    /// Past the tape's end: lets the granted time pass, handling at most `max_events` events
    /// and never more work than the budget has left.
    fn live<S: LabScene>(&mut self, history: &mut History<S>, speed: f64, max_events: u64) -> Tick {
        let granted_ms = self.carry_ms.floor();
        self.carry_ms -= granted_ms;
        if granted_ms < 1.0 {
            return Tick::Moved;
        }
        let Some(left) = budget_left(history) else {
            self.carry_ms = 0.0;
            return Tick::Limit;
        };
        let (start_ms, events_before) = (history.current().now_ms(), history.current().events_handled());
        let granted_ms = granted_ms as u64;
        if let Ok(Some(stopped_ms)) =
            history.push_within(Input::Advance(granted_ms), Allowance { events: left.events.min(max_events), ..left })
        {
            if stopped_ms == start_ms && history.current().events_handled() == events_before {
                // Not one instant fits what is left: the budget is spent.
                self.carry_ms = 0.0;
                return Tick::Limit;
            }
            // The time not played waits for the next tick, at most one tick's worth.
            let behind_ms = (start_ms + granted_ms - stopped_ms) as f64;
            self.carry_ms = (self.carry_ms + behind_ms).min(TICK_MS as f64 * speed);
        }
        Tick::Moved
    }
}

/// Simulated ms the next recorded input takes (`None` at the tape's end).
fn next_cost_ms<S: LabScene>(history: &History<S>) -> Option<u64> {
    let sim = history.current();
    history.tape().get(history.position()).map(|input| match input {
        Input::Advance(ms) => *ms,
        Input::Step => sim.queue().next_time_ms().map_or(0, |at| at.saturating_sub(sim.now_ms())),
        Input::Command(_) => 0,
    })
}

/// Real ms Play takes at `speed` from the current position until `target` (ticks × `TICK_MS`),
/// or `None` if it never gets there within `limit_ms`.
pub fn real_ms_to_reach<S: LabScene>(
    history: &History<S>,
    speed: f64,
    stops: &[usize],
    target: usize,
    limit_ms: u64,
) -> Option<u64> {
    let mut history = history.clone();
    let mut player = Player::new(&history);
    let mut elapsed_ms = 0;
    while history.position() < target {
        if elapsed_ms > limit_ms || player.tick(&mut history, speed, stops) == Tick::Ended {
            return None;
        }
        elapsed_ms += TICK_MS;
    }
    Some(elapsed_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_speed_is_written_as_float_formatting_writes_it() {
        for &speed in SPEEDS {
            assert_eq!(speed_text(speed), speed.to_string());
        }
    }
}
