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
        for record in partition.records.iter() {
            assert_eq!(world.partition_of(record.key_id), partition.id, "a key landed off its murmur2 partition");
        }
        let records: Vec<_> = partition.records.iter().collect();
        assert!(records.windows(2).all(|w| w[0].timestamp_ms <= w[1].timestamp_ms));
    }
}

fn command(run: &mut Run<Cluster>, fault: Fault) {
    run.history.push(Input::Command(Command::Fault(fault))).unwrap();
}

/// When the first fact matching `is` was logged.
fn first_at(run: &Run<Cluster>, is: impl Fn(&Fact) -> bool) -> Option<u64> {
    run.sim().log().iter().find(|e| is(&e.fact)).map(|e| e.time_ms)
}

// Kafka: BrokerHeartbeatManager.nextCheckTimeNs / ReplicationControlManager.maybeFenceOneStaleBroker:
// a broker is fenced broker.session.timeout.ms after its last heartbeat (every broker.heartbeat.interval.ms).
#[test]
fn crashed_leader_is_fenced_a_session_timeout_after_its_last_heartbeat_and_leadership_moves() {
    let mut run = run_with(&[]);
    wait(&mut run, 3_000);
    command(&mut run, Fault::Crash(Node::Id(1)));
    wait(&mut run, 7_900);
    let led_by_1 = |run: &Run<Cluster>| run.world().partition_views().iter().filter(|p| p.leader == Some(1)).count();
    assert_eq!(led_by_1(&run), 2, "before its session expires the controller still thinks broker 1 leads");
    wait(&mut run, 200);
    assert_eq!(led_by_1(&run), 0);
    let fenced = run.sim().log().iter().find(|e| matches!(e.fact, Fact::BrokerFenced { broker: 1, .. }));
    assert_eq!(
        fenced.map(|e| (e.time_ms, e.actor.clone())),
        Some((11_000, Actor::Controller)),
        "last heartbeat at 2 s (every 2 s), + 9 s: 8 s after the crash at 3 s"
    );
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

// Kafka: QuorumController.maybeScheduleNextBalancePartitionLeaders: the check is scheduled after the
// write that left a partition off its preferred leader, leader.imbalance.check.interval.seconds ahead.
#[test]
fn restarted_broker_gets_its_leadership_back_an_imbalance_interval_after_the_fence() {
    let mut run = run_with(&[("leader.imbalance.check.interval.seconds", "60")]);
    command(&mut run, Fault::Crash(Node::Id(2)));
    wait(&mut run, 10_000);
    command(&mut run, Fault::Restart(Node::Id(2)));
    let preferred_2 = |run: &Run<Cluster>| {
        run.world().partition_views().iter().filter(|p| p.replicas[0] == 2 && p.leader == Some(2)).count()
    };
    wait(&mut run, 58_000);
    assert_eq!(preferred_2(&run), 0, "60 s after the start nothing is checked: the cluster was balanced then");
    wait(&mut run, 2_000);
    assert_eq!(preferred_2(&run), 2, "the check 60 s after the fence moved leadership back");
    let fenced = first_at(&run, |f| matches!(f, Fact::BrokerFenced { .. })).unwrap();
    let preferred = first_at(&run, |f| matches!(f, Fact::PreferredLeaderElected { .. })).unwrap();
    assert_eq!((fenced, preferred), (9_000, 69_000));
}

/// Kills brokers 1, 2 and 3 ten seconds apart, then restarts broker 1 (out of every ISR).
fn every_broker_dies_then_broker_1_returns() -> Run<Cluster> {
    let mut run = run_with(&[]);
    for id in 1..=3 {
        command(&mut run, Fault::Crash(Node::Id(id)));
        wait(&mut run, 10_000);
    }
    command(&mut run, Fault::Restart(Node::Id(1)));
    wait(&mut run, 10_000);
    run
}

// Kafka: ReplicationControlManager.handleBrokerFenced keeps the last ISR member (PartitionChangeBuilder
// never empties the ISR with ELR off), and handleBrokerUnfenced elects only an ISR member (isValidNewLeader).
#[test]
fn a_stale_replica_returning_leaves_an_offline_partition_offline() {
    let run = every_broker_dies_then_broker_1_returns();
    for p in run.world().partition_views() {
        assert_eq!(p.leader, None, "{p:?}: broker 1 is not in the ISR, so it cannot lead");
        assert_eq!(p.isr, vec![3], "{p:?}: the last broker to die stays the ISR");
    }
    assert!(run.world().brokers()[0].serving(), "broker 1 itself is back and unfenced");
    assert_eq!(first_at(&run, |f| matches!(f, Fact::LeaderElected { .. })), None);
    assert!(run.world().producer_stats().waiting > 0, "the producer's records wait for a leader");
}

// Kafka: handleBrokerUnfenced (the ISR member leads again), then Partition.maybeExpandIsr once the
// stale follower has fetched up to the high watermark.
#[test]
fn the_last_isr_member_returning_leads_again_and_the_stale_replica_catches_up_behind_it() {
    let mut run = every_broker_dies_then_broker_1_returns();
    let before: Vec<i64> = run.world().partition_views().iter().map(|p| p.log_end_offset).collect();
    command(&mut run, Fault::Restart(Node::Id(3)));
    wait(&mut run, 100);
    for (p, leo) in run.world().partition_views().iter().zip(before) {
        assert_eq!(p.leader, Some(3), "{p:?}");
        assert!(p.log_end_offset >= leo, "{p:?}: nothing broker 3 had is lost");
    }
    wait(&mut run, 60_000);
    for p in run.world().partitions() {
        assert!(p.isr.contains(&1), "broker 1 caught up and rejoined: {p:?}");
        assert!(p.isr.contains(&3) && !p.isr.contains(&2), "{p:?}");
        assert_eq!(p.replica_log_end_offset(1), p.log_end_offset());
    }
}

/// When broker 1 rejoined each partition's ISR, after being down `down_ms`.
fn rejoin_times(down_ms: u64, fetch_bytes_per_sec: &str) -> Vec<u64> {
    let mut run = run_with(&[("lab.replica.fetch.bytes.per.sec", fetch_bytes_per_sec)]);
    command(&mut run, Fault::Crash(Node::Id(1)));
    wait(&mut run, down_ms);
    command(&mut run, Fault::Restart(Node::Id(1)));
    let restarted = run.sim().now_ms();
    wait(&mut run, 120_000);
    let log = run.sim().log();
    log.iter()
        .filter(|e| matches!(e.fact, Fact::IsrExpanded { replica: 1, .. }))
        .map(|e| e.time_ms - restarted)
        .collect()
}

// Kafka: Partition.isFollowerInSync (the follower's log end reaches the leader's high watermark)
// and maybeExpandIsr (the leader's AlterPartition adds it).
#[test]
fn a_restarted_follower_rejoins_the_isr_later_the_longer_it_was_down_and_the_slower_it_fetches() {
    let short = rejoin_times(10_000, "50000");
    let long = rejoin_times(40_000, "50000");
    let fast = rejoin_times(40_000, "500000");
    assert_eq!((short.len(), long.len(), fast.len()), (6, 6, 6), "it rejoins all six ISRs");
    let last = |times: &[u64]| times.iter().copied().max().unwrap();
    assert!(short.iter().all(|t| *t > 100), "never at once: {short:?}");
    assert!(last(&long) > 3 * last(&short), "40 s behind takes longer than 10 s: {short:?} {long:?}");
    assert!(last(&fast) * 5 < last(&long), "ten times the fetch rate is much quicker: {fast:?} {long:?}");
}

// Kafka: ClusterControlManager.registerBroker refuses a new incarnation while the old session is valid
// (DuplicateBrokerRegistrationException); the broker retries and registers once it is fenced.
#[test]
fn a_broker_restarted_before_its_session_expires_registers_only_after_the_fence() {
    let mut run = run_with(&[]);
    wait(&mut run, 3_000);
    command(&mut run, Fault::Crash(Node::Id(1)));
    wait(&mut run, 1_000);
    command(&mut run, Fault::Restart(Node::Id(1)));
    assert_eq!(first_at(&run, |f| matches!(f, Fact::RegistrationRefused { broker: 1 })), Some(4_000));
    wait(&mut run, 6_000);
    assert!(!run.world().brokers()[0].serving(), "still waiting for its old session to expire");
    assert_eq!(run.world().partition_views().iter().filter(|p| p.leader == Some(1)).count(), 2);
    wait(&mut run, 2_000);
    let fenced = first_at(&run, |f| matches!(f, Fact::BrokerFenced { broker: 1, .. }));
    let registered = first_at(&run, |f| matches!(f, Fact::BrokerRegistered { broker: 1, .. }));
    let unfenced = first_at(&run, |f| matches!(f, Fact::BrokerUnfenced { broker: 1 }));
    assert_eq!((fenced, registered, unfenced), (Some(11_000), Some(11_000), Some(11_010)));
    assert!(run.world().brokers()[0].serving());
}

// Kafka: PartitionChangeBuilder.electAnyLeader takes any unfenced ISR member, even one whose process
// died (the controller does not know yet); its log is the partition's from then on, and what the
// old leader appended above it was above the high watermark (Partition.maybeIncrementLeaderHW).
#[test]
fn a_crashed_follower_elected_before_its_fence_truncates_the_uncommitted_records_it_lacks() {
    let mut run = run_with(&[]);
    wait(&mut run, 2_100);
    command(&mut run, Fault::Crash(Node::Id(3)));
    wait(&mut run, 1_000);
    let behind: Vec<(i64, i64)> =
        run.world().partitions().iter().map(|p| (p.replica_log_end_offset(3), p.high_watermark())).collect();
    assert!(behind.iter().all(|(leo, hw)| leo == hw), "broker 3, still in every ISR, holds the HW: {behind:?}");
    command(&mut run, Fault::Crash(Node::Id(2)));
    wait(&mut run, 500);
    command(&mut run, Fault::Crash(Node::Id(1)));
    wait(&mut run, 20_000);
    let world = run.world();
    let truncated: Vec<(u32, i64)> = run
        .sim()
        .log()
        .iter()
        .filter_map(|e| match e.fact {
            Fact::LogTruncated { partition, offset, .. } => Some((partition, offset)),
            _ => None,
        })
        .collect();
    assert!(!truncated.is_empty(), "the leaders appended after broker 3 died");
    for (partition, _) in truncated {
        // Broker 2, elected first, may cut less; broker 3, the last ISR member, cuts back to its own end.
        let p = &world.partitions()[partition as usize];
        assert_eq!((p.isr.clone(), p.log_end_offset()), (vec![3], behind[partition as usize].0), "{p:?}");
    }
}

#[test]
fn replication_factor_above_the_broker_count_is_rejected_like_kafka() {
    let err = Run::<Cluster>::new(1, &[("replication.factor".into(), "5".into())]).unwrap_err().to_string();
    assert_eq!(err, "The target replication factor of 5 cannot be reached because only 3 broker(s) are registered.");
}

// Kafka: KafkaProducer.configureDeliveryTimeout — a delivery.timeout.ms the user set below
// linger.ms + request.timeout.ms (5 + 30000 by default) is a ConfigException; at or above it runs.
#[test]
fn an_explicit_delivery_timeout_below_linger_plus_request_timeout_is_refused() {
    let with = |ms: &str| Run::<Cluster>::new(1, &[("delivery.timeout.ms".into(), ms.into())]);
    let err = with("30004").unwrap_err().to_string();
    assert!(
        err.starts_with("delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms"),
        "{err}"
    );
    assert!(err.contains("30004 < 5 + 30000"), "{err}");
    assert!(with("30005").is_ok(), "the smallest value Kafka accepts runs");
}
