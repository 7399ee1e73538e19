//! Records without key: the built-in sticky partitioner, batch.size and linger.ms.

use kafka_lab::model::partitioner::{record_size_bytes, Partitioner, SendReason, RECORD_BATCH_OVERHEAD_BYTES};
use kafka_lab::model::scene::{LabScene, Run};

fn preset(id: &str) -> Run<Partitioner> {
    let preset = Partitioner::presets().iter().find(|p| p.id == id).expect("preset exists");
    Run::from_preset(preset).expect("preset runs")
}

fn unkeyed(seed: u64, config: &[(&str, &str)], records: u32) -> Run<Partitioner> {
    let overrides: Vec<(String, String)> = config.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    Run::restore(seed, &overrides, &format!("null-{records}.w1000x3"), None).expect("valid run")
}

#[test]
fn a_1_kib_record_takes_kafkas_v2_record_size() {
    // attributes 1 + offsetDelta 1 + timestampDelta 1 + null key 1 + value 2 + 1024 + headers 1 = 1031, + length 2.
    assert_eq!(record_size_bytes(0, 0, None, Some(1024)), 1033);
    // Zigzag varints: offsetDelta 64 and timestampDelta 200 take 2 bytes each; key 1 + 10.
    assert_eq!(record_size_bytes(64, 200, Some(10), Some(1024)), 1045);
    assert_eq!(RECORD_BATCH_OVERHEAD_BYTES, 61);
}

#[test]
fn sticky_partitioner_switches_only_after_a_full_batch() {
    let run = preset("sticky-full-batches");
    let timeline = run.world().sticky_timeline();
    assert!(timeline.switches.len() >= 3);
    for view in timeline.switches {
        // Switching waits for batch.size bytes AND a full last batch, so it lands between 1× and 2×.
        assert!((16_384..32_768).contains(&view.switch.produced_bytes), "{view:?}");
    }
    let full: Vec<_> = timeline.batches.iter().filter(|b| b.send_reason == Some(SendReason::Full)).collect();
    assert!(full.len() >= 8);
    assert!(full.iter().all(|b| b.records == 15 && b.size_bytes == 61 + 15 * 1033));
    // Between two switches every batch goes to the same partition.
    let first_switch_ms = timeline.switches[0].at_ms;
    let before: Vec<u32> =
        timeline.batches.iter().filter(|b| b.created_ms < first_switch_ms).map(|b| b.partition).collect();
    assert!(before.windows(2).all(|w| w[0] == w[1]), "{before:?}");
}

#[test]
fn with_default_linger_5_ms_batches_leave_part_filled() {
    let run = preset("sticky");
    let batches = run.world().sticky_timeline().batches;
    assert_eq!(run.world().settings().linger_ms, 5);
    assert!(batches.iter().all(|b| b.records == 5 && b.send_reason == Some(SendReason::Linger)), "{batches:?}");
    for view in run.world().sticky_timeline().switches {
        assert!(view.switch.produced_bytes >= 16_384);
    }
}

#[test]
fn with_linger_0_every_record_is_its_own_batch_and_the_switch_comes_after_batch_size_bytes() {
    let run = preset("sticky-linger-0");
    let timeline = run.world().sticky_timeline();
    assert!(timeline.batches.iter().all(|b| b.records == 1));
    // 15 one-record batches of 1094 B reach 16410 ≥ 16384.
    assert!(timeline.switches.iter().all(|s| s.switch.produced_bytes == 15 * 1094));
}

#[test]
fn the_sticky_draw_comes_from_the_seed() {
    let partitions = |seed| -> Vec<u32> {
        let run = unkeyed(seed, &[("partitions", "12"), ("linger.ms", "0")], 300);
        run.world().sticky_timeline().switches.iter().map(|s| s.switch.to).collect()
    };
    assert_eq!(partitions(9), partitions(9));
    let distinct: std::collections::BTreeSet<Vec<u32>> = (0..5).map(partitions).collect();
    assert!(distinct.len() > 1);
}

#[test]
fn unkeyed_records_spread_over_partitions_over_time() {
    let run = unkeyed(5, &[("partitions", "6"), ("linger.ms", "0")], 2000);
    let used = run.world().partition_loads().iter().filter(|l| l.log_end_offset > 0).count();
    assert!(used >= 5, "{:?}", run.world().partition_loads());
    let total: u64 = run.world().partition_loads().iter().map(|l| l.log_end_offset).sum();
    assert_eq!(total, 2000);
}
