//! The "Timing wheel" scene: Kafka's hierarchical timing wheel (`SystemTimer` over
//! `TimingWheel` and `TimerTaskList`, package `org.apache.kafka.server.util.timer`),
//! a binary-heap delay queue to compare it with, a sandbox of user tasks, and a tiny
//! purgatory (DelayedProduce, DelayedFetch) whose operations live on the wheel.
//!
//! [`Timer`] and [`HeapTimer`] are plain data structures, usable without the kernel;
//! [`TimerLab`] is the scene's world that wraps them.

mod heap;
mod index;
mod purgatory;
mod scene;
mod schema;
mod view;
mod wheel;
#[cfg(test)]
mod wheel_tests;
mod world;

pub use heap::HeapTimer;
pub use index::DENSE_ID_LIMIT;
pub use purgatory::{Purgatory, PurgatoryView, ReplicaView, RECORD_BYTES};
pub use schema::TIMER_SCHEMA;
pub use view::{BucketView, LevelView, MoveView, OpsView, PendingTaskView, TaskView};
pub use wheel::{Move, Timer, MAX_EXPIRATION_MS, MAX_WHEEL_SIZE};
pub use world::{Command, Event, TaskKind, TimerLab, MAX_TASK_DELAY_MS};

/// Operation counts, so the UI can set the wheel's work beside a heap's on the same tasks.
///
/// For the wheel, `work` counts the levels an insert or re-insert walked plus one per
/// bucket expiration; for the heap it sums the heap depth (⌊log2 n⌋ + 1) at every push
/// and pop, the most sift steps those could take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// `add` calls that parked a task (the timer's `add` returning true).
    pub inserts: u64,
    /// Wheel: tasks a bucket expiration moved into a finer bucket (cascades). Heap: always 0.
    pub reinserts: u64,
    /// Wheel: buckets taken off the delay queue and flushed. Heap: entries popped.
    pub expirations: u64,
    /// Successful `cancel` calls.
    pub cancels: u64,
    /// Tasks handed back as expired by an advance.
    pub fired: u64,
    /// Heap only: popped entries that had been cancelled (lazy deletion). Wheel: always 0.
    pub stale_pops: u64,
    /// The comparable unit of work described above.
    pub work: u64,
}

/// What both delay queues offer, so the same task stream can drive either.
pub trait DelayQueue {
    /// Parks task `id` until `expiration_ms`; false when it is already due (run it now).
    fn add(&mut self, id: u64, expiration_ms: u64) -> bool;
    /// Removes a pending task; false if it was not pending.
    fn cancel(&mut self, id: u64) -> bool;
    /// Moves the clock to `now_ms`, appending the ids that expired (in firing order) to `fired`.
    fn advance_into(&mut self, now_ms: u64, fired: &mut Vec<u64>);
    fn current_time(&self) -> u64;
    fn ops(&self) -> OpCounts;
    /// How many tasks are pending.
    fn pending(&self) -> usize;
}
