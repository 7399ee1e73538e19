//! The groups stories as a learner meets them: the figure each result card shows, where the key
//! moments fall, and what the captions say at them.

use super::{loop_verdict, story};
use crate::model::group::{CoordinatorFact, Fact, GroupLab, GroupState, RebalanceFact, PRESETS};
use crate::model::kernel::{Moment, Salience, Salient};
use crate::model::scene::Run;
use crate::model::story::{Caption, Cue, Story};

fn opened(id: &str) -> (Run<GroupLab>, Story<GroupLab>) {
    let preset = PRESETS.iter().find(|p| p.id == id).expect("preset exists");
    (Run::from_preset(preset).expect("preset runs"), story(Some(id)))
}

/// The result card's answer once Play reaches the outcome.
fn answer_at_outcome(id: &str) -> (Run<GroupLab>, String) {
    let (mut run, story) = opened(id);
    let at = story.outcome_position(&run.history).expect("the tape reaches the outcome");
    run.history.seek(at);
    let answer = story.verdict(&run.history).answer.expect("answered at the outcome").to_string();
    (run, answer)
}

fn caption_at(id: &str, cue: Cue) -> String {
    let (mut run, story) = opened(id);
    let at = cue.resolve(story.start_position(&run.history), &run.history).expect("cue on the tape");
    run.history.seek(at);
    match story.caption(&run.history) {
        Caption::Authored(message) => message.to_string(),
        other => panic!("{id}: no authored caption at {at}: {other:?}"),
    }
}

#[test]
fn eager_restart_reports_the_stop_of_each_member_and_labels_their_sum() {
    let (run, answer) = answer_at_outcome("eager-restart");
    assert_eq!(run.world().stop_totals(), (vec![(1, 41_947), (2, 41_907)], 83_854));
    assert!(
        answer
            .starts_with("stop per member: C1 41.947 s, C2 41.907 s (their sum, 1 min 23 s, is not a wall-clock time)"),
        "{answer}"
    );
    assert!(answer.contains("orders-4, orders-5 had no owner for 44.01 s"), "{answer}");
}

#[test]
fn cooperative_restart_keeps_the_survivors_processing_while_the_dead_members_partitions_wait() {
    let (run, answer) = answer_at_outcome("cooperative-restart");
    assert_eq!(run.world().stop_totals().1, 0);
    assert!(answer.starts_with("no member stopped: C1 0 ms, C2 0 ms"), "{answer}");
    assert!(answer.contains("orders-2, orders-5 had no owner, for 44.01 s"), "{answer}");
}

#[test]
fn the_crash_caption_names_the_session_timeout_the_coordinator_waits_for() {
    let caption = caption_at("eager-restart", Cue::Nth(Moment::Fault, 1));
    assert!(caption.contains("session.timeout.ms = 45 s"), "{caption}");
    let (run, story) = opened("eager-restart");
    let marks: Vec<(usize, Moment)> = run.history.marks().map(|(p, m)| (p, m.moment)).collect();
    assert!(marks.contains(&(2, Moment::Fault)) && marks.contains(&(5, Moment::RebalanceStart)), "{marks:?}");
    assert!(marks.contains(&(9, Moment::Expiry)) && marks.contains(&(9, Moment::RebalanceEnd)), "{marks:?}");
    assert_eq!(story.outcome_position(&run.history), Some(9), "the answer comes when the group is Stable again");
}

#[test]
fn rebalance_loop_gets_its_own_figures_and_is_never_called_stable() {
    let (mut run, answer) = answer_at_outcome("rebalance-loop");
    assert!(answer.starts_with("7 rebalances in 1 min 10 s (6.0 generations a minute)"), "{answer}");
    assert!(answer.contains("committed offsets moved by no record"), "{answer}");
    let end = run.history.tape().len();
    run.history.seek(end);
    let churn = run.world().churn(run.sim().now_ms());
    assert_eq!(run.world().coordinator().state, GroupState::Stable, "the coordinator itself says Stable");
    assert!(churn.looping && churn.rebalances == 17 && churn.unstable_ms > 60_000, "{churn:?}");
    let verdict = loop_verdict(run.sim()).expect("the loop has a verdict").to_string();
    assert!(verdict.starts_with("Rebalance loop:"), "{verdict}");
    // One round of poll timeouts is not yet a loop; the second one is.
    run.history.seek(2);
    assert!(loop_verdict(run.sim()).is_none());
    run.history.seek(4);
    assert!(loop_verdict(run.sim()).is_some());
}

#[test]
fn both_fixes_keep_one_generation_and_no_loop() {
    for id in ["fix-fewer-records", "fix-longer-interval"] {
        let (mut run, answer) = answer_at_outcome(id);
        assert!(answer.starts_with("no loop: generation 1, no poll timeout"), "{id}: {answer}");
        let end = run.history.tape().len();
        run.history.seek(end);
        let churn = run.world().churn(run.sim().now_ms());
        assert!(!churn.looping && churn.rebalances == 1, "{id}: {churn:?}");
    }
}

#[test]
fn handoff_loss_names_exactly_the_offsets_c1s_worker_never_reached() {
    let (run, answer) = answer_at_outcome("handoff-loss");
    assert!(
        answer.starts_with("committed but never processed: 137 records (orders-0 93–173, orders-1 81–136)"),
        "{answer}"
    );
    assert_eq!(run.world().ledger().total_lost(), 137, "the ledger agrees with the card");
}

#[test]
fn twelve_on_six_gives_six_owners_and_six_idle_members() {
    let (run, answer) = answer_at_outcome("twelve-on-six");
    assert!(answer.contains("6 members are idle"), "{answer}");
    assert!(answer.starts_with("orders-0 → C1, orders-1 → C10"), "{answer}");
    assert_eq!(run.world().idle_member_count(), 6);
}

#[test]
fn poison_pill_says_who_is_stuck_where_while_the_other_partitions_flow() {
    let (run, answer) = answer_at_outcome("poison-pill");
    assert!(answer.starts_with("C2 is stuck at orders-2 offset 148 after 156 failed attempts"), "{answer}");
    assert!(run.world().lag(2) > 100 && (0..6).filter(|p| *p != 2).all(|p| run.world().lag(p) < 20));
}

#[test]
fn static_restart_has_no_rebalance_even_after_the_session_timeout() {
    let (run, answer) = answer_at_outcome("static-restart");
    assert!(
        answer.starts_with("no rebalance after the first join (generation 1); C3 was back after 5.016 s"),
        "{answer}"
    );
    assert!(run.sim().now_ms() >= 10_000 + 45_000, "the outcome is past the old session's deadline");
}

#[test]
fn slow_consumer_lag_grows_by_the_gap_between_production_and_processing() {
    let (_, answer) = answer_at_outcome("slow-consumer");
    // 20 records a second arrive and at most 10 are processed: at least 600 a minute more lag
    // (more while a long batch runs, since LAG counts from the last committed offset).
    let grown: i64 = answer.split(", up ").nth(1).and_then(|s| s.split(' ').next()).unwrap().parse().unwrap();
    assert!((600..1200).contains(&grown), "{answer}");
}

#[test]
fn heartbeats_fold_away_and_rebalances_mark_the_timeline() {
    let noticed = Fact::Rebalance(RebalanceFact::RebalanceNoticed);
    assert_eq!(noticed.salience(), Salience::Routine);
    let stable = Fact::Coordinator(CoordinatorFact::StateChanged {
        from: GroupState::CompletingRebalance,
        to: GroupState::Stable,
        generation: 2,
    });
    assert_eq!(stable.salience(), Salience::Key(Moment::RebalanceEnd));
}
