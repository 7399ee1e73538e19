//! Each preset's story: where it opens, its speed, its captions at the key moments and the
//! figure its result card answers with. Positions follow each preset's tape in `scene.rs`.

use super::keys::*;
use super::say::*;
use crate::model::kernel::{Arg, Message, Moment, Sim};
use crate::model::replication::{FetchProtocol, Replication};
use crate::model::story::{Beat, Cue, Say, Story};

type S = Sim<Replication>;
/// A result card's question and what to watch for.
type Texts = (Say<Replication>, Say<Replication>);

const fn beat(cue: Cue, say: Say<Replication>) -> Beat<Replication> {
    Beat { cue, say }
}

fn story_of(
    start: Cue,
    speed: f64,
    (question, watch): Texts,
    outcome: Cue,
    answer: Say<Replication>,
    beats: &'static [Beat<Replication>],
) -> Story<Replication> {
    Story { start, speed, question, watch, outcome, answer, beats }
}

/// Records sent so far, as a count for a plural.
fn sent(sim: &S) -> Arg {
    Arg::int(sim.world().ledger_summary().sent)
}

/// Records not answered yet (in flight or retrying), as a count for a plural.
fn pending(sim: &S) -> Arg {
    Arg::int(sim.world().ledger_summary().pending)
}

fn settings(sim: &S) -> &crate::model::replication::Settings {
    sim.world().settings()
}

const HW_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, |sim| Message::new(HW_INTRO).with("delay", Arg::Duration(settings(sim).network_delay_ms))),
    beat(Cue::At(3), |sim| replica_figures(sim, HW_APPENDED, 1)),
    beat(Cue::At(5), |sim| replica_figures(sim, HW_FETCHED, 2)),
    beat(Cue::At(8), |sim| replica_figures(sim, HW_ACKED, 1)),
    beat(Cue::Nth(Moment::Answer, 1), |sim| replica_figures(sim, HW_LEARNED, 2)),
];

fn acks1_acked(sim: &S) -> Message {
    Message::new(ACKS1_ACKED)
        .with("acked", Arg::int(sim.world().ledger_summary().acked))
        .with("leo", Arg::int(replica(sim, 1).log_end_offset))
        .with("follower_leo", Arg::int(replica(sim, 2).log_end_offset))
}

const ACKS1_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, |sim| {
        let delay_ms = sim.world().brokers()[1].slow_fetch_delay_ms;
        Message::new(ACKS1_INTRO).with("delay", Arg::Duration(delay_ms)).with("sent", sent(sim))
    }),
    beat(Cue::At(5), acks1_acked),
    beat(Cue::Nth(Moment::Fault, 3), crashed),
    beat(Cue::Nth(Moment::Election, 1), elected),
];

fn min_isr_intro(sim: &S, key: crate::model::kernel::Key) -> Message {
    Message::new(key)
        .with("min", Arg::int(settings(sim).min_insync_replicas))
        .with("lag", Arg::Duration(settings(sim).replica_lag_time_max_ms))
}

fn shrunk(sim: &S, key: crate::model::kernel::Key) -> Message {
    let isr = sim.world().partition().isr();
    Message::new(key)
        .with("isr", isr_arg(sim))
        .with("size", Arg::int(isr.len()))
        .with("min", Arg::int(settings(sim).min_insync_replicas))
}

const MINISR1_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, |sim| min_isr_intro(sim, MINISR1_INTRO)),
    beat(Cue::Nth(Moment::IsrShrink, 1), |sim| shrunk(sim, MINISR1_SHRUNK)),
    beat(Cue::At(6), |sim| Message::new(MINISR1_ACKED).with("pending", pending(sim))),
    beat(Cue::Nth(Moment::Fault, 3), power_failed),
    beat(Cue::Nth(Moment::Fault, 4), restarted),
];

const SAFE_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, |sim| min_isr_intro(sim, SAFE_INTRO)),
    beat(Cue::Nth(Moment::IsrShrink, 1), |sim| shrunk(sim, SAFE_SHRUNK)),
    beat(Cue::At(6), |sim| Message::new(SAFE_REFUSED).with("pending", pending(sim)).with("ledger", ledger_arg(sim))),
    beat(Cue::Nth(Moment::Fault, 3), power_failed),
];

fn safe_answer(sim: &S) -> Message {
    let summary = sim.world().ledger_summary();
    Message::new(SAFE_ANSWER).with("ledger", ledger_arg(sim)).with("pending", Arg::int(summary.pending))
}

const UNCLEAN_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, |sim| Message::new(UNCLEAN_INTRO).with("sent", sent(sim))),
    beat(Cue::Nth(Moment::Fault, 3), crashed),
    beat(Cue::Nth(Moment::Election, 1), offline),
    beat(Cue::Nth(Moment::Election, 2), unclean),
    beat(Cue::Nth(Moment::Deletion, 1), truncated),
];

fn lab2_intro(sim: &S) -> Message {
    Message::new(LAB2_INTRO)
        .with("total", Arg::int(settings(sim).producer_max_records))
        .with("rate", Arg::int(settings(sim).producer_records_per_sec))
        .with("acks", acks_arg(sim))
}

const LAB2_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, lab2_intro),
    beat(Cue::Nth(Moment::Fault, 1), crashed),
    beat(Cue::Nth(Moment::Election, 1), elected),
    beat(Cue::Nth(Moment::Deletion, 1), truncated),
];

fn lab2_all_answer(sim: &S) -> Message {
    Message::new(LAB2_ALL_ANSWER)
        .with("ledger", ledger_arg(sim))
        .with("dups", Arg::int(sim.world().ledger_summary().duplicated))
        .with("idempotence", Arg::kafka(settings(sim).idempotence.to_string()))
}

const LAB3_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, |sim| Message::new(LAB3_INTRO).with("sent", sent(sim))),
    beat(Cue::Nth(Moment::Fault, 3), crashed),
    beat(Cue::Nth(Moment::Election, 1), offline),
    beat(Cue::At(8), |_| Message::new(LAB3_STAYS)),
    beat(Cue::At(10), |sim| {
        Message::new(LAB3_CONFIG).with("interval", Arg::Duration(settings(sim).unclean_election_interval_ms))
    }),
    beat(Cue::Nth(Moment::Election, 2), unclean),
];

fn kip_acked(sim: &S) -> Message {
    Message::new(KIP_ACKED)
        .with("leader_hw", Arg::int(replica(sim, 1).high_watermark))
        .with("follower_hw", Arg::int(replica(sim, 2).high_watermark))
}

fn kip_intro(sim: &S) -> Message {
    Message::new(KIP_LOSS_INTRO).with("hw", Arg::int(replica(sim, 2).high_watermark))
}

const KIP_OFF_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, kip_intro),
    beat(Cue::At(4), kip_acked),
    beat(Cue::Nth(Moment::Deletion, 1), hw_truncated),
    beat(Cue::Nth(Moment::Election, 1), elected),
    beat(Cue::Nth(Moment::Deletion, 2), truncated),
];

fn diverging_epoch(sim: &S) -> bool {
    settings(sim).fetch_protocol == FetchProtocol::DivergingEpoch
}

/// The restarted follower keeps its log: it fetches with lastFetchedEpoch (4.x) or asks first.
fn kip_keeps(sim: &S) -> Message {
    replica_figures(sim, if diverging_epoch(sim) { KIP_FETCHES } else { KIP_ASKS }, 2)
}

/// The old leader comes back: nothing to truncate, by either protocol.
fn kip_nothing(sim: &S) -> Message {
    if diverging_epoch(sim) {
        return Message::new(KIP_NO_DIVERGENCE).with("end", Arg::int(leader_epoch_end(sim, 0)));
    }
    Message::new(KIP_NOTHING).with("end", Arg::int(epoch_end(sim)))
}

const KIP_ON_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, kip_intro),
    beat(Cue::At(4), kip_acked),
    beat(Cue::Nth(Moment::Fault, 2), kip_keeps),
    beat(Cue::Nth(Moment::Election, 1), elected),
    beat(Cue::Nth(Moment::IsrExpand, 1), kip_nothing),
];

fn kip_answer(sim: &S) -> Message {
    let key = if settings(sim).leader_epoch_enabled { KIP_ON_ANSWER } else { KIP_OFF_ANSWER };
    Message::new(key).with("ledger", ledger_arg(sim)).with("leo", Arg::int(replica(sim, 2).log_end_offset))
}

const DIV_OFF_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, |_| Message::new(DIV_INTRO)),
    beat(Cue::Nth(Moment::Fault, 2), power_failed),
    beat(Cue::Nth(Moment::Election, 1), elected),
    beat(Cue::At(9), |_| Message::new(DIV_NEW)),
    beat(Cue::Nth(Moment::Fault, 4), |sim| replica_figures(sim, DIV_OFF_BACK, 1)),
];

const DIV_ON_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, |_| Message::new(DIV_INTRO)),
    beat(Cue::Nth(Moment::Fault, 2), power_failed),
    beat(Cue::Nth(Moment::Election, 1), elected),
    beat(Cue::At(9), |_| Message::new(DIV_NEW)),
    beat(Cue::Nth(Moment::Deletion, 1), |sim| {
        let to = last_truncation(sim).map_or(0, |(_, t)| t.to_offset);
        let key = if diverging_epoch(sim) { DIV_ON_DIVERGING } else { DIV_ON_FIXED };
        Message::new(key).with("end", Arg::int(epoch_end(sim))).with("to", Arg::int(to))
    }),
];

fn min2_intro(sim: &S) -> Message {
    min_isr_intro(sim, MIN2_INTRO).with("pending", pending(sim))
}

fn min2_next(sim: &S) -> Message {
    shrunk(sim, MIN2_NEXT).with("pending", pending(sim))
}

/// min-isr-2-one-down: its second burst is sent at position 5.
const MIN2_ONE_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, min2_intro),
    beat(Cue::Nth(Moment::Fault, 1), crashed),
    beat(Cue::Last(Moment::IsrShrink), |sim| shrunk(sim, MIN2_SHRUNK)),
    beat(Cue::At(5), min2_next),
];

/// min-isr-2-two-down: two crashes, so its second burst is sent at position 6.
const MIN2_TWO_BEATS: &[Beat<Replication>] = &[
    beat(Cue::Start, min2_intro),
    beat(Cue::Nth(Moment::Fault, 1), crashed),
    beat(Cue::Last(Moment::IsrShrink), |sim| shrunk(sim, MIN2_SHRUNK)),
    beat(Cue::At(6), min2_next),
];

/// The scene's story for `preset` (`None`: the scene's default).
pub fn story(preset: Option<&str>) -> Story<Replication> {
    preset.and_then(|id| loss_story(id).or_else(|| protocol_story(id))).unwrap_or_else(default_story)
}

/// The default: a live reading of the partition while the workload produces.
fn default_story() -> Story<Replication> {
    story_of(
        Cue::At(0),
        1.0,
        (|_| Message::new(DEFAULT_QUESTION), |sim| Message::new(DEFAULT_WATCH).with("acks", acks_arg(sim))),
        Cue::Start,
        default_answer,
        &[],
    )
}

/// Seed 000's loss scenarios: each answers with the durability ledger (or the refusals).
fn loss_story(id: &str) -> Option<Story<Replication>> {
    Some(match id {
        "loss-acks-1" => story_of(
            Cue::At(4),
            5.0,
            (|_| Message::new(ACKS1_QUESTION), |_| Message::new(ACKS1_WATCH)),
            Cue::Nth(Moment::Election, 1),
            ledger,
            ACKS1_BEATS,
        ),
        "loss-min-isr-1" => story_of(
            Cue::At(4),
            10.0,
            (|_| Message::new(MINISR1_QUESTION), |_| Message::new(MINISR1_WATCH)),
            Cue::Nth(Moment::Fault, 3),
            ledger,
            MINISR1_BEATS,
        ),
        "safe-min-isr-2" => story_of(
            Cue::At(4),
            10.0,
            (|_| Message::new(SAFE_QUESTION), |_| Message::new(SAFE_WATCH)),
            Cue::Nth(Moment::Fault, 3),
            safe_answer,
            SAFE_BEATS,
        ),
        "loss-unclean" => story_of(
            Cue::At(4),
            5.0,
            (|_| Message::new(UNCLEAN_QUESTION), |_| Message::new(UNCLEAN_WATCH)),
            Cue::Nth(Moment::Election, 2),
            ledger,
            UNCLEAN_BEATS,
        ),
        "lab3-unclean" => story_of(
            Cue::At(4),
            5.0,
            (|_| Message::new(LAB3_QUESTION), |_| Message::new(LAB3_WATCH)),
            Cue::Nth(Moment::Election, 2),
            lab3_answer,
            LAB3_BEATS,
        ),
        _ => return None,
    })
}

/// The protocol presets: the HW/LEO table, lab 2, KIP-101 and min.insync.replicas.
fn protocol_story(id: &str) -> Option<Story<Replication>> {
    let hw: Texts = (|_| Message::new(HW_QUESTION), |_| Message::new(HW_WATCH));
    Some(match id {
        "hw-leo-steps" => story_of(Cue::At(1), 0.1, hw, Cue::Nth(Moment::Answer, 1), hw_answer, HW_BEATS),
        id @ ("lab2-acks-1" | "lab2-acks-all") => {
            let all = id == "lab2-acks-all";
            let lab2: Texts =
                (|sim| Message::new(LAB2_QUESTION).with("acks", acks_arg(sim)), |_| Message::new(LAB2_WATCH));
            let (outcome, answer): (Cue, Say<Replication>) =
                if all { (Cue::End, lab2_all_answer) } else { (Cue::Nth(Moment::Election, 1), ledger) };
            story_of(Cue::At(0), 10.0, lab2, outcome, answer, LAB2_BEATS)
        }
        id @ ("kip101-loss-epoch-off" | "kip101-loss-epoch-on") => {
            let beats = if id.ends_with("on") { KIP_ON_BEATS } else { KIP_OFF_BEATS };
            let texts: Texts = (|_| Message::new(KIP_LOSS_QUESTION), |_| Message::new(KIP_LOSS_WATCH));
            story_of(Cue::At(3), 2.0, texts, Cue::Nth(Moment::Election, 1), kip_answer, beats)
        }
        id @ ("kip101-divergence-epoch-off" | "kip101-divergence-epoch-on") => {
            let beats = if id.ends_with("on") { DIV_ON_BEATS } else { DIV_OFF_BEATS };
            let texts: Texts = (|_| Message::new(DIV_QUESTION), |_| Message::new(DIV_WATCH));
            story_of(Cue::At(3), 5.0, texts, Cue::End, divergence_answer, beats)
        }
        id @ ("min-isr-2-one-down" | "min-isr-2-two-down") => {
            let question: Say<Replication> = if id.ends_with("one-down") {
                |_| Message::new(MIN2_ONE_QUESTION)
            } else {
                |_| Message::new(MIN2_TWO_QUESTION)
            };
            let beats = if id.ends_with("one-down") { MIN2_ONE_BEATS } else { MIN2_TWO_BEATS };
            story_of(Cue::At(1), 2.0, (question, |_| Message::new(MIN2_WATCH)), Cue::End, min_isr_answer, beats)
        }
        _ => return None,
    })
}
