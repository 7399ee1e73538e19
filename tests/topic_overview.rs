//! The first scene's cluster: placement, dense offsets, crash, fencing and preferred leaders.

use kafka_lab::model::cluster::{Cluster, Command, Fact, LeaderChange};
use kafka_lab::model::kernel::{Actor, Fault, Input, LogEntry, Node};
use kafka_lab::model::scene::Run;

fn run_with(overrides: &[(&str, &str)]) -> Run<Cluster> {
    let pairs: Vec<(String, String)> = overrides.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Run::new(5, &pairs).expect("valid config")
}

fn wait(run: &mut Run<Cluster>, ms: u64) {
    run.history.push(Input::Advance(ms)).unwrap();
}

#[test]
fn six_partitions_on_three_brokers_give_each_broker_two_leaders() {
    let run = run_with(&[]);
    for broker in run.world().broker_views() {
        assert_eq!(broker.leader_of.len(), 2, "broker {} leads {:?}", broker.id, broker.leader_of);
        assert_eq!(broker.follower_of.len(), 4);
    }
}

#[test]
fn offsets_are_dense_and_grow_only_on_the_keys_partition() {
    let mut run = run_with(&[]);
    wait(&mut run, 10_000);
    let world = run.world();
    let total: i64 = world.partition_views().iter().map(|p| p.log_end_offset).sum();
    assert_eq!(total as u64, world.producer_stats().acknowledged);
    for partition in world.partitions() {
        for record in &partition.records {
            assert_eq!(world.partition_of(record.key_id), partition.id, "a key landed off its murmur2 partition");
        }
        assert!(partition.records.windows(2).all(|w| w[0].timestamp_ms <= w[1].timestamp_ms));
    }
}

#[test]
fn crashed_leader_is_fenced_after_the_session_timeout_and_leadership_moves() {
    let mut run = run_with(&[]);
    wait(&mut run, 1000);
    run.history.push(Input::Command(Command::Fault(Fault::Crash(Node::Id(1))))).unwrap();
    wait(&mut run, 8_000);
    let led_by_1 = |run: &Run<Cluster>| run.world().partition_views().iter().filter(|p| p.leader == Some(1)).count();
    assert_eq!(led_by_1(&run), 2, "before broker.session.timeout.ms the controller still thinks broker 1 leads");
    wait(&mut run, 1_100);
    assert_eq!(led_by_1(&run), 0);
    let fenced = run.sim().log().iter().find(|e| matches!(e.fact, Fact::BrokerFenced { broker: 1, .. }));
    assert_eq!(fenced.map(|e| (e.time_ms, e.actor.clone())), Some((10_000, Actor::Controller)), "9 s after the crash");
    let moved =
        |e: &&LogEntry<Fact>| matches!(e.fact, Fact::IsrShrunk { leader: LeaderChange::Moved { from: 1, .. }, .. });
    assert_eq!(run.sim().log().iter().filter(moved).count(), 2, "both partitions broker 1 led got a new leader");
    for p in run.world().partition_views() {
        assert!(!p.isr.contains(&1), "broker 1 left every ISR: {p:?}");
    }
    let stats = run.world().producer_stats();
    assert_eq!(stats.waiting, 0, "records that waited were delivered to the new leaders");
    assert_eq!(stats.expired, 0);
}

#[test]
fn restarted_broker_gets_its_leadership_back_at_the_preferred_leader_check() {
    let mut run = run_with(&[("leader.imbalance.check.interval.seconds", "60")]);
    run.history.push(Input::Command(Command::Fault(Fault::Crash(Node::Id(2))))).unwrap();
    wait(&mut run, 10_000);
    run.history.push(Input::Command(Command::Fault(Fault::Restart(Node::Id(2))))).unwrap();
    let preferred_2 = |run: &Run<Cluster>| {
        run.world().partition_views().iter().filter(|p| p.replicas[0] == 2 && p.leader == Some(2)).count()
    };
    assert_eq!(preferred_2(&run), 0);
    wait(&mut run, 50_000);
    assert_eq!(preferred_2(&run), 2, "the 60 s check moved leadership back");
}

#[test]
fn replication_factor_above_the_broker_count_is_rejected_like_kafka() {
    let err = Run::<Cluster>::new(1, &[("replication.factor".into(), "5".into())]).unwrap_err().to_string();
    assert_eq!(err, "The target replication factor of 5 cannot be reached because only 3 broker(s) are registered.");
}
