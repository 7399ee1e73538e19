//! The leader's high-watermark rules in the running scene: whom the HW waits for, and that it
//! stands still while the ISR is below the effective min.insync.replicas.

use kafka_lab::model::replication::{Fact, IsrDirection, PartitionError, Replication};
use kafka_lab::model::scene::Run;

fn run(config: &str, tape: &str) -> Run<Replication> {
    let overrides: Vec<(String, String)> = config
        .split(',')
        .map(|pair| {
            let (name, value) = pair.split_once('=').expect("name=value");
            (name.to_string(), value.to_string())
        })
        .collect();
    Run::<Replication>::restore(7, &overrides, tape, None).unwrap_or_else(|e| panic!("{tape}: {e}"))
}

fn logged(run: &Run<Replication>, wanted: impl Fn(&Fact) -> bool) -> bool {
    run.sim().log().iter().any(|e| wanted(&e.fact))
}

/// Both followers die; after broker.session.timeout.ms the controller fences them and the ISR is broker-1 alone.
const ISR_OF_ONE: &str = "kill-2.kill-3.w12000";

#[test]
fn a_recovering_follower_rejoins_the_isr_under_steady_load() {
    // Kafka: Partition.maybeIncrementLeaderHW (shouldWaitForReplicaToJoinIsr): the HW waits for a
    // caught-up follower outside the ISR, so its fetch offset can reach the HW and it rejoins.
    let config = "lab.brokers=2,replication.factor=2,lab.producer.records.per.sec=100";
    let run = run(config, "slow-2-50000.w50000.slow-2-0.w10000");
    let left =
        |f: &Fact| matches!(f, Fact::IsrUpdated { direction: IsrDirection::Shrinking, after, .. } if after == &[1]);
    assert!(logged(&run, left), "the slowed follower left the ISR");
    let rejoined =
        |f: &Fact| matches!(f, Fact::IsrUpdated { direction: IsrDirection::Expanding, after, .. } if after == &[1, 2]);
    assert!(logged(&run, rejoined), "it rejoins while the producer keeps writing");
    assert_eq!(run.world().partition().isr(), vec![1, 2]);
}

#[test]
fn acks_one_write_under_min_isr_is_acked_but_not_visible() {
    // Kafka: Partition.maybeIncrementLeaderHW returns early while isUnderMinIsr (KAFKA-15583).
    let run = run("acks=1,enable.idempotence=false,min.insync.replicas=2", &format!("{ISR_OF_ONE}.produce-3.w1000"));
    let w = run.world();
    assert_eq!(w.partition().isr(), vec![1]);
    assert_eq!(w.ledger_summary().acked, 3, "acks=1: the leader's own append answers");
    assert_eq!((w.partition().leo(1), w.partition().hw(1)), (3, 0), "the HW does not move");
    assert!(w.consumer_readable().is_empty(), "consumers see none of them");
}

#[test]
fn acks_all_write_under_min_isr_is_refused_before_the_append() {
    // Kafka: Partition.appendRecordsToLeader throws NotEnoughReplicasException before appending.
    let run = run("min.insync.replicas=2", &format!("{ISR_OF_ONE}.produce-2.w1000"));
    assert!(logged(&run, |f| matches!(f, Fact::NotEnoughReplicas { isr_size: 1, min_insync_replicas: 2, .. })));
    let w = run.world();
    assert_eq!((w.ledger_summary().acked, w.partition().leo(1)), (0, 0));
}

#[test]
fn min_insync_replicas_above_the_replication_factor_counts_as_the_replication_factor() {
    // Kafka: Partition.effectiveMinIsr = min(min.insync.replicas, replication factor).
    let run = run("replication.factor=3,min.insync.replicas=5", "produce-3.w2000");
    let w = run.world();
    assert!(!logged(&run, |f| matches!(f, Fact::NotEnoughReplicas { .. })));
    assert_eq!((w.ledger_summary().acked, w.partition().hw(1)), (3, 3), "an ISR of all 3 replicas is enough");
}

#[test]
fn an_idempotent_retry_under_min_isr_is_refused_not_answered_as_a_duplicate() {
    // Kafka: Partition.appendRecordsToLeader checks min ISR before UnifiedLog.appendAsLeader finds
    // the duplicate, and the HW stays below the record, so NOT_ENOUGH_REPLICAS_AFTER_APPEND never comes.
    let run = run("min.insync.replicas=2", "slow-2-60000.slow-3-60000.w1000.produce-1.w95000");
    let w = run.world();
    assert_eq!(w.partition().isr(), vec![1]);
    let flagged = |f: &Fact| matches!(f, Fact::IsrUpdated { after, under_min_isr: true, .. } if after == &[1]);
    assert!(logged(&run, flagged), "the leader logs the shrink as (under-min-isr)");
    let refused_again = |f: &Fact| matches!(f, Fact::NotEnoughReplicas { record_id: 1, .. });
    assert!(logged(&run, refused_again), "the retry of record 1 is refused with NOT_ENOUGH_REPLICAS");
    let after_append = PartitionError::NotEnoughReplicasAfterAppend;
    assert!(!logged(&run, |f| matches!(f, Fact::ErrorAnswered { error, .. } if *error == after_append)));
    assert_eq!((w.ledger_summary().acked, w.partition().hw(1)), (0, 0), "record 1 is never committed");
}
