//! The wheel presets (the seed's worked examples): where each task waits, through which
//! wheels it falls, and when it fires, all read back from the event log.

use super::{
    nested, FELL, FIRED, HIER_FELL, HIER_INTRO, HIER_PARKED, HIER_QUESTION, HIER_WATCH, JOURNEY_RAN, JOURNEY_WAITING,
    LIST, NO_TASK, PATH_FELL, PATH_PARKED, SINGLE_INTRO, SINGLE_QUESTION, SINGLE_WATCH, SINGLE_WRAP, THIRD_INTRO,
    THIRD_PARKED, THIRD_QUESTION, THIRD_WATCH,
};
use crate::model::kernel::{Arg, Message, Moment, Sim};
use crate::model::story::{Beat, Cue, Story};
use crate::model::timer::{Fact, TaskOrigin, TimerLab};

/// Where a sandbox task was first parked: id, label, expiration, level, bucket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Parked {
    pub id: u64,
    pub label: String,
    pub expiration_ms: u64,
    pub level: usize,
    pub bucket: usize,
}

/// The sandbox tasks parked so far, in the order they were added.
pub(super) fn parked(sim: &Sim<TimerLab>) -> Vec<Parked> {
    sim.log()
        .iter()
        .filter_map(|entry| match &entry.fact {
            Fact::TaskParked { id, origin: TaskOrigin::User { label }, expiration_ms, level, bucket } => Some(Parked {
                id: *id,
                label: label.clone(),
                expiration_ms: *expiration_ms,
                level: *level,
                bucket: *bucket,
            }),
            _ => None,
        })
        .collect()
}

/// One task's way down the wheels: "level 1 bucket 17 → level 0 bucket 10 at 340 ms → fired at 350 ms".
fn journey(sim: &Sim<TimerLab>, task: &Parked) -> Message {
    let mut path = Message::new(PATH_PARKED).with("level", Arg::int(task.level)).with("bucket", Arg::int(task.bucket));
    for entry in sim.log().iter() {
        match entry.fact {
            Fact::TaskFell { id, at_ms, level, bucket, .. } if id == task.id => {
                path = Message::new(PATH_FELL)
                    .with("path", nested(path))
                    .with("level", Arg::int(level))
                    .with("bucket", Arg::int(bucket))
                    .with("at", Arg::Duration(at_ms));
            }
            Fact::TaskRan { id, at_ms, .. } if id == task.id => {
                return Message::new(JOURNEY_RAN)
                    .with("label", Arg::text(task.label.clone()))
                    .with("path", nested(path))
                    .with("at", Arg::Duration(at_ms));
            }
            _ => {}
        }
    }
    Message::new(JOURNEY_WAITING).with("label", Arg::text(task.label.clone())).with("path", nested(path))
}

/// Every sandbox task's journey, joined: the wheel presets' answer.
pub(super) fn journeys(sim: &Sim<TimerLab>) -> Message {
    let tasks = parked(sim);
    let mut parts = tasks.iter().rev().map(|task| journey(sim, task));
    let Some(last) = parts.next() else { return Message::new(NO_TASK) };
    parts.fold(last, |rest, first| Message::new(LIST).with("first", nested(first)).with("rest", nested(rest)))
}

/// The latest sandbox task that ran: "task1 fired at 2 ms, from level 0 bucket 2".
fn fired(sim: &Sim<TimerLab>) -> Message {
    let ran = sim.log().iter().rev().find_map(|entry| match &entry.fact {
        Fact::TaskRan { id, origin: TaskOrigin::User { label }, at_ms } => Some((*id, label.clone(), *at_ms)),
        _ => None,
    });
    let (id, label, at_ms) = ran.unwrap_or_default();
    let (level, bucket) = last_place(sim, id);
    Message::new(FIRED)
        .with("label", Arg::text(label))
        .with("at", Arg::Duration(at_ms))
        .with("level", Arg::int(level))
        .with("bucket", Arg::int(bucket))
        .with("now", Arg::Duration(sim.world().timer().current_time()))
}

/// The last (level, bucket) task `id` sat in: where it was parked, or where it last fell.
fn last_place(sim: &Sim<TimerLab>, id: u64) -> (usize, usize) {
    sim.log()
        .iter()
        .rev()
        .find_map(|entry| match entry.fact {
            Fact::TaskParked { id: i, level, bucket, .. } | Fact::TaskFell { id: i, level, bucket, .. } if i == id => {
                Some((level, bucket))
            }
            _ => None,
        })
        .unwrap_or_default()
}

/// The latest fall of a sandbox task, as a caption.
fn fell(sim: &Sim<TimerLab>) -> Message {
    let fall = sim.log().iter().rev().find_map(|entry| match &entry.fact {
        Fact::TaskFell {
            origin: TaskOrigin::User { label }, from_level, from_bucket, at_ms, level, bucket, ..
        } => Some(
            Message::new(FELL)
                .with("label", Arg::text(label.clone()))
                .with("from_level", Arg::int(*from_level))
                .with("from_bucket", Arg::int(*from_bucket))
                .with("at", Arg::Duration(*at_ms))
                .with("level", Arg::int(*level))
                .with("bucket", Arg::int(*bucket)),
        ),
        _ => None,
    });
    fall.unwrap_or_else(|| fired(sim))
}

/// tickMs, wheelSize and level `n`'s tick (tickMs × wheelSize^n).
fn level_tick_ms(sim: &Sim<TimerLab>, level: u32) -> u64 {
    let settings = sim.world().settings();
    let size = u64::try_from(settings.wheel_size).unwrap_or(u64::MAX);
    settings.tick_ms.saturating_mul(size.saturating_pow(level))
}

fn wheel_args(message: Message, sim: &Sim<TimerLab>) -> Message {
    let settings = sim.world().settings();
    message
        .with("tick", Arg::Duration(settings.tick_ms))
        .with("size", Arg::int(settings.wheel_size))
        .with("interval", Arg::Duration(level_tick_ms(sim, 1)))
        .with("interval0", Arg::Duration(level_tick_ms(sim, 1)))
        .with("tick1", Arg::Duration(level_tick_ms(sim, 1)))
        .with("interval1", Arg::Duration(level_tick_ms(sim, 2)))
        .with("tick2", Arg::Duration(level_tick_ms(sim, 2)))
        .with("interval2", Arg::Duration(level_tick_ms(sim, 3)))
}

/// The first two tasks parked (for the captions that compare them).
fn two_parked(sim: &Sim<TimerLab>, skip: usize) -> (Parked, Parked) {
    let tasks = parked(sim);
    let empty = || Parked { id: 0, label: String::new(), expiration_ms: 0, level: 0, bucket: 0 };
    let a = tasks.get(skip).cloned().unwrap_or_else(empty);
    let b = tasks.get(skip + 1).cloned().unwrap_or_else(empty);
    (a, b)
}

fn single_wrap(sim: &Sim<TimerLab>) -> Message {
    let (a, b) = two_parked(sim, 1);
    wheel_args(Message::new(SINGLE_WRAP), sim)
        .with("now", Arg::Duration(sim.world().timer().current_time()))
        .with("a", Arg::text(a.label))
        .with("a_at", Arg::Duration(a.expiration_ms))
        .with("a_bucket", Arg::int(a.bucket))
        .with("b", Arg::text(b.label))
        .with("b_at", Arg::Duration(b.expiration_ms))
        .with("b_bucket", Arg::int(b.bucket))
}

const SINGLE_BEATS: &[Beat<TimerLab>] = &[
    Beat { cue: Cue::Start, say: |sim| wheel_args(Message::new(SINGLE_INTRO), sim) },
    Beat { cue: Cue::Nth(Moment::Fire, 1), say: fired },
    Beat { cue: Cue::At(4), say: single_wrap },
    Beat { cue: Cue::Last(Moment::Fire), say: fired },
];

/// tickMs 1 ms × wheelSize 20: tasks of 2, 8 and 19 ms on one wheel, in slow motion.
pub(super) fn single_wheel() -> Story<TimerLab> {
    Story {
        start: Cue::At(0),
        speed: 0.01,
        question: |sim| wheel_args(Message::new(SINGLE_QUESTION), sim),
        watch: |_| Message::new(SINGLE_WATCH),
        outcome: Cue::Last(Moment::Fire),
        answer: journeys,
        beats: SINGLE_BEATS,
    }
}

fn hierarchy_parked(sim: &Sim<TimerLab>) -> Message {
    let (task, _) = two_parked(sim, 0);
    let bucket_at = sim
        .world()
        .levels()
        .get(task.level)
        .and_then(|level| level.buckets.get(task.bucket))
        .and_then(|bucket| bucket.expiration_ms)
        .unwrap_or_default();
    wheel_args(Message::new(HIER_PARKED), sim)
        .with("label", Arg::text(task.label))
        .with("expiration", Arg::Duration(task.expiration_ms))
        .with("level", Arg::int(task.level))
        .with("bucket", Arg::int(task.bucket))
        .with("bucket_at", Arg::Duration(bucket_at))
}

fn hierarchy_fell(sim: &Sim<TimerLab>) -> Message {
    let (task, _) = two_parked(sim, 0);
    let (level, bucket) = last_place(sim, task.id);
    let now_ms = sim.now_ms();
    wheel_args(Message::new(HIER_FELL), sim)
        .with("at", Arg::Duration(now_ms))
        .with("label", Arg::text(task.label))
        .with("left", Arg::Duration(task.expiration_ms.saturating_sub(now_ms)))
        .with("level", Arg::int(level))
        .with("bucket", Arg::int(bucket))
}

const HIERARCHY_BEATS: &[Beat<TimerLab>] = &[
    Beat { cue: Cue::Start, say: |sim| wheel_args(Message::new(HIER_INTRO), sim) },
    Beat { cue: Cue::At(1), say: hierarchy_parked },
    Beat { cue: Cue::Nth(Moment::Fall, 1), say: hierarchy_fell },
    Beat { cue: Cue::Last(Moment::Fire), say: fired },
];

/// A 350 ms task: parked in level 1, falls into level 0 at 340 ms, fires at 350 ms.
pub(super) fn hierarchy() -> Story<TimerLab> {
    Story {
        start: Cue::At(0),
        speed: 0.1,
        question: |sim| wheel_args(Message::new(HIER_QUESTION), sim),
        watch: |_| Message::new(HIER_WATCH),
        outcome: Cue::Last(Moment::Fire),
        answer: journeys,
        beats: HIERARCHY_BEATS,
    }
}

fn third_parked(sim: &Sim<TimerLab>) -> Message {
    let (a, b) = two_parked(sim, 0);
    Message::new(THIRD_PARKED)
        .with("a", Arg::text(a.label))
        .with("a_level", Arg::int(a.level))
        .with("a_bucket", Arg::int(a.bucket))
        .with("b", Arg::text(b.label))
        .with("b_level", Arg::int(b.level))
        .with("b_bucket", Arg::int(b.bucket))
}

const THIRD_BEATS: &[Beat<TimerLab>] = &[
    Beat { cue: Cue::Start, say: |sim| wheel_args(Message::new(THIRD_INTRO), sim) },
    Beat { cue: Cue::At(2), say: third_parked },
    Beat { cue: Cue::Nth(Moment::Fall, 1), say: fell },
    Beat { cue: Cue::Nth(Moment::Fall, 2), say: fell },
    Beat { cue: Cue::Last(Moment::Fire), say: fired },
];

/// 7999 ms fits the third wheel (interval 8000 ms); 8000 ms needs a fourth.
pub(super) fn third_wheel() -> Story<TimerLab> {
    Story {
        start: Cue::At(0),
        speed: 2.0,
        question: |_| Message::new(THIRD_QUESTION),
        watch: |_| Message::new(THIRD_WATCH),
        outcome: Cue::Last(Moment::Fire),
        answer: journeys,
        beats: THIRD_BEATS,
    }
}
