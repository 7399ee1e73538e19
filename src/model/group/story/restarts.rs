//! The restart presets' stories (eager, cooperative, static) and the worker hand-off loss: a
//! member dies, and the card says what that cost the others.

use super::figures::*;
use super::keys::*;
use super::presets::{at_ten, generation, session, S};
use crate::model::group::GroupLab;
use crate::model::kernel::{Arg, Message, Moment};
use crate::model::story::{Beat, Cue, Story};

fn stop_answer(sim: &S) -> Message {
    let (per_member, sum_ms) = stops_per_member(sim);
    let (held, orphaned_for) = orphaned(sim);
    // With nobody stopped, a sum of zeros says nothing: say that nobody stopped.
    Message::new(if sum_ms == 0 { STOP_NONE_ANSWER } else { STOP_ANSWER })
        .with("per_member", per_member)
        .with("sum", Arg::Duration(sum_ms))
        .with("partitions", held)
        .with("orphaned", orphaned_for)
}

fn assignor(sim: &S) -> Arg {
    Arg::kafka(sim.world().assignor().protocol_name())
}

fn restart_intro(sim: &S) -> Message {
    Message::new(RESTART_INTRO).with("generation", generation(sim))
}

fn restart_dead(sim: &S) -> Message {
    Message::new(RESTART_DEAD).with("session", session(sim))
}

fn restart_expired(sim: &S) -> Message {
    Message::new(RESTART_EXPIRED).with("session", session(sim))
}

const EAGER_BEATS: &[Beat<GroupLab>] = &[
    Beat { cue: Cue::Start, say: restart_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: restart_dead },
    Beat { cue: Cue::Nth(Moment::RebalanceStart, 2), say: |_| Message::new(RESTART_EAGER_JOIN) },
    Beat { cue: Cue::Nth(Moment::Expiry, 1), say: restart_expired },
];

const COOPERATIVE_BEATS: &[Beat<GroupLab>] = &[
    Beat { cue: Cue::Start, say: restart_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: restart_dead },
    Beat { cue: Cue::Nth(Moment::RebalanceStart, 2), say: |_| Message::new(RESTART_COOP_JOIN) },
    Beat { cue: Cue::Nth(Moment::Expiry, 1), say: restart_expired },
];

fn static_answer(sim: &S) -> Message {
    let churn = sim.world().churn(sim.now_ms());
    let c3 = sim.world().member_views(sim.now_ms()).into_iter().find(|m| m.index == 3).map(|m| m.assigned);
    Message::new(STATIC_ANSWER)
        .with("rebalances", Arg::int(i64::from(churn.rebalances.saturating_sub(1))))
        .with("generation", generation(sim))
        .with("back", static_back_after(sim))
        .with("partitions", partitions(&c3.unwrap_or_default()))
        .with("per_member", stops_per_member(sim).0)
}

const STATIC_BEATS: &[Beat<GroupLab>] = &[
    Beat { cue: Cue::Start, say: |_| Message::new(STATIC_INTRO) },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: |sim| Message::new(STATIC_DEAD).with("session", session(sim)) },
    Beat { cue: Cue::At(5), say: |_| Message::new(STATIC_BACK) },
    Beat { cue: Cue::At(9), say: |sim| Message::new(STATIC_PASSED).with("generation", generation(sim)) },
];

fn handoff_answer(sim: &S) -> Message {
    let (ranges, lost) = lost_ranges(sim);
    Message::new(HANDOFF_ANSWER)
        .with("lost", Arg::int(lost))
        .with("ranges", ranges)
        .with("duplicates", Arg::int(sim.world().ledger().total_duplicates() as i64))
}

const HANDOFF_BEATS: &[Beat<GroupLab>] = &[
    Beat { cue: Cue::Start, say: |_| Message::new(HANDOFF_INTRO) },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: |_| Message::new(HANDOFF_KILLED) },
    Beat { cue: Cue::Nth(Moment::Expiry, 1), say: |sim| Message::new(HANDOFF_EXPIRED).with("session", session(sim)) },
    Beat {
        cue: Cue::Last(Moment::Loss),
        say: |sim| Message::new(HANDOFF_LOST).with("lost", Arg::int(lost_ranges(sim).1)),
    },
];

/// The story of a restart or hand-off preset, if `preset` is one.
pub fn story(preset: &str) -> Option<Story<GroupLab>> {
    let restart_watch = |_: &S| Message::new(RESTART_WATCH);
    Some(match preset {
        "eager-restart" => at_ten(
            Cue::At(1),
            |sim| Message::new(RESTART_EAGER_QUESTION).with("assignor", assignor(sim)),
            restart_watch,
            Cue::Nth(Moment::RebalanceEnd, 2),
            stop_answer,
            EAGER_BEATS,
        ),
        "cooperative-restart" => at_ten(
            Cue::At(1),
            |sim| Message::new(RESTART_COOP_QUESTION).with("assignor", assignor(sim)),
            restart_watch,
            Cue::Nth(Moment::RebalanceEnd, 2),
            stop_answer,
            COOPERATIVE_BEATS,
        ),
        "static-restart" => at_ten(
            Cue::At(1),
            |sim| Message::new(STATIC_QUESTION).with("session", session(sim)),
            |_| Message::new(STATIC_WATCH),
            Cue::At(9),
            static_answer,
            STATIC_BEATS,
        ),
        "handoff-loss" => at_ten(
            Cue::At(2),
            |_| Message::new(HANDOFF_QUESTION),
            |_| Message::new(HANDOFF_WATCH),
            Cue::Last(Moment::Loss),
            handoff_answer,
            HANDOFF_BEATS,
        ),
        _ => return None,
    })
}
