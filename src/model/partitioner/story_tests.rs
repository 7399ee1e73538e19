//! What a learner notices in the partitioner's stories.

use super::{Command, Fact, Partitioner, WORKLOAD_RECORDS_PER_SEC};
use crate::model::kernel::{Input, Moment};
use crate::model::scene::{LabScene, Run, DEFAULT_SEED};
use crate::model::story::{Caption, Player, Tick};

fn preset_run(id: &str) -> Run<Partitioner> {
    let preset = Partitioner::presets().iter().find(|p| p.id == id).expect("a preset");
    Run::from_preset(preset).expect("the preset replays")
}

/// The result card's answer at the story's outcome, in English (and none one step before).
fn answer_at_outcome(id: &str) -> String {
    let mut run = preset_run(id);
    let story = Partitioner::story(Some(id));
    let outcome = story.outcome_position(&run.history).expect("the tape reaches the outcome");
    run.history.seek(outcome - 1);
    assert_eq!(story.verdict(&run.history).answer, None, "{id}: answered before the outcome");
    run.history.seek(outcome);
    story.verdict(&run.history).answer.expect("answered at the outcome").to_string()
}

fn caption_at(id: &str, position: usize) -> String {
    let mut run = preset_run(id);
    run.history.seek(position);
    match Partitioner::story(Some(id)).caption(&run.history) {
        Caption::Authored(message) => message.to_string(),
        other => panic!("{id}@{position}: not an authored caption: {other:?}"),
    }
}

#[test]
fn megacorp_busiest_partition_falls_only_with_the_composite_key() {
    assert_eq!(
        answer_at_outcome("megacorp"),
        "busiest partition per burst: 49.9 % on 6 partitions → 44.1 % on 12 partitions → 21.1 % with the composite key"
    );
    let run = preset_run("megacorp");
    let hot: Vec<usize> = run.world().rounds().iter().map(|r| r.report.partitions_with_hot_key().len()).collect();
    assert_eq!(hot, vec![1, 1, 5], "MEGACORP stays in one partition until the composite key");
}

#[test]
fn cliente_42_moves_to_orders_17_and_cancelled_overtakes_its_earlier_events() {
    assert_eq!(
        answer_at_outcome("cliente-42"),
        "cliente-42: orders-5 with 12 partitions → orders-17 with 24; 1 event of 3 processed before an earlier one \
         (cancelled before created, updated)"
    );
    let run = preset_run("cliente-42");
    let outcome = Partitioner::story(Some("cliente-42")).outcome_position(&run.history).unwrap();
    assert!(caption_at("cliente-42", outcome).starts_with("cancelled was processed first: orders-17 had nothing"));
}

#[test]
fn order_1001_moves_to_orders_6_and_shipped_is_processed_before_created() {
    let answer = answer_at_outcome("orderid-6-12");
    assert!(answer.starts_with("order-1001: orders-0 with 6 partitions → orders-6 with 12;"), "{answer}");
    assert!(answer.ends_with("(shipped before created, paid)"), "{answer}");
}

#[test]
fn sticky_batches_leave_by_linger_and_fill_only_with_a_longer_linger() {
    let answer = answer_at_outcome("sticky");
    assert!(
        answer.starts_with("24 batches of 5.0 records on average, 31.9 % of batch.size (0 full, 24 sent"),
        "{answer}"
    );
    let answer = answer_at_outcome("sticky-full-batches");
    assert!(
        answer.starts_with("10 batches of 15.0 records on average, 94.9 % of batch.size (9 full, 1 sent"),
        "{answer}"
    );
    let answer = answer_at_outcome("sticky-linger-0");
    assert!(answer.starts_with("120 batches of 1.0 records on average"), "{answer}");
}

#[test]
fn each_sticky_switch_is_a_key_moment_and_the_second_draw_repeats_the_partition() {
    let run = preset_run("sticky");
    let marks: Vec<usize> = run.history.marks().filter(|(_, m)| m.moment == Moment::Answer).map(|(p, _)| p).collect();
    let switches = run.world().sticky_timeline().switches.len();
    assert_eq!(marks.len(), switches);
    assert!(caption_at("sticky", marks[1]).contains("draws again and gets orders-0 once more"));
}

#[test]
fn play_on_a_fresh_scene_starts_a_steady_keyed_producer_and_records_appear() {
    let mut run = Run::<Partitioner>::new(DEFAULT_SEED, &[]).unwrap();
    let workload = <Partitioner as LabScene>::workload(run.sim()).expect("nothing runs on a fresh scene");
    assert_eq!(workload, Command::Stream(WORKLOAD_RECORDS_PER_SEC));
    run.history.push(Input::Command(workload)).unwrap();
    assert_eq!(<Partitioner as LabScene>::workload(run.sim()), None, "it runs now");
    let mut player = Player::new(&run.history);
    for _ in 0..10 {
        assert_eq!(player.tick(&mut run.history, 1.0, &[]), Tick::Moved);
    }
    let records: u64 = run.world().logs().iter().map(|log| log.end_offset).sum();
    assert!(records >= u64::from(WORKLOAD_RECORDS_PER_SEC) - 1, "one second of Play sent {records} records");
    let sent = run.sim().log().iter().filter(|e| matches!(e.fact, Fact::KeyedRecordSent { .. })).count();
    assert_eq!(sent as u64, records);
    assert!(run.tape_text().starts_with("stream-10"), "{}", run.tape_text());
}

#[test]
fn a_stream_link_replays_and_a_zero_rate_is_refused() {
    let run = Run::<Partitioner>::restore(DEFAULT_SEED, &[], "stream-4.w1000", None).unwrap();
    let sent = run.sim().log().iter().filter(|e| matches!(e.fact, Fact::KeyedRecordSent { .. })).count();
    assert_eq!(sent, 5, "at 0, 250, 500, 750 and 1000 ms");
    let refused = Run::<Partitioner>::restore(DEFAULT_SEED, &[], "stream-0", None).unwrap_err();
    assert!(refused.to_string().contains("1 to 1,000 records per second"), "{refused}");
}

#[test]
fn the_default_card_counts_the_records_as_they_arrive() {
    let mut run = Run::<Partitioner>::new(DEFAULT_SEED, &[]).unwrap();
    let story = Partitioner::story(None);
    let empty = story.verdict(&run.history).answer.unwrap().to_string();
    assert_eq!(empty, "6 partitions, no record yet");
    run.history.push(Input::Command(Command::Stream(WORKLOAD_RECORDS_PER_SEC))).unwrap();
    run.history.push(Input::Advance(2000)).unwrap();
    let answer = story.verdict(&run.history).answer.unwrap().to_string();
    assert!(answer.starts_with("21 records in 6 partitions; busiest orders-"), "{answer}");
    assert!(answer.ends_with("(an even split is 16.7 %)"), "{answer}");
}

#[test]
fn a_slow_broker_gets_about_half_an_even_share_and_the_captions_count_it() {
    // Kafka: BuiltInPartitioner.updatePartitionLoadStats (weights from RecordAccumulator.partitionReady).
    assert_eq!(
        answer_at_outcome("adaptive-slow-broker"),
        "broker 3 (orders-2, orders-5, 1000 ms per request): 550 of 3000 records (18.3 %; an even share is 33.3 %)"
    );
    let caption = caption_at("adaptive-slow-broker", 2);
    assert!(caption.starts_with("1 s: orders-2, orders-5 got "), "{caption}");
    assert!(caption.contains("for broker 3"), "{caption}");
}

#[test]
fn an_availability_timeout_cuts_the_slow_brokers_share_again() {
    // Kafka: RecordAccumulator.partitionReady with partitionAvailabilityTimeoutMs > 0.
    assert_eq!(
        answer_at_outcome("adaptive-availability-timeout"),
        "broker 3 (orders-2, orders-5, 1000 ms per request): 215 of 3000 records (7.2 %; an even share is 33.3 %); \
         left out 4 times after partitioner.availability.timeout.ms = 100"
    );
}
