//! The "Timing wheel" scene: Kafka's hierarchical timing wheel (`SystemTimer` over
//! `TimingWheel` and `TimerTaskList`, package `org.apache.kafka.server.util.timer`),
//! a binary-heap delay queue to compare it with, a sandbox of user tasks, and a tiny
//! purgatory (DelayedProduce, DelayedFetch) whose operations live on the wheel.
//!
//! [`Timer`] and [`HeapTimer`] are plain data structures, usable without the kernel;
//! [`TimerLab`] is the scene's world that wraps them.

mod facts;
mod heap;
mod index;
mod purgatory;
mod scene;
mod schema;
mod story;
mod stream;
mod tasks;
mod views;
mod wheel;
#[cfg(test)]
mod wheel_tests;
mod world;

pub use facts::{Fact, PurgatoryFact, Refusal, FACT_KEYS, ORIGIN_KEYS, PURGATORY_FACT_KEYS, REFUSAL_KEYS};
pub use heap::HeapTimer;
pub use index::DENSE_ID_LIMIT;
pub use purgatory::{PurgatoryView, ReplicaView, WaitingProduceView, RECORD_BYTES};
pub use schema::{Acks, Settings, TIMER_SCHEMA};
pub use stream::{StreamTask, PRODUCE_EVERY, STREAM_EVERY_MS};
pub use views::{BucketView, LevelView, MoveView, OpsView, PendingTaskView, TaskView};
pub use wheel::{Move, Timer, MAX_EXPIRATION_MS, MAX_WHEEL_SIZE};
pub use world::TimerLab;

use crate::model::kernel::{Ctx, Fault};

/// The longest delay a sandbox task may have (one day).
pub const MAX_TASK_DELAY_MS: u64 = 86_400_000;

/// The scene's kernel context.
pub type TimerCtx = Ctx<Event, Fact>;

/// Who waits in a `DelayedFetch`: a follower replica or the consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fetcher {
    /// A follower's fetch (replica.fetch.wait.max.ms), by broker id.
    Follower(u32),
    /// The consumer's fetch (fetch.max.wait.ms).
    Consumer,
}

/// What a timer task stands for (Kafka's `TimerTask` subclasses), with what labels it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TaskOrigin {
    /// A task the user added in the sandbox, with its label.
    User { label: String },
    /// A `DelayedProduce` waiting for acks=all until the HW reaches `required_offset`.
    DelayedProduce { request: u64, required_offset: u64 },
    /// A `DelayedFetch` parked at `fetch_offset`.
    DelayedFetch { fetcher: Fetcher, fetch_offset: u64 },
    /// A task of the steady workload (`stream-tasks`), with the delay it copies.
    Stream { kind: StreamTask },
}

impl TaskOrigin {
    /// True for a task of the sandbox, added by hand or by the stream (only those can be
    /// cancelled by hand).
    pub fn is_user(&self) -> bool {
        matches!(self, TaskOrigin::User { .. } | TaskOrigin::Stream { .. })
    }
}

/// The scene's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Kafka's `ExpirationReaper`: the head bucket of the timer's delay queue is due.
    Reaper,
    /// A follower's FetchRequest reaches the leader.
    FollowerFetch { replica: u32, incarnation: u32, fetch_offset: u64 },
    /// The leader's FetchResponse reaches a follower.
    FollowerResponse { replica: u32, incarnation: u32, up_to_offset: u64 },
    /// The consumer's FetchRequest reaches the leader.
    ConsumerFetch { fetch_offset: u64 },
    /// The leader's FetchResponse reaches the consumer.
    ConsumerResponse { up_to_offset: u64 },
    /// The leader's periodic `isr-expiration` check (every replica.lag.time.max.ms / 2).
    IsrExpiration,
    /// The controller's heartbeat deadline for a crashed follower (broker.session.timeout.ms).
    SessionExpired { replica: u32, incarnation: u32 },
    /// The steady workload adds its next task.
    StreamTick,
}

/// What a user can do in the scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Add a sandbox task that expires `delay_ms` from now, labelled for the rings.
    AddTask { delay_ms: u64, label: String },
    /// Cancel a pending sandbox task by id.
    CancelTask(u64),
    /// (purgatory) The producer sends one produce request with `records` records.
    Produce { records: u32 },
    /// (purgatory) A fault on a follower: `Crash(Node::Id(b))` kills it (fetches and heartbeats
    /// stop; the controller fences it later), `Pause { node, duration_ms: None }` stalls its
    /// fetcher while the broker keeps heartbeating, `Restart` starts it (or its fetcher) again.
    /// Other faults are refused.
    Fault(Fault),
    /// Start the steady workload: a stream of tasks with a broker's usual delays (see `stream`).
    StartStream,
}

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
    /// Expires everything due by `now_ms`, appending the ids (in firing order) to `fired`. The
    /// wheel's clock moves only to the buckets it expires (Kafka's `SystemTimer.advanceClock`);
    /// the heap's moves to `now_ms`'s tick.
    fn advance_into(&mut self, now_ms: u64, fired: &mut Vec<u64>);
    fn current_time(&self) -> u64;
    fn ops(&self) -> OpCounts;
    /// How many tasks are pending.
    fn pending(&self) -> usize;
}

pub use story::STORY_KEYS;
