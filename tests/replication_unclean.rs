//! Unclean leader election in KRaft: the topic config is read by the controller's periodic
//! check (`unclean.leader.election.interval.ms`, 5 min), not at once; `kafka-leader-election
//! --election-type unclean` elects now, whatever the config says.

use kafka_lab::model::kernel::{Actor, Input};
use kafka_lab::model::replication::{Command, ElectionError, Fact, Replication};
use kafka_lab::model::scene::{LabScene, Run};

/// The ISR (broker 1) dies after broker 2 and 3; broker 2 comes back out of the ISR at 26 s.
/// The partition went offline at 25 s (broker 1 fenced).
const OFFLINE: &str = "kill-2.kill-3.w10000.produce-5.w6000.kill-1.w10000.restart-2.w10000";

fn run(tape: &str) -> Run<Replication> {
    Run::<Replication>::restore(1, &[], tape, None).expect("the tape replays")
}

fn unclean_elected_at(run: &Run<Replication>) -> Option<u64> {
    let log = run.sim().log();
    log.iter().find(|e| matches!(e.fact, Fact::UncleanLeaderElected { new: 2, .. })).map(|e| e.time_ms)
}

// Kafka: QuorumController.maybeScheduleNextElectUncleanLeaders / ReplicationControlManager.
// maybeElectUncleanLeaders. The check was scheduled when the partition went offline (25 s).
#[test]
fn turning_unclean_election_on_elects_at_the_next_periodic_check_not_at_once() {
    let mut run = run(&format!("{OFFLINE}.unclean-1.w60000"));
    assert_eq!(run.world().partition().leader(), None, "a minute after the config change, still offline");
    run.history.push(Input::Advance(240_000)).expect("time passes");
    assert_eq!(unclean_elected_at(&run), Some(25_000 + 300_000), "elected at the check, 5 min after going offline");
    assert_eq!(run.world().partition().leader(), Some(2));
    assert_eq!(run.world().acked_lost().len(), 5, "the records only broker 1 had are lost");
}

// Kafka: ReplicationControlManager.maybeTriggerUncleanLeaderElectionForLeaderlessPartitions skips
// topics with the config off; the check comes again every interval while the partition is leaderless.
#[test]
fn with_the_config_off_the_periodic_check_leaves_the_partition_offline() {
    let run = run(&format!("{OFFLINE}.w700000"));
    let checks = run.sim().log().iter().filter(|e| matches!(e.fact, Fact::UncleanCheck { enabled: false, .. }));
    let at: Vec<u64> = checks.map(|e| e.time_ms).collect();
    assert_eq!(at, vec![325_000, 625_000]);
    assert_eq!(run.world().partition().leader(), None);
}

// Kafka: ReplicationControlManager.electLeader with ElectionType.UNCLEAN (no topic-config check;
// ELECTION_NOT_NEEDED when the partition has a leader).
#[test]
fn kafka_leader_election_unclean_elects_now_even_with_the_config_off() {
    let run = run(&format!("{OFFLINE}.elect-unclean.w1000.elect-unclean"));
    assert_eq!(unclean_elected_at(&run), Some(36_000));
    assert!(!run.world().settings().unclean_leader_election, "the topic config stayed false");
    let failed = |e: &&kafka_lab::model::kernel::LogEntry<Fact>| {
        e.actor == Actor::Controller && e.fact == Fact::ElectLeadersFailed { error: ElectionError::ElectionNotNeeded }
    };
    assert_eq!(run.sim().log().iter().filter(failed).count(), 1, "the second request finds a leader");
}

#[test]
fn elect_unclean_is_a_link_token_and_unclean_1_still_means_the_config_change() {
    assert_eq!(Replication::decode_command("elect-unclean"), Ok(Command::ElectUncleanLeader));
    assert_eq!(Replication::encode_command(&Command::ElectUncleanLeader), "elect-unclean");
    assert_eq!(Replication::decode_command("unclean-1"), Ok(Command::SetUncleanElection(true)));
}
