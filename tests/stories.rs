//! Every preset tells its story: it opens before its moment, Play reaches the outcome within
//! 20 s of real time at the preset's speed, the captions change along the way, and the result
//! card's answer is the model's (checked against `tests/golden/stories.txt`, which the browser
//! tests also read).

use kafka_lab::link::LinkState;
use kafka_lab::scenes::{StoryReport, SCENES};

/// The longest a preset may take, from its start to its outcome, at its own speed.
const MAX_REAL_MS: u64 = 20_000;

fn reports() -> Vec<(String, Option<&'static str>, StoryReport)> {
    let mut out = Vec::new();
    for scene in SCENES {
        let default = LinkState { scene: Some(scene.id.to_string()), ..Default::default() };
        let report = (scene.story)(&default).unwrap_or_else(|why| panic!("{}: {why}", scene.id));
        out.push((scene.id.to_string(), None, report));
        for preset in (scene.presets)() {
            let link = LinkState { preset: Some(preset.id.to_string()), ..default.clone() };
            let report = (scene.story)(&link).unwrap_or_else(|why| panic!("{}/{}: {why}", scene.id, preset.id));
            out.push((scene.id.to_string(), Some(preset.id), report));
        }
    }
    out
}

fn unfilled(text: &str) -> bool {
    text.split('{').skip(1).any(|rest| {
        rest.split('}').next().is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
    })
}

#[test]
fn every_preset_opens_before_its_outcome_and_play_reaches_it_in_twenty_seconds() {
    for (scene, preset, r) in reports() {
        let Some(preset) = preset else { continue };
        let outcome = r.outcome.unwrap_or_else(|| panic!("{scene}/{preset}: the tape never reaches the outcome"));
        assert!(r.start < outcome, "{scene}/{preset}: opens at {} but the answer is reached at {outcome}", r.start);
        assert!(
            kafka_lab::model::story::SPEEDS.contains(&r.speed),
            "{scene}/{preset}: speed {} is not offered",
            r.speed
        );
        let real_ms =
            r.real_ms_to_outcome.unwrap_or_else(|| panic!("{scene}/{preset}: Play never reaches the outcome"));
        assert!(
            real_ms <= MAX_REAL_MS,
            "{scene}/{preset}: Play at {}× needs {real_ms} ms to reach the outcome",
            r.speed
        );
    }
}

#[test]
fn every_preset_marks_its_key_moments_and_narrates_them() {
    for (scene, preset, r) in reports() {
        let Some(preset) = preset else { continue };
        // The timeline marks the model's key moments and the story's authored captions.
        let marked = r.marks.iter().map(|(p, _)| *p).chain(r.beats.iter().map(|(p, _)| *p)).any(|p| p > r.start);
        assert!(marked, "{scene}/{preset}: no key moment on the timeline after the start");
        assert!(!r.beats.is_empty(), "{scene}/{preset}: no authored caption");
        let distinct: std::collections::BTreeSet<&String> = r.captions.iter().collect();
        assert!(distinct.len() >= 3, "{scene}/{preset}: the caption hardly changes: {distinct:?}");
        for (position, caption) in &r.beats {
            assert!(!unfilled(caption), "{scene}/{preset}: caption at {position} has a hole: {caption}");
        }
    }
}

#[test]
fn the_result_card_asks_a_question_and_the_model_answers_it() {
    for (scene, preset, r) in reports() {
        let name = format!("{scene}/{}", preset.unwrap_or("(default)"));
        let answer = r.answer_at_end.as_deref().unwrap_or_else(|| panic!("{name}: no answer at the end"));
        for text in [&r.question, &r.watch, &answer.to_string()] {
            assert!(!text.trim().is_empty() && !unfilled(text), "{name}: {text:?}");
        }
        assert_ne!(answer, r.watch, "{name}: the answer only repeats what to watch for");
    }
}

/// The answers at the end of every story; rewrite deliberately with `UPDATE_GOLDEN=1`.
#[test]
fn answers_match_the_golden_file() {
    let mut text = String::from(
        "# scene/preset | opens at | tape length | first marker after the start | the answer at the end (English)\n",
    );
    for (scene, preset, r) in reports() {
        let answer = r.answer_at_end.unwrap_or_default();
        let marked = r.marks.iter().map(|(p, _)| *p).chain(r.beats.iter().map(|(p, _)| *p));
        let next_mark = marked.filter(|&p| p > r.start).min().map_or("-".to_string(), |p| p.to_string());
        let name = preset.unwrap_or("-");
        text.push_str(&format!("{scene}/{name} | {} | {} | {next_mark} | {answer}\n", r.start, r.tape_len));
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/stories.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(golden, text, "tests/golden/stories.txt differs: rerun with UPDATE_GOLDEN=1 if the change is meant");
}
