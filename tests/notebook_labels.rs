//! The comparison's difference row names every figure that can differ between two runs of a
//! scene in the page's language: each argument of every preset's result-card answer (at its
//! story's outcome and at the tape's end, under the preset's config and under the configs the
//! comparison suggests) has a catalog label, and a list or a name counts as one figure.

use kafka_lab::i18n::lookup_english;
use kafka_lab::link::LinkState;
use kafka_lab::model::cluster::Cluster;
use kafka_lab::model::group::GroupLab;
use kafka_lab::model::kernel::{Arg, Key, Message};
use kafka_lab::model::log::LogLab;
use kafka_lab::model::notebook::{difference_label, differences, labels, Difference};
use kafka_lab::model::partitioner::Partitioner;
use kafka_lab::model::replication::Replication;
use kafka_lab::model::scene::{LabScene, Run};
use kafka_lab::model::timer::TimerLab;
use kafka_lab::model::transactions::TxnLab;
use kafka_lab::scenes::open_run;

type Config<'a> = &'a [(&'a str, &'a str)];

/// The run a comparison's second side opens: the preset's (or the default) run, its seed, config
/// and recorded actions as its link writes them, with `vs` in force (as `vs=` in a link).
fn twin<S: LabScene>(preset: Option<&str>, vs: Config) -> Option<Run<S>> {
    let link = LinkState { scene: Some(S::ID.to_string()), preset: preset.map(str::to_string), ..Default::default() };
    let run = open_run::<S>(&link).ok()?;
    if vs.is_empty() {
        return Some(run);
    }
    let mut config: Vec<(String, String)> =
        run.config.overrides().into_iter().map(|(n, v)| (n.to_string(), v)).collect();
    for (name, value) in vs {
        config.retain(|(n, _)| n != name);
        config.push((name.to_string(), value.to_string()));
    }
    let twin = LinkState { seed: Some(run.seed), config, actions: run.tape_text(), ..link };
    open_run::<S>(&twin).ok()
}

/// Every figure of `S`'s answers: each preset (and the default run) under its own config and
/// each of `configs`, at its story's outcome and at the end of its tape.
fn figures<S: LabScene>(configs: &[Config]) -> Vec<Difference> {
    let mut out: Vec<Difference> = Vec::new();
    let empty = Message::new(Key { id: "notebook.test.empty", en: "" });
    let presets = std::iter::once(None).chain(S::presets().iter().map(|p| Some(p.id)));
    for preset in presets {
        for config in std::iter::once(&[][..]).chain(configs.iter().copied()) {
            let Some(mut run) = twin::<S>(preset, config) else { continue };
            let story = S::story(preset);
            let history = &mut run.history;
            let ends = [story.outcome_position(history), Some(history.tape().len())];
            for position in ends.into_iter().flatten() {
                history.seek(position);
                for d in story.verdict(history).answer.iter().flat_map(|a| differences::<S>(a, &empty, &|key| key.en)) {
                    if !out.iter().any(|o| (o.name, o.nth, o.within) == (d.name, d.nth, d.within)) {
                        out.push(d);
                    }
                }
            }
        }
    }
    out
}

fn unlabelled<S: LabScene>(configs: &[Config]) -> Vec<String> {
    figures::<S>(configs)
        .into_iter()
        .filter(|d| difference_label::<S>(d).and_then(lookup_english).is_none())
        .map(|d| format!("{}: {} #{} in {}", S::ID, d.name, d.nth, d.within))
        .collect()
}

#[test]
fn every_figure_a_comparison_can_show_is_named_in_words_not_by_its_argument() {
    let mut missing = Vec::new();
    missing.extend(unlabelled::<Cluster>(&[]));
    missing.extend(unlabelled::<LogLab>(&[]));
    missing.extend(unlabelled::<Replication>(&[&[("acks", "1")], &[("acks", "all"), ("min.insync.replicas", "2")]]));
    let strategy = "partition.assignment.strategy";
    missing.extend(unlabelled::<GroupLab>(&[
        &[(strategy, "org.apache.kafka.clients.consumer.CooperativeStickyAssignor")],
        &[(strategy, "org.apache.kafka.clients.consumer.RangeAssignor")],
    ]));
    missing.extend(unlabelled::<Partitioner>(&[&[("lab.composite.key", "true")], &[("lab.composite.key", "false")]]));
    missing.extend(unlabelled::<TimerLab>(&[]));
    missing.extend(unlabelled::<TxnLab>(&[]));
    assert!(missing.is_empty(), "{} figures without a label:\n{}", missing.len(), missing.join("\n"));
}

#[test]
fn a_list_of_owners_differs_as_one_figure_not_member_by_member() {
    // eager vs cooperative: the stop per member is one figure, named as the lab table names it.
    let answer = |strategy: &str| {
        let vs = [("partition.assignment.strategy", strategy)];
        let mut run = twin::<GroupLab>(Some("eager-restart"), &vs).expect("the preset opens");
        let story = GroupLab::story(Some("eager-restart"));
        let outcome = story.outcome_position(&run.history).expect("the story answers");
        run.history.seek(outcome);
        story.verdict(&run.history).answer.expect("an answer")
    };
    let eager = answer("org.apache.kafka.clients.consumer.RangeAssignor");
    let cooperative = answer("org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
    let diff = differences::<GroupLab>(&eager, &cooperative, &|key| key.en);
    let stop = diff.iter().find(|d| d.name == "per_member").expect("the stops differ");
    assert!(matches!(stop.left, Some(Arg::Message(_))), "the whole list, rendered as the card does");
    assert_eq!(difference_label::<GroupLab>(stop), Some("record.figure.stop"));
    assert!(diff.iter().all(|d| d.name != "stop" && d.name != "index"), "no member-by-member rows: {diff:?}");
}

#[test]
fn every_label_of_the_comparison_has_an_english_text() {
    let missing: Vec<&str> = labels::keys().map(|(_, k)| k).filter(|k| lookup_english(k).is_none()).collect();
    assert!(missing.is_empty(), "labels without a text: {missing:?}");
}

/// A scene's page carries its own texts and the shared `record.*` ones (scripts/site.mjs), not
/// another scene's: a label from elsewhere would show as its key in that scene's comparison.
#[test]
fn every_label_of_a_comparison_is_in_its_scenes_bundle() {
    let elsewhere: Vec<(&str, &str)> = labels::keys()
        .filter(|(within, key)| {
            let scene = within.split('.').next().unwrap_or_default();
            !key.starts_with(&format!("{scene}.diff.")) && !key.starts_with("record.figure.")
        })
        .collect();
    assert!(elsewhere.is_empty(), "labels outside their scene's bundle: {elsewhere:?}");
}

#[test]
fn each_bursts_busiest_share_is_its_own_row_when_the_composite_key_changes_it() {
    let answer = |composite: &str| {
        let vs = [("lab.composite.key", composite)];
        let mut run = twin::<Partitioner>(Some("megacorp"), &vs).expect("the preset opens");
        let story = Partitioner::story(Some("megacorp"));
        let end = run.history.tape().len();
        run.history.seek(end);
        story.verdict(&run.history).answer.expect("an answer")
    };
    let diff = differences::<Partitioner>(&answer("false"), &answer("true"), &|key| key.en);
    assert!(!diff.is_empty(), "the composite key changes the busiest shares");
    for d in &diff {
        assert_eq!(difference_label::<Partitioner>(d), Some("partitioner.diff.busiest_burst"), "{d:?}");
        assert!(matches!(d.left, Some(Arg::Message(_)) | None), "a burst's share with its partitions: {d:?}");
    }
}
