//! Opens links natively and says how long each took, how far it got, and whether the work
//! budget stopped it: `cargo run --release --example probe_links -- '?scene=…' …`.
use kafka_lab::link::LinkState;
use kafka_lab::model::scene::{LabScene, Run, RunError};
use std::time::{Duration, Instant};

fn open<S: LabScene>(link: &LinkState) -> Result<String, RunError> {
    let run: Run<S> = kafka_lab::scenes::open_run::<S>(link)?;
    let sim = run.sim();
    Ok(format!(
        "now {} ms, {} events, {} actions, stopped {:?}",
        sim.now_ms(),
        sim.events_handled(),
        run.history.tape().len(),
        run.stopped
    ))
}

fn probe(query: &str) -> String {
    use kafka_lab::model::*;
    let link = match LinkState::parse(query, &kafka_lab::scenes::ids()) {
        Ok(link) => link,
        Err(e) => return format!("refused: {e}"),
    };
    let result = match link.scene.as_deref().unwrap_or("overview") {
        "log" => open::<log::LogLab>(&link),
        "replication" => open::<replication::Replication>(&link),
        "groups" => open::<group::GroupLab>(&link),
        "partitioner" => open::<partitioner::Partitioner>(&link),
        "timer" => open::<timer::TimerLab>(&link),
        _ => open::<cluster::Cluster>(&link),
    };
    result.unwrap_or_else(|e| format!("refused: {e}"))
}

fn main() {
    for query in std::env::args().skip(1) {
        let (tx, rx) = std::sync::mpsc::channel();
        let q = query.clone();
        std::thread::spawn(move || {
            let start = Instant::now();
            let outcome = std::panic::catch_unwind(|| probe(&q)).unwrap_or_else(|_| "PANIC".into());
            let _ = tx.send((outcome, start.elapsed()));
        });
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok((outcome, took)) => println!("{took:>10.2?}  {query}  →  {outcome}"),
            Err(_) => println!("    > 20 s  {query}  →  HANG"),
        }
    }
    std::process::exit(0);
}
