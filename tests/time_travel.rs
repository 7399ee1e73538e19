//! Step back, jump anywhere, and failed commands: the history behaves like a tape.

use kafka_lab::model::cluster::{Cluster, Command, Refusal};
use kafka_lab::model::kernel::{Describe, Fault, Input, Node};
use kafka_lab::model::scene::{Run, RunError};

fn fresh() -> Run<Cluster> {
    Run::new(11, &[]).expect("default config is valid")
}

#[test]
fn stepping_back_returns_to_the_exact_earlier_state() {
    let mut run = fresh();
    for _ in 0..300 {
        run.history.step_forward();
    }
    let at_200 = {
        let mut other = run.clone();
        other.history.seek(200);
        (other.sim().trace_hash(), other.world().partition_views(), other.sim().now_ms())
    };
    for _ in 0..100 {
        run.history.step_back();
    }
    assert_eq!(run.history.position(), 200);
    assert_eq!((run.sim().trace_hash(), run.world().partition_views(), run.sim().now_ms()), at_200);
}

#[test]
fn seeking_anywhere_matches_a_straight_replay() {
    let mut run = fresh();
    run.history.push(Input::Command(Command::Fault(Fault::Crash(Node::Id(3))))).unwrap();
    for _ in 0..1000 {
        run.history.step_forward();
    }
    for target in [0, 1, 127, 128, 129, 500, 1001, 640, 3] {
        let mut straight = fresh();
        for input in &run.history.tape()[..target] {
            straight.history.push(input.clone()).unwrap();
        }
        run.history.seek(target);
        assert_eq!(run.sim().trace_hash(), straight.sim().trace_hash(), "seek to {target}");
    }
}

#[test]
fn a_new_action_after_stepping_back_cuts_the_undone_future() {
    let mut run = fresh();
    for _ in 0..10 {
        run.history.step_forward();
    }
    run.history.seek(4);
    run.history.push(Input::Command(Command::Produce { records: 3 })).unwrap();
    assert_eq!(run.history.tape().len(), 5);
    assert_eq!(run.history.position(), 5);
}

#[test]
fn a_failed_command_changes_nothing_and_says_why() {
    let mut run = fresh();
    run.history.step_forward();
    let before = (run.sim().trace_hash(), run.history.tape().len());
    let err = run.history.push(Input::Command(Command::Fault(Fault::Crash(Node::Id(9))))).unwrap_err();
    assert_eq!(err, Refusal::NoSuchBroker { id: 9, brokers: 3 });
    assert_eq!((run.sim().trace_hash(), run.history.tape().len()), before);
}

#[test]
fn a_link_with_a_bad_action_or_position_is_refused_with_the_reason() {
    let err = Run::<Cluster>::restore(1, &[], "s5.kill-7", None).unwrap_err();
    let why = Refusal::NoSuchBroker { id: 7, brokers: 3 }.message();
    assert_eq!(err, RunError::Action { index: 6, token: "kill-7".into(), why });
    let err = Run::<Cluster>::restore(1, &[], "s5", Some(9)).unwrap_err();
    assert_eq!(err, RunError::PastEnd { position: 9, len: 5 });
    let err = Run::<Cluster>::restore(1, &[("replication.factor".into(), "4".into())], "", None).unwrap_err();
    let why = Refusal::ReplicationFactorTooLarge { replication_factor: 4, brokers: 3 }.message();
    assert_eq!(err, RunError::Build(why));
}
