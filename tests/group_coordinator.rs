//! The classic group coordinator's finer rules (Kafka 4.x `GroupMetadataManager`,
//! `ClassicGroup`, `ClassicGroupState`) and the client's `ConsumerCoordinator` around a join:
//! static members kept through a rebalance, KIP-394 member ids, pending-sync expiry, new-member
//! join timeouts, the session timeout range, the assignor list and auto-commit before a join.

use kafka_lab::model::group::assignor::AssignorKind;
use kafka_lab::model::group::{
    Command, Coordinator, CoordinatorFact, ErrorCode, Fact, GroupLab, GroupMember, GroupState, JoinMetadata,
    MemberFact, Protocol, RebalanceFact, RebalanceReason, Refusal, Settings, NEW_MEMBER_JOIN_TIMEOUT_MS,
};
use kafka_lab::model::kernel::{Actor, Describe, Fault, Node};
use kafka_lab::model::scene::{LabScene, Run, RunError};

mod support;
use support::groups::{command, run, states, wait};

fn facts(run: &Run<GroupLab>) -> Vec<(u64, Actor, Fact)> {
    run.sim().log().iter().map(|e| (e.time_ms, e.actor.clone(), e.fact.clone())).collect()
}

fn member_id_of(run: &Run<GroupLab>, index: u32) -> String {
    let coordinator = run.world().coordinator();
    coordinator.members.values().find(|m| m.client == index).map(|m| m.member_id.clone()).expect("in the group")
}

/// A killed static member, then a rebalance (C4 joins) that must not wait for it; the leader's
/// JoinGroup response is held back by pausing the live members, so CompletingRebalance lasts.
fn static_member_dead_through_a_rebalance(restart_c3_at_ms: Option<u64>) -> Run<GroupLab> {
    let mut r = run("lab.static.membership=true,max.poll.interval.ms=10000,session.timeout.ms=60000");
    wait(&mut r, 10_000);
    command(&mut r, Command::Fault(Fault::Crash(Node::Id(3))));
    command(&mut r, Command::AddMembers(1));
    wait(&mut r, 9_500);
    for member in [1, 2, 4] {
        command(&mut r, Command::Fault(Fault::Pause { node: Node::Id(member), duration_ms: Some(5_000) }));
    }
    if let Some(at_ms) = restart_c3_at_ms {
        wait(&mut r, at_ms - 19_500);
        command(&mut r, Command::Fault(Fault::Restart(Node::Id(3))));
    }
    wait(&mut r, 10_000);
    r
}

#[test]
fn a_static_member_that_misses_a_rebalance_is_kept_through_the_join() {
    // Kafka: GroupMetadataManager.completeClassicGroupJoin removes only dynamic members; the
    // kept one still owes a SyncGroup, so expirePendingSync removes it one rebalance timeout later.
    let mut r = static_member_dead_through_a_rebalance(None);
    let c3 = "instance-3";
    let log = facts(&r);
    let kept_at = log
        .iter()
        .find(|(_, _, f)| matches!(f, Fact::Coordinator(CoordinatorFact::StaticMemberKept { .. })))
        .map(|(t, _, _)| *t)
        .expect("the join completed without C3 and kept it");
    assert!(!log.iter().any(|(_, _, f)| matches!(f, Fact::Coordinator(CoordinatorFact::JoinTimedOut { .. }))));
    let coordinator = r.world().coordinator();
    assert_eq!(coordinator.state, GroupState::Stable);
    assert_eq!(coordinator.generation, 2);
    let c3_member = coordinator.members.values().find(|m| m.instance_id.as_deref() == Some(c3)).expect("kept");
    assert!(!coordinator.assignment[&c3_member.member_id].is_empty(), "C3's partitions wait for it");
    wait(&mut r, 10_000);
    let removed = facts(&r).into_iter().find_map(|(t, _, f)| match f {
        Fact::Coordinator(CoordinatorFact::SyncTimedOut { member_id }) => Some((t, member_id)),
        _ => None,
    });
    let (removed_at, member_id) = removed.expect("no SyncGroup from the dead C3");
    assert!(member_id.starts_with(c3));
    assert!((10_000..10_100).contains(&(removed_at - kept_at)), "{removed_at} - {kept_at}");
}

#[test]
fn a_static_member_rejoining_during_completing_rebalance_triggers_a_new_rebalance() {
    // Kafka: updateStaticMemberThenRebalanceOrCompleteJoin rebalances in CompletingRebalance.
    let r = static_member_dead_through_a_rebalance(Some(21_000));
    let log = facts(&r);
    let replaced = log
        .iter()
        .position(|(_, _, f)| matches!(f, Fact::Coordinator(CoordinatorFact::StaticMemberReplaced { .. })))
        .expect("C3 came back");
    let next = log[replaced..].iter().find_map(|(_, _, f)| match f {
        Fact::Coordinator(CoordinatorFact::PreparingRebalance { state, reason, .. }) => Some((*state, reason.clone())),
        _ => None,
    });
    assert!(
        matches!(next, Some((GroupState::CompletingRebalance, RebalanceReason::UpdatedMetadata { .. }))),
        "{next:?}"
    );
    assert_eq!(r.world().coordinator().state, GroupState::Stable);
    assert_eq!(r.world().coordinator().generation, 3);
}

#[test]
fn the_last_member_leaving_goes_through_preparing_rebalance_to_empty() {
    // Kafka: ClassicGroupState allows Empty only after PreparingRebalance.
    let mut r = run("lab.members=1");
    wait(&mut r, 10_000);
    command(&mut r, Command::Close(1));
    wait(&mut r, 1_000);
    let tail: Vec<GroupState> = states(&r).into_iter().rev().take(3).collect();
    assert_eq!(tail, vec![GroupState::Empty, GroupState::PreparingRebalance, GroupState::Stable]);
    assert_eq!(r.world().coordinator().generation, 2, "completing the empty join bumps the generation");
}

#[test]
fn a_new_dynamic_member_is_asked_to_rejoin_with_the_member_id_it_was_given() {
    // Kafka: classicGroupJoinNewDynamicMember (KIP-394); static members skip it.
    let mut r = run("");
    wait(&mut r, 10_000);
    let log = facts(&r);
    for index in 1..=3 {
        let id = member_id_of(&r, index);
        let required = log.iter().position(|(_, _, f)| {
            matches!(f, Fact::Coordinator(CoordinatorFact::MemberIdRequired { member_id, .. }) if *member_id == id)
        });
        let joined = log.iter().position(|(_, _, f)| {
            matches!(f, Fact::Coordinator(CoordinatorFact::JoinReceived { member_id, .. }) if *member_id == id)
        });
        assert!(required.is_some() && required < joined, "C{index}: MEMBER_ID_REQUIRED, then the join with that id");
    }
    let mut statics = run("lab.static.membership=true");
    wait(&mut statics, 10_000);
    assert!(!facts(&statics)
        .iter()
        .any(|(_, _, f)| matches!(f, Fact::Coordinator(CoordinatorFact::MemberIdRequired { .. }))));
    assert_eq!(statics.world().coordinator().state, GroupState::Stable);
}

#[test]
fn a_member_that_never_syncs_is_removed_even_after_the_group_went_stable() {
    // Kafka: expirePendingSync removes pending-sync members in CompletingRebalance or Stable.
    let mut r = run("max.poll.interval.ms=20000");
    wait(&mut r, 5_000);
    // C2 has joined; frozen, it sends no SyncGroup while the others complete the generation.
    command(&mut r, Command::Fault(Fault::Pause { node: Node::Id(2), duration_ms: Some(40_000) }));
    wait(&mut r, 25_000);
    let log = facts(&r);
    let stable_at = log
        .iter()
        .find(|(_, _, f)| matches!(f, Fact::Coordinator(CoordinatorFact::StateChanged { to: GroupState::Stable, .. })))
        .map(|(t, _, _)| *t)
        .expect("the others went Stable");
    let removed = log.iter().find(|(_, _, f)| matches!(f, Fact::Coordinator(CoordinatorFact::SyncTimedOut { .. })));
    let (removed_at, _, _) = removed.expect("C2 removed for not syncing");
    assert!(*removed_at > stable_at, "removed while Stable, {removed_at} > {stable_at}");
    assert!((20_000..20_100).contains(&(removed_at - 6_000)), "one rebalance timeout after the join: {removed_at}");
}

#[test]
fn a_new_members_parked_join_times_out_after_five_minutes() {
    // Kafka: addMemberThenRebalanceOrCompleteJoin reschedules a new member's heartbeat at
    // classicGroupNewMemberJoinTimeoutMs; hasSatisfiedHeartbeat is false for new members.
    let mut r = run("lab.members=2,max.poll.interval.ms=900000");
    wait(&mut r, 10_000);
    // C2 takes 10 min over its next record, so the rebalance C3 starts waits for it.
    command(&mut r, Command::Fault(Fault::Slow { node: Node::Id(2), delay_ms: 600_000 }));
    wait(&mut r, 1_000);
    command(&mut r, Command::AddMembers(1));
    wait(&mut r, NEW_MEMBER_JOIN_TIMEOUT_MS + 5_000);
    let expired = facts(&r).into_iter().find_map(|(t, _, f)| match f {
        Fact::Coordinator(CoordinatorFact::SessionExpired { timeout_ms, .. }) => Some((t, timeout_ms)),
        _ => None,
    });
    let (at_ms, timeout_ms) = expired.expect("C3's parked JoinGroup timed out");
    assert_eq!(timeout_ms, NEW_MEMBER_JOIN_TIMEOUT_MS);
    assert!((311_000..311_200).contains(&at_ms), "{at_ms}");
    assert_eq!(r.world().coordinator().state, GroupState::PreparingRebalance, "still waiting for C2");
}

#[test]
fn a_session_timeout_outside_the_brokers_range_is_refused_at_join_group() {
    // Kafka: GroupCoordinatorService.joinGroup answers INVALID_SESSION_TIMEOUT; the client's
    // JoinGroupResponseHandler treats it as fatal. The consumer config itself accepts 5000.
    let mut r = run("session.timeout.ms=5000,heartbeat.interval.ms=1000");
    wait(&mut r, 10_000);
    let log = facts(&r);
    let refused = log
        .iter()
        .filter(|(_, _, f)| {
            matches!(
                f,
                Fact::Coordinator(CoordinatorFact::SessionTimeoutRefused {
                    session_timeout_ms: 5000,
                    min_ms: 6000,
                    ..
                })
            )
        })
        .count();
    assert_eq!(refused, 3);
    let stopped = log
        .iter()
        .filter(|(_, _, f)| {
            matches!(f, Fact::Member(MemberFact::JoinFailed { error: ErrorCode::InvalidSessionTimeout }))
        })
        .count();
    assert_eq!(stopped, 3);
    assert_eq!(r.world().coordinator().state, GroupState::Empty);
    assert!(r.world().member_views(10_000).iter().all(|m| !m.alive));
    let mut lowered = run("session.timeout.ms=5000,heartbeat.interval.ms=1000,group.min.session.timeout.ms=5000");
    wait(&mut lowered, 10_000);
    assert_eq!(lowered.world().coordinator().state, GroupState::Stable);
}

#[test]
fn a_heartbeat_interval_not_below_the_session_timeout_fails_with_kafkas_message() {
    // Kafka: the client's Heartbeat constructor throws IllegalArgumentException.
    let overrides = kafka_lab::model::scene::parse_overrides("heartbeat.interval.ms=45000").unwrap();
    match Run::<GroupLab>::new(3, &overrides) {
        Err(RunError::Build(message)) => {
            assert_eq!(message.to_string(), "Heartbeat must be set lower than the session timeout");
        }
        other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
    }
    let refusal = Refusal::HeartbeatNotBelowSession { heartbeat_interval_ms: 45_000, session_timeout_ms: 45_000 };
    assert_eq!(refusal.message().to_string(), "Heartbeat must be set lower than the session timeout");
}

fn revocations(run: &Run<GroupLab>) -> Vec<Protocol> {
    facts(run)
        .into_iter()
        .filter_map(|(_, _, f)| match f {
            Fact::Rebalance(RebalanceFact::PartitionsRevoked { protocol, .. }) => Some(protocol),
            _ => None,
        })
        .collect()
}

fn assignors_run(run: &Run<GroupLab>) -> Vec<AssignorKind> {
    facts(run)
        .into_iter()
        .filter_map(|(_, _, f)| match f {
            Fact::Rebalance(RebalanceFact::AssignmentComputed { assignor, .. }) => Some(assignor),
            _ => None,
        })
        .collect()
}

const RANGE: &str = "org.apache.kafka.clients.consumer.RangeAssignor";
const COOP: &str = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor";

fn restart_c3(config: &str) -> Run<GroupLab> {
    let mut r = run(config);
    wait(&mut r, 10_000);
    command(&mut r, Command::Fault(Fault::Crash(Node::Id(3))));
    wait(&mut r, 1_000);
    command(&mut r, Command::Fault(Fault::Restart(Node::Id(3))));
    wait(&mut r, 80_000);
    r
}

#[test]
fn the_default_assignor_list_runs_range_eagerly_and_a_list_is_an_upgrade_path() {
    // Kafka: ConsumerConfig's default [RangeAssignor, CooperativeStickyAssignor]; ClassicGroup.selectProtocol
    // picks the first all members support; ConsumerCoordinator keeps the protocol all assignors share.
    let default = restart_c3("");
    assert!(assignors_run(&default).iter().all(|a| *a == AssignorKind::Range));
    assert!(revocations(&default).contains(&Protocol::Eager));
    let first_phase = restart_c3(&format!("partition.assignment.strategy={COOP},{RANGE}"));
    assert!(assignors_run(&first_phase).iter().all(|a| *a == AssignorKind::CooperativeSticky));
    assert!(revocations(&first_phase).iter().all(|p| *p == Protocol::Eager), "Range in the list keeps EAGER");
    let done = restart_c3(&format!("partition.assignment.strategy={COOP}"));
    assert!(revocations(&done).iter().all(|p| *p == Protocol::Cooperative));
}

#[test]
fn the_group_selects_the_assignor_every_member_supports_by_vote() {
    // Kafka: ClassicGroup.selectProtocol (candidates supported by all, one vote per member).
    let settings = Settings::from_config(&kafka_lab::model::config::Config::defaults(GroupLab::schema()));
    let mut coordinator = Coordinator::new(&settings);
    let member = |id: &str, protocols: Vec<AssignorKind>| GroupMember {
        member_id: id.to_string(),
        instance_id: None,
        client: 1,
        incarnation: 1,
        metadata: JoinMetadata { protocols, owned: vec![], generation: -1 },
        awaiting_join: true,
        awaiting_sync: false,
        is_new: false,
        pending_sync: false,
        session_deadline_ms: 0,
    };
    use AssignorKind::*;
    for (id, list) in
        [("a", vec![Range, CooperativeSticky]), ("b", vec![CooperativeSticky]), ("c", vec![CooperativeSticky])]
    {
        coordinator.members.insert(id.to_string(), member(id, list));
    }
    assert_eq!(coordinator.select_protocol(), Some(CooperativeSticky), "range is not supported by b and c");
    coordinator.members.insert("b".into(), member("b", vec![Range, CooperativeSticky]));
    coordinator.members.insert("c".into(), member("c", vec![RoundRobin, Range, CooperativeSticky]));
    assert_eq!(coordinator.select_protocol(), Some(Range), "two votes for range, one for cooperative-sticky");
}

fn add_a_third_member(assignor: &str) -> Run<GroupLab> {
    let mut r = run(&format!("lab.members=2,partition.assignment.strategy={assignor}"));
    wait(&mut r, 10_000);
    command(&mut r, Command::AddMembers(1));
    wait(&mut r, 20_000);
    r
}

#[test]
fn cooperative_revocation_commits_nothing_so_the_new_owner_repeats_the_records_since_the_join() {
    // Kafka: ConsumerCoordinator.onJoinPrepare auto-commits before every JoinGroup (both
    // protocols); onJoinComplete revokes cooperatively without committing.
    let cooperative = add_a_third_member(COOP);
    let repeated_by_c3 = facts(&cooperative)
        .into_iter()
        .filter(|(_, a, f)| *a == Actor::Member(3) && matches!(f, Fact::Member(MemberFact::RecordsReprocessed { .. })))
        .count();
    assert!(repeated_by_c3 > 0, "C3 repeats what C1/C2 processed after their pre-join commit");
    let duplicates = cooperative.world().ledger().total_duplicates();
    assert!((1..400).contains(&duplicates), "a few seconds of records: {duplicates}");
    // Eager members fetch nothing between that commit and revoking everything: nothing repeats.
    assert_eq!(add_a_third_member(RANGE).world().ledger().total_duplicates(), 0);
}

#[test]
fn the_leader_rejoining_in_stable_rebalances_to_assign_the_new_partitions() {
    // Kafka: classicGroupJoinExistingMember forces a rebalance when the leader rejoins in Stable
    // (followers with unchanged metadata are only answered with the current generation).
    let mut r = run("metadata.max.age.ms=5000");
    wait(&mut r, 10_000);
    command(&mut r, Command::GrowPartitions(12));
    wait(&mut r, 10_000);
    let reasons: Vec<RebalanceReason> = facts(&r)
        .into_iter()
        .filter_map(|(_, _, f)| match f {
            Fact::Coordinator(CoordinatorFact::PreparingRebalance { state: GroupState::Stable, reason, .. }) => {
                Some(reason)
            }
            _ => None,
        })
        .collect();
    assert!(matches!(reasons.first(), Some(RebalanceReason::LeaderRejoined { .. })), "{reasons:?}");
    assert_eq!(r.world().coordinator().assignment.values().map(Vec::len).sum::<usize>(), 12);
}
