//! The timing-wheel scene: the seed's presets run through the model, sandbox commands,
//! config validation, and the purgatory's DelayedProduce / DelayedFetch on the wheel.

use kafka_lab::model::kernel::Input;
use kafka_lab::model::scene::{LabScene, Preset, Run};
use kafka_lab::model::timer::{Command, TimerLab};

fn preset(id: &str) -> &'static Preset {
    TimerLab::presets().iter().find(|p| p.id == id).expect("preset exists")
}

fn run_preset(id: &str) -> Run<TimerLab> {
    Run::from_preset(preset(id)).expect("preset runs")
}

fn wait(run: &mut Run<TimerLab>, ms: u64) {
    run.history.push(Input::Advance(ms)).unwrap();
}

fn location_of(run: &Run<TimerLab>, origin: &str) -> Option<(usize, usize)> {
    run.world().pending_tasks().into_iter().find(|t| t.origin == origin).map(|t| (t.level, t.bucket))
}

fn log_lines(run: &Run<TimerLab>, needle: &str) -> Vec<(u64, String)> {
    run.sim().log().iter().filter(|e| e.fact.0.contains(needle)).map(|e| (e.time_ms, e.fact.0.clone())).collect()
}

#[test]
fn seed_single_wheel_preset_puts_8ms_in_slot_10_and_19ms_in_reused_slot_1() {
    let run = run_preset("single-wheel");
    assert_eq!(run.world().timer().current_time(), 2, "task1 (2 ms) expired and moved the pointer");
    assert_eq!(log_lines(&run, "task #1 (task1) expired and ran at 2 ms").len(), 1);
    assert_eq!(location_of(&run, "task2"), Some((0, 10)));
    assert_eq!(location_of(&run, "task3"), Some((0, 1)));
    let ring = &run.world().levels()[0];
    assert_eq!(ring.buckets[1].expiration_ms, Some(21), "slot 1 serves its second round");
}

#[test]
fn hierarchy_preset_task_at_350ms_starts_in_the_second_wheel_and_falls_into_the_first() {
    let mut run = run_preset("hierarchy-350");
    assert_eq!(location_of(&run, "task350"), Some((1, 17)));
    let levels = run.world().levels();
    assert_eq!((levels[1].tick_ms, levels[1].interval_ms), (20, 400));
    assert_eq!(run.world().next_bucket_expiration_ms(), Some(340));
    run.history.push(Input::Step).unwrap();
    assert_eq!(run.sim().now_ms(), 340, "one step is the next bucket expiration");
    assert_eq!(location_of(&run, "task350"), Some((0, 10)));
    let moves = run.world().last_moves();
    assert_eq!((moves[0].origin.as_str(), moves[0].step.from, moves[0].step.to), ("task350", (1, 17), Some((0, 10))));
    wait(&mut run, 9);
    assert!(log_lines(&run, "expired and ran").is_empty(), "never early");
    wait(&mut run, 1);
    assert_eq!(log_lines(&run, "expired and ran"), vec![(350, "task #1 (task350) expired and ran at 350 ms".into())]);
}

#[test]
fn third_wheel_preset_holds_7999ms_in_the_third_wheel_and_8000ms_in_a_fourth() {
    let run = run_preset("third-wheel");
    assert_eq!(location_of(&run, "task7999"), Some((2, 19)));
    assert_eq!(location_of(&run, "task8000"), Some((3, 1)));
    assert_eq!(run.world().levels()[2].interval_ms, 8000);
}

#[test]
fn sandbox_ids_are_assigned_in_order_and_a_cancelled_task_never_runs() {
    let mut run = Run::<TimerLab>::restore(1, &[], "add-50-a.add-60-b.cancel-1", None).unwrap();
    let pending = run.world().pending_tasks();
    assert_eq!(pending.iter().map(|t| (t.id, t.origin.as_str())).collect::<Vec<_>>(), vec![(2, "b")]);
    wait(&mut run, 100);
    assert!(log_lines(&run, "#1 (a) expired").is_empty());
    assert_eq!(log_lines(&run, "#2 (b) expired").len(), 1);
    let ops = run.world().ops();
    assert_eq!((ops.wheel.cancels, ops.heap.cancels), (1, 1));
    assert_eq!((ops.wheel.fired, ops.heap.fired), (1, 1));
}

#[test]
fn a_zero_delay_task_is_already_expired_and_runs_at_once() {
    let run = Run::<TimerLab>::restore(1, &[], "add-0-now", None).unwrap();
    assert!(run.world().pending_tasks().is_empty());
    assert_eq!(log_lines(&run, "task #1 (now) expired and ran at 0 ms").len(), 1);
}

#[test]
fn failed_commands_change_nothing_and_say_why() {
    let mut run = Run::<TimerLab>::restore(1, &[], "add-50", None).unwrap();
    let before = run.sim().trace_hash();
    let cancel = run.history.push(Input::Command(Command::CancelTask(9))).unwrap_err().to_string();
    assert!(cancel.contains("not pending"), "{cancel}");
    let label = run
        .history
        .push(Input::Command(Command::AddTask { delay_ms: 5, label: "a b".into() }))
        .unwrap_err()
        .to_string();
    assert!(label.contains("task label"), "{label}");
    let produce = run.history.push(Input::Command(Command::Produce { records: 1 })).unwrap_err().to_string();
    assert!(produce.contains("lab.purgatory=true"), "{produce}");
    assert_eq!(run.sim().trace_hash(), before);
}

#[test]
fn wheel_size_1_and_tick_0_are_refused_and_the_fetch_wait_must_fit_the_lag_limit() {
    let set = |name: &str, value: &str| {
        Run::<TimerLab>::new(1, &[(name.into(), value.into())]).map(|_| ()).unwrap_err().to_string()
    };
    assert_eq!(set("wheelSize", "1"), "Invalid value 1 for configuration wheelSize: Value must be at least 2");
    assert_eq!(set("tickMs", "0"), "Invalid value 0 for configuration tickMs: Value must be at least 1");
    let overrides = [("lab.purgatory".into(), "true".into()), ("replica.fetch.wait.max.ms".into(), "40000".into())];
    let err = Run::<TimerLab>::new(1, &overrides).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("replica.lag.time.max.ms"), "{err}");
}

#[test]
fn commands_round_trip_through_link_tokens() {
    for command in [
        Command::AddTask { delay_ms: 350, label: "produce_7".into() },
        Command::CancelTask(4),
        Command::Produce { records: 3 },
        Command::KillFollower(2),
        Command::StallFollower(3),
        Command::RestartFollower(3),
    ] {
        let token = TimerLab::encode_command(&command);
        assert_eq!(TimerLab::decode_command(&token).unwrap(), command, "{token}");
    }
    assert_eq!(TimerLab::decode_command("add-20").unwrap(), Command::AddTask { delay_ms: 20, label: "task".into() });
    assert!(TimerLab::decode_command("fly-2").unwrap_err().to_string().contains("unknown action"));
}

#[test]
fn a_coarser_tick_changes_the_rings_and_runs_a_task_at_the_start_of_its_tick() {
    let overrides = [("tickMs".into(), "10".into()), ("wheelSize".into(), "8".into())];
    let mut run = Run::<TimerLab>::restore(1, &overrides, "add-75-t", None).unwrap();
    assert_eq!(location_of(&run, "t"), Some((0, 7)));
    wait(&mut run, 70);
    assert_eq!(log_lines(&run, "expired and ran"), vec![(70, "task #1 (t) expired and ran at 70 ms".into())]);
}
