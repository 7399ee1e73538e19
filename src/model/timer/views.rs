//! Read-only views of the wheel for the UI: rings, buckets, tasks, and the last advance's moves.

use super::wheel::{Move, Timer, CANCELLED, NO_EXPIRATION};
use super::{OpCounts, TaskOrigin};

/// One level of Kafka's `TimingWheel`, drawn as a ring; level 0 is the finest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelView {
    pub level: usize,
    pub tick_ms: u64,
    pub wheel_size: usize,
    /// tickMs × wheelSize.
    pub interval_ms: u64,
    /// Where this level's pointer is (a multiple of its tickMs).
    pub current_time_ms: u64,
    pub buckets: Vec<BucketView>,
}

/// One bucket (Kafka's `TimerTaskList`): its round's expiration and its tasks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BucketView {
    pub index: usize,
    /// None while the bucket holds no round (Kafka's -1).
    pub expiration_ms: Option<u64>,
    pub tasks: Vec<TaskView>,
}

/// A task as a dot in a bucket (Kafka's `TimerTaskEntry`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskView {
    pub id: u64,
    pub expiration_ms: u64,
    /// Where it came from: a user's label, a `DelayedProduce` or a `DelayedFetch`.
    pub origin: TaskOrigin,
}

/// A row of the pending-task list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingTaskView {
    pub id: u64,
    pub expiration_ms: u64,
    pub level: usize,
    pub bucket: usize,
    pub origin: TaskOrigin,
}

/// One move of the last advance, with the task's origin ("fell from level 1 bucket 17 into level 0 bucket 10").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveView {
    pub step: Move,
    /// `None` when the task was cancelled since.
    pub origin: Option<TaskOrigin>,
}

/// The side-by-side operation counts: the wheel and a binary heap fed the same tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpsView {
    pub wheel: OpCounts,
    pub heap: OpCounts,
    pub wheel_levels: usize,
    /// Heap entries including cancelled ones not yet popped.
    pub heap_entries: usize,
}

impl Timer {
    /// Every level with every bucket (empty ones too, so the UI can draw the whole ring).
    pub fn levels_view(&self, origin: impl Fn(u64) -> TaskOrigin) -> Vec<LevelView> {
        self.wheels
            .iter()
            .enumerate()
            .map(|(level, wheel)| LevelView {
                level,
                tick_ms: wheel.tick_ms,
                wheel_size: self.wheel_size,
                interval_ms: wheel.interval_ms,
                current_time_ms: wheel.current_time_ms,
                buckets: wheel
                    .buckets
                    .iter()
                    .enumerate()
                    .map(|(index, bucket)| BucketView {
                        index,
                        expiration_ms: (bucket.expiration_ms != NO_EXPIRATION).then_some(bucket.expiration_ms),
                        tasks: bucket
                            .entries
                            .iter()
                            .filter(|entry| entry.id != CANCELLED)
                            .map(|entry| TaskView {
                                id: entry.id,
                                expiration_ms: entry.expiration_ms,
                                origin: origin(entry.id),
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect()
    }

    /// Pending tasks by expiration (then id), with their (level, bucket).
    pub fn pending_view(&self, origin: impl Fn(u64) -> TaskOrigin) -> Vec<PendingTaskView> {
        let mut rows: Vec<PendingTaskView> = Vec::with_capacity(self.pending());
        for (level, wheel) in self.wheels.iter().enumerate() {
            for (bucket, list) in wheel.buckets.iter().enumerate() {
                for entry in list.entries.iter().filter(|entry| entry.id != CANCELLED) {
                    rows.push(PendingTaskView {
                        id: entry.id,
                        expiration_ms: entry.expiration_ms,
                        level,
                        bucket,
                        origin: origin(entry.id),
                    });
                }
            }
        }
        crate::model::kernel::order::sort_by_key(&mut rows, |row| (row.expiration_ms, row.id));
        rows
    }

    /// The last advance's moves with origins (needs tracing on).
    pub fn moves_view(&self, origin: impl Fn(u64) -> Option<TaskOrigin>) -> Vec<MoveView> {
        self.last_moves().iter().map(|step| MoveView { step: *step, origin: origin(step.id) }).collect()
    }
}
