//! The plain partition model against Kafka's HW/LEO rules (seed 003's step table) and ISR rules.

use kafka_lab::model::replication::{PartitionError, ReplicatedPartition};

#[test]
fn a_fetch_answer_carries_the_hw_from_before_that_fetch_counted() {
    // Kafka: Partition.readRecords takes the HW before updateFollowerFetchState counts the
    // fetch offset, so the fetch that moves the leader's HW still answers with the old one.
    // One leader (broker 0), one follower (broker 1), one record, three fetches.
    let mut p = ReplicatedPartition::new(&[0, 1], 0);
    assert_eq!((p.hw(0), p.leo(0), p.hw(1), p.leo(1)), (0, 0, 0, 0));
    p.append_to_leader(1);
    assert_eq!((p.hw(0), p.leo(0)), (0, 1), "the leader's HW waits for the follower");
    p.fetch(1);
    // The leader recorded LEO_F=0 (HW_L stays 0); the follower stored the record: LEO_F=1, HW_F=min(1,0)=0.
    assert_eq!((p.hw(0), p.leo(0), p.hw(1), p.leo(1)), (0, 1, 0, 1));
    p.fetch(1);
    // The second fetch reports LEO_F=1: HW_L=1, but its answer carries the HW read before: HW_F stays 0.
    assert_eq!((p.hw(0), p.leo(0), p.hw(1), p.leo(1)), (1, 1, 0, 1));
    p.fetch(1);
    // Only the third fetch brings HW 1 to the follower.
    assert_eq!((p.hw(0), p.leo(0), p.hw(1), p.leo(1)), (1, 1, 1, 1));
}

#[test]
fn leader_hw_is_the_minimum_leo_over_the_isr() {
    // Kafka: Partition.maybeIncrementLeaderHW (the ISR followers' LEOs bound the HW).
    let mut p = ReplicatedPartition::new(&[1, 2, 3], 1);
    p.append_to_leader(5);
    p.fetch(2);
    p.fetch(2);
    assert_eq!(p.hw(1), 0, "broker 3 has not fetched yet, so it holds the HW back");
    p.fetch(3);
    assert_eq!(p.hw(1), 0, "broker 3's first fetch reports LEO 0");
    p.fetch(3);
    assert_eq!((p.hw(1), p.hw(3)), (5, 0), "the fetch that moved the HW answers with the HW before it");
    assert_eq!(p.hw(2), 0, "broker 2 only learns HW 5 on its next fetch");
    p.fetch(2);
    p.fetch(3);
    assert_eq!((p.hw(2), p.hw(3)), (5, 5));
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

#[test]
fn a_caught_up_follower_outside_the_isr_holds_the_hw_until_it_rejoins() {
    // Kafka: Partition.maybeIncrementLeaderHW (shouldWaitForReplicaToJoinIsr, with Replica.isCaughtUp).
    let mut p = ReplicatedPartition::new(&[1, 2], 1);
    p.append_to_leader(1);
    p.fetch(2);
    p.fetch(2);
    let epoch = p.leader_epoch();
    p.alter_partition(1, epoch, vec![1]).unwrap();
    p.append_to_leader(3);
    assert_eq!(p.hw(1), 1, "broker 2 caught up a moment ago: the HW waits at its LEO");
    p.fetch(2);
    assert_eq!(p.isr(), vec![1, 2], "its fetch offset reached the HW, so it rejoined");
    p.advance_clock(31_000);
    p.alter_partition(1, epoch, vec![1]).unwrap();
    p.append_to_leader(2);
    assert_eq!(p.hw(1), 6, "lagging longer than replica.lag.time.max.ms, it no longer holds the HW");
}

#[test]
fn the_hw_stands_still_while_the_isr_is_under_min_insync_replicas() {
    // Kafka: Partition.maybeIncrementLeaderHW returns early while isUnderMinIsr;
    // appendRecordsToLeader refuses acks=all (NOT_ENOUGH_REPLICAS) but appends acks=1.
    let mut p = ReplicatedPartition::new(&[1, 2, 3], 1);
    p.set_min_insync_replicas(2);
    p.advance_clock(31_000);
    let epoch = p.leader_epoch();
    p.alter_partition(1, epoch, vec![1]).unwrap();
    p.append_to_leader(2);
    assert_eq!((p.leo(1), p.hw(1)), (2, 0));
    let id = p.allocate_record_id();
    assert_eq!(p.append_as_leader(1, id, None, true), Err(PartitionError::NotEnoughReplicas));
    assert_eq!(p.leo(1), 2, "nothing appended");
}
