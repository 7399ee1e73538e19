//! `--alter --partitions`: which keys move, Kafka's refusal to shrink, and the order break.

use kafka_lab::model::kernel::{Actor, Input};
use kafka_lab::model::partitioner::{
    expected_fraction_stayed, Command, Fact, KeyMove, Overtaken, Partitioner, Refusal, RepartitionAnalysis,
};
use kafka_lab::model::scene::{LabScene, Run};

fn preset(id: &str) -> Run<Partitioner> {
    let preset = Partitioner::presets().iter().find(|p| p.id == id).expect("preset exists");
    Run::from_preset(preset).expect("preset runs")
}

fn keys(prefix: &str, count: u32) -> Vec<String> {
    (0..count).map(|i| format!("{prefix}-{i}")).collect()
}

#[test]
fn adding_partitions_12_to_24_moves_about_half_the_keys() {
    let population = keys("cliente", 20_000);
    let analysis = RepartitionAnalysis::new(population.iter().map(|k| k.as_bytes()), 12, 24);
    assert_eq!(expected_fraction_stayed(12, 24), 0.5);
    let stayed = analysis.fraction_stayed();
    assert!((0.48..=0.52).contains(&stayed), "{stayed}");
    // Doubling: a key either stays in p or goes to p + 12, never anywhere else.
    for (to, count) in analysis.flows[5].iter().enumerate() {
        assert!(*count == 0 || to == 5 || to == 17, "keys from 5 went to {to}");
    }
}

#[test]
fn adding_a_single_partition_moves_almost_every_key() {
    let population = keys("order", 20_000);
    let analysis = RepartitionAnalysis::new(population.iter().map(|k| k.as_bytes()), 6, 7);
    let stayed = analysis.fraction_stayed();
    assert!((stayed - 1.0 / 7.0).abs() < 0.02, "{stayed}");
    assert!(analysis.moved_keys > 17_000);
}

#[test]
fn shrinking_partitions_is_rejected_with_kafkas_message() {
    let mut run = Run::<Partitioner>::new(1, &[("partitions".into(), "12".into())]).unwrap();
    run.history.push(Input::Command(Command::Produce(500))).unwrap();
    let before = (run.sim().trace_hash(), run.world().num_partitions(), run.history.tape().len());
    let err = run.history.push(Input::Command(Command::Alter(6))).unwrap_err();
    assert_eq!(err, Refusal::NotAnIncrease { current: 12, requested: 6 });
    let err = run.history.push(Input::Command(Command::Alter(12))).unwrap_err();
    assert_eq!(err, Refusal::AlreadyHasPartitions { partitions: 12 });
    let err = run.history.push(Input::Command(Command::Alter(300))).unwrap_err();
    assert!(matches!(err, Refusal::TooManyPartitions { requested: 300, max: 256 }));
    assert_eq!((run.sim().trace_hash(), run.world().num_partitions(), run.history.tape().len()), before);
}

#[test]
fn order_break_replay_processes_cancelled_before_created() {
    let run = preset("cliente-42");
    let alter = &run.world().alters()[0];
    let moved = alter.watched_key.expect("cliente-42 is watched");
    assert_eq!((alter.from_partitions, alter.to_partitions, moved.from, moved.to), (12, 24, 5, 17));
    let order: Vec<(&str, u32)> =
        run.world().processing_order().iter().map(|r| (r.event.as_str(), r.partition)).collect();
    assert_eq!(order, vec![("cancelled", 17), ("created", 5), ("updated", 5)]);
    let sent: Vec<&str> = run.world().tracked_records().iter().map(|r| r.event.as_str()).collect();
    assert_eq!(sent, vec!["created", "updated", "cancelled"]);
    let log = run.sim().log();
    assert!(log.iter().any(|e| e.actor == Actor::Controller && e.fact == Fact::PartitionsAdded { from: 12, to: 24 }));
    assert!(log.iter().any(|e| matches!(
        &e.fact,
        Fact::KeysRemapped { watched: Some((key, KeyMove { from: 5, to: 17 })), hot: None, .. } if key == b"cliente-42"
    )));
    let broken = run.sim().log().iter().find_map(|e| match &e.fact {
        Fact::OrderBroken { key, event, overtaken } => Some((e.actor.clone(), key.clone(), event.clone(), overtaken)),
        _ => None,
    });
    let (actor, key, event, overtaken) = broken.expect("the order broke");
    assert_eq!((actor, key.as_str(), event.as_str()), (Actor::Consumer(Some(17)), "cliente-42", "cancelled"));
    assert_eq!(overtaken[0], Overtaken { event: "created".into(), partition: 5 });
}

#[test]
fn seed_004_orderid_keys_split_across_6_to_12() {
    let run = preset("orderid-6-12");
    let alter = &run.world().alters()[0];
    assert_eq!((alter.from_partitions, alter.to_partitions), (6, 12));
    assert!((0.45..=0.55).contains(&alter.fraction_stayed), "{}", alter.fraction_stayed);
    let order: Vec<&str> = run.world().processing_order().iter().map(|r| r.event.as_str()).collect();
    assert_eq!(order, vec!["shipped", "created", "paid"]);
}

#[test]
fn a_key_that_keeps_its_partition_keeps_its_order() {
    // order-7 hashes to partition 1 both of 6 and of 12.
    let tape = "produce-3000.key-6f726465722d37.send-created.send-paid.w500.alter-12.send-shipped.w1000x6";
    let config = [
        ("partitions".to_string(), "6".to_string()),
        ("lab.key.prefix".into(), "order".into()),
        ("lab.consumer.records.per.sec".into(), "100".into()),
    ];
    let run = Run::<Partitioner>::restore(4, &config, tape, None).unwrap();
    let moved = run.world().alters()[0].watched_key.unwrap();
    assert_eq!((moved.from, moved.to), (1, 1));
    let order: Vec<&str> = run.world().processing_order().iter().map(|r| r.event.as_str()).collect();
    assert_eq!(order, vec!["created", "paid", "shipped"]);
    assert!(!run.sim().log().iter().any(|e| matches!(e.fact, Fact::OrderBroken { .. })));
}
