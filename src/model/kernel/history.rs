//! Time travel: the input tape of a run, periodic snapshots, and seeking by replay.

use super::moment::{Moment, Salient};
use super::snapshots::{Snapshots, SNAPSHOT_EVERY};
use super::{Allowance, Describe, Message, Sim, World};

/// One recorded input: step to the next event, let time pass, or a user command.
#[derive(Clone, Debug, PartialEq)]
pub enum Input<C> {
    Step,
    Advance(u64),
    Command(C),
}

/// What one input on the tape did, written down when it was first applied (replays are
/// deterministic, so it holds for every later replay): where the event log ended after it,
/// and the key moments it recorded. The timeline's markers come from these.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The event log's length after the input.
    pub log_end: usize,
    pub moments: Vec<Mark>,
}

/// One key moment on the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub moment: Moment,
    pub time_ms: u64,
    /// The fact that made it, as a catalog message (for the marker's label).
    pub fact: Message,
}

/// Stepping forward looks at most this many events ahead for one that changes the screen.
pub const MAX_SILENT_STEPS: usize = 10_000;

/// A run that can step forward, step back and jump anywhere in its history.
///
/// The tape holds every input; `position` says how many of them the current
/// state has applied. Stepping back and then doing something new cuts the tape
/// there, like an editor's undo history.
#[derive(Clone, Debug)]
pub struct History<W: World> {
    tape: Vec<Input<W::Command>>,
    /// `records[i]` describes `tape[i]`.
    records: Vec<Record>,
    /// The log's length before any input (what `World::start` recorded).
    start_log_len: usize,
    position: usize,
    current: Sim<W>,
    /// Some earlier states, within a fixed count (see [`Snapshots`]).
    snapshots: Snapshots<W>,
}

impl<W: World> History<W> {
    pub fn new(start: Sim<W>) -> Self {
        let start_log_len = start.log().len();
        Self {
            tape: Vec::new(),
            records: Vec::new(),
            start_log_len,
            position: 0,
            current: start.clone(),
            snapshots: Snapshots::new(start),
        }
    }

    pub fn current(&self) -> &Sim<W> {
        &self.current
    }

    pub fn position(&self) -> usize {
        self.position
    }

    pub fn tape(&self) -> &[Input<W::Command>] {
        &self.tape
    }

    /// The event log's length at `position` (after that many inputs).
    pub fn log_end_at(&self, position: usize) -> usize {
        match position {
            0 => self.start_log_len,
            p => self.records.get(p - 1).map_or(self.start_log_len, |r| r.log_end),
        }
    }

    /// The log entries the input that led to `position` recorded (empty at 0).
    pub fn recorded_at(&self, position: usize) -> std::ops::Range<usize> {
        if position == 0 {
            return 0..self.start_log_len;
        }
        self.log_end_at(position - 1)..self.log_end_at(position)
    }

    /// Whether reaching `position` changed what a learner sees: a command, time passing (the
    /// clock moves), or an event that logged something. A bare event step that logged nothing
    /// (a timer re-arming, a poll with nothing new) is not.
    pub fn visible_at(&self, position: usize) -> bool {
        position > 0
            && (matches!(self.tape.get(position - 1), Some(Input::Advance(_) | Input::Command(_)))
                || self.logged_at(position))
    }

    /// Whether the input that led to `position` logged a fact.
    pub fn logged_at(&self, position: usize) -> bool {
        position > 0 && !self.recorded_at(position).is_empty()
    }

    /// Every key moment on the tape, with the position that shows it.
    pub fn marks(&self) -> impl Iterator<Item = (usize, &Mark)> + '_ {
        self.records.iter().enumerate().flat_map(|(i, r)| r.moments.iter().map(move |m| (i + 1, m)))
    }

    /// Records `input` at the current position (cutting any undone future) and applies it.
    /// A command that fails is not recorded and changes nothing.
    pub fn push(&mut self, input: Input<W::Command>) -> Result<(), W::Refusal> {
        let before = self.current.log().len();
        // `World::apply` changes nothing when it refuses, so no copy is needed to undo.
        self.current.run_input(&input)?;
        self.record(input, before);
        Ok(())
    }

    /// Like [`History::push`], handling at most about the allowance's events and growing the
    /// log to at most its length: a wait that needs more stops between two instants and is
    /// recorded as the shorter wait that got there (`Ok(Some(now_ms))`), so the tape still
    /// reopens to exactly this state.
    pub fn push_within(
        &mut self,
        input: Input<W::Command>,
        allowance: impl Into<Allowance>,
    ) -> Result<Option<u64>, W::Refusal> {
        let Input::Advance(duration_ms) = input else {
            return self.push(input).map(|()| None);
        };
        let (before, start_ms) = (self.current.log().len(), self.current.now_ms());
        match self.current.advance_within(duration_ms, allowance) {
            Ok(()) => {
                self.record(Input::Advance(duration_ms), before);
                Ok(None)
            }
            Err(stopped_ms) => {
                if stopped_ms > start_ms {
                    self.record(Input::Advance(stopped_ms - start_ms), before);
                }
                Ok(Some(stopped_ms))
            }
        }
    }

    /// Appends an input that has just run from the current position.
    fn record(&mut self, input: Input<W::Command>, before: usize) {
        let log = self.current.log();
        let moments = (before..log.len())
            .filter_map(|i| log.get(i))
            .filter_map(|e| {
                e.fact.salience().moment().map(|moment| Mark { moment, time_ms: e.time_ms, fact: e.fact.message() })
            })
            .collect();
        let record = Record { log_end: log.len(), moments };
        self.tape.truncate(self.position);
        self.records.truncate(self.position);
        self.snapshots.cut(self.position);
        self.tape.push(input);
        self.records.push(record);
        self.after_forward();
    }

    /// Steps to the next position that changes the screen. Along the tape it skips event steps
    /// that logged nothing; past its end it records one wait, up to the next event that logs
    /// something (looked for at most [`MAX_SILENT_STEPS`] events ahead).
    pub fn step_visible(&mut self) {
        while self.position < self.tape.len() {
            self.step_forward();
            if self.visible_at(self.position) {
                return;
            }
        }
        if let Some(wait_ms) = self.time_to_next_fact_ms() {
            let _ = self.push(Input::Advance(wait_ms));
        }
    }

    /// How long until the next event that logs a fact (or as far as the look-ahead got); `None`
    /// when nothing is pending.
    fn time_to_next_fact_ms(&self) -> Option<u64> {
        let mut probe = self.current.clone();
        let (start_len, start_ms) = (probe.log().len(), probe.now_ms());
        for _ in 0..MAX_SILENT_STEPS {
            if !probe.step() {
                break;
            }
            if probe.log().len() > start_len {
                return Some(probe.now_ms() - start_ms);
            }
        }
        (probe.now_ms() > start_ms).then(|| probe.now_ms() - start_ms)
    }

    /// Steps back to the previous position that changed the screen (or the start).
    pub fn back_visible(&mut self) {
        let target = (1..self.position).rev().find(|&p| self.visible_at(p)).unwrap_or(0);
        self.seek(target);
    }

    /// Redoes the next input on the tape, or records a new `Step` at its end.
    pub fn step_forward(&mut self) {
        if self.position < self.tape.len() {
            self.replay_next();
        } else {
            let _ = self.push(Input::Step);
        }
    }

    /// Goes one input back.
    pub fn step_back(&mut self) {
        if self.position > 0 {
            self.seek(self.position - 1);
        }
    }

    /// Jumps to the state after `position` inputs (clamped to the tape): replays from the
    /// current state or the nearest snapshot before it, whichever is later. A long replay
    /// leaves a snapshot near `position`, so stepping back from there stays quick.
    pub fn seek(&mut self, position: usize) {
        let position = position.min(self.tape.len());
        let (kept_at, kept) = self.snapshots.nearest(position);
        if self.position > position || self.position < kept_at {
            self.current = kept.clone();
            self.position = kept_at;
        }
        let far = position - self.position > SNAPSHOT_EVERY;
        let mark = position / SNAPSHOT_EVERY * SNAPSHOT_EVERY;
        while self.position < position {
            self.replay_next();
            if far && self.position == mark {
                self.snapshots.insert(mark, &self.current);
            }
        }
    }

    /// The positions whose states are kept as snapshots (for tests and the memory report).
    pub fn snapshot_positions(&self) -> Vec<usize> {
        self.snapshots.positions().collect()
    }

    /// Replays the next recorded input (which cannot fail: it succeeded from this very state).
    fn replay_next(&mut self) {
        let input = self.tape[self.position].clone();
        let replayed = self.current.run_input(&input);
        debug_assert!(replayed.is_ok());
        self.after_forward();
    }

    fn after_forward(&mut self) {
        self.position += 1;
        self.snapshots.offer(self.position, &self.current);
    }
}
