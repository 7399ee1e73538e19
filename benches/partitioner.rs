//! `cargo bench --bench partitioner`: murmur2 + partition for 1M 16-byte keys, and the
//! repartition analysis of 100k keys (what the UI animates when N changes).

use std::hint::black_box;
use std::time::Instant;

use kafka_lab::model::partitioner::{partition_for_key, RepartitionAnalysis};

fn main() {
    let keys: Vec<[u8; 16]> = (0u64..1_000_000)
        .map(|i| {
            let mut key = [0u8; 16];
            key[..8].copy_from_slice(&i.to_le_bytes());
            key[8..].copy_from_slice(&(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).to_le_bytes());
            key
        })
        .collect();
    let started = Instant::now();
    let mut sum = 0u64;
    for key in &keys {
        sum += u64::from(partition_for_key(black_box(key), 24));
    }
    let hash_ms = started.elapsed().as_secs_f64() * 1000.0;
    black_box(sum);
    println!("murmur2 + partition, 1M keys of 16 bytes: {hash_ms:.1} ms");

    let population: Vec<String> = (0..100_000).map(|i| format!("cliente-{i}")).collect();
    let started = Instant::now();
    let analysis = RepartitionAnalysis::new(population.iter().map(|k| k.as_bytes()), 12, 24);
    let analysis_ms = started.elapsed().as_secs_f64() * 1000.0;
    println!(
        "repartition analysis 12 → 24, 100k keys: {analysis_ms:.1} ms ({} moved, {:.1} % stay)",
        analysis.moved_keys,
        analysis.fraction_stayed() * 100.0
    );
}
