//! The history's snapshots, kept within a fixed count and a fixed number of copied items: a
//! long run keeps as many as a short one, spread over its work, a run whose every state is
//! heavy (a queue of 180,000 pending events) keeps fewer, and a seek re-simulates from the
//! nearest one kept.
//!
//! Snapshots are a cache: any state is also the start replayed through the tape, so which
//! ones are kept changes how long a seek takes, never what it shows.

use super::{Sim, World};

/// A snapshot is offered every this many inputs (a seek nearby replays fewer than this).
pub const SNAPSHOT_EVERY: usize = 128;
/// …or once this much work (events handled) has passed since the last one.
pub const SNAPSHOT_EVERY_EVENTS: u64 = 50_000;
/// The most snapshots a history keeps. Past it, the one whose loss adds the least replay work
/// is dropped, so the kept ones stay spread over the run's work.
pub const MAX_SNAPSHOTS: usize = 48;
/// The most items (pending events and a world's unshared collections, see
/// [`Sim::copied_items`]) all kept snapshots may copy together: at about 110 bytes an item
/// (a pending event in the queue's tree), some 7 MB of wasm memory. Past it, inner snapshots
/// go first, then the latest; the start always stays. A quiet run copies a few hundred items a
/// snapshot (the replication scene's default about 1,200: its 48 snapshots fit).
pub const MAX_SNAPSHOT_ITEMS: usize = 64_000;

/// One kept state: the run after `position` inputs.
#[derive(Clone, Debug)]
struct Snapshot<W: World> {
    position: usize,
    sim: Sim<W>,
    /// `sim.copied_items()`, counted once when kept.
    items: usize,
}

impl<W: World> Snapshot<W> {
    /// What replaying up to here from the start costs: events plus one per input.
    fn work(&self) -> u64 {
        self.sim.events_handled().saturating_add(self.position as u64)
    }
}

/// Snapshots ordered by position; the first is always the start (position 0).
#[derive(Clone, Debug)]
pub struct Snapshots<W: World> {
    kept: Vec<Snapshot<W>>,
}

impl<W: World> Snapshots<W> {
    pub fn new(start: Sim<W>) -> Self {
        let items = start.copied_items();
        Self { kept: vec![Snapshot { position: 0, sim: start, items }] }
    }

    /// The positions kept, in order.
    pub fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.kept.iter().map(|s| s.position)
    }

    /// The latest snapshot at or before `position`: (its position, its state).
    pub fn nearest(&self, position: usize) -> (usize, &Sim<W>) {
        let index = self.kept.partition_point(|s| s.position <= position).saturating_sub(1);
        let snapshot = &self.kept[index];
        (snapshot.position, &snapshot.sim)
    }

    /// Forgets snapshots past `position` (the tape was cut there).
    pub fn cut(&mut self, position: usize) {
        let keep = self.kept.partition_point(|s| s.position <= position).max(1);
        self.kept.truncate(keep);
    }

    /// Called after each input run forward to `position`: keeps a copy of `sim` when it is
    /// past the last snapshot by [`SNAPSHOT_EVERY`] inputs or [`SNAPSHOT_EVERY_EVENTS`] events.
    pub fn offer(&mut self, position: usize, sim: &Sim<W>) {
        let last = self.kept.last().expect("the start is always kept");
        let due = position >= last.position.saturating_add(SNAPSHOT_EVERY)
            || sim.events_handled() >= last.sim.events_handled().saturating_add(SNAPSHOT_EVERY_EVENTS);
        if position > last.position && due {
            self.insert(position, sim);
        }
    }

    /// Keeps a copy of `sim` at `position` (a seek that replayed far leaves one behind, so
    /// stepping back from there is quick), then thins back to [`MAX_SNAPSHOTS`].
    pub fn insert(&mut self, position: usize, sim: &Sim<W>) {
        let index = self.kept.partition_point(|s| s.position < position);
        if self.kept.get(index).is_some_and(|s| s.position == position) {
            return;
        }
        let items = sim.copied_items();
        if items > MAX_SNAPSHOT_ITEMS {
            return; // Heavier than the whole budget: replaying is the only way back here.
        }
        self.kept.insert(index, Snapshot { position, sim: sim.clone(), items });
        self.thin();
    }

    fn items(&self) -> usize {
        self.kept.iter().map(|s| s.items).sum()
    }

    /// Drops the inner snapshots whose loss adds the least replay work until at most
    /// [`MAX_SNAPSHOTS`] remain and they copy at most [`MAX_SNAPSHOT_ITEMS`] items; then, if
    /// still too heavy, the latest. The start is never dropped.
    fn thin(&mut self) {
        while self.kept.len() > MAX_SNAPSHOTS || (self.kept.len() > 2 && self.items() > MAX_SNAPSHOT_ITEMS) {
            let merged_gap = |i: usize| self.kept[i + 1].work() - self.kept[i - 1].work();
            let drop = (1..self.kept.len() - 1).min_by_key(|&i| merged_gap(i)).expect("more than two kept");
            self.kept.remove(drop);
        }
        if self.kept.len() == 2 && self.items() > MAX_SNAPSHOT_ITEMS {
            self.kept.pop();
        }
        debug_assert!(self.kept.windows(2).all(|w| w[0].position < w[1].position), "snapshots in order");
        debug_assert_eq!(self.kept[0].position, 0, "the start is always kept");
    }
}
