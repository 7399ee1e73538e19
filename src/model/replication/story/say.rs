//! What the stories say, computed from the run: the durability ledger every loss story
//! answers with, and the figures its captions quote (LEO, HW, ISR, truncations).

use super::keys::*;
use crate::model::kernel::{Actor, Arg, Describe, LogEntry, Message, Sim};
use crate::model::replication::{join, Fact, ReplicaView, Replication, Truncation, TruncationCause};

type S = Sim<Replication>;

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

/// `#490–#496, #498`: record ids folded into runs of consecutive ids (at most `RUNS` runs).
pub fn id_ranges(ids: &[u64]) -> String {
    const RUNS: usize = 4;
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &id in ids {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == id => *last = id,
            _ => runs.push((id, id)),
        }
    }
    let mut parts: Vec<String> =
        runs.iter().take(RUNS).map(|&(a, b)| if a == b { format!("#{a}") } else { format!("#{a}–#{b}") }).collect();
    if runs.len() > RUNS {
        parts.push("…".to_string());
    }
    parts.join(", ")
}

/// The durability ledger's headline: "acked and lost: 7 of 1,000 (#490–#496)", counted against
/// the current leader's log (the last leader's while the partition is offline).
pub fn durability_ledger(world: &Replication) -> Message {
    let summary = world.ledger_summary();
    let base = Message::new(LEDGER)
        .with("lost", Arg::Count(summary.acked_lost as i64))
        .with("acked", Arg::Count(summary.acked as i64));
    let lost = world.acked_lost();
    if lost.is_empty() {
        return base;
    }
    Message::new(LEDGER_IDS).with("ledger", nested(base)).with("ids", Arg::text(id_ranges(&lost)))
}

pub(super) fn ledger(sim: &S) -> Message {
    durability_ledger(sim.world())
}

pub(super) fn ledger_arg(sim: &S) -> Arg {
    nested(ledger(sim))
}

pub(super) fn replica(sim: &S, broker: u32) -> ReplicaView {
    sim.world().replica_states().into_iter().find(|v| v.broker == broker).expect("a replica on every assigned broker")
}

/// The latest log entry whose fact matches `is`.
pub(super) fn last_entry(sim: &S, is: impl Fn(&Fact) -> bool) -> Option<&LogEntry<Fact>> {
    sim.log().iter().rev().find(|e| is(&e.fact))
}

/// When the first fact matching `is` was logged.
pub(super) fn first_ms(sim: &S, is: impl Fn(&Fact) -> bool) -> Option<u64> {
    sim.log().iter().find(|e| is(&e.fact)).map(|e| e.time_ms)
}

pub(super) fn actor_arg(actor: &Actor) -> Arg {
    nested(actor.message())
}

fn broker_arg(id: u32) -> Arg {
    actor_arg(&Actor::Broker(id))
}

pub(super) fn isr_arg(sim: &S) -> Arg {
    Arg::text(join(&sim.world().partition().isr()))
}

pub(super) fn acks_arg(sim: &S) -> Arg {
    Arg::kafka(sim.world().settings().acks.config_value())
}

fn pending_arg() -> Arg {
    nested(Message::new(PENDING))
}

/// "broker-1 crashed (kill -9) …" for the latest crash.
pub(super) fn crashed(sim: &S) -> Message {
    let broker = last_entry(sim, |f| matches!(f, Fact::Crashed)).map_or(pending_arg(), |e| actor_arg(&e.actor));
    Message::new(CRASHED)
        .with("broker", broker)
        .with("timeout", Arg::Duration(sim.world().settings().broker_session_timeout_ms))
}

/// "Power failure on broker-2 … (LEO 2 → 1)" for the latest power failure.
pub(super) fn power_failed(sim: &S) -> Message {
    let entry = last_entry(sim, |f| matches!(f, Fact::PowerFailed { .. }));
    let (broker, before, after) = match entry {
        Some(LogEntry { actor, fact: Fact::PowerFailed { leo_before, leo_after }, .. }) => {
            (actor_arg(actor), *leo_before, *leo_after)
        }
        _ => (pending_arg(), 0, 0),
    };
    Message::new(POWER).with("broker", broker).with("before", Arg::int(before)).with("after", Arg::int(after))
}

/// The current leader, its epoch and its log end, for an election caption.
fn leader_args(sim: &S, key: crate::model::kernel::Key) -> Message {
    let view = sim.world().controller_view();
    let leo = view.leader.map_or(0, |l| replica(sim, l).log_end_offset);
    let leader = view.leader.map_or_else(|| nested(Message::new(NO_LEADER)), broker_arg);
    Message::new(key)
        .with("leader", leader)
        .with("epoch", Arg::int(view.leader_epoch))
        .with("leo", Arg::int(leo))
        .with("ledger", ledger_arg(sim))
}

pub(super) fn elected(sim: &S) -> Message {
    leader_args(sim, ELECTED)
}

pub(super) fn unclean(sim: &S) -> Message {
    leader_args(sim, UNCLEAN)
}

pub(super) fn offline(sim: &S) -> Message {
    Message::new(OFFLINE).with("ledger", ledger_arg(sim))
}

/// The latest truncation that removed records: who, and from where to where.
pub(super) fn last_truncation(sim: &S) -> Option<(Actor, Truncation)> {
    sim.log().iter().rev().find_map(|e| match e.fact {
        Fact::Truncated { truncation: Some(t), .. } => Some((e.actor.clone(), t)),
        _ => None,
    })
}

fn truncation_message(sim: &S, key: crate::model::kernel::Key) -> Message {
    let (broker, from, to) =
        last_truncation(sim).map_or((pending_arg(), 0, 0), |(a, t)| (actor_arg(&a), t.from_leo, t.to_offset));
    Message::new(key).with("broker", broker).with("from", Arg::int(from)).with("to", Arg::int(to))
}

pub(super) fn truncated(sim: &S) -> Message {
    truncation_message(sim, TRUNCATED)
}

pub(super) fn hw_truncated(sim: &S) -> Message {
    truncation_message(sim, KIP_HW_TRUNCATE)
}

/// The leader's restart: it leads again with what survived on its disk.
pub(super) fn restarted(sim: &S) -> Message {
    let broker = last_entry(sim, |f| matches!(f, Fact::RestartedWithLog { .. })).map(|e| e.actor.clone());
    let leo = match broker {
        Some(Actor::Broker(id)) => replica(sim, id).log_end_offset,
        _ => 0,
    };
    Message::new(RESTARTED)
        .with("broker", broker.as_ref().map_or(pending_arg(), actor_arg))
        .with("leo", Arg::int(leo))
        .with("ledger", ledger_arg(sim))
}

/// Where the latest OffsetsForLeaderEpoch answer said an epoch ends.
pub(super) fn epoch_end(sim: &S) -> i64 {
    sim.log()
        .iter()
        .rev()
        .find_map(|e| match e.fact {
            Fact::Truncated {
                cause:
                    TruncationCause::EpochEnds { end_offset, .. } | TruncationCause::DivergingEpoch { end_offset, .. },
                ..
            } => Some(end_offset),
            _ => None,
        })
        .unwrap_or(0)
}

/// Where `epoch` ends in the current leader's log (what a divergingEpoch check compares with).
pub(super) fn leader_epoch_end(sim: &S, epoch: i32) -> i64 {
    let partition = sim.world().partition();
    partition.leader().map_or(0, |leader| {
        let log = &partition.replica(leader).log;
        log.epochs().end_offset_for(epoch, log.log_end_offset()).end_offset
    })
}

/// The live figures of the scene's default: the leader's LEO and HW, the ISR, the ledger.
pub(super) fn default_answer(sim: &S) -> Message {
    let leader = sim.world().partition().leader();
    let (leo, hw) = leader.map_or((0, 0), |l| {
        let view = replica(sim, l);
        (view.log_end_offset, view.high_watermark)
    });
    Message::new(DEFAULT_ANSWER)
        .with("leader", leader.map_or_else(|| nested(Message::new(NO_LEADER)), broker_arg))
        .with("leo", Arg::int(leo))
        .with("hw", Arg::int(hw))
        .with("isr", isr_arg(sim))
        .with("ledger", ledger_arg(sim))
}

/// hw-leo-steps: when the follower got the record, and when its HW covered it. The leader's HW
/// moves when a fetch reports the follower's LEO (Kafka's `Partition.maybeIncrementLeaderHW`);
/// the follower takes min(its LEO, the leader's HW) from the next response
/// (`ReplicaFetcherThread.processPartitionData`), hence one fetch later.
pub(super) fn hw_answer(sim: &S) -> Message {
    let had = first_ms(sim, |f| matches!(f, Fact::Fetched { leo_after, leo_before, .. } if leo_after > leo_before));
    let knew = first_ms(sim, |f| matches!(f, Fact::Fetched { hw_after, hw_before, .. } if hw_after > hw_before));
    let (leader, follower) = (replica(sim, 1), replica(sim, 2));
    Message::new(HW_ANSWER)
        .with("follower", broker_arg(2))
        .with("had_at", had.map_or_else(pending_arg, Arg::Duration))
        .with("hw_at", knew.map_or_else(pending_arg, Arg::Duration))
        .with("leader_hw", Arg::int(leader.high_watermark))
        .with("follower_hw", Arg::int(follower.high_watermark))
}

/// One replica's LEO and HW in a caption (`leo`, `hw`).
pub(super) fn replica_figures(sim: &S, key: crate::model::kernel::Key, broker: u32) -> Message {
    let view = replica(sim, broker);
    Message::new(key).with("leo", Arg::int(view.log_end_offset)).with("hw", Arg::int(view.high_watermark))
}

/// The KIP-101 divergence presets: what the epoch fixed (consistency) and what it could not (loss).
/// With epochs a returning follower truncates to where the leader says its epoch ends
/// (`AbstractFetcherThread.truncateToEpochEndOffsets`), so no offset keeps a different record;
/// a record that no surviving replica holds is still gone.
pub(super) fn divergence_answer(sim: &S) -> Message {
    let offsets = sim.world().divergent_offsets();
    if offsets.is_empty() {
        return Message::new(DIV_FIXED).with("ledger", ledger_arg(sim));
    }
    let list: Vec<String> = offsets.iter().map(i64::to_string).collect();
    Message::new(DIV_SPLIT)
        .with("count", Arg::int(offsets.len()))
        .with("offsets", Arg::text(list.join(", ")))
        .with("ledger", ledger_arg(sim))
}

/// min.insync.replicas presets: the ISR against the minimum, what was acknowledged or refused.
pub(super) fn min_isr_answer(sim: &S) -> Message {
    let summary = sim.world().ledger_summary();
    Message::new(MIN2_ANSWER)
        .with("isr", isr_arg(sim))
        .with("min", Arg::int(sim.world().settings().min_insync_replicas))
        .with("acked", Arg::Count(summary.acked as i64))
        .with("sent", Arg::Count(summary.sent as i64))
        .with("pending", Arg::int(summary.pending + summary.failed))
}

/// lab3: how long the partition was offline before the unclean election, then the ledger.
pub(super) fn lab3_answer(sim: &S) -> Message {
    let offline = first_ms(sim, |f| matches!(f, Fact::PartitionOffline { .. }));
    let unclean = first_ms(sim, |f| matches!(f, Fact::UncleanLeaderElected { .. }));
    let span = offline.zip(unclean).map_or_else(pending_arg, |(a, b)| Arg::Duration(b.saturating_sub(a)));
    Message::new(LAB3_ANSWER).with("offline", span).with("ledger", ledger_arg(sim))
}
