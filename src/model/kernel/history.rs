//! Time travel: the input tape of a run, periodic snapshots, and seeking by replay.

use super::{Sim, World};

/// How many inputs lie between two snapshots; a seek replays fewer than this.
pub const SNAPSHOT_EVERY: usize = 128;

/// One recorded input: step to the next event, let time pass, or a user command.
#[derive(Clone, Debug, PartialEq)]
pub enum Input<C> {
    Step,
    Advance(u64),
    Command(C),
}

/// A run that can step forward, step back and jump anywhere in its history.
///
/// The tape holds every input; `position` says how many of them the current
/// state has applied. Stepping back and then doing something new cuts the tape
/// there, like an editor's undo history.
#[derive(Clone, Debug)]
pub struct History<W: World> {
    tape: Vec<Input<W::Command>>,
    position: usize,
    current: Sim<W>,
    /// `snapshots[k]` is the state after `k * SNAPSHOT_EVERY` inputs.
    snapshots: Vec<Sim<W>>,
}

impl<W: World> History<W> {
    pub fn new(start: Sim<W>) -> Self {
        Self { tape: Vec::new(), position: 0, current: start.clone(), snapshots: vec![start] }
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

    /// Records `input` at the current position (cutting any undone future) and applies it.
    /// A command that fails is not recorded and changes nothing.
    pub fn push(&mut self, input: Input<W::Command>) -> Result<(), W::Refusal> {
        // `World::apply` changes nothing when it refuses, so no copy is needed to undo.
        self.current.run_input(&input)?;
        self.tape.truncate(self.position);
        self.snapshots.truncate(self.position / SNAPSHOT_EVERY + 1);
        self.tape.push(input);
        self.after_forward();
        Ok(())
    }

    /// Redoes the next input on the tape, or records a new `Step` at its end.
    pub fn step_forward(&mut self) {
        if self.position < self.tape.len() {
            let input = self.tape[self.position].clone();
            // Replaying a recorded input cannot fail: it succeeded from this very state.
            let replayed = self.current.run_input(&input);
            debug_assert!(replayed.is_ok());
            self.after_forward();
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

    /// Jumps to the state after `position` inputs (clamped to the tape).
    pub fn seek(&mut self, position: usize) {
        let position = position.min(self.tape.len());
        let from_current = self.position <= position && position - self.position < SNAPSHOT_EVERY;
        if !from_current {
            let snapshot = (position / SNAPSHOT_EVERY).min(self.snapshots.len() - 1);
            self.current = self.snapshots[snapshot].clone();
            self.position = snapshot * SNAPSHOT_EVERY;
        }
        while self.position < position {
            self.step_forward();
        }
    }

    fn after_forward(&mut self) {
        self.position += 1;
        if self.position.is_multiple_of(SNAPSHOT_EVERY) && self.snapshots.len() == self.position / SNAPSHOT_EVERY {
            self.snapshots.push(self.current.clone());
        }
    }
}
