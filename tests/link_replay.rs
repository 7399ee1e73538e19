//! Links are a public promise: every preset and every link pasted before a change
//! must reopen to the same state after it. The golden file holds, per link, a
//! fingerprint of what the run shows: the English event log (time, actor, text),
//! the clock, the position on the tape and the tape as the app writes it back.
//!
//! `UPDATE_GOLDEN=1 cargo test --test link_replay` rewrites the golden file; do that
//! only for a change that is meant to alter what a link shows, and say so in the commit.

use kafka_lab::link::LinkState;
use kafka_lab::scenes::{self, SCENES};

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

fn fingerprint_query(query: &str) -> String {
    let Ok(link) = LinkState::parse(query, &scenes::ids()) else {
        return "refused link".to_string();
    };
    let scene = scenes::find(link.scene.as_deref().unwrap_or("overview")).expect("a registered scene");
    let Ok(mut run) = (scene.transcript)(&link) else {
        return "refused".to_string();
    };
    // A preset link without `t=` now opens at its story's start (tests/golden/stories.txt says
    // where); the whole story it replays must still end in exactly the state it always showed.
    if link.preset.is_some() && link.position.is_none() {
        let end = LinkState { position: Some(run.tape_len), ..link.clone() };
        let Ok(at_end) = (scene.transcript)(&end) else {
            return "refused".to_string();
        };
        run = at_end;
    }
    let log_hash = run.lines.iter().fold(FNV_START, |hash, line| fnv(format!("{line}\n").as_bytes(), hash));
    format!(
        "now_ms={} lines={} position={}/{} log={log_hash:016x} tape={:016x}",
        run.now_ms,
        run.lines.len(),
        run.position,
        run.tape_len,
        fnv(run.tape.as_bytes(), FNV_START),
    )
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
