//! What a learner notices in the log scene's stories: the answers at each outcome, where the
//! key moments fall, the captions at them, and the steady workload of the default scene.

use super::{Command, Fact, LogLab, LookupResult};
use crate::model::kernel::{Input, Moment, Salience, Salient};
use crate::model::scene::{LabScene, Run};
use crate::model::story::{Caption, Cue};

fn preset_run(id: &str) -> Run<LogLab> {
    let preset = LogLab::presets().iter().find(|p| p.id == id).expect("a log preset");
    Run::from_preset(preset).expect("the preset replays")
}

/// The answer card's text at the story's outcome.
fn answer_at_outcome(run: &mut Run<LogLab>, id: &str) -> String {
    let story = LogLab::story(Some(id));
    let outcome = story.outcome_position(&run.history).expect("the tape reaches the outcome");
    run.history.seek(outcome);
    story.verdict(&run.history).answer.expect("answered at the outcome").to_string()
}

fn caption_at(run: &mut Run<LogLab>, id: &str, position: usize) -> String {
    run.history.seek(position);
    match LogLab::story(Some(id)).caption(&run.history) {
        Caption::Authored(message) => message.to_string(),
        Caption::Fact { fact, .. } => fact.to_string(),
        Caption::Idle => String::new(),
    }
}

fn marks_of(run: &Run<LogLab>, moment: Moment) -> Vec<usize> {
    run.history.marks().filter(|(_, m)| m.moment == moment).map(|(p, _)| p).collect()
}

#[test]
fn lab1_segments_one_segment_at_the_default_then_a_roll_every_mebibyte() {
    let mut run = preset_run("lab1-segments");
    let answer = answer_at_outcome(&mut run, "lab1-segments");
    let log = run.world().log();
    assert_eq!(log.segments()[0].record_count(), 100_000, "1 GiB holds the whole first burst");
    let rolls = marks_of(&run, Moment::Roll);
    assert_eq!(rolls.len(), log.segments().len() - 1, "every segment after the first is a roll on the timeline");
    assert!(rolls.iter().all(|&p| p == 5), "the rolls come with the second burst only: {rolls:?}");
    let per = log.segments()[1].record_count();
    assert!((1000..1024).contains(&per), "1 MiB holds about a thousand 1 KiB records: {per}");
    let expected = format!("{} segments: the first holds 100,000 records", log.segments().len());
    assert!(answer.starts_with(&expected), "{answer}");
    let per_text = format!("{},{:03}", per / 1000, per % 1000);
    assert!(answer.contains(&format!("{} rolls, about {per_text} records per segment", rolls.len())), "{answer}");
}

#[test]
fn find_368500_names_the_segment_the_index_slot_and_the_scan() {
    let mut run = preset_run("find-368500");
    let answer = answer_at_outcome(&mut run, "find-368500");
    let Some(LookupResult::Offset(Ok(found))) = run.world().last_lookup() else { panic!("the lookup found 368500") };
    assert_eq!(found.segment_base_offset, 368_421, "the Portuguese note's segment 368421");
    assert!(found.index_entry.0 <= 368_500 && found.found_batch.last_offset >= 368_500);
    let segment = run.world().log().segments().iter().find(|s| s.base_offset() == 368_421).unwrap();
    let slot = segment.offset_index().iter().position(|e| e == found.index_entry).unwrap();
    let expected = format!(
        "00000000000000368421.log; .index slot {slot} of {} entries: {} → byte {}",
        found.index_entries, found.index_entry.0, found.index_entry.1
    );
    assert!(answer.starts_with(&expected), "{answer}");
    assert!(answer.contains(&format!("to the batch at byte {}", found.found_batch.position)), "{answer}");
    assert_eq!(marks_of(&run, Moment::Roll), vec![4], "segment 368421 rolls with the second burst");
    assert_eq!(marks_of(&run, Moment::Answer), vec![5], "the lookup is the result on the timeline");
}

#[test]
fn low_traffic_trap_deletes_nothing_in_a_day_and_says_why_once() {
    let mut run = preset_run("low-traffic-trap");
    let held: Vec<_> = run.sim().log().iter().filter(|e| matches!(e.fact, Fact::RetentionHeldBack { .. })).collect();
    assert_eq!(held.len(), 1, "said once for the one active segment");
    // The first check after the first record (t = 60 s) is an hour old: 30 s + 13 × 5 min.
    assert_eq!(held[0].time_ms, 3_930_000);
    assert_eq!(marks_of(&run, Moment::Expiry), vec![2]);
    assert!(marks_of(&run, Moment::Deletion).is_empty());
    let caption = caption_at(&mut run, "low-traffic-trap", 2);
    assert!(caption.contains("the active segment's newest was 30 s old"), "{caption}");
    let at_outcome = answer_at_outcome(&mut run, "low-traffic-trap");
    assert!(at_outcome.starts_with("nothing deleted in 2 h with retention.ms = 1 h"), "{at_outcome}");
    run.history.seek(run.history.tape().len());
    let at_end = LogLab::story(Some("low-traffic-trap")).verdict(&run.history).answer.unwrap().to_string();
    assert_eq!(
        at_end,
        "nothing deleted in 1 d with retention.ms = 1 h: 1,440 records in 1 segment, the oldest 23 h 59 min old"
    );
}

#[test]
fn low_traffic_fixed_first_deletes_after_retention_plus_a_segment_ms() {
    let mut run = preset_run("low-traffic-fixed");
    let deletions = marks_of(&run, Moment::Deletion);
    assert_eq!(deletions.first(), Some(&2), "the first deletion falls in the second hour");
    assert_eq!(marks_of(&run, Moment::Roll).first(), Some(&1), "segment.ms rolls within the first hour");
    assert!(marks_of(&run, Moment::Expiry).is_empty(), "closed segments expire: nothing is held back");
    let first_ms = run.sim().log().iter().find(|e| matches!(e.fact, Fact::SegmentsDeleted { .. })).unwrap().time_ms;
    assert!((3_600_000..=3_600_000 + 600_000 + 300_000 + 60_000).contains(&first_ms), "{first_ms}");
    let answer = answer_at_outcome(&mut run, "low-traffic-fixed");
    let deleted: usize = run
        .sim()
        .log()
        .iter()
        .map(|e| match &e.fact {
            Fact::SegmentsDeleted { base_offsets, .. } => base_offsets.len(),
            _ => 0,
        })
        .sum();
    assert!(answer.starts_with(&format!("first deletion at 1 h 15 min; {deleted} segments (")), "{answer}");
    assert!(answer.contains("deleted in 2 h; the oldest record on disk is 1 h 04 min old"), "{answer}");
}

#[test]
fn tombstone_resurrection_names_the_key_that_came_back_and_delete_retention_ms() {
    let mut run = preset_run("tombstone-resurrection");
    let answer = answer_at_outcome(&mut run, "tombstone-resurrection");
    assert_eq!(run.world().reader_view().unwrap().resurrected_keys, vec![426]);
    assert!(
        answer.starts_with("key-426 came back: its tombstone (offset 10000) was kept only delete.retention.ms = 1 min")
    );
    assert!(answer.contains("removed at 1 min 45 s, before the reader"), "{answer}");
    let cleanings = marks_of(&run, Moment::Cleaning);
    assert_eq!(cleanings, vec![6, 8], "the pass that sets the horizon, then the one that drops the tombstone");
    let caption = caption_at(&mut run, "tombstone-resurrection", 7);
    assert!(caption.contains("delete horizon at 1 min 15 s"), "{caption}");
}

#[test]
fn presets_open_on_their_first_command_or_at_zero() {
    for preset in LogLab::presets() {
        let run = Run::<LogLab>::preset_at_start(preset).unwrap();
        let story = LogLab::story(Some(preset.id));
        assert!(run.history.position() <= 1, "{}", preset.id);
        assert!(story.outcome_position(&run.history).is_some_and(|o| o > run.history.position()), "{}", preset.id);
        assert!(!matches!(story.outcome, Cue::Start), "{}: a preset's answer waits for its moment", preset.id);
    }
}

#[test]
fn default_scene_workload_starts_a_steady_producer_whose_appends_fill_and_roll_a_segment() {
    let mut run = Run::<LogLab>::new(1, &[]).unwrap();
    let workload = LogLab::workload(run.sim()).expect("a fresh scene has nothing producing");
    assert_eq!(LogLab::encode_command(&workload), "steady-0-1024");
    assert_eq!(LogLab::decode_command("steady-0-1024"), Ok(workload.clone()));
    run.history.push(Input::Command(workload)).unwrap();
    assert_eq!(LogLab::workload(run.sim()), None, "something is producing now");
    run.history.push(Input::Advance(1_000)).unwrap();
    let after_one_s = run.world().log().log_end_offset();
    assert!((9_000..=10_020).contains(&after_one_s), "lab.producer.records.per.sec = 10,000: {after_one_s}");
    run.history.push(Input::Advance(119_000)).unwrap();
    assert!(run.world().log().segments().len() >= 2, "a 1 GiB segment fills in under two minutes");
    assert!(!marks_of(&run, Moment::Roll).is_empty());
    let started = run.sim().log().iter().find(|e| matches!(e.fact, Fact::ProducerStarted { .. }));
    assert!(started.is_some_and(|e| e.fact.salience() == Salience::Notable), "the event log shows it started");
}

#[test]
fn workload_on_a_compacted_topic_sends_keys_and_none_while_the_trickle_runs() {
    let compacted = Run::<LogLab>::new(1, &[("cleanup.policy".into(), "compact".into())]).unwrap();
    let Some(Command::StartProducer { keys, .. }) = LogLab::workload(compacted.sim()) else { panic!("a workload") };
    assert!(keys > 0, "a compacted topic refuses null keys");
    let mut compacted = compacted;
    assert!(compacted.history.push(Input::Command(Command::StartProducer { keys, value_bytes: 1024 })).is_ok());
    let trickle = Run::<LogLab>::new(1, &[("lab.trickle.interval.ms".into(), "60000".into())]).unwrap();
    assert_eq!(LogLab::workload(trickle.sim()), None, "the trickle already produces");
}
