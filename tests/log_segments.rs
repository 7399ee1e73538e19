//! Segments roll by size and by time as Kafka's `shouldRoll` says, and the sparse
//! index follows `LogSegment.append`'s cadence.

use kafka_lab::model::config::{Config, ConfigError};
use kafka_lab::model::kernel::Input;
use kafka_lab::model::log::{Command, LogLab, LogSettings, NewRecord, PartitionLog, Refusal, RollReason, LOG_SCHEMA};
use kafka_lab::model::scene::{LabScene, Run};

fn settings(overrides: &[(&str, &str)]) -> LogSettings {
    let mut config = Config::defaults(LOG_SCHEMA);
    for (name, value) in overrides {
        config.set(name, value).unwrap();
    }
    LogSettings::from_config(&config)
}

fn keyless(value_bytes: u32, timestamp_ms: i64) -> NewRecord {
    NewRecord { key_id: u32::MAX, value_bytes, timestamp_ms }
}

#[test]
fn segment_rolls_before_the_batch_that_would_pass_segment_bytes() {
    let mut log = PartitionLog::new(settings(&[("segment.bytes", "1048576")]), 0);
    let batch: Vec<NewRecord> = (0..15).map(|_| keyless(1024, 0)).collect();
    let mut rolls = Vec::new();
    for _ in 0..200 {
        let info = log.append(&batch, 0);
        if info.rolled.is_some() {
            rolls.push((info.base_offset, info.rolled));
        }
    }
    // 15556-byte batches: 67 fit in 1 MiB (1042252 B), the 68th rolls.
    assert_eq!(rolls[0], (67 * 15, Some(RollReason::Size)));
    for segment in &log.segments()[..log.segments().len() - 1] {
        assert!(segment.size_bytes() <= 1_048_576);
        assert!(segment.size_bytes() + 15_556 > 1_048_576, "a closed segment had room for one more batch");
    }
    let names: Vec<String> = log.segment_files().iter().map(|f| f.log_file.clone()).collect();
    assert_eq!(names[0], "00000000000000000000.log");
    assert_eq!(names[1], "00000000000000001005.log");
    assert!(log.segment_files().last().unwrap().active);
}

#[test]
fn segment_rolls_when_segment_ms_has_passed_since_its_first_record() {
    let mut log = PartitionLog::new(settings(&[("segment.ms", "60000")]), 0);
    assert_eq!(log.append(&[keyless(100, 1_000)], 1_000).rolled, None);
    assert_eq!(log.append(&[keyless(100, 61_000)], 61_000).rolled, None, "exactly segment.ms is not yet past it");
    let info = log.append(&[keyless(100, 61_001)], 61_001);
    assert_eq!(info.rolled, Some(RollReason::Time));
    assert_eq!(log.segments().len(), 2);
    assert_eq!(log.active_segment().base_offset(), 2);
}

#[test]
fn segment_rolls_when_its_index_is_full() {
    let mut log = PartitionLog::new(settings(&[("segment.index.bytes", "16"), ("index.interval.bytes", "0")]), 0);
    let mut reasons = Vec::new();
    for i in 0..6 {
        if let Some(reason) = log.append(&[keyless(100, i)], i).rolled {
            reasons.push(reason);
        }
    }
    assert_eq!(reasons.first(), Some(&RollReason::IndexFull));
}

/// Kafka: `TimeIndex.isFull` (`entries >= maxEntries - 1`) against `AbstractIndex.isFull`
/// (`entries >= maxEntries`), read by `LogSegment.shouldRoll`.
#[test]
fn time_index_keeps_its_last_slot_for_the_roll_so_the_segment_rolls_one_entry_early() {
    // 48 bytes: 4 time index slots (12 B), 6 offset index slots (8 B); an entry at every batch after the first.
    let mut log = PartitionLog::new(settings(&[("segment.index.bytes", "48"), ("index.interval.bytes", "0")]), 0);
    let mut rolls = Vec::new();
    for i in 0..8 {
        if let Some(reason) = log.append(&[keyless(100, 1_000 * (i + 1))], 1_000 * (i + 1)).rolled {
            rolls.push((log.active_segment().base_offset(), reason));
        }
    }
    assert_eq!(rolls[0], (4, RollReason::IndexFull), "3 time index entries of 4 slots already roll");
    let closed = &log.segments()[0];
    assert_eq!(closed.time_index().len(), 3);
    assert_eq!(closed.time_index().max_entries(), 4);
    assert!(closed.time_index().is_full());
    assert_eq!(closed.offset_index().len(), 3, "the offset index itself had room for 6");
    assert!(!closed.offset_index().is_full());
    assert_eq!(closed.next_offset(), 4);
}

#[test]
fn index_entry_follows_every_4096_bytes_and_points_at_the_batch_start() {
    let mut log = PartitionLog::new(settings(&[]), 0);
    // Single-record batches of 100-byte values: 170 bytes each on disk (varint(100) takes 2 bytes).
    for i in 0..100 {
        log.append(&[keyless(100, i)], i);
    }
    let segment = log.active_segment();
    let batch_bytes = segment.batch(0).size_bytes;
    assert_eq!(batch_bytes, 61 + 109);
    let entries: Vec<(i64, u32)> = segment.offset_index().iter().collect();
    // An entry is written once more than 4096 bytes went by: after 25 batches (4250 B), at batch 25.
    assert_eq!(entries[0], (25, 25 * batch_bytes));
    for pair in entries.windows(2) {
        assert_eq!(pair[1].0 - pair[0].0, 25, "entries every 25 batches");
    }
    // Each entry maps a batch's last offset to that batch's start position.
    for (offset, position) in &entries {
        let batch = segment.batch(*offset as usize);
        assert_eq!((batch.last_offset(), batch.position), (*offset, *position));
    }
    let time_entries: Vec<(i64, i64)> = segment.time_index().iter().collect();
    assert_eq!(time_entries.len(), entries.len());
    assert_eq!(time_entries[0], (25, 25), "the time index gets (max timestamp so far, its offset)");
}

#[test]
fn lab1_lowering_segment_bytes_splits_the_next_batch_into_1_mib_files() {
    let preset = LogLab::presets().iter().find(|p| p.id == "lab1-segments").unwrap();
    let mut run = Run::<LogLab>::from_preset(preset).unwrap();
    let tape_len = run.history.tape().len();
    run.history.seek(2);
    let before = run.world().log().segment_files();
    assert_eq!(before.len(), 1, "100k records of 1 KiB fit the default 1 GiB segment");
    assert_eq!(run.world().log().log_end_offset(), 100_000);
    run.history.seek(tape_len);
    let after = run.world().log().segment_files();
    assert_eq!(after[0].size_bytes, before[0].size_bytes, "the big first segment is untouched");
    assert_eq!(after[1].base_offset, 100_000, "the first append after the change rolls at once");
    assert!(after.len() > 90, "another 100k records in ~1 MiB files: {} segments", after.len());
    assert!(after[1..].iter().all(|f| f.size_bytes <= 1_048_576));
    assert_eq!(run.world().log().log_end_offset(), 200_000);
}

#[test]
fn segment_bytes_below_kafkas_1_mib_minimum_is_refused_and_changes_nothing() {
    let mut run = Run::<LogLab>::new(0, &[]).unwrap();
    let err = run
        .history
        .push(Input::Command(Command::SetConfig { name: "segment.bytes".into(), value: "1000".into() }))
        .unwrap_err();
    assert!(
        matches!(&err, Refusal::Config(ConfigError::AtLeast { name: "segment.bytes", min: 1_048_576, .. })),
        "{err:?}"
    );
    assert_eq!(run.world().settings().log.segment_bytes, 1_073_741_824);
    assert!(run.history.tape().is_empty());
    let err = run
        .history
        .push(Input::Command(Command::SetConfig { name: "min.cleanable.dirty.ratio".into(), value: "1.5".into() }))
        .unwrap_err();
    assert!(
        matches!(&err, Refusal::Config(ConfigError::NoMoreThan { name: "min.cleanable.dirty.ratio", max: 1, .. })),
        "{err:?}"
    );
    let err = run
        .history
        .push(Input::Command(Command::SetConfig { name: "min.cleanable.dirty.ratio".into(), value: "half".into() }))
        .unwrap_err();
    assert!(matches!(err, Refusal::NotADouble { .. }), "{err:?}");
    assert!(run.history.tape().is_empty());
}
