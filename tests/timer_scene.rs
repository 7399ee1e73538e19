//! The timing-wheel scene: the seed's presets run through the model, sandbox commands,
//! config validation, and the purgatory's DelayedProduce / DelayedFetch on the wheel.

use kafka_lab::model::config::ConfigError;
use kafka_lab::model::kernel::{Fault, Input, Node, TokenError};
use kafka_lab::model::scene::{LabScene, Preset, Run, RunError};
use kafka_lab::model::timer::{Command, Fact, Refusal, TaskOrigin, TimerLab};

fn preset(id: &str) -> &'static Preset {
    TimerLab::presets().iter().find(|p| p.id == id).expect("preset exists")
}

/// A preset's run just after its last command (its tape then lets the story play out).
fn run_preset(id: &str) -> Run<TimerLab> {
    let mut run = Run::from_preset(preset(id)).expect("preset runs");
    let commands = run.history.tape().iter().rposition(|input| matches!(input, Input::Command(_))).map_or(0, |i| i + 1);
    run.history.seek(commands);
    run
}

fn wait(run: &mut Run<TimerLab>, ms: u64) {
    run.history.push(Input::Advance(ms)).unwrap();
}

fn user(label: &str) -> TaskOrigin {
    TaskOrigin::User { label: label.into() }
}

fn location_of(run: &Run<TimerLab>, label: &str) -> Option<(usize, usize)> {
    run.world().pending_tasks().into_iter().find(|t| t.origin == user(label)).map(|t| (t.level, t.bucket))
}

/// (time, task id, label) of every sandbox task that expired and ran.
fn ran(run: &Run<TimerLab>) -> Vec<(u64, u64, String)> {
    run.sim()
        .log()
        .iter()
        .filter_map(|e| match &e.fact {
            Fact::TaskRan { id, origin: TaskOrigin::User { label }, at_ms } => {
                assert_eq!(*at_ms, e.time_ms);
                Some((e.time_ms, *id, label.clone()))
            }
            _ => None,
        })
        .collect()
}

fn refusal(run: &mut Run<TimerLab>, command: Command) -> Refusal {
    run.history.push(Input::Command(command)).unwrap_err()
}

#[test]
fn seed_single_wheel_preset_puts_8ms_in_slot_10_and_19ms_in_reused_slot_1() {
    let run = run_preset("single-wheel");
    assert_eq!(run.world().timer().current_time(), 2, "task1 (2 ms) expired and moved the pointer");
    assert_eq!(ran(&run), vec![(2, 1, "task1".to_string())]);
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
    assert_eq!(
        (&moves[0].origin, moves[0].step.from, moves[0].step.to),
        (&Some(user("task350")), (1, 17), Some((0, 10)))
    );
    wait(&mut run, 9);
    assert!(ran(&run).is_empty(), "never early");
    wait(&mut run, 1);
    assert_eq!(ran(&run), vec![(350, 1, "task350".to_string())]);
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
    assert_eq!(pending.iter().map(|t| (t.id, t.origin.clone())).collect::<Vec<_>>(), vec![(2, user("b"))]);
    wait(&mut run, 100);
    assert_eq!(ran(&run), vec![(60, 2, "b".to_string())], "task #1 (a) never runs");
    let ops = run.world().ops();
    assert_eq!((ops.wheel.cancels, ops.heap.cancels), (1, 1));
    assert_eq!((ops.wheel.fired, ops.heap.fired), (1, 1));
}

#[test]
fn a_zero_delay_task_is_already_expired_and_runs_at_once() {
    let run = Run::<TimerLab>::restore(1, &[], "add-0-now", None).unwrap();
    assert!(run.world().pending_tasks().is_empty());
    assert_eq!(ran(&run), vec![(0, 1, "now".to_string())]);
    assert!(matches!(
        run.sim().log().iter().next().unwrap().fact,
        Fact::TaskAlreadyExpired { id: 1, expiration_ms: 0, .. }
    ));
}

#[test]
fn failed_commands_change_nothing_and_say_why() {
    let mut run = Run::<TimerLab>::restore(1, &[], "add-50", None).unwrap();
    let before = run.sim().trace_hash();
    assert_eq!(refusal(&mut run, Command::CancelTask(9)), Refusal::NotPending { id: 9 });
    let label = refusal(&mut run, Command::AddTask { delay_ms: 5, label: "a b".into() });
    assert_eq!(label, Refusal::BadLabel { label: "a b".into() });
    let long = refusal(&mut run, Command::AddTask { delay_ms: 86_400_001, label: "x".into() });
    assert_eq!(long, Refusal::DelayOutOfRange { delay_ms: 86_400_001 });
    assert_eq!(refusal(&mut run, Command::Produce { records: 1 }), Refusal::NoBroker);
    assert_eq!(refusal(&mut run, Command::Fault(Fault::Crash(Node::Id(2)))), Refusal::NoBroker);
    assert_eq!(run.sim().trace_hash(), before);
}

#[test]
fn wheel_size_1_and_tick_0_are_refused_and_the_fetch_wait_must_fit_the_lag_limit() {
    let set =
        |name: &str, value: &str| Run::<TimerLab>::new(1, &[(name.into(), value.into())]).map(|_| ()).unwrap_err();
    assert!(matches!(set("wheelSize", "1"), RunError::Config(ConfigError::AtLeast { name: "wheelSize", min: 2, .. })));
    assert!(matches!(set("tickMs", "0"), RunError::Config(ConfigError::AtLeast { name: "tickMs", min: 1, .. })));
    let overrides = [("lab.purgatory".into(), "true".into()), ("replica.fetch.wait.max.ms".into(), "40000".into())];
    let err = Run::<TimerLab>::new(1, &overrides).map(|_| ()).unwrap_err();
    assert_eq!(err, RunError::Build(kafka_lab::model::kernel::Describe::message(&Refusal::FetchWaitAboveLagTime)));
}

#[test]
fn commands_round_trip_through_link_tokens() {
    for command in [
        Command::AddTask { delay_ms: 350, label: "produce_7".into() },
        Command::CancelTask(4),
        Command::Produce { records: 3 },
        Command::Fault(Fault::Crash(Node::Id(2))),
        Command::Fault(Fault::Pause { node: Node::Id(3), duration_ms: None }),
        Command::Fault(Fault::Restart(Node::Id(3))),
    ] {
        let token = TimerLab::encode_command(&command);
        assert_eq!(TimerLab::decode_command(&token).unwrap(), command, "{token}");
    }
    assert_eq!(TimerLab::decode_command("add-20").unwrap(), Command::AddTask { delay_ms: 20, label: "task".into() });
    assert_eq!(
        TimerLab::decode_command("add-20-two-words").unwrap(),
        Command::AddTask { delay_ms: 20, label: "two-words".into() },
        "the label is the rest of the token (and refused later)"
    );
    assert!(matches!(TimerLab::decode_command("fly-2"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(TimerLab::decode_command("cancel"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(TimerLab::decode_command("pause-2-100"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(TimerLab::decode_command("add-x"), Err(TokenError::NotANumber { .. })));
}

#[test]
fn a_coarser_tick_changes_the_rings_and_runs_a_task_at_the_start_of_its_tick() {
    let overrides = [("tickMs".into(), "10".into()), ("wheelSize".into(), "8".into())];
    let mut run = Run::<TimerLab>::restore(1, &overrides, "add-75-t", None).unwrap();
    assert_eq!(location_of(&run, "t"), Some((0, 7)));
    wait(&mut run, 70);
    assert_eq!(ran(&run), vec![(70, 1, "t".to_string())]);
}

#[test]
fn purgatory_faults_are_refused_by_kind_and_follower() {
    let mut run = Run::<TimerLab>::restore(1, &[("lab.purgatory".into(), "true".into())], "w10.kill-3", None).unwrap();
    let crash = |id| Command::Fault(Fault::Crash(Node::Id(id)));
    assert_eq!(refusal(&mut run, crash(3)), Refusal::AlreadyDown { id: 3 });
    assert_eq!(refusal(&mut run, crash(1)), Refusal::NotAFollower { id: 1 });
    let stall = Command::Fault(Fault::Pause { node: Node::Id(3), duration_ms: None });
    assert_eq!(refusal(&mut run, stall), Refusal::NotFetching { id: 3 });
    assert_eq!(refusal(&mut run, Command::Fault(Fault::Restart(Node::Id(2)))), Refusal::AlreadyRunning { id: 2 });
    let pause = Command::Fault(Fault::Pause { node: Node::Id(2), duration_ms: Some(100) });
    assert_eq!(refusal(&mut run, pause), Refusal::FaultNotModelled);
    assert_eq!(refusal(&mut run, Command::Produce { records: 101 }), Refusal::ProduceCount { records: 101 });
    let task = run.world().pending_tasks().into_iter().find(|t| !t.origin.is_user()).unwrap();
    assert!(matches!(refusal(&mut run, Command::CancelTask(task.id)), Refusal::PurgatoryTask { .. }));
}
