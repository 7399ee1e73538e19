//! Finding an offset (segment → index → scan), finding a time (time index → offset
//! index → scan), and reads outside the log, as Kafka answers them.

use kafka_lab::model::config::Config;
use kafka_lab::model::log::{DeleteRecordsError, LogSettings, NewRecord, PartitionLog, ReadError, LOG_SCHEMA};

fn log_with(overrides: &[(&str, &str)]) -> PartitionLog {
    let mut config = Config::defaults(LOG_SCHEMA);
    for (name, value) in overrides {
        config.set(name, value).unwrap();
    }
    PartitionLog::new(LogSettings::from_config(&config), 0)
}

/// 1 MiB segments of 15-record batches of 1 KiB values, one batch per millisecond.
fn filled_log(batches: i64) -> PartitionLog {
    let mut log = log_with(&[("segment.bytes", "1048576")]);
    for t in 0..batches {
        let batch: Vec<NewRecord> =
            (0..15).map(|_| NewRecord { key_id: u32::MAX, value_bytes: 1024, timestamp_ms: t * 10 }).collect();
        log.append(&batch, t * 10);
    }
    log
}

#[test]
fn offset_lookup_goes_segment_then_index_then_a_short_scan() {
    let log = filled_log(1000);
    let target = 10_000;
    let found = log.lookup_offset(target).unwrap();
    // Phase 1: the segment is the last whose base offset is ≤ the target, found by binary search.
    let bases: Vec<i64> = log.segments().iter().map(|s| s.base_offset()).collect();
    let expected = *bases.iter().filter(|b| **b <= target).max().unwrap();
    assert_eq!(found.segment_base_offset, expected);
    assert!(found.segments_compared.len() <= (bases.len() as f64).log2().ceil() as usize + 1);
    // Phase 2: the index entry is the largest ≤ target.
    let segment = log.segments().iter().find(|s| s.base_offset() == expected).unwrap();
    let best = segment.offset_index().iter().filter(|(o, _)| *o <= target).last().unwrap_or((expected, 0));
    assert_eq!(found.index_entry, best);
    assert!(!found.index_probes.is_empty());
    // Phase 3: the scan starts at the entry's position and stops at the batch holding the target.
    assert_eq!(found.scan.start_position, best.1);
    assert!(found.found_batch.base_offset <= target && target <= found.found_batch.last_offset);
    assert_eq!(found.found_offset, target);
    assert!(found.scan.batches_read <= 2, "a sparse index leaves at most one batch to skip here");
    // Beside it: a full scan from the start of the log reads far more.
    assert!(found.comparison.full_scan_bytes > 100 * found.scan.bytes_scanned.max(1));
    assert!(found.comparison.sparse_index_bytes < found.comparison.dense_index_bytes);
}

#[test]
fn time_lookup_returns_the_first_record_at_or_after_the_timestamp() {
    let log = filled_log(1000);
    // Batch t holds offsets 15t..15t+14, all with CreateTime 10t.
    let result = log.lookup_timestamp(5_005);
    assert_eq!(result.found, Some((15 * 501, 5_010)));
    assert!(result.segment_base_offset.is_some());
    assert!(result.time_entry.0 <= 5_005, "the time index entry used is at or before the target");
    assert!(result.records_examined >= 1);
    let exact = log.lookup_timestamp(5_000);
    assert_eq!(exact.found, Some((15 * 500, 5_000)));
    assert_eq!(log.lookup_timestamp(99_999).found, None, "no record is that late");
    assert_eq!(log.lookup_timestamp(-5).found, Some((0, 0)));
}

#[test]
fn reads_outside_the_log_get_offset_out_of_range() {
    let mut log = filled_log(200);
    let leo = log.log_end_offset();
    let err = log.lookup_offset(leo + 5).unwrap_err();
    assert_eq!(err, ReadError::PastLogEnd { offset: leo + 5, log_end_offset: leo });
    assert_eq!(err.exception(), Some("OffsetOutOfRangeException"));
    assert_eq!(log.lookup_offset(leo), Err(ReadError::AtLogEndOffset { offset: leo }), "at the LEO a fetch waits");
    assert_eq!(log.lookup_offset(leo).unwrap_err().exception(), None, "no error at the LEO");
    assert_eq!(log.check_delete_records(1000), Ok(1000));
    assert_eq!(log.delete_records(1000), 1000);
    let err = log.lookup_offset(999).unwrap_err();
    assert_eq!(err, ReadError::BeforeLogStart { offset: 999, log_start_offset: 1000 });
    assert_eq!(log.lookup_offset(1000).unwrap().found_offset, 1000);
    assert_eq!(
        log.check_delete_records(leo + 1),
        Err(DeleteRecordsError::AboveHighWatermark { offset: leo + 1, high_watermark: leo })
    );
    assert_eq!(log.check_delete_records(-2), Err(DeleteRecordsError::InvalidOffset { before_offset: -2 }));
    assert_eq!(log.check_delete_records(-1), Ok(leo), "-1 means the high watermark");
}
