//! A binary-heap delay queue (what `java.util.concurrent.DelayQueue` is, and what Kafka's
//! purgatory used before the timing wheel), for a side-by-side count with the wheel.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::index::IdIndex;
use super::{DelayQueue, OpCounts};

/// A `DelayQueue`-style timer on `std::collections::BinaryHeap`, with lazy cancellation;
/// reads tickMs only to fire exactly when the wheel would (a task is due once
/// `expiration < currentTime + tickMs`).
#[derive(Clone, Debug)]
pub struct HeapTimer {
    tick_ms: u64,
    current_time_ms: u64,
    /// (expiration, sequence, id): ties fire in insertion order.
    heap: BinaryHeap<Reverse<(u64, u64, u64)>>,
    /// id → sequence number of its live heap entry; a popped entry with another number is stale.
    live: IdIndex,
    next_sequence: u64,
    ops: OpCounts,
    pending: usize,
}

impl HeapTimer {
    pub fn new(tick_ms: u64, start_ms: u64) -> Self {
        assert!(tick_ms >= 1, "tickMs must be at least 1");
        Self {
            tick_ms,
            current_time_ms: start_ms - start_ms % tick_ms,
            heap: BinaryHeap::new(),
            live: IdIndex::default(),
            next_sequence: 0,
            ops: OpCounts::default(),
            pending: 0,
        }
    }

    fn depth(&self) -> u64 {
        u64::from(usize::BITS - self.heap.len().leading_zeros())
    }

    /// Parks `id` until `expiration_ms`; false when already due. Re-adding a pending id moves it.
    pub fn add(&mut self, id: u64, expiration_ms: u64) -> bool {
        if self.live.remove(id).is_some() {
            self.pending -= 1;
        }
        if expiration_ms < self.current_time_ms + self.tick_ms {
            return false;
        }
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        self.heap.push(Reverse((expiration_ms, sequence, id)));
        self.ops.work += self.depth();
        self.live.set(id, sequence);
        self.pending += 1;
        self.ops.inserts += 1;
        true
    }

    /// Marks a pending task cancelled (its heap entry is dropped when it reaches the top).
    pub fn cancel(&mut self, id: u64) -> bool {
        let removed = self.live.remove(id).is_some();
        if removed {
            self.pending -= 1;
            self.ops.cancels += 1;
        }
        removed
    }

    /// Moves the clock to `now_ms` and returns the ids that came due, in firing order.
    pub fn advance_to(&mut self, now_ms: u64) -> Vec<u64> {
        let mut fired = Vec::new();
        self.advance_into(now_ms, &mut fired);
        fired
    }

    pub fn current_time(&self) -> u64 {
        self.current_time_ms
    }

    pub fn ops(&self) -> OpCounts {
        self.ops
    }

    pub fn pending(&self) -> usize {
        self.pending
    }

    /// Entries in the heap, including cancelled ones not yet popped.
    pub fn heap_len(&self) -> usize {
        self.heap.len()
    }
}

impl DelayQueue for HeapTimer {
    fn add(&mut self, id: u64, expiration_ms: u64) -> bool {
        HeapTimer::add(self, id, expiration_ms)
    }
    fn cancel(&mut self, id: u64) -> bool {
        HeapTimer::cancel(self, id)
    }
    fn advance_into(&mut self, now_ms: u64, fired: &mut Vec<u64>) {
        if now_ms >= self.current_time_ms + self.tick_ms {
            self.current_time_ms = now_ms - now_ms % self.tick_ms;
        }
        let due_before_ms = self.current_time_ms + self.tick_ms;
        while let Some(&Reverse((expiration_ms, sequence, id))) = self.heap.peek() {
            if expiration_ms >= due_before_ms {
                break;
            }
            self.ops.work += self.depth();
            self.heap.pop();
            self.ops.expirations += 1;
            if self.live.get(id) != Some(sequence) {
                self.ops.stale_pops += 1;
                continue;
            }
            self.live.remove(id);
            self.pending -= 1;
            self.ops.fired += 1;
            fired.push(id);
        }
    }
    fn current_time(&self) -> u64 {
        self.current_time_ms
    }
    fn ops(&self) -> OpCounts {
        self.ops
    }
    fn pending(&self) -> usize {
        self.pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_due_exactly_at_its_expiration_and_not_a_millisecond_before() {
        let mut heap = HeapTimer::new(1, 0);
        assert!(heap.add(1, 10));
        assert!(!heap.add(2, 0), "due now: the caller runs it");
        assert!(heap.advance_to(9).is_empty());
        assert_eq!(heap.advance_to(10), vec![1]);
    }

    #[test]
    fn a_cancelled_entry_stays_in_the_heap_until_it_reaches_the_top() {
        let mut heap = HeapTimer::new(1, 0);
        heap.add(1, 10);
        heap.add(2, 20);
        assert!(heap.cancel(1));
        assert_eq!((heap.pending(), heap.heap_len()), (1, 2));
        assert_eq!(heap.advance_to(20), vec![2]);
        assert_eq!((heap.ops().stale_pops, heap.heap_len()), (1, 0));
    }
}
