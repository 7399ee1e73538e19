//! Prints the native trace hash of the overview scene for a tape and seeds, so the
//! browser test can check that the wasm build computes the very same trace.
//!   cargo run --example trace_hash -- TAPE SEED [SEED...]

use kafka_lab::model::cluster::Cluster;
use kafka_lab::model::scene::Run;

fn main() {
    let mut args = std::env::args().skip(1);
    let tape = args.next().expect("usage: trace_hash TAPE SEED [SEED...]");
    for seed in args {
        let seed: u64 = seed.parse().expect("a seed is a whole number");
        let run = Run::<Cluster>::restore(seed, &[], &tape, None).expect("a valid tape");
        println!("{seed} {:016x}", run.sim().trace_hash());
    }
}
