//! The purgatory presets: one acks=all produce waits on the wheel as a `DelayedProduce`, and
//! the model says when it completed (the HW passed it) or expired (request.timeout.ms), and why.

use super::{
    nested, COMPLETED_ANSWER, CRASH_ANSWER, CRASH_DONE, CRASH_DOWN, CRASH_INTRO, CRASH_QUESTION, CRASH_WATCH, ISR_DONE,
    ISR_INTRO, ISR_QUESTION, ISR_WATCH, PRODUCE_PARKED, STALL_ANSWER, STALL_DOWN, STALL_EXPIRED, STALL_INTRO,
    STALL_LEFT, STALL_QUESTION, STALL_SHRUNK, STALL_STILL, STALL_WATCH,
};
use crate::model::kernel::{Actor, Arg, Message, Moment, Sim};
use crate::model::story::{Beat, Cue, Story};
use crate::model::timer::{Fact, PurgatoryFact, TaskOrigin, TimerLab};

/// The latest purgatory fact `pick` accepts, with its time.
fn latest<T>(sim: &Sim<TimerLab>, pick: impl Fn(&PurgatoryFact) -> Option<T>) -> Option<(u64, T)> {
    sim.log().iter().rev().find_map(|entry| match &entry.fact {
        Fact::Purgatory(fact) => pick(fact).map(|found| (entry.time_ms, found)),
        _ => None,
    })
}

/// The follower a fault hit (the actor of the first crash or stall).
fn faulty_follower(sim: &Sim<TimerLab>) -> u32 {
    sim.log()
        .iter()
        .find_map(|entry| match (&entry.fact, &entry.actor) {
            (Fact::Purgatory(PurgatoryFact::FollowerCrashed | PurgatoryFact::FetcherStalled), Actor::Broker(id)) => {
                Some(*id)
            }
            _ => None,
        })
        .unwrap_or_default()
}

fn ids(list: &[u32]) -> Arg {
    Arg::text(crate::model::join_ids(list))
}

/// The purgatory's HW and ISR now.
fn hw_isr(sim: &Sim<TimerLab>) -> (u64, Vec<u32>) {
    sim.world().purgatory().map(|p| (p.high_watermark, p.isr)).unwrap_or_default()
}

/// "The record is appended (LEO 1) but the HW is 0: DelayedProduce #1 waits in level 3 bucket 3, due at 31 s".
fn produce_parked(sim: &Sim<TimerLab>) -> Message {
    let task = sim.log().iter().rev().find_map(|entry| match entry.fact {
        Fact::TaskParked {
            origin: TaskOrigin::DelayedProduce { request, .. }, expiration_ms, level, bucket, ..
        } => Some((request, expiration_ms, level, bucket)),
        _ => None,
    });
    let (request, due_ms, level, bucket) = task.unwrap_or_default();
    let (leo, hw) = sim.world().purgatory().map_or((0, 0), |view| (view.log_end_offset, view.high_watermark));
    Message::new(PRODUCE_PARKED)
        .with("leo", Arg::int(leo))
        .with("hw", Arg::int(hw))
        .with("request", Arg::int(request))
        .with("level", Arg::int(level))
        .with("bucket", Arg::int(bucket))
        .with("due", Arg::Duration(due_ms))
        .with("timeout", Arg::Duration(sim.world().settings().request_timeout_ms))
}

/// The first completed `DelayedProduce`: (time, request, waited ms, HW).
fn completed(sim: &Sim<TimerLab>) -> Option<(u64, (u64, u64, u64))> {
    sim.log().iter().find_map(|entry| match entry.fact {
        Fact::Purgatory(PurgatoryFact::ProduceCompleted { request, waited_ms, high_watermark }) => {
            Some((entry.time_ms, (request, waited_ms, high_watermark)))
        }
        _ => None,
    })
}

fn completion_args(message: Message, sim: &Sim<TimerLab>) -> Message {
    let (at_ms, (request, waited_ms, hw)) = completed(sim).unwrap_or_default();
    let (_, isr) = hw_isr(sim);
    message
        .with("at", Arg::Duration(at_ms))
        .with("request", Arg::int(request))
        .with("waited", Arg::Duration(waited_ms))
        .with("hw", Arg::int(hw))
        .with("isr", ids(&isr))
        .with("timeout", Arg::Duration(sim.world().settings().request_timeout_ms))
}

fn isr_intro(sim: &Sim<TimerLab>) -> Message {
    let (_, isr) = hw_isr(sim);
    Message::new(ISR_INTRO)
        .with("isr", ids(&isr))
        .with("timeout", Arg::Duration(sim.world().settings().request_timeout_ms))
}

const ISR_BEATS: &[Beat<TimerLab>] = &[
    Beat { cue: Cue::Start, say: isr_intro },
    Beat { cue: Cue::At(2), say: produce_parked },
    Beat { cue: Cue::Nth(Moment::Fire, 1), say: |sim| completion_args(Message::new(ISR_DONE), sim) },
];

/// Healthy followers: the produce completes two fetch round trips later (1 ms each way).
pub(super) fn healthy_isr() -> Story<TimerLab> {
    Story {
        start: Cue::At(1),
        speed: 0.01,
        question: |_| Message::new(ISR_QUESTION),
        watch: |_| Message::new(ISR_WATCH),
        outcome: Cue::Nth(Moment::Fire, 1),
        answer: |sim| completion_args(Message::new(COMPLETED_ANSWER), sim),
        beats: ISR_BEATS,
    }
}

fn lag_args(message: Message, sim: &Sim<TimerLab>) -> Message {
    let lag_ms = sim.world().settings().replica_lag_time_max_ms;
    message.with("replica", Arg::int(faulty_follower(sim))).with("lag", Arg::Duration(lag_ms))
}

/// The first expired `DelayedProduce`: (time, request, HW, required offset).
fn expired(sim: &Sim<TimerLab>) -> Option<(u64, (u64, u64, u64))> {
    sim.log().iter().find_map(|entry| match entry.fact {
        Fact::Purgatory(PurgatoryFact::ProduceExpired { request, high_watermark, required_offset, .. }) => {
            Some((entry.time_ms, (request, high_watermark, required_offset)))
        }
        _ => None,
    })
}

fn expiry_args(message: Message, sim: &Sim<TimerLab>) -> Message {
    let (at_ms, (request, hw, required)) = expired(sim).unwrap_or_default();
    lag_args(message, sim)
        .with("at", Arg::Duration(at_ms))
        .with("request", Arg::int(request))
        .with("hw", Arg::int(hw))
        .with("required", Arg::int(required))
        .with("timeout", Arg::Duration(sim.world().settings().request_timeout_ms))
}

/// When the faulty follower left the ISR (the leader's check), if it has.
fn shrunk_ms(sim: &Sim<TimerLab>) -> Option<u64> {
    let replica = faulty_follower(sim);
    latest(sim, |fact| matches!(fact, PurgatoryFact::IsrShrunk { replica: r, .. } if *r == replica).then_some(()))
        .map(|(at_ms, ())| at_ms)
}

fn stall_shrunk(sim: &Sim<TimerLab>) -> Message {
    let (hw, isr) = hw_isr(sim);
    let (_, (request, _, _)) = expired(sim).unwrap_or_default();
    lag_args(Message::new(STALL_SHRUNK), sim)
        .with("at", Arg::Duration(shrunk_ms(sim).unwrap_or_default()))
        .with("isr", ids(&isr))
        .with("hw", Arg::int(hw))
        .with("request", Arg::int(request))
}

/// When the produce expired and why; whether the stalled follower has left the ISR since.
fn stall_answer(sim: &Sim<TimerLab>) -> Message {
    let lag = Arg::Duration(sim.world().settings().replica_lag_time_max_ms);
    let shrink = match shrunk_ms(sim) {
        Some(at_ms) => Message::new(STALL_LEFT).with("at", Arg::Duration(at_ms)).with("lag", lag),
        None => Message::new(STALL_STILL).with("lag", lag),
    };
    expiry_args(Message::new(STALL_ANSWER), sim).with("shrink", nested(shrink))
}

const STALL_BEATS: &[Beat<TimerLab>] = &[
    Beat { cue: Cue::Start, say: |_| Message::new(STALL_INTRO) },
    Beat {
        cue: Cue::Nth(Moment::Fault, 1),
        say: |sim| {
            let every_ms = (sim.world().settings().replica_lag_time_max_ms / 2).max(1);
            lag_args(Message::new(STALL_DOWN), sim).with("every", Arg::Duration(every_ms))
        },
    },
    Beat { cue: Cue::At(3), say: produce_parked },
    Beat { cue: Cue::Nth(Moment::Expiry, 1), say: |sim| expiry_args(Message::new(STALL_EXPIRED), sim) },
    Beat { cue: Cue::Nth(Moment::IsrShrink, 1), say: stall_shrunk },
];

/// A stalled fetcher (the broker heartbeats): request.timeout.ms (30 s) ends the produce
/// before replica.lag.time.max.ms (30 s, checked every 15 s) drops the follower, at 45 s.
pub(super) fn stalled_follower() -> Story<TimerLab> {
    Story {
        start: Cue::At(1),
        speed: 5.0,
        question: |_| Message::new(STALL_QUESTION),
        watch: |_| Message::new(STALL_WATCH),
        outcome: Cue::Nth(Moment::Expiry, 1),
        answer: stall_answer,
        beats: STALL_BEATS,
    }
}

fn session_args(message: Message, sim: &Sim<TimerLab>) -> Message {
    let session_ms = sim.world().settings().broker_session_timeout_ms;
    message.with("replica", Arg::int(faulty_follower(sim))).with("session", Arg::Duration(session_ms))
}

/// When the produce completed, and the fence that let the HW move.
fn crash_answer(sim: &Sim<TimerLab>) -> Message {
    session_args(completion_args(Message::new(CRASH_ANSWER), sim), sim)
}

const CRASH_BEATS: &[Beat<TimerLab>] = &[
    Beat { cue: Cue::Start, say: |_| Message::new(CRASH_INTRO) },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: |sim| session_args(Message::new(CRASH_DOWN), sim) },
    Beat { cue: Cue::At(3), say: produce_parked },
    Beat {
        cue: Cue::Nth(Moment::Fire, 1),
        say: |sim| session_args(completion_args(Message::new(CRASH_DONE), sim), sim),
    },
];

/// A crashed follower: the controller fences it after broker.session.timeout.ms (9 s), the
/// ISR shrinks, the HW moves, and the produce completes 21 s before its request.timeout.ms.
pub(super) fn crashed_follower() -> Story<TimerLab> {
    Story {
        start: Cue::At(1),
        speed: 2.0,
        question: |_| Message::new(CRASH_QUESTION),
        watch: |_| Message::new(CRASH_WATCH),
        outcome: Cue::Nth(Moment::Fire, 1),
        answer: crash_answer,
        beats: CRASH_BEATS,
    }
}
