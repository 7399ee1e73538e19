//! What the timing-wheel scene reports: typed facts for the event log (the timer's own,
//! and the purgatory's) and typed refusals. English templates keep the lab's wording;
//! the UI translates by key.

mod purgatory;

pub use purgatory::{PurgatoryFact, PURGATORY_FACT_KEYS};

use super::{Fetcher, StreamTask, TaskOrigin, MAX_TASK_DELAY_MS};
use crate::model::kernel::{Arg, Describe, Message};

/// One line of the scene's event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The timer parked a task in a bucket (`SystemTimer.add`).
    TaskParked { id: u64, origin: TaskOrigin, expiration_ms: u64, level: usize, bucket: usize },
    /// A task added with an expiration before `currentTime + tickMs`: it runs at once.
    TaskAlreadyExpired { id: u64, origin: TaskOrigin, expiration_ms: u64, current_time_ms: u64, tick_ms: u64 },
    /// A pending task was cancelled and left its bucket.
    TaskCancelled { id: u64, origin: TaskOrigin, level: usize, bucket: usize },
    /// A bucket expired and one of its tasks fell into a finer wheel.
    TaskFell {
        id: u64,
        origin: TaskOrigin,
        from_level: usize,
        from_bucket: usize,
        at_ms: u64,
        level: usize,
        bucket: usize,
    },
    /// A sandbox task expired and ran.
    TaskRan { id: u64, origin: TaskOrigin, at_ms: u64 },
    /// Something the purgatory's broker, controller or consumer did.
    Purgatory(PurgatoryFact),
}

crate::messages! {
    pub FACT_KEYS;
    PARKED = "timer.fact.parked" => "task #{id} ({origin}) expires at {expiration} ms: level {level} bucket {bucket}";
    ALREADY_EXPIRED = "timer.fact.already_expired" =>
        "task #{id} ({origin}) expires at {expiration} ms, before currentTime {current} + tickMs {tick}: already expired, it runs now";
    CANCELLED = "timer.fact.cancelled" => "task #{id} ({origin}) cancelled: removed from level {level} bucket {bucket}";
    FELL = "timer.fact.fell" =>
        "bucket level {from_level} #{from_bucket} expired at {at} ms: task #{id} ({origin}) fell into level {level} bucket {bucket}";
    RAN = "timer.fact.ran" => "task #{id} ({origin}) expired and ran at {at} ms";
}

crate::messages! {
    pub ORIGIN_KEYS;
    ORIGIN_USER = "timer.origin.user" => "{label}";
    ORIGIN_PRODUCE = "timer.origin.produce" => "DelayedProduce #{request} (HW ≥ {required})";
    ORIGIN_PRODUCE_SHORT = "timer.origin.produce.short" => "DelayedProduce #{request}";
    ORIGIN_FOLLOWER_FETCH = "timer.origin.fetch.follower" => "DelayedFetch broker-{replica} @{offset}";
    ORIGIN_CONSUMER_FETCH = "timer.origin.fetch.consumer" => "DelayedFetch consumer @{offset}";
    ORIGIN_STREAM_FETCH = "timer.origin.stream.fetch" => "fetch-like ({config})";
    ORIGIN_STREAM_PRODUCE = "timer.origin.stream.produce" => "produce-like ({config})";
}

impl Describe for TaskOrigin {
    /// How the log and the pending list name a task.
    fn message(&self) -> Message {
        match self {
            TaskOrigin::User { label } => Message::new(ORIGIN_USER).with("label", Arg::text(label.clone())),
            TaskOrigin::DelayedProduce { request, required_offset } => Message::new(ORIGIN_PRODUCE)
                .with("request", Arg::int(*request))
                .with("required", Arg::int(*required_offset)),
            TaskOrigin::DelayedFetch { fetcher: Fetcher::Follower(replica), fetch_offset } => {
                Message::new(ORIGIN_FOLLOWER_FETCH)
                    .with("replica", Arg::int(*replica))
                    .with("offset", Arg::int(*fetch_offset))
            }
            TaskOrigin::DelayedFetch { fetcher: Fetcher::Consumer, fetch_offset } => {
                Message::new(ORIGIN_CONSUMER_FETCH).with("offset", Arg::int(*fetch_offset))
            }
            TaskOrigin::Stream { kind: StreamTask::FetchLike } => {
                Message::new(ORIGIN_STREAM_FETCH).with("config", Arg::kafka("fetch.max.wait.ms"))
            }
            TaskOrigin::Stream { kind: StreamTask::ProduceLike } => {
                Message::new(ORIGIN_STREAM_PRODUCE).with("config", Arg::kafka("request.timeout.ms"))
            }
        }
    }
}

impl TaskOrigin {
    /// The short name the rings write beside a dot (no condition in brackets).
    pub fn short_message(&self) -> Message {
        match self {
            TaskOrigin::DelayedProduce { request, .. } => {
                Message::new(ORIGIN_PRODUCE_SHORT).with("request", Arg::int(*request))
            }
            other => other.message(),
        }
    }
}

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

fn task(key: crate::model::kernel::Key, id: u64, origin: &TaskOrigin) -> Message {
    Message::new(key).with("id", Arg::int(id)).with("origin", nested(origin.message()))
}

impl Describe for Fact {
    fn message(&self) -> Message {
        match self {
            Fact::TaskParked { id, origin, expiration_ms, level, bucket } => task(PARKED, *id, origin)
                .with("expiration", Arg::int(*expiration_ms))
                .with("level", Arg::int(*level))
                .with("bucket", Arg::int(*bucket)),
            Fact::TaskAlreadyExpired { id, origin, expiration_ms, current_time_ms, tick_ms } => {
                task(ALREADY_EXPIRED, *id, origin)
                    .with("expiration", Arg::int(*expiration_ms))
                    .with("current", Arg::int(*current_time_ms))
                    .with("tick", Arg::int(*tick_ms))
            }
            Fact::TaskCancelled { id, origin, level, bucket } => {
                task(CANCELLED, *id, origin).with("level", Arg::int(*level)).with("bucket", Arg::int(*bucket))
            }
            Fact::TaskFell { id, origin, from_level, from_bucket, at_ms, level, bucket } => task(FELL, *id, origin)
                .with("from_level", Arg::int(*from_level))
                .with("from_bucket", Arg::int(*from_bucket))
                .with("at", Arg::int(*at_ms))
                .with("level", Arg::int(*level))
                .with("bucket", Arg::int(*bucket)),
            Fact::TaskRan { id, origin, at_ms } => task(RAN, *id, origin).with("at", Arg::int(*at_ms)),
            Fact::Purgatory(fact) => fact.message(),
        }
    }
}

/// Why the scene refuses a command or a config.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// A sandbox task's delay beyond [`MAX_TASK_DELAY_MS`].
    DelayOutOfRange { delay_ms: u64 },
    /// Labels travel in links, so they are short words.
    BadLabel { label: String },
    /// Cancel of a task that is not pending.
    NotPending { id: u64 },
    /// Cancel of a purgatory operation's task: the broker completes or expires it.
    PurgatoryTask { id: u64, origin: TaskOrigin },
    /// A purgatory command while lab.purgatory=false.
    NoBroker,
    /// A produce request outside 1 to 100 records.
    ProduceCount { records: u32 },
    /// A follower that is already crashed.
    AlreadyDown { id: u32 },
    /// Stalling a follower that does not fetch.
    NotFetching { id: u32 },
    /// Restarting a follower that fetches.
    AlreadyRunning { id: u32 },
    /// A fault aimed at a broker that is not one of the followers.
    NotAFollower { id: u32 },
    /// A fault this scene does not model (only crash, stall and restart of a follower).
    FaultNotModelled,
    /// The config: replica.fetch.wait.max.ms above replica.lag.time.max.ms.
    FetchWaitAboveLagTime,
    /// The steady workload is already running.
    StreamRunning,
}

crate::messages! {
    pub REFUSAL_KEYS;
    DELAY_RANGE = "timer.refusal.delay" => "A task's delay is 0 to {max} ms, not {delay}.";
    BAD_LABEL = "timer.refusal.label" => "A task label is 1 to 24 letters, digits or '_', not \"{label}\".";
    NOT_PENDING = "timer.refusal.not_pending" =>
        "Task #{id} is not pending: it already ran, was cancelled, or never existed.";
    PURGATORY_TASK = "timer.refusal.purgatory_task" =>
        "Task #{id} belongs to the purgatory ({kind}): the broker completes or expires it.";
    NO_BROKER = "timer.refusal.no_broker" => "There is no broker in the sandbox: set lab.purgatory=true.";
    PRODUCE_COUNT = "timer.refusal.produce" => "A produce request here carries 1 to 100 records, not {records}.";
    ALREADY_DOWN = "timer.refusal.down" => "broker-{id} is already down.";
    NOT_FETCHING = "timer.refusal.not_fetching" => "broker-{id} is not fetching already.";
    ALREADY_RUNNING = "timer.refusal.running" => "broker-{id} is already running.";
    NOT_A_FOLLOWER = "timer.refusal.not_follower" =>
        "broker-{id} is not a follower here: the followers are broker-2 and broker-3.";
    FAULT_NOT_MODELLED = "timer.refusal.fault" => "This scene can crash, stall and restart followers only.";
    FETCH_WAIT = "timer.refusal.fetch_wait" =>
        "replica.fetch.wait.max.ms must be at most replica.lag.time.max.ms, or followers would keep dropping out of the ISR.";
    STREAM_RUNNING = "timer.refusal.stream" => "The task stream is already running.";
}

impl Describe for Refusal {
    fn message(&self) -> Message {
        match self {
            Refusal::DelayOutOfRange { delay_ms } => {
                Message::new(DELAY_RANGE).with("max", Arg::int(MAX_TASK_DELAY_MS)).with("delay", Arg::int(*delay_ms))
            }
            Refusal::BadLabel { label } => Message::new(BAD_LABEL).with("label", Arg::text(label.clone())),
            Refusal::NotPending { id } => Message::new(NOT_PENDING).with("id", Arg::int(*id)),
            Refusal::PurgatoryTask { id, origin } => {
                Message::new(PURGATORY_TASK).with("id", Arg::int(*id)).with("kind", nested(origin.message()))
            }
            Refusal::NoBroker => Message::new(NO_BROKER),
            Refusal::ProduceCount { records } => Message::new(PRODUCE_COUNT).with("records", Arg::int(*records)),
            Refusal::AlreadyDown { id } => Message::new(ALREADY_DOWN).with("id", Arg::int(*id)),
            Refusal::NotFetching { id } => Message::new(NOT_FETCHING).with("id", Arg::int(*id)),
            Refusal::AlreadyRunning { id } => Message::new(ALREADY_RUNNING).with("id", Arg::int(*id)),
            Refusal::NotAFollower { id } => Message::new(NOT_A_FOLLOWER).with("id", Arg::int(*id)),
            Refusal::FaultNotModelled => Message::new(FAULT_NOT_MODELLED),
            Refusal::FetchWaitAboveLagTime => Message::new(FETCH_WAIT),
            Refusal::StreamRunning => Message::new(STREAM_RUNNING),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_keep_the_labs_wording() {
        let produce = TaskOrigin::DelayedProduce { request: 1, required_offset: 1 };
        let fetch = TaskOrigin::DelayedFetch { fetcher: Fetcher::Follower(2), fetch_offset: 0 };
        let cases = [
            (
                Refusal::PurgatoryTask { id: 7, origin: produce },
                "Task #7 belongs to the purgatory (DelayedProduce #1 (HW ≥ 1)): the broker completes or expires it.",
            ),
            (
                Refusal::PurgatoryTask { id: 8, origin: fetch },
                "Task #8 belongs to the purgatory (DelayedFetch broker-2 @0): the broker completes or expires it.",
            ),
            (Refusal::DelayOutOfRange { delay_ms: 86_400_001 }, "A task's delay is 0 to 86400000 ms, not 86400001."),
            (Refusal::BadLabel { label: "a b".into() }, "A task label is 1 to 24 letters, digits or '_', not \"a b\"."),
            (Refusal::NotPending { id: 9 }, "Task #9 is not pending: it already ran, was cancelled, or never existed."),
            (
                Refusal::NotAFollower { id: 1 },
                "broker-1 is not a follower here: the followers are broker-2 and broker-3.",
            ),
            (Refusal::NotFetching { id: 3 }, "broker-3 is not fetching already."),
        ];
        for (refusal, english) in cases {
            assert_eq!(refusal.to_string(), english);
        }
    }

    #[test]
    fn key_ids_are_the_scenes_own_and_unique() {
        let tables = [FACT_KEYS, ORIGIN_KEYS, REFUSAL_KEYS, PURGATORY_FACT_KEYS];
        let mut ids: Vec<&str> = tables.iter().flat_map(|t| t.iter()).map(|k| k.id).collect();
        assert!(ids.iter().all(|id| id.starts_with("timer.fact.")
            || id.starts_with("timer.origin.")
            || id.starts_with("timer.refusal.")));
        let total = ids.len();
        crate::model::kernel::order::sort(&mut ids);
        ids.dedup();
        assert_eq!(ids.len(), total, "a key id is declared twice");
    }

    #[test]
    fn origins_read_as_the_lab_wrote_them() {
        let produce = TaskOrigin::DelayedProduce { request: 3, required_offset: 12 };
        assert_eq!(produce.to_string(), "DelayedProduce #3 (HW ≥ 12)");
        assert_eq!(produce.short_message().to_string(), "DelayedProduce #3");
        let consumer = TaskOrigin::DelayedFetch { fetcher: Fetcher::Consumer, fetch_offset: 4 };
        assert_eq!(consumer.to_string(), "DelayedFetch consumer @4");
        let fact = Fact::TaskFell {
            id: 1,
            origin: TaskOrigin::User { label: "task350".into() },
            from_level: 1,
            from_bucket: 17,
            at_ms: 340,
            level: 0,
            bucket: 10,
        };
        assert_eq!(
            fact.to_string(),
            "bucket level 1 #17 expired at 340 ms: task #1 (task350) fell into level 0 bucket 10"
        );
    }
}

crate::display_as_message!(Fact, Refusal, TaskOrigin);
