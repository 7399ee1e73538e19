//! Prints a replication preset's event log (notable facts), for checking a story by eye:
//! `cargo run --example rep_trace -- kip101-divergence-epoch-on`.
use kafka_lab::model::kernel::{Salience, Salient};
use kafka_lab::model::replication::Replication;
use kafka_lab::model::scene::{LabScene, Run};

fn main() {
    let id = std::env::args().nth(1).unwrap_or_else(|| "kip101-divergence-epoch-on".into());
    let preset = Replication::presets().iter().find(|p| p.id == id).expect("preset");
    let run = Run::<Replication>::from_preset(preset).expect("replays");
    for e in run.sim().log().iter() {
        if e.fact.salience() != Salience::Routine {
            println!("{:>7} {:?} {}", e.time_ms, e.actor, e.fact);
        }
    }
}
