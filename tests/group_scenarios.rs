//! Consumer-group scenarios: the coordinator's state machine with its timeouts, eager vs
//! cooperative stop time, static membership, and what each commit mode loses or repeats.

use kafka_lab::model::group::{
    Command, CoordinatorFact, ErrorCode, Fact, GroupLab, GroupState, LeaveReason, MemberFact, RebalanceFact, Refusal,
};
use kafka_lab::model::kernel::{Actor, Fault, Input, Node, TokenError};
use kafka_lab::model::scene::{LabScene, Run, RunError};

mod support;
use support::groups::{command, run, states, wait};

fn facts(run: &Run<GroupLab>) -> Vec<(Actor, Fact)> {
    run.sim().log().iter().map(|e| (e.actor.clone(), e.fact.clone())).collect()
}

fn kill(member: u32) -> Command {
    Command::Fault(Fault::Crash(Node::Id(member)))
}

fn preset(id: &str) -> Run<GroupLab> {
    let preset = GroupLab::presets().iter().find(|p| p.id == id).expect("preset exists");
    Run::from_preset(preset).expect("preset runs")
}

fn total_lag(run: &Run<GroupLab>) -> i64 {
    (0..run.world().log_end_offsets().len() as u32).map(|p| run.world().lag(p)).sum()
}

#[test]
fn first_join_waits_for_the_initial_rebalance_delay_then_goes_stable() {
    let mut r = run("");
    wait(&mut r, 2000);
    assert_eq!(r.world().coordinator().state, GroupState::PreparingRebalance);
    wait(&mut r, 8000);
    assert_eq!(
        states(&r),
        vec![GroupState::Empty, GroupState::PreparingRebalance, GroupState::CompletingRebalance, GroupState::Stable]
    );
    let at = |s: GroupState| r.world().coordinator().transitions.iter().find(|(_, x, _)| *x == s).unwrap().0;
    // Three joiners extend group.initial.rebalance.delay.ms (3000) once: the join completes ~6 s in.
    assert!((6000..6100).contains(&at(GroupState::CompletingRebalance)), "{}", at(GroupState::CompletingRebalance));
    assert_eq!(r.world().coordinator().generation, 1);
    let owners: Vec<_> = r.world().describe().iter().map(|row| row.consumer_id.clone().unwrap()).collect();
    assert_eq!(owners.iter().collect::<std::collections::BTreeSet<_>>().len(), 3);
}

#[test]
fn a_crashed_member_is_expelled_only_after_session_timeout() {
    let mut r = run("session.timeout.ms=10000");
    wait(&mut r, 10_000);
    command(&mut r, kill(2));
    wait(&mut r, 7000);
    assert_eq!(
        r.world().coordinator().state,
        GroupState::Stable,
        "heartbeats stopped but the session has not expired yet"
    );
    wait(&mut r, 6000);
    assert!(facts(&r)
        .iter()
        .any(|(_, f)| matches!(f, Fact::Coordinator(CoordinatorFact::SessionExpired { timeout_ms: 10_000, .. }))));
    wait(&mut r, 10_000);
    assert_eq!(r.world().coordinator().state, GroupState::Stable);
    assert_eq!(r.world().coordinator().members.len(), 2);
    assert_eq!(r.world().coordinator().generation, 2);
}

#[test]
fn a_paused_member_longer_than_session_timeout_is_expelled_and_rejoins() {
    let mut r = run("");
    wait(&mut r, 10_000);
    command(&mut r, Command::Fault(Fault::Pause { node: Node::Id(1), duration_ms: Some(60_000) }));
    wait(&mut r, 90_000);
    let log = facts(&r);
    assert!(log.iter().any(|(_, f)| matches!(f, Fact::Coordinator(CoordinatorFact::SessionExpired { .. }))));
    assert!(log.iter().any(|(a, f)| *a == Actor::Member(1)
        && matches!(
            f,
            Fact::Rebalance(RebalanceFact::HeartbeatRejected { error: ErrorCode::UnknownMemberId })
                | Fact::Rebalance(RebalanceFact::PartitionsLost { .. })
        )));
    assert_eq!(r.world().coordinator().members.len(), 3, "the paused member rejoined");
    assert_eq!(r.world().coordinator().state, GroupState::Stable);
}

#[test]
fn a_stuck_member_beyond_max_poll_interval_leaves_while_heartbeats_continued() {
    let mut r = run("max.poll.interval.ms=20000");
    wait(&mut r, 10_000);
    command(&mut r, Command::Fault(Fault::Slow { node: Node::Id(2), delay_ms: 5000 }));
    // The batch in hand when it slows down can still finish in time; the next one cannot.
    wait(&mut r, 60_000);
    let log = facts(&r);
    assert!(log.iter().any(|(a, f)| *a == Actor::Member(2)
        && matches!(f, Fact::Member(MemberFact::PollTimeoutExpired { max_poll_interval_ms: 20_000, dynamic: true }))));
    assert!(log.iter().any(|(a, f)| *a == Actor::Coordinator
        && matches!(f, Fact::Coordinator(CoordinatorFact::MemberLeft { reason: LeaveReason::PollTimeout, .. }))));
    assert!(
        !log.iter().any(|(_, f)| matches!(f, Fact::Coordinator(CoordinatorFact::SessionExpired { .. }))),
        "session never expired: heartbeats kept flowing"
    );
}

#[test]
fn slow_consumer_lag_grows_while_the_fixes_keep_it_flat() {
    let slow = preset("slow-consumer");
    let history = &slow.world().lag_history()[0];
    assert!(history.last().unwrap().lag > history[20].lag + 50, "lag should keep growing");
    let loop_run = preset("rebalance-loop");
    assert!(loop_run.world().coordinator().generation >= 5, "the group keeps rebalancing");
    assert!(loop_run.world().ledger().total_duplicates() > 1000, "each successor redoes the batch");
    assert!(
        facts(&loop_run)
            .iter()
            .filter(|(_, f)| matches!(f, Fact::Member(MemberFact::PollTimeoutExpired { .. })))
            .count()
            >= 6
    );
    for fix in ["fix-fewer-records", "fix-longer-interval"] {
        let fixed = preset(fix);
        assert_eq!(fixed.world().coordinator().generation, 1, "{fix}: no rebalance after the first");
        assert!(
            total_lag(&fixed) * 2 < total_lag(&loop_run),
            "{fix}: lag {} vs loop {}",
            total_lag(&fixed),
            total_lag(&loop_run)
        );
    }
}

#[test]
fn eager_restart_stops_the_survivors_until_the_dead_member_expires_and_cooperative_does_not() {
    let eager = preset("eager-restart");
    let (per_member, total) = eager.world().stop_totals();
    assert_eq!(per_member.len(), 2, "both survivors stopped: {per_member:?}");
    assert!(per_member.iter().all(|(_, ms)| (30_000..46_000).contains(ms)), "{per_member:?}");
    assert!(total > 60_000);
    let coop = preset("cooperative-restart");
    assert_eq!(coop.world().stop_totals().1, 0, "cooperative: survivors keep processing");
    assert_eq!(coop.world().coordinator().state, GroupState::Stable);
    assert_eq!(coop.world().coordinator().generation, 2, "one rebalance: the dead member expires, the new one joins");
}

#[test]
fn static_member_restarting_within_session_timeout_keeps_its_partitions_without_rebalance() {
    let r = preset("static-restart");
    assert_eq!(r.world().coordinator().generation, 1, "no rebalance at all");
    assert!(facts(&r)
        .iter()
        .any(|(_, f)| matches!(f, Fact::Coordinator(CoordinatorFact::StaticMemberReplaced { instance_id, .. }) if instance_id == "instance-3")));
    let c3: Vec<u32> = r
        .world()
        .describe()
        .iter()
        .filter(|row| row.consumer_id.as_deref().is_some_and(|c| c.starts_with("instance-3-")))
        .map(|row| row.partition)
        .collect();
    assert_eq!(c3, vec![4, 5]);
    assert_eq!(r.world().stop_totals().1, 0);
}

#[test]
fn dead_static_member_is_detected_only_after_session_timeout() {
    let mut r = run("lab.static.membership=true");
    wait(&mut r, 10_000);
    command(&mut r, kill(3));
    wait(&mut r, 40_000);
    assert_eq!(r.world().coordinator().generation, 1, "still waiting for instance-3");
    wait(&mut r, 15_000);
    assert!(r.world().coordinator().generation >= 2);
    assert_eq!(r.world().coordinator().members.len(), 2);
}

#[test]
fn twelve_members_on_six_partitions_leave_six_idle() {
    let r = preset("twelve-on-six");
    assert_eq!(r.world().coordinator().members.len(), 12);
    assert_eq!(r.world().idle_member_count(), 6);
}

#[test]
fn auto_commit_with_worker_thread_handoff_loses_records_when_the_member_dies() {
    let r = preset("handoff-loss");
    assert!(r.world().ledger().total_lost() > 0, "committed-but-unprocessed records are lost");
}

#[test]
fn auto_commit_in_the_poll_loop_repeats_records_but_loses_none_on_a_crash() {
    let mut r = run("auto.offset.reset=earliest,lab.process.ms.per.record=5");
    wait(&mut r, 20_000);
    command(&mut r, kill(1));
    wait(&mut r, 70_000);
    assert!(r.world().ledger().total_duplicates() > 0);
    assert_eq!(r.world().ledger().total_lost(), 0);
}

#[test]
fn commit_after_processing_repeats_only_the_unfinished_batch_and_commit_before_loses_it() {
    let config = "enable.auto.commit=false,auto.offset.reset=earliest,lab.process.ms.per.record=20,lab.producer.records.per.sec=120,lab.manual.commit=";
    let mut after = run(&format!("{config}after-processing"));
    let mut before = run(&format!("{config}before-processing"));
    for r in [&mut after, &mut before] {
        wait(r, 20_000);
        command(r, kill(1));
        wait(r, 120_000);
    }
    assert!(after.world().ledger().total_duplicates() > 0);
    assert_eq!(after.world().ledger().total_lost(), 0);
    assert!(before.world().ledger().total_lost() > 0);
    assert_eq!(before.world().ledger().total_duplicates(), 0);
}

#[test]
fn poison_pill_stalls_its_partition_while_the_others_flow() {
    let r = preset("poison-pill");
    let rows = r.world().describe();
    assert!(rows[2].lag.unwrap() > 500, "{rows:?}");
    assert!(rows.iter().filter(|row| row.partition != 2).all(|row| row.lag.unwrap() < 200), "{rows:?}");
}

#[test]
fn growing_partitions_is_noticed_at_the_leaders_metadata_refresh() {
    let mut r = run("metadata.max.age.ms=20000");
    wait(&mut r, 10_000);
    command(&mut r, Command::GrowPartitions(9));
    wait(&mut r, 30_000);
    assert_eq!(r.world().coordinator().assignment.values().map(Vec::len).sum::<usize>(), 9);
    assert!(r.world().coordinator().generation >= 2);
}

#[test]
fn bad_commands_are_refused_and_change_nothing() {
    let mut r = run("");
    wait(&mut r, 1000);
    let before = r.sim().trace_hash();
    let refused = |r: &mut Run<GroupLab>, command: Command| r.history.push(Input::Command(command)).unwrap_err();
    assert_eq!(refused(&mut r, kill(7)), Refusal::NoSuchMember { index: 7, members: 3 });
    assert_eq!(refused(&mut r, Command::GrowPartitions(3)), Refusal::PartitionCount { requested: 3, partitions: 6 });
    assert_eq!(refused(&mut r, Command::Fault(Fault::Restart(Node::Id(1)))), Refusal::AlreadyRunning { index: 1 });
    assert_eq!(
        refused(&mut r, Command::Fault(Fault::Pause { node: Node::Id(1), duration_ms: Some(0) })),
        Refusal::PauseDuration { duration_ms: 0 }
    );
    assert_eq!(refused(&mut r, Command::Fault(Fault::Crash(Node::Controller))), Refusal::FaultNotModelled);
    assert_eq!(refused(&mut r, Command::Poison(6)), Refusal::NoSuchPartition { partition: 6, partitions: 6 });
    assert_eq!(r.sim().trace_hash(), before);
    let err = Run::<GroupLab>::new(1, &[("heartbeat.interval.ms".into(), "50000".into())]).unwrap_err();
    let build = kafka_lab::model::kernel::Describe::message(&Refusal::HeartbeatNotBelowSession {
        heartbeat_interval_ms: 50_000,
        session_timeout_ms: 45_000,
    });
    assert_eq!(err, RunError::Build(build));
}

#[test]
fn adding_members_is_bounded_even_for_huge_counts() {
    let mut r = run("");
    for requested in [0, 30, u32::MAX] {
        assert_eq!(
            r.history.push(Input::Command(Command::AddMembers(requested))).unwrap_err(),
            Refusal::MemberCount { requested, members: 3 }
        );
    }
    command(&mut r, Command::AddMembers(29));
    assert_eq!(r.world().member_views(0).len(), 32);
}

#[test]
fn commands_round_trip_through_link_tokens() {
    for (c, token) in [
        (kill(2), "kill-2"),
        (Command::Fault(Fault::Restart(Node::Id(2))), "restart-2"),
        (Command::Fault(Fault::Pause { node: Node::Id(1), duration_ms: Some(60000) }), "pause-1-60000"),
        (Command::Fault(Fault::Slow { node: Node::Id(3), delay_ms: 15 }), "slow-3-15"),
        (Command::Poison(4), "poison-4"),
        (Command::AddMembers(2), "add-2"),
        (Command::Close(1), "close-1"),
        (Command::GrowPartitions(12), "partitions-12"),
    ] {
        assert_eq!(GroupLab::encode_command(&c), token);
        assert_eq!(GroupLab::decode_command(token).unwrap(), c, "{token}");
    }
    assert!(matches!(GroupLab::decode_command("explode-1"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(GroupLab::decode_command("stall-1"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(GroupLab::decode_command("add-x"), Err(TokenError::NotANumber { .. })));
}
#[test]
#[ignore = "prints the preset figures for the report"]
fn preset_figures() {
    for p in GroupLab::presets() {
        let r = Run::<GroupLab>::from_preset(p).unwrap();
        let w = r.world();
        println!(
            "{} gen={} state={:?} stops={:?} lag={} dup={} lost={} idle={}",
            p.id,
            w.coordinator().generation,
            w.coordinator().state,
            w.stop_totals(),
            total_lag(&r),
            w.ledger().total_duplicates(),
            w.ledger().total_lost(),
            w.idle_member_count()
        );
    }
}

#[test]
fn every_fact_of_every_preset_fills_its_template() {
    use kafka_lab::model::kernel::Describe;
    for p in GroupLab::presets() {
        let r = Run::<GroupLab>::from_preset(p).unwrap();
        for (actor, fact) in facts(&r) {
            let text = fact.message().to_string();
            assert!(!text.contains('{') && !text.is_empty(), "{}: {actor} {fact:?} → {text}", p.id);
        }
    }
}
