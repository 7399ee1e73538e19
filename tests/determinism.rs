//! The same seed and the same inputs always give the same trace; other seeds differ.

use kafka_lab::model::cluster::Cluster;
use kafka_lab::model::scene::Run;

const TAPE: &str = "w500x4.kill-2.w1000x12.produce-50.restart-2.s40";

fn trace_of(seed: u64) -> u64 {
    Run::<Cluster>::restore(seed, &[], TAPE, None).expect("valid tape").sim().trace_hash()
}

#[test]
fn same_seed_and_commands_give_the_same_trace_for_100_seeds() {
    for seed in 0..100 {
        assert_eq!(trace_of(seed), trace_of(seed), "seed {seed} is not deterministic");
    }
}

#[test]
fn different_seeds_give_different_traces() {
    let mut hashes: Vec<u64> = (0..100).map(trace_of).collect();
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), 100);
}

/// The browser test compares these hashes with the ones the wasm build computes.
#[test]
fn reference_trace_hashes_for_the_browser_test() {
    for seed in [1, 2, 3] {
        println!("seed {seed}: {:016x}", trace_of(seed));
    }
    assert_ne!(trace_of(1), trace_of(2));
}
