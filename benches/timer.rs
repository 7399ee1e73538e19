//! Kafka's hierarchical timing wheel against a `std::collections::BinaryHeap` delay queue.
//!
//! 1. Insert + expire of 1M timers, delays uniform in 0–30 s, clock advanced 1 ms at a time.
//! 2. Steady state at 1e3…1e6 pending timers: arrivals at a constant rate, each with a delay
//!    uniform in 1–30 000 ms, the clock advanced to each arrival; cost per operation
//!    (insert or expiry) should stay flat for the wheel.
//!
//! Run: `cargo bench --bench timer`. Wall-clock time is used here only, never in the model.

use std::hint::black_box;
use std::time::Instant;

use kafka_lab::model::timer::{DelayQueue, HeapTimer, Timer, DENSE_ID_LIMIT};

const MAX_DELAY_MS: u64 = 30_000;

/// splitmix64: the same delays for both queues.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Inserts `count` timers at time 0, then ticks 1 ms at a time until all expired; returns seconds.
fn insert_then_expire<Q: DelayQueue>(mut queue: Q, delays_ms: &[u64]) -> f64 {
    let started = Instant::now();
    let mut run_at_once = 0usize;
    for (id, delay_ms) in delays_ms.iter().enumerate() {
        if !queue.add(id as u64, *delay_ms) {
            run_at_once += 1;
        }
    }
    let mut fired = Vec::with_capacity(1024);
    let mut total_fired = 0usize;
    for now_ms in 1..=MAX_DELAY_MS {
        queue.advance_into(now_ms, &mut fired);
        total_fired += fired.len();
        fired.clear();
    }
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(total_fired + run_at_once, delays_ms.len(), "every timer fired exactly once");
    black_box(&queue);
    seconds
}

/// Result of one steady-state run: ns per operation and the mean pending count.
struct Steady {
    ns_per_op: f64,
    mean_pending: f64,
}

/// Arrivals at rate `pending / 15 000` per ms (mean delay 15 s, so about `pending` are in flight).
fn steady_state<Q: DelayQueue>(mut queue: Q, pending: u64, seed: u64) -> Steady {
    let mut draw = Draw(seed);
    let warmup = 2 * pending;
    let measured = (2 * pending).max(1_000_000);
    let arrival_ms = |k: u64| (u128::from(k) * 15_000 / u128::from(pending)) as u64;
    let mut fired = Vec::with_capacity(4096);
    let (mut ops, mut pending_sum, mut samples) = (0u64, 0f64, 0u64);
    let mut started = Instant::now();
    for k in 0..warmup + measured {
        if k == warmup {
            ops = 0;
            started = Instant::now();
        }
        let now_ms = arrival_ms(k);
        if now_ms > queue.current_time() {
            queue.advance_into(now_ms, &mut fired);
            ops += fired.len() as u64;
            fired.clear();
        }
        let delay_ms = 1 + draw.next() % MAX_DELAY_MS;
        queue.add(k % DENSE_ID_LIMIT, now_ms + delay_ms);
        ops += 1;
        if k >= warmup && k % 1024 == 0 {
            pending_sum += queue.pending() as f64;
            samples += 1;
        }
    }
    let elapsed_ns = started.elapsed().as_nanos() as f64;
    black_box(&queue);
    Steady { ns_per_op: elapsed_ns / ops as f64, mean_pending: pending_sum / samples.max(1) as f64 }
}

fn best_of<F: FnMut() -> f64>(runs: usize, mut f: F) -> f64 {
    (0..runs).map(|_| f()).fold(f64::INFINITY, f64::min)
}

fn main() {
    let count = 1_000_000usize;
    let mut draw = Draw(42);
    let delays_ms: Vec<u64> = (0..count).map(|_| draw.next() % MAX_DELAY_MS).collect();
    println!("insert + expire of {count} timers, delays uniform in 0–30 s, advancing 1 ms at a time (best of 3):");
    let wheel_s = best_of(3, || insert_then_expire(Timer::new(1, 20, 0), &delays_ms));
    let heap_s = best_of(3, || insert_then_expire(HeapTimer::new(1, 0), &delays_ms));
    let per_op = |seconds: f64| seconds * 1e9 / (2.0 * count as f64);
    println!(
        "  timing wheel (tickMs 1, wheelSize 20): {:>8.1} ms  ({:.1} ns per insert or expiry)",
        wheel_s * 1e3,
        per_op(wheel_s)
    );
    println!(
        "  BinaryHeap delay queue:                {:>8.1} ms  ({:.1} ns per insert or expiry)",
        heap_s * 1e3,
        per_op(heap_s)
    );
    println!("  ratio heap / wheel: {:.2}x (goal ≥ 3x)", heap_s / wheel_s);
    println!();
    println!("steady state, cost per operation (insert or expiry) by pending timers:");
    println!(
        "  {:>9} | {:>12} {:>10} | {:>12} {:>10} | {:>6}",
        "pending", "wheel ns/op", "pending", "heap ns/op", "pending", "ratio"
    );
    for pending in [1_000u64, 10_000, 100_000, 1_000_000] {
        let wheel = steady_state(Timer::new(1, 20, 0), pending, 7);
        let heap = steady_state(HeapTimer::new(1, 0), pending, 7);
        println!(
            "  {:>9} | {:>12.1} {:>10.0} | {:>12.1} {:>10.0} | {:>5.2}x",
            pending,
            wheel.ns_per_op,
            wheel.mean_pending,
            heap.ns_per_op,
            heap.mean_pending,
            heap.ns_per_op / wheel.ns_per_op
        );
    }
}
