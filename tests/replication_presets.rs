//! Every preset of the replication scene, replayed: which acknowledged records are lost,
//! and that none are under the safe configuration.

use kafka_lab::model::replication::{
    DescribeLine, Fact, IsrDirection, Replication, Role, Truncation, TruncationCause, TOPIC,
};
use kafka_lab::model::scene::{LabScene, Run};

fn preset(id: &str) -> Run<Replication> {
    let preset = Replication::presets().iter().find(|p| p.id == id).unwrap_or_else(|| panic!("no preset {id}"));
    Run::from_preset(preset).unwrap_or_else(|e| panic!("preset {id} does not replay: {e}"))
}

fn logged(run: &Run<Replication>, wanted: impl Fn(&Fact) -> bool) -> bool {
    run.sim().log().iter().any(|e| wanted(&e.fact))
}

#[test]
fn every_preset_replays_and_round_trips_its_tape() {
    for p in Replication::presets() {
        let run = Run::<Replication>::from_preset(p).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert_eq!(run.tape_text(), p.tape, "{}", p.id);
    }
}

#[test]
fn follower_hw_lags_one_fetch_round_in_the_step_table_preset() {
    let mut run = preset("hw-leo-steps");
    run.history.seek(0);
    let mut saw_lag = false;
    for _ in 0..run.history.tape().len() {
        run.history.step_forward();
        let p = run.world().partition();
        if p.leo(2) == 1 && p.hw(1) == 1 && p.hw(2) == 0 {
            saw_lag = true;
        }
    }
    assert!(saw_lag, "the follower had the record while its HW still said 0 and the leader's said 1");
    let p = run.world().partition();
    assert_eq!((p.leo(1), p.hw(1), p.leo(2), p.hw(2)), (1, 1, 1, 1));
}

#[test]
fn acks_one_loses_acked_record_when_leader_dies() {
    let run = preset("loss-acks-1");
    let w = run.world();
    assert_eq!(w.partition().leader(), Some(2));
    assert_eq!(w.acked_lost(), vec![1, 2, 3], "all three were acknowledged by the leader alone");
    assert_eq!(w.ledger_summary().acked, 3);
}

#[test]
fn acks_all_with_min_insync_one_acks_on_the_leader_alone_after_the_isr_shrank() {
    let run = preset("loss-min-isr-1");
    assert!(logged(&run, |f| matches!(
        f,
        Fact::IsrUpdated { direction: IsrDirection::Shrinking, before, after, .. }
            if before == &[1, 2, 3] && after == &[1]
    )));
    let w = run.world();
    assert_eq!(w.acked_lost(), vec![2, 3, 4], "acked by an ISR of one, then gone with its page cache");
}

#[test]
fn min_insync_two_refuses_the_same_writes_and_loses_nothing() {
    let run = preset("safe-min-isr-2");
    assert!(logged(&run, |f| matches!(f, Fact::NotEnoughReplicas { isr_size: 1, min_insync_replicas: 2, .. })));
    let summary = run.world().ledger_summary();
    assert_eq!((summary.acked, summary.acked_lost), (0, 0));
}

#[test]
fn unclean_election_promotes_a_stale_replica_and_reuses_offsets() {
    let run = preset("loss-unclean");
    assert!(logged(&run, |f| matches!(f, Fact::UncleanLeaderElected { new: 2, .. })));
    let w = run.world();
    assert_eq!(w.acked_lost(), vec![1, 2, 3, 4, 5]);
    let leader_log = w.partition().replica(2).log.records();
    assert_eq!(
        leader_log.iter().map(|r| r.record_id).collect::<Vec<_>>(),
        vec![6, 7],
        "offsets 0 and 1 now hold new records"
    );
}

#[test]
fn lab2_acks_one_loses_some_acked_records_and_acks_all_loses_none() {
    let risky = preset("lab2-acks-1").world().ledger_summary();
    let safe = preset("lab2-acks-all").world().ledger_summary();
    assert_eq!((risky.sent, safe.sent), (1000, 1000));
    assert!(risky.acked_lost > 0, "acks=1: {risky:?}");
    assert_eq!(safe.acked_lost, 0, "acks=all + min.insync.replicas=2: {safe:?}");
    assert_eq!(safe.acked, 1000);
    assert!(safe.duplicated > 0, "retries without idempotence store some records twice: {safe:?}");
}

#[test]
fn lab3_unclean_election_brings_the_partition_back_without_the_thousand_records() {
    let run = preset("lab3-unclean");
    assert!(logged(&run, |f| matches!(f, Fact::StaysOffline)));
    let w = run.world();
    assert_eq!(w.partition().leader(), Some(2));
    assert_eq!(w.acked_lost().len(), 1000);
    assert!(!w.controller_view().unclean_leader_election, "the flag was turned back off");
}

#[test]
fn kip101_loss_with_leader_epoch_off_drops_a_committed_record() {
    let run = preset("kip101-loss-epoch-off");
    assert_eq!(run.world().acked_lost(), vec![4]);
    assert_eq!(run.world().partition().leo(1), 3);
}

#[test]
fn kip101_loss_with_leader_epoch_on_keeps_every_record() {
    let run = preset("kip101-loss-epoch-on");
    assert!(run.world().acked_lost().is_empty());
    assert_eq!((run.world().partition().leo(1), run.world().partition().leo(2)), (4, 4));
}

#[test]
fn kip101_divergence_with_leader_epoch_off_leaves_replicas_disagreeing() {
    let run = preset("kip101-divergence-epoch-off");
    let w = run.world();
    assert_eq!(w.divergent_offsets(), vec![1]);
    assert_eq!(w.partition().isr(), vec![1, 2], "the diverged replica is even back in the ISR");
}

#[test]
fn kip101_divergence_with_leader_epoch_on_truncates_the_divergent_suffix() {
    let run = preset("kip101-divergence-epoch-on");
    let w = run.world();
    assert!(w.divergent_offsets().is_empty());
    assert!(logged(&run, |f| matches!(
        f,
        Fact::Truncated {
            // 4.x: the returning broker-1's fetch is answered with a divergingEpoch.
            cause: TruncationCause::DivergingEpoch { epoch: 0, end_offset: 1, .. },
            truncation: Some(Truncation { from_leo: 2, to_offset: 1 }),
            ..
        }
    )));
    assert_eq!(w.partition().replica(1).role, Role::Follower { leader: Some(2), truncating: false });
}

#[test]
fn rf3_min_insync_two_keeps_writing_with_one_broker_down() {
    let run = preset("min-isr-2-one-down");
    let summary = run.world().ledger_summary();
    assert_eq!((summary.acked, summary.acked_lost, summary.pending), (10, 0, 0));
    assert_eq!(run.world().describe().under_replicated_partitions, 1);
}

#[test]
fn rf3_min_insync_two_refuses_writes_with_two_brokers_down() {
    let run = preset("min-isr-2-two-down");
    assert!(logged(&run, |f| matches!(f, Fact::NotEnoughReplicas { .. })));
    let w = run.world();
    let summary = w.ledger_summary();
    assert_eq!((summary.acked, summary.pending, summary.acked_lost), (5, 5, 0));
    assert_eq!(w.describe().under_min_isr_partitions, 1);
    let line = DescribeLine { topic: TOPIC, partition: 0, leader: Some(1), replicas: vec![1, 2, 3], isr: vec![1] };
    assert_eq!(w.describe().line, line);
    assert_eq!(line.to_string(), "Topic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1", "Kafka's own line");
}
