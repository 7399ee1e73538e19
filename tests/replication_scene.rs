//! The replication scene as the shell drives it: link tokens, refused commands, config checks.

use kafka_lab::model::kernel::{Actor, Describe, Fault, Input, Node, TokenError};
use kafka_lab::model::replication::{Command, Fact, Refusal, Replication};
use kafka_lab::model::scene::{LabScene, Run, RunError};

#[test]
fn every_command_round_trips_through_its_link_token() {
    let commands = [
        Command::Produce { records: 7 },
        Command::Fault(Fault::Crash(Node::Id(2))),
        Command::Fault(Fault::PowerFail(Node::Id(3))),
        Command::Fault(Fault::Restart(Node::Id(1))),
        Command::Fault(Fault::Pause { node: Node::Id(2), duration_ms: Some(15_000) }),
        Command::Fault(Fault::Slow { node: Node::Id(3), delay_ms: 40_000 }),
        Command::Fault(Fault::Cut(Node::Id(1), Node::Controller)),
        Command::Fault(Fault::Heal(Node::Producer, Node::Id(2))),
        Command::SetUncleanElection(true),
        Command::SetUncleanElection(false),
    ];
    for command in commands {
        let token = Replication::encode_command(&command);
        let wait_or_step =
            token.starts_with('w') || (token.starts_with('s') && token[1..].starts_with(|c: char| c.is_ascii_digit()));
        assert!(!wait_or_step, "{token} would read as a wait or a step");
        assert_eq!(Replication::decode_command(&token), Ok(command), "{token}");
    }
    for unknown in ["explode-1", "stall-2", "unclean-2", "kill-1-2", "produce"] {
        assert!(
            matches!(Replication::decode_command(unknown), Err(TokenError::UnknownAction { .. })),
            "{unknown} is not a token of this scene"
        );
    }
}

#[test]
fn old_link_tokens_read_as_they_always_have() {
    let read = |token: &str| Replication::decode_command(token);
    assert_eq!(read("kill-1"), Ok(Command::Fault(Fault::Crash(Node::Id(1)))));
    assert_eq!(
        read("pause-2-15000"),
        Ok(Command::Fault(Fault::Pause { node: Node::Id(2), duration_ms: Some(15_000) }))
    );
    assert_eq!(read("cut-p-1"), Ok(Command::Fault(Fault::Cut(Node::Producer, Node::Id(1)))));
    assert_eq!(read("heal-2-c"), Ok(Command::Fault(Fault::Heal(Node::Id(2), Node::Controller))));
    assert_eq!(read("unclean-1"), Ok(Command::SetUncleanElection(true)));
    assert!(matches!(read("produce-x"), Err(TokenError::NotANumber { .. })));
}

#[test]
fn a_refused_fault_changes_nothing_and_says_why() {
    let mut run = Run::<Replication>::new(5, &[]).unwrap();
    let kill = Input::Command(Command::Fault(Fault::Crash(Node::Id(2))));
    run.history.push(kill.clone()).unwrap();
    let before = (run.sim().trace_hash(), run.history.tape().len());
    assert_eq!(run.history.push(kill).unwrap_err(), Refusal::AlreadyDown { id: 2 });
    let heal = Input::Command(Command::Fault(Fault::Heal(Node::Id(1), Node::Controller)));
    assert_eq!(run.history.push(heal).unwrap_err(), Refusal::LinkNotCut { a: Node::Id(1), b: Node::Controller });
    let stall = Input::Command(Command::Fault(Fault::Pause { node: Node::Id(1), duration_ms: None }));
    assert_eq!(run.history.push(stall).unwrap_err(), Refusal::FaultNotModelled);
    let kill_controller = Input::Command(Command::Fault(Fault::Crash(Node::Controller)));
    assert_eq!(run.history.push(kill_controller).unwrap_err(), Refusal::FaultNotModelled);
    let nine = Input::Command(Command::Fault(Fault::Restart(Node::Id(9))));
    assert_eq!(run.history.push(nine).unwrap_err(), Refusal::NoSuchBroker { id: 9, brokers: 3 });
    assert_eq!((run.sim().trace_hash(), run.history.tape().len()), before);
}

#[test]
fn impossible_configs_are_refused_with_kafkas_wording() {
    let set = |name: &str, value: &str| vec![(name.to_string(), value.to_string())];
    let refused = |name: &str, value: &str| Run::<Replication>::new(1, &set(name, value)).unwrap_err();
    let rf = Refusal::ReplicationFactorTooLarge { replication_factor: 4, brokers: 3 };
    assert_eq!(refused("replication.factor", "4"), RunError::Build(rf.message()));
    assert!(matches!(refused("acks", "2"), RunError::Config(_)));
    let timeout =
        Refusal::DeliveryTimeoutTooSmall { delivery_timeout_ms: 1000, linger_ms: 0, request_timeout_ms: 30_000 };
    assert_eq!(refused("delivery.timeout.ms", "1000"), RunError::Build(timeout.message()));
}

fn build(pairs: &[(&str, &str)]) -> Result<Run<Replication>, RunError> {
    let overrides: Vec<(String, String)> = pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    Run::<Replication>::new(1, &overrides)
}

#[test]
fn a_default_delivery_timeout_below_request_timeout_is_raised_not_refused() {
    // Kafka: KafkaProducer.configureDeliveryTimeout refuses only an explicit delivery.timeout.ms;
    // the default is raised to linger.ms + request.timeout.ms.
    let run = build(&[("request.timeout.ms", "200000")]).expect("the default delivery.timeout.ms is raised");
    assert_eq!(run.world().settings().delivery_timeout_ms, 200_000);
    let explicit = build(&[("request.timeout.ms", "200000"), ("delivery.timeout.ms", "120000")]).unwrap_err();
    let refusal =
        Refusal::DeliveryTimeoutTooSmall { delivery_timeout_ms: 120_000, linger_ms: 0, request_timeout_ms: 200_000 };
    assert_eq!(explicit, RunError::Build(refusal.message()));
}

#[test]
fn explicit_idempotence_with_acks_one_is_refused_and_default_idempotence_is_turned_off() {
    // Kafka: ProducerConfig.postProcessAndValidateIdempotenceConfigs.
    let explicit = build(&[("acks", "1"), ("enable.idempotence", "true")]).unwrap_err();
    assert_eq!(explicit, RunError::Build(Refusal::IdempotenceNeedsAcksAll.message()));
    let no_retries = build(&[("retries", "0"), ("enable.idempotence", "true")]).unwrap_err();
    assert_eq!(no_retries, RunError::Build(Refusal::IdempotenceNeedsRetries.message()));
    let quiet = build(&[("acks", "1")]).expect("idempotence left at its default gives way");
    assert!(!quiet.world().settings().idempotence);
    let quiet = build(&[("retries", "0")]).expect("idempotence left at its default gives way");
    assert!(!quiet.world().settings().idempotence);
    assert!(build(&[]).unwrap().world().settings().idempotence, "acks=all keeps the default idempotence");
}

#[test]
fn a_replica_fetch_wait_above_the_socket_or_lag_timeout_is_refused() {
    // Kafka: KafkaConfig.validateValues' two requirements on replica.fetch.wait.max.ms.
    let socket = build(&[("replica.fetch.wait.max.ms", "5000"), ("replica.socket.timeout.ms", "4000")]).unwrap_err();
    assert_eq!(socket, RunError::Build(Refusal::FetchWaitAboveSocketTimeout.message()));
    let lag = build(&[("replica.fetch.wait.max.ms", "5000"), ("replica.lag.time.max.ms", "4000")]).unwrap_err();
    assert_eq!(lag, RunError::Build(Refusal::FetchWaitAboveLagTime.message()));
    assert!(build(&[("replica.fetch.wait.max.ms", "4000"), ("replica.lag.time.max.ms", "4000")]).is_ok());
}

#[test]
fn the_same_seed_and_tape_replay_the_same_trace() {
    let tape = "produce-20.w300.kill-1.w12000.restart-1.w5000.cut-2-c.w12000.heal-2-c.w3000";
    let a = Run::<Replication>::restore(9, &[], tape, None).unwrap();
    let b = Run::<Replication>::restore(9, &[], tape, None).unwrap();
    assert_eq!(a.sim().trace_hash(), b.sim().trace_hash());
    assert_eq!(a.world().ledger_summary().acked_lost, 0);
    assert!(a
        .sim()
        .log()
        .iter()
        .any(|e| e.actor == Actor::Controller && matches!(e.fact, Fact::BrokerFenced { broker: 2, .. })));
}
