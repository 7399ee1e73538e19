//! The scene's steady workload: a stream of timer tasks with a broker's usual delays, so a
//! run where nothing is scheduled still fills buckets that expire, cascade and fire.
//!
//! A busy broker's purgatories park mostly fetches that long-poll for fetch.max.wait.ms
//! (`ReplicaManager.fetchMessages` hands `DelayedFetch` that wait to `tryCompleteElseWatch`)
//! and, less often, acks=all produces that wait up to request.timeout.ms
//! (`ReplicaManager.appendRecords` → `DelayedProduce`). The stream adds one task every
//! [`STREAM_EVERY_MS`]: one in [`PRODUCE_EVERY`] with the producer's request.timeout.ms,
//! the others with the consumer's fetch.max.wait.ms, both read from the scene's config.

use super::{Event, Settings, TaskOrigin, TimerCtx};

/// How often the stream adds a task.
pub const STREAM_EVERY_MS: u64 = 100;
/// One task in this many is produce-like (the first one is).
pub const PRODUCE_EVERY: u64 = 10;

/// Which delay a stream task copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StreamTask {
    /// Waits fetch.max.wait.ms, like a consumer's long poll.
    FetchLike,
    /// Waits request.timeout.ms, like an acks=all produce.
    ProduceLike,
}

/// The stream once it runs: how many tasks it added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stream {
    pub added: u64,
}

impl Stream {
    /// The next task's origin and delay; counts it.
    pub(super) fn next_task(&mut self, settings: &Settings) -> (TaskOrigin, u64) {
        let produce = self.added.is_multiple_of(PRODUCE_EVERY);
        self.added += 1;
        if produce {
            (TaskOrigin::Stream { kind: StreamTask::ProduceLike }, settings.request_timeout_ms)
        } else {
            (TaskOrigin::Stream { kind: StreamTask::FetchLike }, settings.fetch_max_wait_ms)
        }
    }

    /// Schedules the stream's next addition.
    pub(super) fn schedule_next(ctx: &mut TimerCtx) {
        ctx.schedule(STREAM_EVERY_MS, Event::StreamTick);
    }
}
