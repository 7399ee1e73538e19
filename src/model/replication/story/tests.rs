//! What a learner notices in the replication presets' stories.

use super::{id_ranges, story};
use crate::model::kernel::{Input, Moment};
use crate::model::replication::{Command, Replication};
use crate::model::scene::{LabScene, Run};
use crate::model::story::Caption;

fn run(id: &str) -> Run<Replication> {
    let preset = Replication::presets().iter().find(|p| p.id == id).expect("preset exists");
    Run::from_preset(preset).expect("preset builds")
}

/// The result card's answer (English) at the story's outcome, and that position.
fn answer_at_outcome(id: &str) -> (usize, String) {
    let mut run = run(id);
    let story = story(Some(id));
    let outcome = story.outcome_position(&run.history).expect("the tape reaches the outcome");
    run.history.seek(outcome);
    (outcome, story.verdict(&run.history).answer.expect("answered at the outcome").to_string())
}

fn caption_at(run: &mut Run<Replication>, id: &str, position: usize) -> String {
    run.history.seek(position);
    match story(Some(id)).caption(&run.history) {
        Caption::Authored(message) => message.to_string(),
        Caption::Fact { fact, .. } => fact.to_string(),
        Caption::Idle => String::new(),
    }
}

#[test]
fn lab2_with_acks_1_loses_seven_acknowledged_records_when_broker_2_takes_over() {
    let (outcome, answer) = answer_at_outcome("lab2-acks-1");
    assert_eq!(answer, "acked and lost: 7 of 1,000 (#490–#496)");
    let r = run("lab2-acks-1");
    let election = r.history.marks().find(|(_, m)| m.moment == Moment::Election).map(|(p, _)| p);
    assert_eq!(Some(outcome), election, "the answer comes with the election");
}

#[test]
fn lab2_with_acks_all_loses_nothing_but_stores_retried_records_twice() {
    let (_, answer) = answer_at_outcome("lab2-acks-all");
    assert!(answer.starts_with("acked and lost: 0 of 1,000; "), "{answer}");
    assert!(answer.contains("records stored twice by retries (enable.idempotence=false)"), "{answer}");
}

#[test]
fn hw_leo_steps_shows_the_follower_holding_the_record_with_hw_0_then_learning_hw_1_one_fetch_later() {
    let mut r = run("hw-leo-steps");
    let fetched = caption_at(&mut r, "hw-leo-steps", 5);
    assert_eq!(
        fetched,
        "The follower now has the record (LEO 1), but its HW is still 0: it learns the new HW one fetch later."
    );
    let (outcome, answer) = answer_at_outcome("hw-leo-steps");
    assert_eq!(outcome, 10);
    assert_eq!(
        answer,
        "broker-2 had the record at 400 ms, but its HW reached it only at 1.1 s: one fetch later (leader HW 1, follower HW 1)"
    );
    let learned = caption_at(&mut r, "hw-leo-steps", 10);
    assert!(learned.ends_with("= 1. Both replicas now agree the record is committed."), "{learned}");
}

#[test]
fn loss_acks_1_caption_at_the_crash_names_the_session_timeout_and_the_election_loses_all_three() {
    let mut r = run("loss-acks-1");
    let crash = caption_at(&mut r, "loss-acks-1", 6);
    assert!(crash.contains("broker-1 crashed") && crash.contains("broker.session.timeout.ms = 9 s"), "{crash}");
    let (_, answer) = answer_at_outcome("loss-acks-1");
    assert_eq!(answer, "acked and lost: 3 of 3 (#1–#3)");
}

#[test]
fn loss_unclean_loses_nothing_while_offline_and_everything_broker_1_took_at_the_unclean_election() {
    let mut r = run("loss-unclean");
    let offline = caption_at(&mut r, "loss-unclean", 7);
    assert!(offline.contains("(acked and lost: 0 of 5)"), "{offline}");
    let (outcome, answer) = answer_at_outcome("loss-unclean");
    assert_eq!(outcome, 8);
    assert_eq!(answer, "acked and lost: 5 of 5 (#1–#5)");
}

#[test]
fn min_isr_1_loses_the_records_only_broker_1_had_in_its_page_cache_and_min_isr_2_refuses_them() {
    assert_eq!(answer_at_outcome("loss-min-isr-1").1, "acked and lost: 3 of 4 (#2–#4)");
    let (_, safe) = answer_at_outcome("safe-min-isr-2");
    assert!(safe.starts_with("acked and lost: 0 of 0; 4 records never acknowledged"), "{safe}");
}

#[test]
fn lab3_waits_offline_until_unclean_elections_are_switched_on_then_loses_the_burst() {
    let (_, answer) = answer_at_outcome("lab3-unclean");
    assert_eq!(answer, "offline for 16 s until the unclean election; then acked and lost: 1,000 of 1,000 (#1–#1000)");
}

#[test]
fn kip101_leader_epoch_keeps_the_record_a_truncation_to_the_hw_loses() {
    assert!(answer_at_outcome("kip101-loss-epoch-off").1.starts_with("acked and lost: 1 of 4 (#4): "));
    assert!(answer_at_outcome("kip101-loss-epoch-on").1.starts_with("acked and lost: 0 of 4: "));
}

#[test]
fn kip101_divergence_with_the_epoch_says_it_fixed_consistency_but_not_the_loss() {
    let (_, off) = answer_at_outcome("kip101-divergence-epoch-off");
    assert!(off.starts_with("the replicas disagree at offset 1, and both count as in sync;"), "{off}");
    let (_, on) = answer_at_outcome("kip101-divergence-epoch-on");
    assert!(on.starts_with("the leader epoch fixed consistency"), "{on}");
    assert!(on.contains("It cannot undo the loss: acked and lost: 1 of 3 (#2)"), "{on}");
    assert!(run("kip101-divergence-epoch-on").world().divergent_offsets().is_empty());
}

#[test]
fn min_isr_2_acknowledges_with_one_broker_down_and_refuses_with_two() {
    assert_eq!(
        answer_at_outcome("min-isr-2-one-down").1,
        "ISR 1,2 with min.insync.replicas=2: 10 of 10 records acknowledged; none refused"
    );
    assert_eq!(
        answer_at_outcome("min-isr-2-two-down").1,
        "ISR 1 with min.insync.replicas=2: 5 of 10 records acknowledged; 5 refused with NOT_ENOUGH_REPLICAS"
    );
}

#[test]
fn lost_ids_fold_into_runs() {
    assert_eq!(id_ranges(&[490, 491, 492, 496, 498, 499]), "#490–#492, #496, #498–#499");
    assert_eq!(id_ranges(&[1, 3, 5, 7, 9]), "#1, #3, #5, #7, …");
}

#[test]
fn play_on_a_fresh_replication_scene_starts_a_steady_producer_and_the_hw_follows() {
    let mut run = Run::<Replication>::new(1, &[]).expect("defaults build");
    let load = Replication::workload(run.history.current()).expect("a fresh scene gets a workload");
    assert_eq!(Replication::encode_command(&load), "load-5");
    assert_eq!(Replication::decode_command("load-5"), Ok(load.clone()));
    run.history.push(Input::Command(load.clone())).expect("the workload starts");
    run.history.push(Input::Advance(3_000)).expect("time passes");
    let world = run.world();
    let leader = world.replica_views().into_iter().find(|v| v.broker == 1).expect("leader");
    assert!(leader.log_end_offset >= 10 && leader.high_watermark >= 10, "{leader:?}");
    assert!(world.replica_views().iter().all(|v| v.log_end_offset >= leader.high_watermark));
    assert_eq!(world.ledger_summary().acked_lost, 0);
    assert_eq!(Replication::workload(run.history.current()), None, "once it produces, no second workload");
    assert!(run.history.push(Input::Command(load)).is_err(), "a second load is refused");
}

#[test]
fn a_preset_that_already_produces_gets_no_workload() {
    assert_eq!(Replication::workload(run("lab2-acks-1").history.current()), None);
    assert_eq!(Replication::workload(run("hw-leo-steps").history.current()), None);
    let produce = Command::Produce { records: 1 };
    assert_eq!(Replication::encode_command(&produce), "produce-1");
}

/// The position of a preset's first key moment of `moment`.
fn first(r: &Run<Replication>, moment: Moment) -> usize {
    r.history.marks().find(|(_, m)| m.moment == moment).map(|(p, _)| p).expect("the moment happens")
}

// Kafka: AbstractFetcherThread.truncateOnFetchResponse (4.x) against maybeTruncate (0.11–2.6).
#[test]
fn kip101_captions_tell_the_4x_fetch_with_its_diverging_epoch() {
    let mut r = run("kip101-divergence-epoch-on");
    let at = first(&r, Moment::Deletion);
    let cut = caption_at(&mut r, "kip101-divergence-epoch-on", at);
    assert!(cut.starts_with("broker-1 fetches with lastFetchedEpoch=0; the leader answers divergingEpoch: epoch 0 ends at offset 1, so broker-1 truncates to 1"), "{cut}");
    let mut r = run("kip101-loss-epoch-on");
    let at = first(&r, Moment::IsrExpand);
    let back = caption_at(&mut r, "kip101-loss-epoch-on", at);
    assert!(back.contains("on the leader epoch 0 ends at offset 4, not before its fetch offset"), "{back}");
}
