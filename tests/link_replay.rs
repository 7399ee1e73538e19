//! Links are a public promise: every preset and every link pasted before a change
//! must reopen to the same state after it. The golden file holds, per link, a
//! fingerprint of what the run shows: the English event log (time, actor, text),
//! the clock, the position on the tape and the tape as the app writes it back.
//!
//! `UPDATE_GOLDEN=1 cargo test --test link_replay` rewrites the golden file; do that
//! only for a change that is meant to alter what a link shows, and say so in the commit.

use kafka_lab::link::LinkState;
use kafka_lab::model::cluster::Cluster;
use kafka_lab::model::group::GroupLab;
use kafka_lab::model::kernel::Describe;
use kafka_lab::model::log::LogLab;
use kafka_lab::model::partitioner::Partitioner;
use kafka_lab::model::replication::Replication;
use kafka_lab::model::scene::LabScene;
use kafka_lab::model::timer::TimerLab;
use kafka_lab::scenes::{self, open_run, SCENES};

const GOLDEN: &str = "tests/golden/replays.txt";

/// FNV-1a, so the fingerprint is the same on every platform.
fn fnv(bytes: &[u8], mut hash: u64) -> u64 {
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

fn fingerprint<S: LabScene>(link: &LinkState) -> String {
    let run = match open_run::<S>(link) {
        Ok(run) => run,
        Err(_) => return "refused".to_string(),
    };
    let sim = run.sim();
    let mut log_hash = FNV_START;
    for entry in sim.log().iter() {
        let line = format!("{}|{}|{}\n", entry.time_ms, entry.actor, entry.fact.message());
        log_hash = fnv(line.as_bytes(), log_hash);
    }
    format!(
        "now_ms={} lines={} position={}/{} log={log_hash:016x} tape={:016x}",
        sim.now_ms(),
        sim.log().len(),
        run.history.position(),
        run.history.tape().len(),
        fnv(run.tape_text().as_bytes(), FNV_START),
    )
}

fn fingerprint_query(query: &str) -> String {
    let link = match LinkState::parse(query, &scenes::ids()) {
        Ok(link) => link,
        Err(_) => return "refused link".to_string(),
    };
    match link.scene.as_deref().unwrap_or("overview") {
        "overview" => fingerprint::<Cluster>(&link),
        "log" => fingerprint::<LogLab>(&link),
        "replication" => fingerprint::<Replication>(&link),
        "groups" => fingerprint::<GroupLab>(&link),
        "partitioner" => fingerprint::<Partitioner>(&link),
        "timer" => fingerprint::<TimerLab>(&link),
        other => panic!("the test does not know scene {other}"),
    }
}

fn every_link() -> Vec<String> {
    let mut links: Vec<String> = SCENES
        .iter()
        .flat_map(|scene| (scene.presets)().iter().map(move |p| format!("scene={}&preset={}", scene.id, p.id)))
        .collect();
    let pasted = std::fs::read_to_string("tests/golden/links.txt").expect("tests/golden/links.txt");
    links.extend(pasted.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from));
    links
}

#[test]
fn every_preset_and_pasted_link_reopens_to_the_same_state() {
    let actual: String = every_link().iter().map(|q| format!("{q}\t{}\n", fingerprint_query(q))).collect();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(GOLDEN, &actual).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(GOLDEN).expect("tests/golden/replays.txt (UPDATE_GOLDEN=1 writes it)");
    let mut differences = Vec::new();
    for (want, got) in expected.lines().zip(actual.lines()) {
        if want != got {
            differences.push(format!("  before: {want}\n  now:    {got}"));
        }
    }
    assert_eq!(expected.lines().count(), actual.lines().count(), "the set of links changed");
    assert!(differences.is_empty(), "links that now open differently:\n{}", differences.join("\n"));
}

#[test]
fn the_pasted_links_are_not_refused() {
    for query in every_link() {
        let print = fingerprint_query(&query);
        assert!(!print.starts_with("refused"), "{query} is refused");
    }
}
