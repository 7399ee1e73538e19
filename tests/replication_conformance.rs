//! The plain partition model against Kafka's HW/LEO rules (seed 003's step table) and ISR rules.

use kafka_lab::model::replication::ReplicatedPartition;

#[test]
fn follower_hw_lags_one_fetch_round_behind_the_leader() {
    // One leader (broker 0), one follower (broker 1), one record, two fetches.
    let mut p = ReplicatedPartition::new(&[0, 1], 0);
    assert_eq!((p.hw(0), p.leo(0), p.hw(1), p.leo(1)), (0, 0, 0, 0));
    p.append_to_leader(1);
    assert_eq!((p.hw(0), p.leo(0)), (0, 1), "the leader's HW waits for the follower");
    p.fetch(1);
    // The leader recorded LEO_F=0 (HW_L stays 0); the follower stored the record: LEO_F=1, HW_F=min(1,0)=0.
    assert_eq!((p.hw(0), p.leo(0), p.hw(1), p.leo(1)), (0, 1, 0, 1));
    p.fetch(1);
    // Second fetch reports LEO_F=1: HW_L=1, and the response carries it: HW_F=min(1,1)=1.
    assert_eq!((p.hw(0), p.leo(0), p.hw(1), p.leo(1)), (1, 1, 1, 1));
}

#[test]
fn leader_hw_is_the_minimum_leo_over_the_isr() {
    let mut p = ReplicatedPartition::new(&[1, 2, 3], 1);
    p.append_to_leader(5);
    p.fetch(2);
    p.fetch(2);
    assert_eq!(p.hw(1), 0, "broker 3 has not fetched yet, so it holds the HW back");
    p.fetch(3);
    assert_eq!(p.hw(1), 0, "broker 3's first fetch reports LEO 0");
    p.fetch(3);
    assert_eq!((p.hw(1), p.hw(3)), (5, 5));
    assert_eq!(p.hw(2), 0, "broker 2 only learns HW 5 on its next fetch");
    p.fetch(2);
    assert_eq!(p.hw(2), 5);
}

#[test]
fn a_follower_that_stops_fetching_leaves_the_isr_after_replica_lag_time_max_ms() {
    let lag_ms = 30_000;
    let mut p = ReplicatedPartition::new(&[1, 2, 3], 1);
    p.append_to_leader(1);
    p.fetch(2);
    p.fetch(3);
    p.advance_clock(20_000);
    p.append_to_leader(1);
    p.fetch(2);
    p.fetch(2);
    // Broker 3 is behind the leader's LEO but caught up recently: it stays.
    assert_eq!(p.isr_shrink(1, p.now_ms(), lag_ms), None);
    p.advance_clock(15_000);
    let shrunk = p.isr_shrink(1, p.now_ms(), lag_ms).expect("broker 3 lags for more than 30 s");
    assert_eq!(shrunk, vec![1, 2]);
    let epoch = p.leader_epoch();
    p.alter_partition(1, epoch, shrunk).unwrap();
    assert_eq!(p.isr(), vec![1, 2]);
    // With 3 out, the HW only waits for broker 2.
    assert_eq!(p.hw(1), 2);
    // Broker 3 fetches from offset 1 < HW 2: not yet; its next fetch offset reaches the HW.
    p.fetch(3);
    assert_eq!(p.isr(), vec![1, 2]);
    p.fetch(3);
    assert_eq!(p.isr(), vec![1, 2, 3]);
}

#[test]
fn a_follower_whose_fetches_keep_trailing_a_busy_leader_stays_in_sync() {
    // Kafka's lastCaughtUpTime rule: reaching the LEO the leader had at the previous fetch counts.
    let mut p = ReplicatedPartition::new(&[1, 2], 1);
    for _ in 0..10 {
        p.append_to_leader(1);
        p.fetch(2);
        p.advance_clock(10_000);
    }
    assert_eq!(p.isr_shrink(1, p.now_ms(), 30_000), None);
}
