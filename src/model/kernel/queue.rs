//! The simulation's ordered event queue (Kafka has none: this is the simulator's own scheduler).

use std::collections::{BTreeMap, BTreeSet};

/// Events a scene's views look for among many pending ones (messages on the wire among
/// thousands of timers): the queue keeps them indexed so a view needn't scan the rest.
pub trait Watched {
    /// Whether views list this event (default: no).
    fn watched(&self) -> bool {
        false
    }
}

/// Pending events ordered by virtual time; ties go in insertion order (a sequence number).
#[derive(Clone, Debug)]
pub struct EventQueue<E> {
    pending: BTreeMap<(u64, u64), E>,
    /// The keys of the pending events that are [`Watched`].
    watched: BTreeSet<(u64, u64)>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self { pending: BTreeMap::new(), watched: BTreeSet::new(), next_seq: 0 }
    }
}

impl<E: Watched> EventQueue<E> {
    /// Schedules `event` at virtual time `at_ms`.
    pub fn push(&mut self, at_ms: u64, event: E) {
        let key = (at_ms, self.next_seq);
        if event.watched() {
            self.watched.insert(key);
        }
        self.pending.insert(key, event);
        self.next_seq += 1;
    }

    /// The pending watched events in firing order, with their times.
    pub fn watched(&self) -> impl Iterator<Item = (u64, &E)> {
        self.watched.iter().filter_map(|key| self.pending.get(key).map(|event| (key.0, event)))
    }

    /// The time of the earliest pending event.
    pub fn next_time_ms(&self) -> Option<u64> {
        self.pending.keys().next().map(|(at_ms, _)| *at_ms)
    }

    /// Removes and returns the earliest event (ties: first scheduled first).
    pub fn pop(&mut self) -> Option<(u64, E)> {
        let (key, event) = self.pending.pop_first()?;
        if self.watched.first() == Some(&key) {
            self.watched.pop_first();
        }
        Some((key.0, event))
    }

    /// Removes every pending event for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(&E) -> bool) {
        let watched = &mut self.watched;
        self.pending.retain(|key, event| {
            let kept = keep(event);
            if !kept {
                watched.remove(key);
            }
            kept
        });
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

    impl Watched for &str {
        fn watched(&self) -> bool {
            self.starts_with("msg")
        }
    }

    #[test]
    fn watched_events_are_listed_in_order_and_leave_when_fired_or_dropped() {
        let mut queue = EventQueue::default();
        for (at_ms, event) in [(30, "msg c"), (10, "timer"), (20, "msg b"), (5, "msg a"), (25, "timer")] {
            queue.push(at_ms, event);
        }
        fn listed(q: &EventQueue<&'static str>) -> Vec<&'static str> {
            q.watched().map(|(_, e)| *e).collect()
        }
        assert_eq!(listed(&queue), ["msg a", "msg b", "msg c"]);
        assert_eq!(queue.pop(), Some((5, "msg a")));
        assert_eq!(queue.pop(), Some((10, "timer")));
        queue.retain(|e| *e != "msg b");
        assert_eq!(listed(&queue), ["msg c"]);
        assert_eq!(queue.len(), 2);
    }

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
