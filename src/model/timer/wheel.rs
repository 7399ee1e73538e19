//! Kafka's hierarchical timing wheel: `SystemTimer` driving a `TimingWheel` whose
//! buckets are `TimerTaskList`s kept in a delay queue ordered by bucket expiration.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::index::IdIndex;
use super::{DelayQueue, OpCounts};

/// The largest `wheelSize` the lab accepts (a bucket index is packed in 24 bits).
pub const MAX_WHEEL_SIZE: usize = 1 << 16;
/// Expirations must stay below this, so every level's arithmetic fits in a `u64`.
pub const MAX_EXPIRATION_MS: u64 = 1 << 62;
/// A bucket that holds no round of tasks (Kafka's expiration -1).
pub(super) const NO_EXPIRATION: u64 = u64::MAX;
/// The id left in a bucket slot whose task was cancelled (the slot is skipped at flush).
pub(super) const CANCELLED: u64 = u64::MAX;

/// Kafka's `TimerTaskEntry`: a task id and its absolute expiration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub id: u64,
    pub expiration_ms: u64,
}

/// Kafka's `TimerTaskList`: one bucket of a wheel, with the expiration of its current round.
#[derive(Clone, Debug)]
pub(super) struct Bucket {
    pub expiration_ms: u64,
    pub entries: Vec<Entry>,
    pub live: usize,
}

/// Kafka's `TimingWheel` (one level); reads tickMs and wheelSize.
#[derive(Clone, Debug)]
pub(super) struct Wheel {
    pub tick_ms: u64,
    pub interval_ms: u64,
    pub current_time_ms: u64,
    pub buckets: Vec<Bucket>,
}

impl Wheel {
    fn new(tick_ms: u64, wheel_size: usize, start_ms: u64) -> Self {
        let empty = Bucket { expiration_ms: NO_EXPIRATION, entries: Vec::new(), live: 0 };
        Self {
            tick_ms,
            interval_ms: tick_ms.saturating_mul(wheel_size as u64),
            // rounded down to a multiple of tickMs, as Kafka's constructor does
            current_time_ms: start_ms - start_ms % tick_ms,
            buckets: vec![empty; wheel_size],
        }
    }
}

/// What one task did when its bucket expired during the last advance (for animation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub id: u64,
    pub expiration_ms: u64,
    /// The expiration of the bucket that was flushed (the wheel's clock at that moment).
    pub at_ms: u64,
    /// `(level, bucket)` it was in; level 0 is the finest wheel.
    pub from: (usize, usize),
    /// `(level, bucket)` it fell into, or `None` when it ran.
    pub to: Option<(usize, usize)>,
}

/// Kafka's `SystemTimer` with its `TimingWheel` levels; reads tickMs, wheelSize (defaults 1, 20).
#[derive(Clone, Debug)]
pub struct Timer {
    pub(super) wheel_size: usize,
    pub(super) wheels: Vec<Wheel>,
    /// Kafka's `DelayQueue<TimerTaskList>`: buckets by (expiration, level, index).
    delay_queue: BinaryHeap<Reverse<(u64, u32, u32)>>,
    index: IdIndex,
    scratch: Vec<Entry>,
    ops: OpCounts,
    pending: usize,
    tracing: bool,
    trace: Vec<Move>,
}

#[inline]
fn pack(level: usize, bucket: usize, slot: usize) -> u64 {
    ((level as u64) << 56) | ((bucket as u64) << 32) | slot as u64
}

#[inline]
fn unpack(location: u64) -> (usize, usize, usize) {
    ((location >> 56) as usize, ((location >> 32) & 0xff_ffff) as usize, (location & 0xffff_ffff) as usize)
}

impl Timer {
    /// A timer whose finest wheel has `tick_ms` × `wheel_size` buckets, its clock at `start_ms`
    /// rounded down to a multiple of `tick_ms`.
    pub fn new(tick_ms: u64, wheel_size: usize, start_ms: u64) -> Self {
        assert!(tick_ms >= 1, "tickMs must be at least 1");
        assert!((2..=MAX_WHEEL_SIZE).contains(&wheel_size), "wheelSize must be 2 to {MAX_WHEEL_SIZE}");
        Self {
            wheel_size,
            wheels: vec![Wheel::new(tick_ms, wheel_size, start_ms)],
            delay_queue: BinaryHeap::new(),
            index: IdIndex::default(),
            scratch: Vec::new(),
            ops: OpCounts::default(),
            pending: 0,
            tracing: false,
            trace: Vec::new(),
        }
    }

    /// Parks task `id` until `expiration_ms`. False when it is already expired
    /// (`expiration_ms < currentTime + tickMs`): the caller runs it at once.
    /// Adding an id that is pending moves it (Kafka's add first unlinks the entry).
    pub fn add(&mut self, id: u64, expiration_ms: u64) -> bool {
        assert!(id != CANCELLED, "task id u64::MAX is reserved");
        assert!(expiration_ms <= MAX_EXPIRATION_MS, "expiration beyond the lab's range");
        self.unlink(id);
        match self.place(Entry { id, expiration_ms }) {
            Some(location) => {
                self.index.set(id, location);
                self.pending += 1;
                self.ops.inserts += 1;
                true
            }
            None => false,
        }
    }

    /// Removes a pending task in O(1) (its slot is emptied; the bucket keeps its round).
    pub fn cancel(&mut self, id: u64) -> bool {
        let removed = self.unlink(id);
        if removed {
            self.ops.cancels += 1;
        }
        removed
    }

    /// Expires every bucket due by `now_ms` (see [`expire_due`](Self::expire_due)). Returns the ids
    /// that expired, in firing order. Like Kafka's `SystemTimer.advanceClock`, the clock moves only
    /// to the expiration of a bucket taken off the delay queue: with no bucket due it stays put.
    pub fn advance_to(&mut self, now_ms: u64) -> Vec<u64> {
        let mut fired = Vec::new();
        self.advance_into(now_ms, &mut fired);
        fired
    }

    /// `SystemTimer.advanceClock`'s loop only: takes each bucket due by `now_ms` off the
    /// delay queue in expiration order, moves the clock to that bucket's expiration and
    /// re-adds its tasks (they fall into finer wheels or run). The clock stays at the last
    /// expired bucket, as Kafka's does between expirations.
    pub fn expire_due(&mut self, now_ms: u64, fired: &mut Vec<u64>) {
        self.trace.clear();
        while let Some(&Reverse((bucket_expiration_ms, level, bucket))) = self.delay_queue.peek() {
            if bucket_expiration_ms > now_ms {
                break;
            }
            self.delay_queue.pop();
            self.ops.expirations += 1;
            self.ops.work += 1;
            self.advance_clock(bucket_expiration_ms);
            self.flush(level as usize, bucket as usize, fired);
        }
    }

    /// `TimingWheel.advanceClock`: each level whose next tick has come moves to `time_ms`
    /// rounded down to its tick, and tells its overflow wheel.
    fn advance_clock(&mut self, time_ms: u64) {
        for wheel in &mut self.wheels {
            if time_ms < wheel.current_time_ms.saturating_add(wheel.tick_ms) {
                break;
            }
            wheel.current_time_ms = time_ms - time_ms % wheel.tick_ms;
        }
    }

    /// `TimerTaskList.flush`: empties the bucket and re-adds each live task from the root wheel.
    fn flush(&mut self, level: usize, bucket_index: usize, fired: &mut Vec<u64>) {
        let at_ms = self.wheels[0].current_time_ms;
        let bucket = &mut self.wheels[level].buckets[bucket_index];
        debug_assert!(bucket.expiration_ms <= at_ms, "a bucket expired early");
        bucket.expiration_ms = NO_EXPIRATION;
        bucket.live = 0;
        let mut entries = std::mem::replace(&mut bucket.entries, std::mem::take(&mut self.scratch));
        for &entry in &entries {
            if entry.id == CANCELLED {
                continue;
            }
            let placed = self.place(entry);
            match placed {
                Some(location) => {
                    self.index.set(entry.id, location);
                    self.ops.reinserts += 1;
                }
                None => {
                    debug_assert!(entry.expiration_ms < at_ms + self.wheels[0].tick_ms);
                    self.index.remove(entry.id);
                    self.pending -= 1;
                    self.ops.fired += 1;
                    fired.push(entry.id);
                }
            }
            if self.tracing {
                let to = placed.map(|location| {
                    let (to_level, to_bucket, _) = unpack(location);
                    (to_level, to_bucket)
                });
                let from = (level, bucket_index);
                self.trace.push(Move { id: entry.id, expiration_ms: entry.expiration_ms, at_ms, from, to });
            }
        }
        entries.clear();
        self.scratch = entries;
    }

    /// `TimingWheel.add` from the root: None when already expired, else the packed location.
    /// Overflow wheels are created on demand with tickMs = the finer wheel's interval.
    #[inline]
    fn place(&mut self, entry: Entry) -> Option<u64> {
        let expiration_ms = entry.expiration_ms;
        let mut level = 0;
        loop {
            self.ops.work += 1;
            let wheel = &mut self.wheels[level];
            if expiration_ms < wheel.current_time_ms.saturating_add(wheel.tick_ms) {
                return None;
            }
            if expiration_ms < wheel.current_time_ms.saturating_add(wheel.interval_ms) {
                let virtual_id = expiration_ms / wheel.tick_ms;
                let bucket_index = (virtual_id % self.wheel_size as u64) as usize;
                let bucket_expiration_ms = virtual_id * wheel.tick_ms;
                let bucket = &mut wheel.buckets[bucket_index];
                let slot = bucket.entries.len();
                bucket.entries.push(entry);
                bucket.live += 1;
                if bucket.expiration_ms != bucket_expiration_ms {
                    debug_assert_eq!(bucket.expiration_ms, NO_EXPIRATION, "a bucket was reused before it expired");
                    bucket.expiration_ms = bucket_expiration_ms;
                    self.delay_queue.push(Reverse((bucket_expiration_ms, level as u32, bucket_index as u32)));
                }
                return Some(pack(level, bucket_index, slot));
            }
            let (tick_ms, start_ms) = (wheel.interval_ms, wheel.current_time_ms);
            if level + 1 == self.wheels.len() {
                self.wheels.push(Wheel::new(tick_ms, self.wheel_size, start_ms));
            }
            level += 1;
        }
    }

    fn unlink(&mut self, id: u64) -> bool {
        let Some(location) = self.index.remove(id) else {
            return false;
        };
        let (level, bucket_index, slot) = unpack(location);
        let bucket = &mut self.wheels[level].buckets[bucket_index];
        debug_assert_eq!(bucket.entries[slot].id, id);
        bucket.entries[slot].id = CANCELLED;
        bucket.live -= 1;
        self.pending -= 1;
        true
    }

    /// The finest wheel's clock (`currentTime`), a multiple of tickMs.
    pub fn current_time(&self) -> u64 {
        self.wheels[0].current_time_ms
    }

    /// `(level, bucket)` of a pending task; level 0 is the finest wheel.
    pub fn location(&self, id: u64) -> Option<(usize, usize)> {
        self.index.get(id).map(|location| {
            let (level, bucket, _) = unpack(location);
            (level, bucket)
        })
    }

    /// The expiration of a pending task.
    pub fn expiration_of(&self, id: u64) -> Option<u64> {
        self.index.get(id).map(|location| {
            let (level, bucket, slot) = unpack(location);
            self.wheels[level].buckets[bucket].entries[slot].expiration_ms
        })
    }

    /// When the next bucket expires (the head of Kafka's delay queue), even if all its tasks were cancelled.
    pub fn next_expiration_ms(&self) -> Option<u64> {
        self.delay_queue.peek().map(|Reverse((expiration_ms, _, _))| *expiration_ms)
    }

    pub fn tick_ms(&self) -> u64 {
        self.wheels[0].tick_ms
    }

    pub fn wheel_size(&self) -> usize {
        self.wheel_size
    }

    /// How many wheels exist (overflow wheels are created on demand and kept).
    pub fn level_count(&self) -> usize {
        self.wheels.len()
    }

    pub fn pending(&self) -> usize {
        self.pending
    }

    pub fn ops(&self) -> OpCounts {
        self.ops
    }

    /// Records what moved where on each advance (off by default: it costs an allocation).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
        self.trace.clear();
    }

    /// What moved where during the last advance, in order (empty unless tracing).
    pub fn last_moves(&self) -> &[Move] {
        &self.trace
    }
}

impl DelayQueue for Timer {
    fn add(&mut self, id: u64, expiration_ms: u64) -> bool {
        Timer::add(self, id, expiration_ms)
    }
    fn cancel(&mut self, id: u64) -> bool {
        Timer::cancel(self, id)
    }
    /// Kafka: `SystemTimer.advanceClock` (the clock follows expired buckets, never `now_ms` itself).
    fn advance_into(&mut self, now_ms: u64, fired: &mut Vec<u64>) {
        self.expire_due(now_ms, fired);
        debug_assert!(self.current_time() <= now_ms, "the wheel's clock ran ahead of time");
    }
    fn current_time(&self) -> u64 {
        Timer::current_time(self)
    }
    fn ops(&self) -> OpCounts {
        self.ops
    }
    fn pending(&self) -> usize {
        self.pending
    }
}
