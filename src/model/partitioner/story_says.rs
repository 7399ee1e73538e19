//! What the partitioner's stories say at each beat and on the result card, computed from the run.

use super::accumulator::SendReason;
use super::facts::{list_arg, partition_arg};
use super::story::*;
use super::{Fact, Partitioner};
use crate::model::kernel::{Arg, Key, Message, Sim};

type S = Sim<Partitioner>;

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

/// `part / total` as a percentage with one decimal, rounded half up, without floats.
fn percent_arg(part: u64, total: u64) -> Arg {
    let units = (part * 1000 + total / 2).checked_div(total).unwrap_or(0);
    Arg::Decimal { units: units as i64, places: 1 }
}

/// The busiest partition (the first of equals) and its count.
fn busiest(counts: impl Iterator<Item = u64>) -> (u32, u64) {
    counts.enumerate().fold((0, 0), |best, (p, n)| if n > best.1 { (p as u32, n) } else { best })
}

pub(super) fn default_answer(sim: &S) -> Message {
    let world = sim.world();
    let partitions = world.num_partitions();
    let ends = || world.logs().iter().map(|log| log.end_offset);
    let records: u64 = ends().sum();
    if records == 0 {
        return Message::new(DEFAULT_EMPTY).with("partitions", Arg::int(partitions));
    }
    let (partition, most) = busiest(ends());
    Message::new(DEFAULT_ANSWER)
        .with("records", Arg::int(records))
        .with("partitions", Arg::int(partitions))
        .with("partition", partition_arg(partition))
        .with("percent", percent_arg(most, records))
        .with("even", percent_arg(1, u64::from(partitions)))
}

pub(super) fn reorder_intro(sim: &S) -> Message {
    Message::new(REORDER_INTRO).with("partitions", Arg::int(sim.world().settings().partitions))
}

pub(super) fn reorder_hashed(sim: &S) -> Message {
    let world = sim.world();
    let Some(steps) = world.key_steps() else { return Message::new(PENDING) };
    Message::new(REORDER_HASHED)
        .with("key", Arg::text(world.key_text().unwrap_or_default()))
        .with("partitions", Arg::int(steps.num_partitions))
        .with("index", Arg::int(steps.partition))
        .with("partition", partition_arg(steps.partition))
}

pub(super) fn reorder_remapped(sim: &S) -> Message {
    let world = sim.world();
    let (Some(alter), Some(key)) = (world.alters().last(), world.key_text()) else { return Message::new(PENDING) };
    let Some(step) = alter.watched_key else { return Message::new(PENDING) };
    let old = world.logs()[step.from as usize];
    Message::new(REORDER_REMAPPED)
        .with("to", Arg::int(alter.to_partitions))
        .with("key", Arg::text(key))
        .with("before", partition_arg(step.from))
        .with("after", partition_arg(step.to))
        .with("lag", Arg::Count((old.end_offset - old.position) as i64))
}

/// `created, updated`: event names as a list in the reader's language.
fn events_arg<'a>(events: impl Iterator<Item = &'a str>) -> Arg {
    list_arg(events.map(|e| Message::new(REORDER_EVENT).with("event", Arg::text(e))).collect())
}

pub(super) fn reorder_broken(sim: &S) -> Message {
    let world = sim.world();
    let broken = sim.log().iter().rev().find_map(|e| match &e.fact {
        Fact::OrderBroken { event, overtaken, .. } => Some((event, overtaken)),
        _ => None,
    });
    let Some((event, overtaken)) = broken else { return Message::new(PENDING) };
    let after = world.tracked_records().iter().find(|r| &r.event == event).map_or(0, |r| r.partition);
    let before = overtaken.first().map_or(0, |o| o.partition);
    Message::new(REORDER_BROKEN)
        .with("event", Arg::text(event.clone()))
        .with("after", partition_arg(after))
        .with("earlier", events_arg(overtaken.iter().map(|o| o.event.as_str())))
        .with("before", partition_arg(before))
}

/// Where the watched key went across the last `--alter`, and how many of its events overtook one.
pub(super) fn reorder_answer(sim: &S) -> Message {
    let world = sim.world();
    let (Some(alter), Some(key)) = (world.alters().last(), world.key_text()) else { return Message::new(PENDING) };
    let Some(step) = alter.watched_key else { return Message::new(PENDING) };
    let overtaken = world.overtaken_events();
    let tracked = world.tracked_records();
    let first = overtaken.iter().position(|earlier| !earlier.is_empty());
    let out = overtaken.iter().filter(|earlier| !earlier.is_empty()).count();
    let base = |key_id: Key| {
        Message::new(key_id)
            .with("key", Arg::text(key.clone()))
            .with("before", partition_arg(step.from))
            .with("from", Arg::int(alter.from_partitions))
            .with("after", partition_arg(step.to))
            .with("to", Arg::int(alter.to_partitions))
    };
    let Some(first) = first else {
        return base(REORDER_IN_ORDER).with("total", Arg::Count(tracked.len() as i64));
    };
    base(REORDER_ANSWER)
        .with("out", Arg::int(out))
        .with("total", Arg::Count(tracked.len() as i64))
        .with("event", Arg::text(tracked[first].event.clone()))
        .with("earlier", events_arg(overtaken[first].iter().copied()))
}

pub(super) fn mega_intro(sim: &S) -> Message {
    let settings = sim.world().settings();
    Message::new(MEGA_INTRO)
        .with("partitions", Arg::int(settings.partitions))
        .with("percent", Arg::int(settings.megacorp_percent))
}

/// The latest burst: where MEGACORP went and the busiest partition's share.
pub(super) fn mega_round(sim: &S) -> Message {
    let world = sim.world();
    let Some(round) = world.rounds().last() else { return Message::new(PENDING) };
    let counts = &round.report.records_per_partition;
    let (partition, most) = busiest(counts.iter().copied());
    let hot = round.report.partitions_with_hot_key();
    let percent = percent_arg(most, round.records);
    match (round.composite, hot.as_slice()) {
        (false, [hot]) => Message::new(MEGA_ROUND)
            .with("partitions", Arg::int(round.partitions))
            .with("hot", partition_arg(*hot))
            .with("percent", percent_arg(counts[*hot as usize], round.records)),
        (false, _) => Message::new(MEGA_BUSIEST)
            .with("partitions", Arg::int(round.partitions))
            .with("busiest", partition_arg(partition))
            .with("percent", percent),
        (true, _) => Message::new(MEGA_COMPOSITE)
            .with("buckets", Arg::int(world.workload().composite_buckets.unwrap_or(0)))
            .with("spread", Arg::int(hot.len()))
            .with("percent", percent)
            .with("busiest", partition_arg(partition)),
    }
}

pub(super) fn mega_remapped(sim: &S) -> Message {
    let Some(alter) = sim.world().alters().last() else { return Message::new(PENDING) };
    Message::new(MEGA_REMAPPED)
        .with("to", Arg::int(alter.to_partitions))
        .with("before", partition_arg(alter.hot_key.from))
        .with("after", partition_arg(alter.hot_key.to))
}

/// The busiest partition's share of every burst so far, oldest first.
pub(super) fn mega_answer(sim: &S) -> Message {
    let shares: Vec<Message> = sim
        .world()
        .rounds()
        .iter()
        .map(|round| {
            let (_, most) = busiest(round.report.records_per_partition.iter().copied());
            let percent = percent_arg(most, round.records);
            if round.composite {
                Message::new(MEGA_SHARE_COMPOSITE).with("percent", percent)
            } else {
                Message::new(MEGA_SHARE).with("percent", percent).with("partitions", Arg::int(round.partitions))
            }
        })
        .collect();
    let Some(chained) = shares
        .into_iter()
        .rev()
        .reduce(|rest, first| Message::new(MEGA_CHAIN).with("first", nested(first)).with("rest", nested(rest)))
    else {
        return Message::new(PENDING);
    };
    Message::new(MEGA_ANSWER).with("shares", nested(chained))
}

pub(super) fn sticky_question(key: Key, sim: &S) -> Message {
    Message::new(key).with("linger", Arg::int(sim.world().settings().linger_ms))
}

pub(super) fn sticky_intro(sim: &S) -> Message {
    let settings = sim.world().settings();
    Message::new(STICKY_INTRO)
        .with("value", Arg::int(settings.value_bytes))
        .with("rate", Arg::int(settings.producer_records_per_sec))
        .with("batch", Arg::int(settings.batch_size_bytes))
        .with("linger", Arg::int(settings.linger_ms))
}

/// The latest sticky switch: a new partition, or the same one drawn again.
pub(super) fn sticky_switch(sim: &S) -> Message {
    let world = sim.world();
    let Some(view) = world.sticky_timeline().switches.last() else { return Message::new(PENDING) };
    let switch = view.switch;
    let key = if switch.from == switch.to { STICKY_AGAIN } else { STICKY_MOVED };
    Message::new(key)
        .with("bytes", Arg::int(switch.produced_bytes))
        .with("from", partition_arg(switch.from))
        .with("to", partition_arg(switch.to))
        .with("partitions", Arg::int(world.num_partitions()))
}

/// The batches sent so far: how many, how full on average, why they left; and the partition changes.
pub(super) fn sticky_answer(sim: &S) -> Message {
    let timeline = sim.world().sticky_timeline();
    let sent: Vec<_> = timeline.batches.iter().filter(|b| b.sent_ms.is_some()).collect();
    let batches = sent.len() as u64;
    let records: u64 = sent.iter().map(|b| u64::from(b.records)).sum();
    let bytes: u64 = sent.iter().map(|b| u64::from(b.size_bytes)).sum();
    let full = sent.iter().filter(|b| b.send_reason == Some(SendReason::Full)).count();
    let changes = timeline.switches.iter().filter(|s| s.switch.from != s.switch.to).count();
    let average_tenths = (records * 10 + batches / 2).checked_div(batches).unwrap_or(0);
    Message::new(STICKY_ANSWER)
        .with("batches", Arg::int(batches))
        .with("records", Arg::Decimal { units: average_tenths as i64, places: 1 })
        .with("fill", percent_arg(bytes, batches * u64::from(timeline.batch_size_bytes)))
        .with("full", Arg::int(full))
        .with("lingered", Arg::int(sent.len() - full))
        .with("changes", Arg::int(changes))
        .with("draws", Arg::int(timeline.switches.len()))
}
