//! What the adaptive-partitioning stories say, computed from the run: one slow broker, its
//! partitions' share of the records without a key, and the batches waiting for it.

use super::facts::partitions_arg;
use super::story::*;
use super::{Fact, Partitioner};
use crate::model::kernel::{Arg, Key, Message, Sim};

type S = Sim<Partitioner>;

/// `part / total` as a percentage with one decimal, rounded half up, without floats.
fn percent_arg(part: u64, total: u64) -> Arg {
    let units = (part * 1000 + total / 2).checked_div(total).unwrap_or(0);
    Arg::Decimal { units: units as i64, places: 1 }
}

/// The slow broker (the last one when none is set) and the partitions it leads.
fn slow(sim: &S) -> (u32, Vec<u32>) {
    let world = sim.world();
    let broker = world.settings().slow_broker.unwrap_or(world.brokers().count());
    (broker, world.brokers().partitions_led(broker, world.num_partitions()))
}

/// Records in the slow broker's partitions, records in all, and the even share of one broker.
fn shares(sim: &S, led: &[u32]) -> (u64, u64, Arg) {
    let world = sim.world();
    let logs = world.logs();
    let records: u64 = led.iter().map(|p| logs[*p as usize].end_offset).sum();
    let total: u64 = logs.iter().map(|log| log.end_offset).sum();
    let even = percent_arg(led.len() as u64, u64::from(world.num_partitions()));
    (records, total, even)
}

pub(super) fn adaptive_question(key: Key, sim: &S) -> Message {
    let (broker, led) = slow(sim);
    let settings = sim.world().settings();
    Message::new(key)
        .with("broker", Arg::int(broker))
        .with("latency", Arg::int(settings.slow_broker_latency_ms))
        .with("even", shares(sim, &led).2)
        .with("timeout", Arg::int(settings.availability_timeout_ms))
}

pub(super) fn adaptive_watch(sim: &S) -> Message {
    let (broker, led) = slow(sim);
    Message::new(ADAPTIVE_WATCH).with("led", partitions_arg(&led)).with("broker", Arg::int(broker))
}

pub(super) fn adaptive_intro(sim: &S) -> Message {
    let (broker, led) = slow(sim);
    let settings = sim.world().settings();
    Message::new(ADAPTIVE_INTRO)
        .with("partitions", Arg::int(settings.partitions))
        .with("brokers", Arg::int(settings.brokers))
        .with("broker", Arg::int(broker))
        .with("led", partitions_arg(&led))
        .with("latency", Arg::int(settings.slow_broker_latency_ms))
        .with("max", Arg::int(settings.max_in_flight_requests_per_connection))
        .with("rate", Arg::int(settings.producer_records_per_sec))
}

/// So far: the slow broker's share of the records and how many of its batches still wait.
pub(super) fn adaptive_progress(sim: &S) -> Message {
    let (broker, led) = slow(sim);
    let (records, total, even) = shares(sim, &led);
    let batches = sim.world().accumulator().batches();
    let waiting = batches.iter().filter(|b| b.sent_ms.is_none() && led.contains(&b.partition)).count();
    Message::new(ADAPTIVE_PROGRESS)
        .with("seconds", Arg::int(sim.now_ms() / 1000))
        .with("led", partitions_arg(&led))
        .with("share", percent_arg(records, total))
        .with("even", even)
        .with("waiting", Arg::int(waiting))
        .with("broker", Arg::int(broker))
}

/// The slow broker's share of every record sent, and (with an availability timeout) how often
/// adaptive partitioning left its partitions out.
pub(super) fn adaptive_answer(sim: &S) -> Message {
    let (broker, led) = slow(sim);
    let (records, total, even) = shares(sim, &led);
    let settings = sim.world().settings();
    let timeout_ms = settings.availability_timeout_ms;
    let key = if timeout_ms > 0 { ADAPTIVE_ANSWER_TIMEOUT } else { ADAPTIVE_ANSWER };
    let times = sim.log().iter().filter(|e| matches!(e.fact, Fact::PartitionsUnavailable { .. })).count();
    Message::new(key)
        .with("broker", Arg::int(broker))
        .with("led", partitions_arg(&led))
        .with("latency", Arg::int(settings.slow_broker_latency_ms))
        .with("records", Arg::int(records))
        .with("total", Arg::int(total))
        .with("share", percent_arg(records, total))
        .with("even", even)
        .with("times", Arg::int(times))
        .with("timeout", Arg::int(timeout_ms))
}
