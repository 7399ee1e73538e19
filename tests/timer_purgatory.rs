//! The purgatory on the wheel: acks=all produces wait as DelayedProduce tasks until the
//! followers' fetches move the high watermark; fetches long-poll as DelayedFetch tasks.

use kafka_lab::model::kernel::{Actor, Input};
use kafka_lab::model::scene::{LabScene, Run};
use kafka_lab::model::timer::{Fact, Fetcher, PurgatoryFact as P, TaskOrigin, TimerLab};

fn run(config: &str, tape: &str) -> Run<TimerLab> {
    let overrides = kafka_lab::model::scene::parse_overrides(config).unwrap();
    Run::restore(3, &overrides, tape, None).expect("valid run")
}

/// A preset's run just after its last command (its tape then lets the story play out).
fn preset(id: &str) -> Run<TimerLab> {
    let mut run = Run::from_preset(TimerLab::presets().iter().find(|p| p.id == id).unwrap()).unwrap();
    let commands = run.history.tape().iter().rposition(|input| matches!(input, Input::Command(_))).map_or(0, |i| i + 1);
    run.history.seek(commands);
    run
}

fn wait(run: &mut Run<TimerLab>, ms: u64) {
    run.history.push(Input::Advance(ms)).unwrap();
}

/// When the purgatory recorded a fact that `test` accepts.
fn times_of(run: &Run<TimerLab>, test: impl Fn(&P) -> bool) -> Vec<u64> {
    run.sim()
        .log()
        .iter()
        .filter(|e| matches!(&e.fact, Fact::Purgatory(fact) if test(fact)))
        .map(|e| e.time_ms)
        .collect()
}

fn timed_out(fact: &P) -> bool {
    matches!(fact, P::ProduceExpired { .. })
}

fn is_produce(origin: &TaskOrigin) -> bool {
    matches!(origin, TaskOrigin::DelayedProduce { .. })
}

fn produce_task(run: &Run<TimerLab>) -> (u64, usize, usize) {
    let task = run.world().pending_tasks().into_iter().find(|t| is_produce(&t.origin)).expect("parked");
    (task.expiration_ms, task.level, task.bucket)
}

#[test]
fn acks_all_produce_waits_in_the_wheel_until_the_isr_catches_up_then_its_task_is_cancelled() {
    let mut run = preset("purgatory-isr");
    assert_eq!(produce_task(&run), (31_000, 3, 3), "request.timeout.ms 30000 from 1000 ms: the fourth wheel");
    wait(&mut run, 10);
    let purgatory = run.world().purgatory().unwrap();
    assert_eq!((purgatory.high_watermark, purgatory.completed_produces), (1, 1));
    assert_eq!(
        times_of(&run, |f| matches!(f, P::ProduceCompleted { request: 1, .. })),
        vec![1002],
        "two fetch round trips of 1 ms"
    );
    assert!(run.world().pending_tasks().iter().all(|t| !is_produce(&t.origin)));
    assert!(run.world().ops().wheel.cancels >= 1);
    wait(&mut run, 40_000);
    assert!(times_of(&run, timed_out).is_empty(), "a completed produce never expires");
}

#[test]
fn a_stalled_follower_holds_the_hw_so_the_produce_expires_at_request_timeout_before_the_isr_shrinks() {
    let mut run = preset("purgatory-stalled-follower");
    wait(&mut run, 29_999);
    assert!(times_of(&run, timed_out).is_empty(), "never early");
    wait(&mut run, 1);
    assert_eq!(times_of(&run, |f| matches!(f, P::ProduceExpired { request: 1, .. })), vec![31_000]);
    assert_eq!(run.world().purgatory().unwrap().isr, vec![1, 2, 3], "broker-3 is still in the ISR");
    wait(&mut run, 20_000);
    assert_eq!(
        times_of(
            &run,
            |f| matches!(f, P::IsrShrunk { replica: 3, before, after, .. } if before == &[1, 2, 3] && after == &[1, 2])
        ),
        vec![45_000],
        "the isr-expiration check every 15 s"
    );
    let purgatory = run.world().purgatory().unwrap();
    assert_eq!((purgatory.expired_produces, purgatory.completed_produces, purgatory.high_watermark), (1, 0, 1));
}

#[test]
fn a_crashed_follower_is_fenced_after_the_session_timeout_so_the_produce_completes_in_time() {
    let mut run = preset("purgatory-crashed-follower");
    wait(&mut run, 40_000);
    assert_eq!(times_of(&run, |f| matches!(f, P::BrokerFenced { replica: 3, .. })), vec![10_000]);
    assert_eq!(times_of(&run, |f| matches!(f, P::ProduceCompleted { request: 1, waited_ms: 9000, .. })), vec![10_000]);
    assert!(times_of(&run, timed_out).is_empty());
}

#[test]
fn with_a_request_timeout_shorter_than_the_session_timeout_a_dead_follower_makes_the_produce_expire() {
    let mut run = run("lab.purgatory=true,request.timeout.ms=5000", "w1000.kill-3.produce-1");
    wait(&mut run, 20_000);
    assert_eq!(times_of(&run, |f| matches!(f, P::ProduceExpired { request: 1, .. })), vec![6_000]);
    assert_eq!(times_of(&run, |f| matches!(f, P::BrokerFenced { replica: 3, .. })), vec![10_000]);
}

#[test]
fn a_restarted_follower_catches_up_and_rejoins_the_isr() {
    let mut run = run("lab.purgatory=true", "w1000.kill-3.w10000.produce-2.restart-3");
    wait(&mut run, 100);
    assert_eq!(run.world().purgatory().unwrap().isr, vec![1, 2, 3]);
    assert_eq!(
        times_of(
            &run,
            |f| matches!(f, P::IsrExpanded { replica: 3, before, after } if before == &[1, 2] && after == &[1, 2, 3])
        )
        .len(),
        1
    );
}

#[test]
fn an_idle_consumer_fetch_waits_exactly_fetch_max_wait_ms_on_the_wheel_each_time() {
    let mut run = run("lab.purgatory=true", "");
    wait(&mut run, 5000);
    let expiries = times_of(&run, |f| matches!(f, P::ConsumerFetchExpired { wait_ms: 500 }));
    assert!(expiries.len() >= 9, "{expiries:?}");
    assert_eq!(expiries[0], 501, "parked at 1 ms, expires 500 ms later");
    assert!(expiries.windows(2).all(|w| w[1] - w[0] == 502), "500 ms wait plus a 1 ms trip each way: {expiries:?}");
}

#[test]
fn new_committed_records_complete_the_consumers_delayed_fetch_early() {
    let mut run = run("lab.purgatory=true", "w1000.produce-1");
    wait(&mut run, 10);
    assert_eq!(
        times_of(&run, |f| matches!(f, P::ConsumerFetchCompletedEarly { .. })),
        vec![1002],
        "as soon as the HW moves"
    );
    assert_eq!(run.world().purgatory().unwrap().consumer_offset, 1);
}

#[test]
fn fetch_min_bytes_above_one_record_keeps_the_consumer_waiting_until_fetch_max_wait_ms() {
    let mut run = run("lab.purgatory=true,fetch.min.bytes=1000", "w1000.produce-1");
    wait(&mut run, 600);
    assert!(
        times_of(&run, |f| matches!(f, P::ConsumerFetchCompletedEarly { .. })).is_empty(),
        "100 B < fetch.min.bytes"
    );
    assert_eq!(
        times_of(&run, |f| matches!(f, P::ConsumerReceived { first_offset: 0, last_offset: 0 })),
        vec![1004],
        "parked at 503 ms, expired at 1003, answered 1 ms later"
    );
}

#[test]
fn acks_1_is_acknowledged_at_once_without_a_delayed_produce() {
    let run = run("lab.purgatory=true,acks=1", "w1000.produce-1");
    assert!(run.world().pending_tasks().iter().all(|t| !is_produce(&t.origin)));
    assert_eq!(times_of(&run, |f| matches!(f, P::AcknowledgedAtOnce { request: 1 })).len(), 1);
}

#[test]
fn a_zero_request_timeout_expires_the_delayed_produce_at_once() {
    let run = run("lab.purgatory=true,request.timeout.ms=0", "w1000.produce-1");
    assert_eq!(times_of(&run, |f| matches!(f, P::ProduceExpired { request: 1, .. })), vec![1000]);
    assert_eq!(run.world().purgatory().unwrap().expired_produces, 1);
}

#[test]
fn follower_fetches_park_for_replica_fetch_wait_max_ms_and_the_heap_sees_the_same_tasks() {
    let mut run = run("lab.purgatory=true", "");
    wait(&mut run, 3000);
    assert_eq!(times_of(&run, |f| matches!(f, P::FollowerFetchExpired { replica: 2, .. }))[0], 501);
    let ops = run.world().ops();
    assert_eq!((ops.wheel.inserts, ops.wheel.fired), (ops.heap.inserts, ops.heap.fired));
}

#[test]
fn the_fence_comes_from_the_controller_and_each_fetch_task_names_its_fetcher() {
    let mut run = preset("purgatory-crashed-follower");
    wait(&mut run, 10_000);
    let fence = run.sim().log().iter().find(|e| matches!(e.fact, Fact::Purgatory(P::BrokerFenced { .. }))).unwrap();
    assert_eq!(fence.actor, Actor::Controller);
    let fetchers: Vec<Fetcher> = run
        .world()
        .pending_tasks()
        .into_iter()
        .filter_map(|t| match t.origin {
            TaskOrigin::DelayedFetch { fetcher, .. } => Some(fetcher),
            _ => None,
        })
        .collect();
    assert!(fetchers.contains(&Fetcher::Follower(2)) && !fetchers.contains(&Fetcher::Follower(3)), "{fetchers:?}");
}
