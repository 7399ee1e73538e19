//! What a learner notices in the overview's stories.

use super::{Cluster, Command};
use crate::model::kernel::{Fault, Input, Moment, Node};
use crate::model::scene::{LabScene, Run, DEFAULT_SEED};
use crate::model::story::Caption;

fn preset_run(id: &str) -> Run<Cluster> {
    let preset = Cluster::presets().iter().find(|p| p.id == id).expect("a preset");
    Run::from_preset(preset).expect("the preset replays")
}

fn caption_at(run: &mut Run<Cluster>, id: &str, position: usize) -> String {
    run.history.seek(position);
    match Cluster::story(Some(id)).caption(&run.history) {
        Caption::Authored(message) => message.to_string(),
        other => panic!("{id}@{position}: not an authored caption: {other:?}"),
    }
}

// Kafka: BrokerHeartbeatManager.nextCheckTimeNs (fenced broker.session.timeout.ms after the last
// heartbeat, sent every broker.heartbeat.interval.ms) and QuorumController.maybeScheduleNextBalancePartitionLeaders
// (the check is due leader.imbalance.check.interval.seconds after the fence that left the imbalance).
#[test]
fn leader_crash_is_fenced_after_the_session_timeout_and_led_again_at_the_imbalance_check() {
    let mut run = preset_run("leader-crash");
    let story = Cluster::story(Some("leader-crash"));
    let first = |moment: Moment| run.history.marks().find(|(_, m)| m.moment == moment).map(|(p, m)| (p, m.time_ms));
    assert_eq!(first(Moment::Fault), Some((4, 3_000)), "kill-1 after three seconds");
    assert_eq!(first(Moment::Fence), Some((12, 11_000)), "last heartbeat at 2 s + broker.session.timeout.ms = 9 s");
    let outcome = story.outcome_position(&run.history).unwrap();
    assert_eq!(run.history.marks().filter(|(p, _)| *p == outcome).count(), 2, "both of broker-1's partitions");
    assert!(caption_at(&mut run, "leader-crash", 4).contains("broker.session.timeout.ms = 9 s"));
    assert!(caption_at(&mut run, "leader-crash", outcome).contains("leader.imbalance.check.interval.seconds = 5 min"));
    run.history.seek(outcome);
    assert_eq!(
        story.verdict(&run.history).answer.unwrap().to_string(),
        "fenced 8 s after the crash, broker.session.timeout.ms after its last heartbeat at 2 s; \
         2 partitions changed leader; preferred leaders back at 5 min 11 s, 4 min 56 s after the restart"
    );
    let start = story.start_position(&run.history);
    run.history.seek(start);
    assert!(run.world().brokers().iter().all(|b| b.alive), "the story opens before the crash");
}

#[test]
fn burst_narrates_the_first_record_and_the_burst_and_names_the_busiest_partition() {
    let mut run = preset_run("burst");
    // Appends are routine: the timeline marks the story's two captions, not 600 appends.
    assert_eq!(run.history.marks().count(), 0);
    let beats: Vec<usize> =
        Cluster::story(Some("burst")).beat_positions(&run.history).iter().map(|(p, _)| *p).collect();
    assert_eq!(beats, vec![0, 1, 2]);
    assert!(caption_at(&mut run, "burst", 1).starts_with("The first record: key-95 goes to orders-2"));
    assert!(caption_at(&mut run, "burst", 2).starts_with("599 more records:"));
    let story = Cluster::story(Some("burst"));
    let answer = story.verdict(&run.history).answer.unwrap().to_string();
    let views = run.world().partition_views();
    let most = views.iter().map(|p| p.log_end_offset).max().unwrap();
    assert_eq!(views.iter().map(|p| p.log_end_offset).sum::<i64>(), 600);
    assert!(answer.starts_with(&format!("busiest orders-1: {most} of 600 records")), "{answer}");
    assert_eq!(answer, "busiest orders-1: 141 of 600 records (23.5 %) from 23 of the 100 keys; quietest orders-3: 78");
}

#[test]
fn the_default_card_reads_the_live_cluster() {
    let mut run = Run::<Cluster>::new(DEFAULT_SEED, &[]).unwrap();
    let story = Cluster::story(None);
    let answer = || story.verdict(&run.history).answer.unwrap().to_string();
    assert_eq!(answer(), "6 of 6 partitions have a leader, 0 under-replicated; no record acknowledged yet");
    run.history.push(Input::Command(Command::Fault(Fault::Crash(Node::Id(2))))).unwrap();
    run.history.push(Input::Advance(10_000)).unwrap();
    let answer = story.verdict(&run.history).answer.unwrap().to_string();
    assert!(answer.starts_with("6 of 6 partitions have a leader, 6 under-replicated;"), "{answer}");
}
