//! Log & index benchmark: a 1M-record partition's model memory, the sparse vs dense
//! index at 1 KB records, and lookup time. Run: `cargo bench --bench log`.

use kafka_lab::model::config::Config;
use kafka_lab::model::log::producer::Burst;
use kafka_lab::model::log::{memory_report, LogSettings, NewRecord, PartitionLog, LOG_SCHEMA};
use std::time::Instant;

const RECORDS: u32 = 1_000_000;

fn build(batch_size: u32, segment_bytes: &str) -> PartitionLog {
    let mut config = Config::defaults(LOG_SCHEMA);
    config.set("segment.bytes", segment_bytes).unwrap();
    let mut log = PartitionLog::new(LogSettings::from_config(&config), 0);
    let mut burst =
        Burst { total: RECORDS, sent: 0, keys: 0, value_bytes: 1024, seed: 7, start_us: 0, records_per_sec: 10_000 };
    while !burst.is_done() {
        let batch: Vec<NewRecord> = burst.plan_batch(batch_size);
        let now_ms = batch.last().map_or(0, |r| r.timestamp_ms);
        log.append(&batch, now_ms);
        burst.sent += batch.len() as u32;
    }
    log
}

fn report(label: &str, batch_size: u32, segment_bytes: &str) {
    let started = Instant::now();
    let log = build(batch_size, segment_bytes);
    let build_ms = started.elapsed().as_secs_f64() * 1000.0;
    let memory = memory_report(&log);
    let lookups = 100_000u64;
    let started = Instant::now();
    let mut checksum = 0i64;
    for i in 0..lookups {
        let target = ((i * 7_919) % u64::from(RECORDS)) as i64;
        checksum += log.lookup_offset(target).map(|l| l.found_offset).unwrap_or(0);
    }
    let lookup_us = started.elapsed().as_secs_f64() * 1e6 / lookups as f64;
    println!("{label}: batch.size={batch_size}, segment.bytes={segment_bytes}");
    println!("  records {}, segments {}, build {build_ms:.0} ms", memory.records, log.segments().len());
    println!("  model memory {} B = {:.1} B/record (budget 32)", memory.model_bytes, memory.bytes_per_record);
    println!(
        "  sparse index {} B vs dense {} B: ratio 1/{:.0} (sparse ÷ dense = {:.4})",
        memory.sparse_index_bytes,
        memory.dense_index_bytes,
        1.0 / memory.sparse_to_dense,
        memory.sparse_to_dense
    );
    println!("  lookup_offset: {lookup_us:.2} µs each over {lookups} lookups (checksum {checksum})");
}

fn main() {
    report("1M keyless 1 KiB records, Kafka defaults", 16_384, "1073741824");
    report("same, 1 MiB segments", 16_384, "1048576");
    report("same, producer batch.size=262144", 262_144, "1073741824");
}
