//! Retention deletes whole segments, oldest first, never the segment still taking
//! appends; files are renamed `.deleted` and removed later; the low-traffic trap.

use kafka_lab::model::config::Config;
use kafka_lab::model::kernel::Input;
use kafka_lab::model::log::{
    Command, DeletionCause, DeletionReason, Fact, LogLab, LogSettings, NewRecord, PartitionLog, LOG_SCHEMA,
    PARTITION_LOG,
};
use kafka_lab::model::scene::{LabScene, Run};

fn log_with(overrides: &[(&str, &str)]) -> PartitionLog {
    let mut config = Config::defaults(LOG_SCHEMA);
    for (name, value) in overrides {
        config.set(name, value).unwrap();
    }
    PartitionLog::new(LogSettings::from_config(&config), 0)
}

fn append_batches(log: &mut PartitionLog, count: i64, timestamp_ms: i64) {
    for _ in 0..count {
        let batch: Vec<NewRecord> =
            (0..15).map(|_| NewRecord { key_id: u32::MAX, value_bytes: 1024, timestamp_ms }).collect();
        log.append(&batch, timestamp_ms);
    }
}

#[test]
fn retention_deletes_whole_closed_segments_only() {
    let mut log = log_with(&[("segment.bytes", "1048576"), ("retention.ms", "3600000")]);
    append_batches(&mut log, 300, 0); // old data: ~4.4 segments
    append_batches(&mut log, 100, 3_000_000); // newer data, fills the rest of the straddling segment
    let before: Vec<(i64, i64)> = log.segments().iter().map(|s| (s.base_offset(), s.next_offset())).collect();
    let deletions = log.delete_old_segments(3_700_000);
    assert_eq!(deletions.len(), 1);
    assert_eq!(deletions[0].reason, DeletionReason::RetentionMs);
    // Only the segments whose largest timestamp is over an hour old went, each as a whole file.
    let gone = &deletions[0].base_offsets;
    assert_eq!(gone.len(), 4);
    assert_eq!(log.log_start_offset(), before[4].0, "the log start offset jumps to the next segment's base");
    assert!(log.lookup_offset(before[4].0).is_ok(), "old records sharing a segment with new ones stay readable");
    let files = log.segment_files();
    assert!(files[..4].iter().all(|f| f.deleted && f.log_file.ends_with(".log.deleted")));
    assert!(!files[4].deleted);
}

#[test]
fn retention_bytes_deletes_only_segments_that_fit_in_the_excess() {
    let mut log = log_with(&[("segment.bytes", "1048576"), ("retention.bytes", "2500000")]);
    append_batches(&mut log, 400, 0);
    let size_before = log.size_bytes();
    let deletions = log.delete_old_segments(1);
    assert_eq!(deletions[0].reason, DeletionReason::RetentionBytes);
    assert!(log.size_bytes() >= 2_500_000, "never below retention.bytes: {}", log.size_bytes());
    assert!(log.size_bytes() - 1_048_576 < 2_500_000, "one more whole segment would have gone below it");
    assert_eq!(size_before - log.size_bytes(), deletions[0].bytes);
}

#[test]
fn active_segment_never_deleted_while_it_holds_a_recent_record() {
    let mut log = log_with(&[("retention.ms", "3600000")]);
    append_batches(&mut log, 50, 0);
    append_batches(&mut log, 1, 7_000_000);
    assert!(log.delete_old_segments(7_200_000).is_empty(), "two-hour-old records live on in the active segment");
    assert_eq!(log.log_start_offset(), 0);
    // Once every record is past retention, Kafka first rolls a fresh active segment, then deletes the old one.
    let deletions = log.delete_old_segments(11_000_000);
    assert!(deletions[0].rolled_first);
    assert_eq!(log.segments().len(), 1);
    assert_eq!(log.active_segment().size_bytes(), 0);
    assert_eq!(log.log_start_offset(), log.log_end_offset());
}

#[test]
fn deleted_files_disappear_after_file_delete_delay_ms() {
    let mut run = Run::<LogLab>::new(
        4,
        &[("segment.bytes".into(), "1048576".into()), ("retention.bytes".into(), "1048576".into())],
    )
    .unwrap();
    run.history.push(Input::Command(Command::Produce { records: 5000, keys: 0, value_bytes: 1024 })).unwrap();
    run.history.push(Input::Advance(30_000)).unwrap(); // first retention check at log.initial.task.delay.ms
    let deleted = run.world().log().segment_files().iter().filter(|f| f.deleted).count();
    assert!(deleted >= 3, "{deleted}");
    run.history.push(Input::Advance(59_999)).unwrap();
    assert_eq!(run.world().log().segment_files().iter().filter(|f| f.deleted).count(), deleted);
    run.history.push(Input::Advance(1)).unwrap();
    assert_eq!(run.world().log().segment_files().iter().filter(|f| f.deleted).count(), 0);
    assert!(run.sim().log().iter().any(|e| e.actor == PARTITION_LOG
        && matches!(
            e.fact,
            Fact::SegmentsDeleted { cause: DeletionCause::RetentionBytes { retention_bytes: 1_048_576 }, .. }
        )));
    assert!(run.sim().log().iter().any(|e| matches!(e.fact, Fact::SegmentFilesRemoved { .. })));
}

#[test]
fn delete_records_moves_the_log_start_and_the_next_check_drops_segments_below_it() {
    let mut run = Run::<LogLab>::new(4, &[("segment.bytes".into(), "1048576".into())]).unwrap();
    run.history.push(Input::Command(Command::Produce { records: 5000, keys: 0, value_bytes: 1024 })).unwrap();
    run.history.push(Input::Advance(1000)).unwrap();
    run.history.push(Input::Command(Command::DeleteRecords { before_offset: 2500 })).unwrap();
    assert_eq!(run.world().log().log_start_offset(), 2500);
    assert_eq!(run.world().log().segments()[0].base_offset(), 0, "files stay until the retention check");
    run.history.push(Input::Advance(30_000)).unwrap();
    let log = run.world().log();
    assert!(log.segments()[0].base_offset() <= 2500 && log.segments()[0].next_offset() > 2500);
    assert_eq!(log.log_start_offset(), 2500, "the segment holding 2500 stays; the start offset is not rounded");
}

#[test]
fn low_traffic_trap_keeps_a_day_of_data_under_one_hour_retention() {
    let trap = LogLab::presets().iter().find(|p| p.id == "low-traffic-trap").unwrap();
    let run = Run::<LogLab>::from_preset(trap).unwrap();
    let log = run.world().log();
    assert_eq!(log.segments().len(), 1, "the 1 GiB active segment never rolls at one record a minute");
    assert_eq!(log.log_start_offset(), 0, "nothing was ever deleted");
    let oldest_ms = log.lookup_offset(0).unwrap().found_timestamp_ms;
    assert!(run.sim().now_ms() as i64 - oldest_ms > 23 * 3_600_000, "a day-old record is still served");

    let fixed = LogLab::presets().iter().find(|p| p.id == "low-traffic-fixed").unwrap();
    let run = Run::<LogLab>::from_preset(fixed).unwrap();
    let log = run.world().log();
    let oldest_ms = log.lookup_offset(log.log_start_offset()).unwrap().found_timestamp_ms;
    let age_ms = run.sim().now_ms() as i64 - oldest_ms;
    // Retention (1 h) + one segment.ms (10 min) + one check interval (5 min) bounds the oldest record's age.
    assert!(age_ms <= 3_600_000 + 600_000 + 300_000, "{age_ms}");
    assert!(log.log_start_offset() > 1000);
}
