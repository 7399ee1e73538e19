//! The simulation's ordered event queue (Kafka has none: this is the simulator's own scheduler).

use std::collections::BTreeMap;

/// Pending events ordered by virtual time; ties go in insertion order (a sequence number).
#[derive(Clone, Debug)]
pub struct EventQueue<E> {
    pending: BTreeMap<(u64, u64), E>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self { pending: BTreeMap::new(), next_seq: 0 }
    }
}

impl<E> EventQueue<E> {
    /// Schedules `event` at virtual time `at_ms`.
    pub fn push(&mut self, at_ms: u64, event: E) {
        self.pending.insert((at_ms, self.next_seq), event);
        self.next_seq += 1;
    }

    /// The time of the earliest pending event.
    pub fn next_time_ms(&self) -> Option<u64> {
        self.pending.keys().next().map(|(at_ms, _)| *at_ms)
    }

    /// Removes and returns the earliest event (ties: first scheduled first).
    pub fn pop(&mut self) -> Option<(u64, E)> {
        self.pending.pop_first().map(|((at_ms, _), event)| (at_ms, event))
    }

    /// Removes every pending event for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(&E) -> bool) {
        self.pending.retain(|_, event| keep(event));
    }

    pub fn len(&self) -> usize {
        self.pending.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Pending events in firing order, with their times.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &E)> {
        self.pending.iter().map(|((at_ms, _), event)| (*at_ms, event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_fire_in_the_order_they_were_scheduled() {
        let mut queue = EventQueue::default();
        queue.push(10, "b");
        queue.push(5, "a");
        queue.push(10, "c");
        let order: Vec<_> = std::iter::from_fn(|| queue.pop()).collect();
        assert_eq!(order, vec![(5, "a"), (10, "b"), (10, "c")]);
    }
}
