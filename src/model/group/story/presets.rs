//! Each groups preset's story: where it opens, its pace, its captions, question and answer.

use super::figures::*;
use super::keys::*;
use super::restarts;
use crate::model::group::{Fact, GroupLab, MemberFact, TOPIC};
use crate::model::kernel::{Arg, Message, Moment, Sim};
use crate::model::story::{Beat, Cue, Story};

pub(super) type S = Sim<GroupLab>;

fn settings(sim: &S) -> &crate::model::group::Settings {
    sim.world().settings()
}

fn batch_ms(sim: &S) -> u64 {
    let s = settings(sim);
    s.max_poll_records.max(0) as u64 * s.process_ms_per_record
}

/// Records one member processes per second at its configured pace.
fn capacity_per_sec(sim: &S) -> i64 {
    1000 / settings(sim).process_ms_per_record.max(1) as i64
}

fn lag(sim: &S) -> Arg {
    Arg::int(total_lag(sim.world()))
}

pub(super) fn session(sim: &S) -> Arg {
    Arg::Duration(settings(sim).session_timeout_ms)
}

fn interval(sim: &S) -> Arg {
    Arg::Duration(settings(sim).max_poll_interval_ms)
}

pub(super) fn generation(sim: &S) -> Arg {
    Arg::int(sim.world().coordinator().generation)
}

fn count_facts(sim: &S, is: impl Fn(&Fact) -> bool) -> i64 {
    sim.log().iter().filter(|e| is(&e.fact)).count() as i64
}

fn default_answer(sim: &S) -> Message {
    let world = sim.world();
    Message::new(DEFAULT_ANSWER)
        .with("state", Arg::kafka(world.coordinator().state.kafka_name()))
        .with("generation", generation(sim))
        .with("owners", owners(world))
        .with("lag", lag(sim))
}

fn slow_answer(sim: &S) -> Message {
    Message::new(SLOW_ANSWER)
        .with("lag", lag(sim))
        .with("per_minute", Arg::int(lag_growth_per_minute(sim.world(), 60_000)))
        .with("capacity", Arg::int(capacity_per_sec(sim)))
        .with("rate", Arg::int(settings(sim).records_per_sec))
}

const SLOW_BEATS: &[Beat<GroupLab>] = &[
    Beat {
        cue: Cue::Start,
        say: |sim| {
            Message::new(SLOW_INTRO)
                .with("per_record", Arg::Duration(settings(sim).process_ms_per_record))
                .with("capacity", Arg::int(capacity_per_sec(sim)))
                .with("rate", Arg::int(settings(sim).records_per_sec))
        },
    },
    Beat {
        cue: Cue::Nth(Moment::RebalanceEnd, 1),
        say: |sim| Message::new(SLOW_STABLE).with("generation", generation(sim)),
    },
    Beat { cue: Cue::At(3), say: slow_later },
    Beat { cue: Cue::At(6), say: slow_later },
];

fn slow_later(sim: &S) -> Message {
    Message::new(SLOW_LATER).with("elapsed", Arg::Duration(sim.now_ms())).with("lag", lag(sim))
}

fn loop_answer(sim: &S) -> Message {
    let ledger = sim.world().ledger();
    let backlog = settings(sim).backlog_records_per_partition * sim.world().log_end_offsets().len() as i64;
    Message::new(LOOP_ANSWER)
        .with("figures", nested(churn_figures(sim)))
        .with("committed", Arg::int((committed_total(sim.world()) - backlog).max(0)))
        .with("duplicates", Arg::int(ledger.total_duplicates() as i64))
}

fn loop_question(sim: &S) -> Message {
    Message::new(LOOP_QUESTION)
        .with("records", Arg::int(settings(sim).max_poll_records))
        .with("per_record", Arg::Duration(settings(sim).process_ms_per_record))
        .with("batch", Arg::Duration(batch_ms(sim)))
        .with("interval", interval(sim))
}

const LOOP_BEATS: &[Beat<GroupLab>] = &[
    Beat {
        cue: Cue::Start,
        say: |sim| {
            Message::new(LOOP_INTRO)
                .with("backlog", Arg::int(settings(sim).backlog_records_per_partition))
                .with("batch", Arg::Duration(batch_ms(sim)))
                .with("interval", interval(sim))
        },
    },
    Beat { cue: Cue::Nth(Moment::Expiry, 1), say: |sim| Message::new(LOOP_TIMEOUT).with("interval", interval(sim)) },
    Beat {
        cue: Cue::Nth(Moment::RebalanceEnd, 2),
        say: |sim| Message::new(LOOP_REJOIN).with("generation", generation(sim)),
    },
    Beat {
        cue: Cue::Nth(Moment::Loss, 1),
        say: |sim| {
            Message::new(LOOP_DUPLICATES).with("duplicates", Arg::int(sim.world().ledger().total_duplicates() as i64))
        },
    },
];

fn fix_answer(sim: &S) -> Message {
    let timeouts = count_facts(sim, |f| matches!(f, Fact::Member(MemberFact::PollTimeoutExpired { .. })));
    Message::new(FIX_ANSWER)
        .with("generation", generation(sim))
        .with("timeouts", Arg::int(timeouts))
        .with("batch", Arg::Duration(batch_ms(sim)))
        .with("interval", interval(sim))
        .with("lag", lag(sim))
}

const FIX_BEATS: &[Beat<GroupLab>] = &[
    Beat {
        cue: Cue::Start,
        say: |sim| {
            Message::new(FIX_INTRO)
                .with("records", Arg::int(settings(sim).max_poll_records))
                .with("per_record", Arg::Duration(settings(sim).process_ms_per_record))
                .with("batch", Arg::Duration(batch_ms(sim)))
                .with("interval", interval(sim))
        },
    },
    Beat {
        cue: Cue::Nth(Moment::RebalanceEnd, 1),
        say: |sim| {
            Message::new(FIX_STABLE).with("generation", generation(sim)).with("batch", Arg::Duration(batch_ms(sim)))
        },
    },
    Beat { cue: Cue::At(3), say: fix_later },
    Beat { cue: Cue::At(9), say: fix_later },
];

fn fix_later(sim: &S) -> Message {
    Message::new(FIX_LATER).with("elapsed", Arg::Duration(sim.now_ms())).with("lag", lag(sim))
}

fn twelve_answer(sim: &S) -> Message {
    let idle = idle_members(sim.world());
    Message::new(TWELVE_ANSWER)
        .with("owners", partition_owners(sim.world()))
        .with("idle", Arg::int(idle.len() as i64))
        .with(
            "idle_members",
            list(
                idle.into_iter()
                    .map(|i| crate::model::kernel::Describe::message(&crate::model::kernel::Actor::Member(i)))
                    .collect(),
            ),
        )
}

const TWELVE_BEATS: &[Beat<GroupLab>] = &[
    Beat { cue: Cue::Start, say: |_| Message::new(TWELVE_INTRO) },
    Beat {
        cue: Cue::Nth(Moment::RebalanceEnd, 1),
        say: |sim| {
            let idle = idle_members(sim.world()).len() as i64;
            let owning = sim.world().coordinator().assignment.values().filter(|ps| !ps.is_empty()).count() as i64;
            Message::new(TWELVE_STABLE)
                .with("generation", generation(sim))
                .with("owning", Arg::int(owning))
                .with("idle", Arg::int(idle))
        },
    },
    Beat { cue: Cue::At(2), say: |_| Message::new(TWELVE_LATER) },
];

/// The poisoned partition, its pill's offset and the member that owns it.
fn pill(sim: &S) -> Option<(u32, i64, Option<u32>)> {
    let world = sim.world();
    let (p, offset) = world.poison_pills().into_iter().next()?;
    let owner = world.coordinator().owner_of(p).and_then(|id| world.member_index(id));
    Some((p, offset, owner))
}

fn attempts(sim: &S) -> i64 {
    count_facts(sim, |f| matches!(f, Fact::Member(MemberFact::PoisonPillFailed { .. })))
}

fn poison_message(sim: &S, key: crate::model::kernel::Key) -> Message {
    let (p, offset, owner) = pill(sim).unwrap_or((POISON_PARTITION, -1, None));
    let world = sim.world();
    let others = (0..world.log_end_offsets().len() as u32).filter(|q| *q != p).map(|q| world.lag(q)).max();
    Message::new(key)
        .with("member", owner.map_or_else(|| nested(Message::new(NONE)), member))
        .with("partition", partition(p))
        .with("offset", Arg::int(offset))
        .with("attempts", Arg::int(attempts(sim)))
        .with("lag", Arg::int(world.lag(p)))
        .with("others", Arg::int(others.unwrap_or(0)))
}

const POISON_BEATS: &[Beat<GroupLab>] = &[
    Beat { cue: Cue::Start, say: |_| Message::new(POISON_INTRO).with("partition", partition(POISON_PARTITION)) },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: |sim| poison_message(sim, POISON_APPENDED) },
    Beat { cue: Cue::At(3), say: |sim| poison_message(sim, POISON_STUCK) },
    Beat { cue: Cue::At(5), say: |sim| poison_message(sim, POISON_SPREAD) },
];

/// The partition the poison-pill preset poisons (its tape's `poison-2`).
const POISON_PARTITION: u32 = 2;

/// A preset's story at 10× (every groups story spans one to three minutes of simulated time).
pub(super) fn at_ten(
    start: Cue,
    question: fn(&S) -> Message,
    watch: fn(&S) -> Message,
    outcome: Cue,
    answer: fn(&S) -> Message,
    beats: &'static [Beat<GroupLab>],
) -> Story<GroupLab> {
    Story { start, speed: 10.0, question, watch, outcome, answer, beats }
}

/// The groups scene's story for `preset` (`None`: the scene's default).
pub fn story(preset: Option<&str>) -> Story<GroupLab> {
    let fix_watch = |_: &S| Message::new(FIX_WATCH);
    if let Some(story) = preset.and_then(restarts::story) {
        return story;
    }
    match preset {
        Some("slow-consumer") => at_ten(
            Cue::At(0),
            |sim| {
                Message::new(SLOW_QUESTION)
                    .with("per_record", Arg::Duration(settings(sim).process_ms_per_record))
                    .with("rate", Arg::int(settings(sim).records_per_sec as i64))
            },
            |_| Message::new(SLOW_WATCH),
            Cue::At(6),
            slow_answer,
            SLOW_BEATS,
        ),
        Some("rebalance-loop") => at_ten(
            Cue::At(0),
            loop_question,
            |_| Message::new(LOOP_WATCH),
            Cue::Nth(Moment::RebalanceEnd, 4),
            loop_answer,
            LOOP_BEATS,
        ),
        Some("fix-fewer-records") => at_ten(
            Cue::At(0),
            |sim| Message::new(FIX_RECORDS_QUESTION).with("records", Arg::int(settings(sim).max_poll_records)),
            fix_watch,
            Cue::At(3),
            fix_answer,
            FIX_BEATS,
        ),
        Some("fix-longer-interval") => at_ten(
            Cue::At(0),
            |sim| Message::new(FIX_INTERVAL_QUESTION).with("interval", interval(sim)),
            fix_watch,
            Cue::At(3),
            fix_answer,
            FIX_BEATS,
        ),
        Some("twelve-on-six") => Story {
            speed: 5.0,
            ..at_ten(
                Cue::At(0),
                |_| Message::new(TWELVE_QUESTION),
                |_| Message::new(TWELVE_WATCH),
                Cue::Nth(Moment::RebalanceEnd, 1),
                twelve_answer,
                TWELVE_BEATS,
            )
        },
        Some("poison-pill") => at_ten(
            Cue::At(1),
            |_| Message::new(POISON_QUESTION).with("partition", partition(POISON_PARTITION)),
            |_| Message::new(POISON_WATCH),
            Cue::At(3),
            |sim| poison_message(sim, POISON_ANSWER),
            POISON_BEATS,
        ),
        _ => default_story(),
    }
}

/// The scene opened without a preset: live figures of whatever the learner does. Play starts
/// at 10×: the group's timeouts are tens of seconds (session.timeout.ms = 45 s takes 4.5 s).
fn default_story() -> Story<GroupLab> {
    Story {
        start: Cue::At(0),
        speed: 10.0,
        question: |_| Message::new(DEFAULT_QUESTION).with("topic", Arg::kafka(TOPIC)),
        watch: |_| Message::new(DEFAULT_WATCH),
        outcome: Cue::Start,
        answer: default_answer,
        beats: &[],
    }
}
