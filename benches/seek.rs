//! Native time-travel figures: seeking anywhere in a 10k-step overview history.
//!   cargo bench --bench seek

use std::time::Instant;

use kafka_lab::model::cluster::Cluster;
use kafka_lab::model::scene::Run;

fn main() {
    let build = Instant::now();
    let mut run = Run::<Cluster>::restore(1, &[], "s10000", None).expect("valid tape");
    println!("replaying 10000 steps: {:.1} ms", build.elapsed().as_secs_f64() * 1e3);
    let targets = [9999, 17, 5000, 10000, 2500, 7777, 1, 9000, 4321, 6000, 128, 8191];
    let mut worst_ms: f64 = 0.0;
    for target in targets {
        let start = Instant::now();
        run.history.seek(target);
        worst_ms = worst_ms.max(start.elapsed().as_secs_f64() * 1e3);
    }
    println!("seek to any of {} positions: worst {worst_ms:.2} ms (goal in the browser: ≤ 50 ms)", targets.len());
}
