//! Playing any scene until Play stops at the work budget keeps the whole run — the model, its
//! history, its snapshots — within a fixed memory budget (issue 18: ≤ 128 MB of wasm memory for
//! any session, the page included). A counting allocator measures the peak heap. The 32-bit run
//! of the tests (i686: `usize` and pointers of 4 bytes, as on wasm32) holds the model to 112 MB,
//! leaving 16 MB to the page and the allocator; a 64-bit run, whose pointers double, to 160 MB.
//! `tests/browser/soak.mjs` measures the wasm memory itself.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use kafka_lab::model::cluster::Cluster;
use kafka_lab::model::group::GroupLab;
use kafka_lab::model::kernel::Input;
use kafka_lab::model::log::LogLab;
use kafka_lab::model::partitioner::Partitioner;
use kafka_lab::model::replication::Replication;
use kafka_lab::model::scene::{LabScene, Run};
use kafka_lab::model::story::{Player, Tick, SPEEDS};
use kafka_lab::model::timer::TimerLab;
use kafka_lab::model::transactions::TxnLab;

struct Counting;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static PEAK_BYTES: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK_BYTES.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The model's share of the 128 MB session budget, on a 32-bit target like wasm32 (and what
/// the same run takes with 8-byte pointers).
const MODEL_BUDGET_BYTES: usize = if cfg!(target_pointer_width = "32") { 112 << 20 } else { 160 << 20 };

/// The counter is global: one measurement at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Plays `S` with its workload at the fastest speed until Play stops (the budget or the end);
/// returns the peak heap the run took and its simulated time.
fn peak_bytes_of_playing<S: LabScene>(config: &[(&str, &str)]) -> (usize, u64) {
    let pairs: Vec<(String, String)> = config.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    let before = LIVE_BYTES.load(Ordering::Relaxed);
    PEAK_BYTES.store(before, Ordering::Relaxed);
    let mut run = Run::<S>::new(1, &pairs).expect("a valid config");
    if let Some(command) = S::workload(run.sim()) {
        run.history.push(Input::Command(command)).expect("the workload starts");
    }
    let mut player = Player::new(&run.history);
    let fastest = *SPEEDS.last().expect("speeds");
    for _ in 0..100_000 {
        match player.tick(&mut run.history, fastest, &[]) {
            Tick::Limit | Tick::Ended => break,
            _ => {}
        }
    }
    let peak = PEAK_BYTES.load(Ordering::Relaxed).saturating_sub(before);
    (peak, run.sim().now_ms())
}

fn assert_within_budget<S: LabScene>(scene: &str, config: &[(&str, &str)]) {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (peak, played_ms) = peak_bytes_of_playing::<S>(config);
    let peak_mb = peak as f64 / f64::from(1u32 << 20);
    eprintln!("{scene}: peak {peak_mb:.1} MB over {} s of simulated time", played_ms / 1000);
    assert!(peak <= MODEL_BUDGET_BYTES, "{scene} took {peak_mb:.1} MB playing to the budget");
}

#[test]
#[ignore = "optimised only: scripts/test runs it with --profile fuzz, natively and on i686"]
fn a_replication_run_played_to_the_budget_stays_within_the_memory_budget() {
    assert_within_budget::<Replication>("replication", &[]);
    // The heaviest link: 180,000 events pending at once, so snapshots must be fewer.
    let heaviest = [("lab.brokers", "7"), ("replication.factor", "7"), ("lab.producer.records.per.sec", "1000")];
    assert_within_budget::<Replication>("replication, 7 brokers at 1000/s", &heaviest);
}

#[test]
#[ignore = "optimised only: scripts/test runs it with --profile fuzz, natively and on i686"]
fn every_other_scene_played_to_the_budget_stays_within_the_memory_budget() {
    assert_within_budget::<Cluster>("overview", &[]);
    assert_within_budget::<LogLab>("log", &[]);
    assert_within_budget::<GroupLab>("groups", &[]);
    assert_within_budget::<Partitioner>("partitioner", &[]);
    assert_within_budget::<TimerLab>("timer", &[]);
    assert_within_budget::<TxnLab>("transactions", &[]);
}
