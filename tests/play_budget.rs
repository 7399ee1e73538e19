//! Play under a busy config never does more than a frame's work per tick, stops at the same
//! work budget a link has, and the link it then writes reopens the state on screen (issue 18).

use kafka_lab::model::cluster::Cluster;
use kafka_lab::model::group::GroupLab;
use kafka_lab::model::kernel::Input;
use kafka_lab::model::replication::Replication;
use kafka_lab::model::scene::{work_of, LabScene, Run, REPLAY_EVENT_BUDGET, REPLAY_LOG_LINE_BUDGET};
use kafka_lab::model::story::{Player, Tick, PLAY_TICK_EVENTS, SPEEDS};

fn run_with<S: LabScene>(config: &[(&str, &str)]) -> Run<S> {
    let pairs: Vec<(String, String)> = config.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    let mut run = Run::<S>::new(1, &pairs).expect("a valid config");
    if let Some(command) = S::workload(run.sim()) {
        run.history.push(Input::Command(command)).expect("the workload starts");
    }
    run
}

/// Plays at `speed` until Play stops or `ticks` have passed; returns the last tick and the
/// most events one tick handled.
fn play<S: LabScene>(run: &mut Run<S>, speed: f64, ticks: usize) -> (Tick, u64) {
    let mut player = Player::new(&run.history);
    let (mut last, mut busiest) = (Tick::Moved, 0);
    for _ in 0..ticks {
        let before = run.sim().events_handled();
        last = player.tick(&mut run.history, speed, &[]);
        busiest = busiest.max(run.sim().events_handled() - before);
        if last == Tick::Limit || last == Tick::Ended {
            break;
        }
    }
    (last, busiest)
}

#[test]
fn one_ms_heartbeats_at_the_fastest_speed_handle_at_most_a_frames_worth_of_events_per_tick() {
    let mut run = run_with::<GroupLab>(&[("heartbeat.interval.ms", "1")]);
    let fastest = *SPEEDS.last().expect("speeds");
    let (tick, busiest) = play(&mut run, fastest, 20);
    assert_eq!(tick, Tick::Moved, "twenty ticks stay within the budget");
    assert!(busiest > PLAY_TICK_EVENTS / 2, "the config is busy enough to need slicing: {busiest}");
    // A tick stops between two instants, so one instant's events may come on top.
    assert!(busiest <= PLAY_TICK_EVENTS + 100, "one tick handled {busiest} events");
    assert!(run.sim().now_ms() < 20 * 360_000, "a busy model plays slower than the speed asks");
}

#[test]
fn play_stops_at_the_work_budget_and_the_link_it_writes_reopens_the_same_state() {
    let mut run = run_with::<Cluster>(&[("lab.producer.records.per.sec", "1000")]);
    let (tick, busiest) = play(&mut run, *SPEEDS.last().expect("speeds"), 1_000);
    assert_eq!(tick, Tick::Limit, "Play stops at the budget");
    assert!(busiest <= PLAY_TICK_EVENTS + 100, "one tick handled {busiest} events");
    // A line an event: the log's line budget runs out before the event budget does.
    let lines = run.sim().log().len();
    assert!(lines >= REPLAY_LOG_LINE_BUDGET, "it used the line budget: {lines} lines");
    assert!(work_of(&run.history) < REPLAY_EVENT_BUDGET, "…before the event budget");
    let overrides: Vec<(String, String)> =
        run.config.overrides().into_iter().map(|(n, v)| (n.to_string(), v)).collect();
    let again = Run::<Cluster>::restore(run.seed, &overrides, &run.tape_text(), None).expect("the link reopens");
    assert_eq!(again.stopped, None, "the written link is within the budget");
    assert_eq!(again.history.tape().len(), run.history.tape().len());
    assert_eq!((again.sim().now_ms(), again.sim().trace_hash()), (run.sim().now_ms(), run.sim().trace_hash()));
    let mut player = Player::new(&run.history);
    assert_eq!(player.tick(&mut run.history, 1.0, &[]), Tick::Limit, "Play again stops at once");
}

#[test]
fn play_of_a_quiet_run_stops_at_the_event_budget_with_few_lines() {
    // The replication scene's default load logs a line every four events or so.
    let mut run = run_with::<Replication>(&[]);
    let (tick, _) = play(&mut run, *SPEEDS.last().expect("speeds"), 10_000);
    assert_eq!(tick, Tick::Limit, "Play stops at the budget");
    assert!(work_of(&run.history) >= REPLAY_EVENT_BUDGET - PLAY_TICK_EVENTS, "it used the event budget");
    assert!(run.sim().log().len() < REPLAY_LOG_LINE_BUDGET / 2, "{} lines", run.sim().log().len());
}

#[test]
fn a_link_of_thousands_of_big_produce_commands_stops_at_the_budget() {
    // Each produce-10000 handles no event but writes 10,000 event-log lines: before, 3,000 of
    // them held 1.8 GB and ran past 20 s.
    let tape = vec!["produce-10000"; 3_000].join(".");
    let run = Run::<Cluster>::restore(1, &[], &tape, None).expect("the link opens");
    let stopped = run.stopped.expect("the budget stops it");
    assert!(stopped.actions_run < 160, "{stopped:?}");
    assert!(run.sim().log().len() as u64 <= REPLAY_EVENT_BUDGET + 10_000, "{} lines", run.sim().log().len());
    let again = Run::<Cluster>::restore(1, &[], &run.tape_text(), None).expect("the written link reopens");
    assert_eq!(again.stopped, None);
    assert_eq!(again.sim().trace_hash(), run.sim().trace_hash());
}

#[test]
fn a_slow_device_gets_a_smaller_tick_allowance_and_a_fast_busy_one_a_larger() {
    use kafka_lab::model::story::{next_tick_events, TICK_EVENTS_RANGE, TICK_WORK_MS};
    // 15,000 events took 80 ms: the next tick gets a tenth of that (8 ms' worth).
    assert_eq!(next_tick_events(15_000, 15_000, 10.0 * TICK_WORK_MS), 1_500);
    // Used its whole allowance in 1 ms: half as much again.
    assert_eq!(next_tick_events(10_000, 10_000, 1.0), 15_000);
    // A quiet model (fewer events than allowed) keeps its allowance.
    assert_eq!(next_tick_events(10_000, 200, 1.0), 10_000);
    // Never below or above the range, whatever the device.
    assert_eq!(next_tick_events(600, 600, 10_000.0), TICK_EVENTS_RANGE.0);
    assert_eq!(next_tick_events(TICK_EVENTS_RANGE.1, TICK_EVENTS_RANGE.1, 0.1), TICK_EVENTS_RANGE.1);
}
