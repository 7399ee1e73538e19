//! The replication scene as the shell drives it: link tokens, refused commands, config checks.

use kafka_lab::model::kernel::Input;
use kafka_lab::model::replication::{Command, Node, Replication};
use kafka_lab::model::scene::{LabScene, Run};

#[test]
fn every_command_round_trips_through_its_link_token() {
    let commands = [
        Command::Produce { records: 7 },
        Command::Kill(2),
        Command::PowerFail(3),
        Command::Restart(1),
        Command::Pause { broker: 2, duration_ms: 15_000 },
        Command::Slow { broker: 3, delay_ms: 40_000 },
        Command::Cut(Node::Broker(1), Node::Controller),
        Command::Heal(Node::Producer, Node::Broker(2)),
        Command::SetUncleanElection(true),
    ];
    for command in commands {
        let token = Replication::encode_command(&command);
        assert!(
            !token.starts_with('w')
                && !(token.starts_with('s') && token[1..].starts_with(|c: char| c.is_ascii_digit()))
        );
        assert_eq!(Replication::decode_command(&token), Ok(command), "{token}");
    }
    assert!(Replication::decode_command("explode-1").unwrap_err().to_string().contains("unknown action"));
}

#[test]
fn a_refused_fault_changes_nothing_and_says_why() {
    let mut run = Run::<Replication>::new(5, &[]).unwrap();
    run.history.push(Input::Command(Command::Kill(2))).unwrap();
    let before = (run.sim().trace_hash(), run.history.tape().len());
    let err = run.history.push(Input::Command(Command::Kill(2))).unwrap_err().to_string();
    assert_eq!(err, "broker-2 is already down.");
    let err =
        run.history.push(Input::Command(Command::Heal(Node::Broker(1), Node::Controller))).unwrap_err().to_string();
    assert_eq!(err, "The link broker-1 ↔ controller is not cut.");
    assert_eq!((run.sim().trace_hash(), run.history.tape().len()), before);
}

#[test]
fn impossible_configs_are_refused_with_kafkas_wording() {
    let set = |name: &str, value: &str| vec![(name.to_string(), value.to_string())];
    let err = Run::<Replication>::new(1, &set("replication.factor", "4")).unwrap_err().to_string();
    assert!(err.contains("cannot be reached because only 3 broker(s)"), "{err}");
    let err = Run::<Replication>::new(1, &set("acks", "2")).unwrap_err().to_string();
    assert!(err.contains("String must be one of: all, -1, 0, 1"), "{err}");
    let err = Run::<Replication>::new(1, &set("delivery.timeout.ms", "1000")).unwrap_err().to_string();
    assert!(err.starts_with("delivery.timeout.ms should be equal to or larger than"), "{err}");
}

#[test]
fn the_same_seed_and_tape_replay_the_same_trace() {
    let tape = "produce-20.w300.kill-1.w12000.restart-1.w5000.cut-2-c.w12000.heal-2-c.w3000";
    let a = Run::<Replication>::restore(9, &[], tape, None).unwrap();
    let b = Run::<Replication>::restore(9, &[], tape, None).unwrap();
    assert_eq!(a.sim().trace_hash(), b.sim().trace_hash());
    assert_eq!(a.world().ledger_summary().acked_lost, 0);
    assert!(a.sim().log().iter().any(|e| e.fact.0.contains("fenced broker-2")));
}
