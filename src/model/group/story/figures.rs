//! What the groups stories compute from a run: stop time per member, who owns what, lag, the
//! rebalance figures and the ledger's lost offsets, as message arguments.

use super::keys::*;
use crate::model::group::{CoordinatorFact, Fact, GroupLab, MemberFact, RebalanceFact, TOPIC};
use crate::model::kernel::{Actor, Arg, Describe, Message, Sim};

pub fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

pub fn member(index: u32) -> Arg {
    nested(Actor::Member(index).message())
}

pub fn partition(p: u32) -> Arg {
    Arg::text(format!("{TOPIC}-{p}"))
}

fn pending() -> Arg {
    nested(Message::new(PENDING))
}

/// `a, b, c` in the reader's language ("none" for an empty list).
pub fn list(items: Vec<Message>) -> Arg {
    let mut items = items.into_iter().rev();
    let Some(last) = items.next() else { return nested(Message::new(NONE)) };
    nested(items.fold(last, |rest, first| Message::new(LIST).with("first", nested(first)).with("rest", nested(rest))))
}

/// `orders-0, orders-1`: a partition list as Kafka's tools print it (not language).
pub fn partitions(list_of: &[u32]) -> Arg {
    Arg::text(list_of.iter().map(|p| format!("{TOPIC}-{p}")).collect::<Vec<_>>().join(", "))
}

pub fn total_lag(world: &GroupLab) -> i64 {
    (0..world.log_end_offsets().len() as u32).map(|p| world.lag(p)).sum()
}

pub fn committed_total(world: &GroupLab) -> i64 {
    (0..world.log_end_offsets().len() as u32).filter_map(|p| world.coordinator().committed(p)).sum()
}

/// Member processes that were never killed or closed: the ones a rebalance can stop.
fn survivors(sim: &Sim<GroupLab>) -> Vec<u32> {
    let gone = |index: u32| {
        sim.log().iter().any(|e| {
            e.actor == Actor::Member(index)
                && matches!(e.fact, Fact::Member(MemberFact::MemberCrashed | MemberFact::MemberClosed))
        })
    };
    (1..=sim.world().member_count() as u32).filter(|i| !gone(*i)).collect()
}

/// `C1 41.956 s, C2 41.910 s` for every surviving member (0 s if it never stopped), and their sum.
pub fn stops_per_member(sim: &Sim<GroupLab>) -> (Arg, u64) {
    let (per, sum_ms) = sim.world().stop_totals();
    let items = survivors(sim)
        .into_iter()
        .map(|index| {
            let ms = per.iter().find(|(i, _)| *i == index).map_or(0, |(_, ms)| *ms);
            Message::new(STOP_ITEM).with("member", member(index)).with("stop", Arg::Duration(ms))
        })
        .collect();
    (list(items), sum_ms)
}

/// `C1: orders-0, orders-1 · …` from the coordinator's stored assignment, by member process.
pub fn owners(world: &GroupLab) -> Arg {
    let mut rows: Vec<(u32, Vec<u32>)> = world
        .coordinator()
        .assignment
        .iter()
        .filter(|(_, ps)| !ps.is_empty())
        .filter_map(|(id, ps)| world.member_index(id).map(|i| (i, ps.clone())))
        .collect();
    crate::model::kernel::order::sort(&mut rows);
    list(
        rows.into_iter()
            .map(|(i, ps)| Message::new(OWNER_ITEM).with("member", member(i)).with("partitions", partitions(&ps)))
            .collect(),
    )
}

/// `orders-0 → C5, …` for every partition that has an owner.
pub fn partition_owners(world: &GroupLab) -> Arg {
    let items = (0..world.log_end_offsets().len() as u32)
        .filter_map(|p| {
            let index = world.coordinator().owner_of(p).and_then(|id| world.member_index(id))?;
            Some(Message::new(PARTITION_OWNER).with("partition", partition(p)).with("member", member(index)))
        })
        .collect();
    list(items)
}

/// Members the stored assignment gives nothing, by process index.
pub fn idle_members(world: &GroupLab) -> Vec<u32> {
    let mut idle: Vec<u32> = world.idle_members().into_iter().filter_map(|id| world.member_index(id)).collect();
    crate::model::kernel::order::sort(&mut idle);
    idle
}

/// The rebalance figures as one message (used by the loop's answer and the UI's verdict).
pub fn churn_figures(sim: &Sim<GroupLab>) -> Message {
    let churn = sim.world().churn(sim.now_ms());
    Message::new(LOOP_FIGURES)
        .with("rebalances", Arg::int(i64::from(churn.rebalances)))
        .with("elapsed", Arg::Duration(churn.elapsed_ms))
        .with("per_minute", Arg::Decimal { units: churn.generations_per_minute_tenths(), places: 1 })
        .with("unstable", Arg::Duration(churn.unstable_ms))
}

/// The rebalance loop's verdict, if the group is in one.
pub fn loop_verdict(sim: &Sim<GroupLab>) -> Option<Message> {
    let looping = sim.world().churn(sim.now_ms()).looping;
    looping.then(|| Message::new(LOOP_VERDICT).with("figures", nested(churn_figures(sim))))
}

/// Total lag growth per minute over the last `window_ms` of lag samples.
pub fn lag_growth_per_minute(world: &GroupLab, window_ms: u64) -> i64 {
    let history = world.lag_history();
    let Some(last) = history.first().and_then(|h| h.last()) else { return 0 };
    let from_ms = last.time_ms.saturating_sub(window_ms);
    let at = |p: &Vec<crate::model::group::LagSample>, pick_last: bool| {
        let sample = if pick_last { p.last() } else { p.iter().find(|s| s.time_ms >= from_ms) };
        sample.map_or((0, 0), |s| (s.lag, s.time_ms))
    };
    let (mut grown, mut span_ms) = (0, 0);
    for p in history {
        let ((then, t0), (now, t1)) = (at(p, false), at(p, true));
        grown += now - then;
        span_ms = span_ms.max(t1 - t0);
    }
    if span_ms == 0 {
        0
    } else {
        grown * 60_000 / span_ms as i64
    }
}

/// When the first fact matching `is` was logged.
pub fn first_ms(sim: &Sim<GroupLab>, is: impl Fn(&Actor, &Fact) -> bool) -> Option<u64> {
    sim.log().iter().find(|e| is(&e.actor, &e.fact)).map(|e| e.time_ms)
}

/// The first crashed member, when it crashed, its partitions then, and how long until one of
/// them had a new owner.
pub fn orphaned(sim: &Sim<GroupLab>) -> (Arg, Arg) {
    let crash = sim.log().iter().find(|e| matches!(e.fact, Fact::Member(MemberFact::MemberCrashed)));
    let Some(crash) = crash else { return (nested(Message::new(NONE)), pending()) };
    let mut held: Vec<u32> = Vec::new();
    for e in sim.log().iter().take_while(|e| e.time_ms <= crash.time_ms) {
        if let (true, Fact::Rebalance(RebalanceFact::PartitionsAssigned { partitions: ps, .. })) =
            (e.actor == crash.actor, &e.fact)
        {
            held.extend(ps.iter().copied());
        }
    }
    crate::model::kernel::order::sort(&mut held);
    held.dedup();
    let reassigned = sim.log().iter().find(|e| {
        e.time_ms > crash.time_ms
            && matches!(&e.fact, Fact::Rebalance(RebalanceFact::PartitionsAssigned { partitions: ps, .. }) if ps.iter().any(|p| held.contains(p)))
    });
    (partitions(&held), reassigned.map_or_else(pending, |e| Arg::Duration(e.time_ms - crash.time_ms)))
}

/// Every committed-but-never-processed range so far (adjacent ones merged, by partition), and
/// how many records they hold.
pub fn lost_ranges(sim: &Sim<GroupLab>) -> (Arg, i64) {
    let mut ranges: Vec<(u32, i64, i64)> = sim
        .log()
        .iter()
        .filter_map(|e| match e.fact {
            Fact::Member(MemberFact::RecordsLost { partition: p, from, to }) => Some((p, from, to)),
            _ => None,
        })
        .collect();
    crate::model::kernel::order::sort(&mut ranges);
    let mut merged: Vec<(u32, i64, i64)> = Vec::new();
    for (p, from, to) in ranges {
        match merged.last_mut() {
            Some(last) if last.0 == p && last.2 >= from => last.2 = last.2.max(to),
            _ => merged.push((p, from, to)),
        }
    }
    let total = merged.iter().map(|(_, from, to)| to - from).sum();
    let items = merged
        .into_iter()
        .map(|(p, from, to)| {
            Message::new(RANGE_ITEM)
                .with("partition", partition(p))
                .with("first", Arg::int(from))
                .with("last", Arg::int(to - 1))
        })
        .collect();
    (list(items), total)
}

/// When a static member rejoined after its crash, counted from the crash.
pub fn static_back_after(sim: &Sim<GroupLab>) -> Arg {
    let crashed = first_ms(sim, |_, f| matches!(f, Fact::Member(MemberFact::MemberCrashed)));
    let back = first_ms(sim, |_, f| matches!(f, Fact::Coordinator(CoordinatorFact::StaticMemberReplaced { .. })));
    crashed.zip(back).map_or_else(pending, |(c, b)| Arg::Duration(b - c))
}
