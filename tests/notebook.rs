//! The lab notebook: its figures are the ones each preset's result card shows at its outcome
//! (one source of truth), each row's link opens that preset at that moment, and the notebook
//! survives its JSON file, its shared link and its stored text, refusing bad ones whole.

use kafka_lab::i18n::{lookup_english, render_arg};
use kafka_lab::link::LinkState;
use kafka_lab::model::kernel::Arg;
use kafka_lab::model::notebook::{self, measure, Measured, EXPERIMENTS};
use kafka_lab::notebook::{to_csv, to_markdown, Headings, Notebook, NotebookError, Row, VERSION};
use kafka_lab::scenes;

fn measured() -> Vec<Measured> {
    notebook::runs().map(|(_, spec)| measure(spec).unwrap_or_else(|why| panic!("{}: {why}", spec.preset))).collect()
}

fn figure<'a>(m: &'a Measured, arg: &str) -> &'a Arg {
    m.figures.iter().find(|(p, _)| p.arg == arg).and_then(|(_, a)| a.as_ref()).expect("figure")
}

fn count(arg: &Arg) -> i64 {
    match arg {
        Arg::Int(n) | Arg::Count(n) => *n,
        Arg::Decimal { units, .. } => *units,
        Arg::Duration(ms) => *ms as i64,
        other => panic!("not a number: {other:?}"),
    }
}

#[test]
fn every_figure_in_the_notebook_is_what_the_presets_result_card_shows_at_its_outcome() {
    assert_eq!(EXPERIMENTS.len(), 6, "seed 000's lab has six experiments");
    for m in measured() {
        let scene = scenes::find(m.scene).expect("a registered scene");
        let link = LinkState { scene: Some(m.scene.into()), preset: Some(m.preset.into()), ..Default::default() };
        let report = (scene.story)(&link).expect("the preset's story");
        assert_eq!(m.outcome, report.outcome, "{}: the notebook reads the card where the story answers", m.preset);
        let answer = m.answer.as_ref().map(|a| a.to_string());
        assert_eq!(answer, report.answer_at_outcome, "{}: the card's answer", m.preset);
        let answer = answer.expect("every experiment's story reaches its answer");
        for (pick, arg) in &m.figures {
            let arg = arg.as_ref().unwrap_or_else(|| panic!("{}: no {} in {answer}", m.preset, pick.arg));
            let text = render_arg(arg);
            // A zero may be worded by its plural's `=0` branch ("no poll timeout").
            let worded_zero = text == "0" && answer.contains("no ");
            assert!(
                answer.contains(&text) || worded_zero,
                "{}: figure {} = {text} is not on the card: {answer}",
                m.preset,
                pick.arg
            );
            assert!(lookup_english(pick.label).is_some(), "{}: label {} has an English text", m.preset, pick.label);
        }
    }
}

#[test]
fn the_lab_table_tells_the_courses_story_acks_all_loses_nothing_and_cooperative_stops_nobody() {
    let all = measured();
    let of = |preset: &str| all.iter().find(|m| m.preset == preset).expect("measured");
    assert!(count(figure(of("lab2-acks-1"), "lost")) > 0, "acks=1 loses acknowledged records");
    assert_eq!(count(figure(of("lab2-acks-all"), "lost")), 0, "acks=all with min.insync.replicas=2 loses none");
    assert!(count(figure(of("lab2-acks-all"), "dups")) > 0, "but retries store some twice");
    assert!(count(figure(of("lab3-unclean"), "lost")) > 0, "the unclean election loses the burst");
    assert!(count(figure(of("rebalance-loop"), "rebalances")) > 3, "the loop rebalances again and again");
    assert_eq!(count(figure(of("fix-fewer-records"), "timeouts")), 0);
    assert_eq!(count(figure(of("fix-longer-interval"), "timeouts")), 0);
    assert_eq!(count(figure(of("static-restart"), "rebalances")), 0, "a static member's restart rebalances nothing");
    let eager = render_arg(figure(of("eager-restart"), "per_member"));
    let cooperative = render_arg(figure(of("cooperative-restart"), "per_member"));
    assert_ne!(eager, cooperative, "eager stops the others, cooperative does not");
    let hot = of("megacorp");
    let share = |nth: usize| count(hot.figures[nth].1.as_ref().expect("a share"));
    assert!(share(1) > share(2) && share(0) > share(2), "only the composite key spreads MEGACORP");
}

#[test]
fn each_rows_link_opens_its_preset_at_the_moment_of_its_figure() {
    for m in measured() {
        let query = m.link().to_query();
        let link = LinkState::parse(&query, &scenes::ids()).expect("the row's link parses");
        let transcript = (scenes::find(m.scene).expect("scene").transcript)(&link).expect("the row's link opens");
        assert_eq!(Some(transcript.position), m.outcome, "{query}");
    }
}

fn sample() -> Notebook {
    Notebook {
        rows: vec![
            Row {
                experiment: "2. Loss: acks=1 | \"quoted\"".into(),
                figure_id: "lab2-acks-1/lost/0".into(),
                scene: "replication".into(),
                preset: "lab2-acks-1".into(),
                config: String::new(),
                seed: 2,
                label: "acknowledged records lost".into(),
                figure: "7".into(),
                link: "scene=replication&preset=lab2-acks-1&t=2".into(),
                note: String::new(),
            },
            Row {
                scene: "replication".into(),
                config: "acks=1,min.insync.replicas=2".into(),
                seed: 7,
                label: "Lab 2 ~ my run! 100%".into(),
                figure: "acked and lost: 3 of 1,000".into(),
                link: "scene=replication&seed=7&c=acks:1&a=w2500.kill-1".into(),
                note: "línea, \"comillas\"\nsegunda".into(),
                ..Row::default()
            },
        ],
    }
}

#[test]
fn a_notebook_survives_its_json_file_its_shared_link_and_its_stored_text() {
    let notebook = sample();
    assert_eq!(Notebook::from_json(&notebook.to_json()), Ok(notebook.clone()));
    let text = notebook.to_text();
    assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.:,%~!".contains(&b)), "URL-safe: {text}");
    assert_eq!(Notebook::from_text(&text), Ok(notebook.clone()));
    assert_eq!(Notebook::from_text(&Notebook::default().to_text()), Ok(Notebook::default()));
}

#[test]
fn a_malformed_or_newer_file_is_refused_with_its_reason() {
    let json = sample().to_json();
    assert!(matches!(Notebook::from_json("{ not json"), Err(NotebookError::Malformed { .. })));
    assert_eq!(Notebook::from_json("{\"rows\": []}"), Err(NotebookError::NotANotebook));
    let newer = json.replace(&format!("\"version\": {VERSION}"), &format!("\"version\": {}", VERSION + 1));
    assert_eq!(
        Notebook::from_json(&newer),
        Err(NotebookError::NewerVersion { found: u64::from(VERSION) + 1, supported: VERSION })
    );
    let missing = json.replacen("\"seed\": 2,", "", 1);
    assert!(matches!(Notebook::from_json(&missing), Err(NotebookError::Malformed { .. })), "a row lacks its seed");
    let bad_link = json.replace("scene=replication&preset", "scene=nowhere&preset");
    assert!(matches!(Notebook::from_json(&bad_link), Err(NotebookError::BadLink { row: 1, .. })));
    let too_many = Notebook { rows: vec![Row::default(); kafka_lab::notebook::MAX_ROWS + 1] };
    assert!(matches!(Notebook::from_json(&too_many.to_json()), Err(NotebookError::TooManyRows { .. })));
}

#[test]
fn a_broken_or_oversized_shared_notebook_is_refused() {
    assert_eq!(Notebook::from_text("2~x"), Err(NotebookError::NewerVersion { found: 2, supported: VERSION }));
    assert_eq!(Notebook::from_text("hello"), Err(NotebookError::NotANotebook));
    assert!(matches!(Notebook::from_text("1~a!b"), Err(NotebookError::Malformed { .. })));
    assert!(matches!(Notebook::from_text("1~%zz!!!!!1!!!!"), Err(NotebookError::Malformed { .. })));
    let long = "x".repeat(kafka_lab::link::MAX_QUERY_BYTES + 1);
    assert_eq!(Notebook::from_text(&long), Err(NotebookError::TooLong { max_bytes: kafka_lab::link::MAX_QUERY_BYTES }));
}

#[test]
fn run_all_replaces_its_own_rows_and_keeps_the_learners() {
    let notebook = sample();
    let fresh = Row { figure_id: "lab1-segments/segments/0".into(), figure: "101".into(), ..Row::default() };
    let after = notebook.with_run_all(vec![fresh.clone()]);
    assert_eq!(after.rows.len(), 2);
    assert_eq!(after.rows[0], fresh);
    assert_eq!(after.rows[1], notebook.rows[1], "the recorded run stays");
}

#[test]
fn the_markdown_and_csv_exports_hold_every_row_escaped() {
    let headings = Headings {
        experiment: "Experiment",
        run: "Run",
        figure: "Figure",
        value: "Value",
        seed: "Seed",
        note: "Note",
        link: "Open",
    };
    let markdown = to_markdown(&sample(), &headings, "https://lab.example/");
    let lines: Vec<&str> = markdown.lines().collect();
    assert_eq!(lines.len(), 4, "{markdown}");
    assert_eq!(lines[0], "| Experiment | Run | Figure | Value | Seed | Note | Open |");
    assert!(lines[2].starts_with("| 2. Loss: acks=1 \\| \"quoted\" | replication · lab2-acks-1 | acknowledged"));
    assert!(lines[2].ends_with("[Open](<https://lab.example/?scene=replication&preset=lab2-acks-1&t=2>) |"));
    assert!(lines[3].contains("línea, \"comillas\" segunda"), "a note's line break becomes a space");
    let csv = to_csv(&sample(), &headings, "https://lab.example/");
    assert_eq!(csv.matches("\r\n").count(), 3, "a heading line and one line a row (a quoted break stays inside)");
    assert!(csv.contains("\"línea, \"\"comillas\"\"\nsegunda\""));
}

#[test]
fn comparing_acks_1_with_acks_all_shows_the_lost_records_as_the_difference() {
    use kafka_lab::model::notebook::differences;
    use kafka_lab::model::replication::Replication;
    let all = measured();
    let answer = |preset: &str| all.iter().find(|m| m.preset == preset).and_then(|m| m.answer.clone()).expect("answer");
    let (one, safe) = (answer("lab2-acks-1"), answer("lab2-acks-all"));
    let diff = differences::<Replication>(&one, &safe, &|key| key.en);
    let lost = diff.iter().find(|d| d.name == "lost").expect("the lost count differs");
    assert_eq!(lost.right, Some(Arg::Count(0)));
    assert!(matches!(lost.left, Some(Arg::Count(n)) if n > 0));
    let label = kafka_lab::model::notebook::figure_label("replication", lost.name, lost.nth);
    assert_eq!(label, Some("record.figure.lost"), "the difference row names it as the table does");
    assert!(diff.iter().all(|d| d.name != "acked"), "both acknowledged every record: no difference there");
    assert!(
        differences::<Replication>(&one, &one, &|key| key.en).is_empty(),
        "a run compared with itself differs nowhere"
    );
}
