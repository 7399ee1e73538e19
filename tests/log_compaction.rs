//! Compaction: latest value per key with offsets kept (gaps), the dirty ratio gate,
//! the untouched active segment, and tombstones that vanish after delete.retention.ms.

use kafka_lab::model::kernel::Input;
use kafka_lab::model::log::{Command, Fact, LogLab, Refusal, LOG_CLEANER};
use kafka_lab::model::scene::{LabScene, Run};
use std::collections::BTreeSet;

fn compacted(overrides: &[(&str, &str)]) -> Run<LogLab> {
    let mut pairs = vec![
        ("cleanup.policy".to_string(), "compact".to_string()),
        ("segment.bytes".to_string(), "1048576".to_string()),
    ];
    pairs.extend(overrides.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    Run::new(9, &pairs).unwrap()
}

fn push(run: &mut Run<LogLab>, command: Command) {
    run.history.push(Input::Command(command)).unwrap();
}

fn wait(run: &mut Run<LogLab>, ms: u64) {
    run.history.push(Input::Advance(ms)).unwrap();
}

/// Keys and offsets of every record in segments `range` of the log.
fn records(run: &Run<LogLab>, closed_only: bool) -> Vec<(u32, i64, bool)> {
    let log = run.world().log();
    let n = log.segments().len() - usize::from(closed_only);
    let mut out = Vec::new();
    for segment in &log.segments()[..n] {
        for batch in segment.batches().iter() {
            for r in segment.batch_records(batch) {
                out.push((r.key_id, batch.base_offset + i64::from(r.offset_delta), r.is_tombstone()));
            }
        }
    }
    out
}

#[test]
fn compaction_keeps_latest_per_key_with_offset_gaps() {
    let mut run = compacted(&[]);
    push(&mut run, Command::Produce { records: 5000, keys: 50, value_bytes: 1024 });
    wait(&mut run, 15_000);
    let closed = records(&run, true);
    let keys: BTreeSet<u32> = closed.iter().map(|r| r.0).collect();
    assert_eq!(closed.len(), keys.len(), "one record per key in the cleaned part");
    assert!(closed.windows(2).any(|w| w[1].1 > w[0].1 + 1), "offsets keep their numbers: gaps appear");
    let log = run.world().log();
    assert_eq!(log.log_end_offset(), 5000, "compaction never renumbers");
    let active = log.active_segment();
    assert!(
        active.record_count() as i64 == active.next_offset() - active.base_offset(),
        "the active segment is untouched"
    );
    // A reader asking for a removed offset gets the next surviving record.
    let removed = (0..5000).find(|o| !closed.iter().any(|r| r.1 == *o)).unwrap();
    let found = log.lookup_offset(removed).unwrap();
    assert!(found.found_offset > removed);
    assert!(run.sim().log().iter().any(|e| e.actor == LOG_CLEANER && matches!(e.fact, Fact::Cleaned { .. })));
}

#[test]
fn cleaner_waits_until_the_dirty_ratio_passes_min_cleanable_dirty_ratio() {
    let mut run = compacted(&[]);
    push(&mut run, Command::Produce { records: 5000, keys: 3000, value_bytes: 1024 });
    wait(&mut run, 15_000);
    let cleanings =
        |run: &Run<LogLab>| run.sim().log().iter().filter(|e| matches!(e.fact, Fact::Cleaned { .. })).count();
    assert_eq!(cleanings(&run), 1);
    // ~1.2 MB more rolls a segment, but the dirty part stays smaller than the ~2.5 MB clean part.
    push(&mut run, Command::Produce { records: 1200, keys: 3000, value_bytes: 1024 });
    wait(&mut run, 60_000);
    let check = *run.world().last_cleaner_check().unwrap();
    assert!(check.dirty_ratio <= 0.5 && !check.will_clean, "{check:?}");
    assert_eq!(cleanings(&run), 1);
    // Duplicates in the dirty part stay visible to readers.
    let all = records(&run, false);
    let keys: BTreeSet<u32> = all.iter().map(|r| r.0).collect();
    assert!(all.len() > keys.len());
}

#[test]
fn tombstone_removed_after_delete_retention_ms() {
    let mut run = compacted(&[("delete.retention.ms", "60000")]);
    // key-27 gets values, then a tombstone; later bursts only use key-0..key-19.
    push(&mut run, Command::Produce { records: 3000, keys: 30, value_bytes: 1024 });
    wait(&mut run, 1000);
    push(&mut run, Command::Tombstone { key: 27 });
    push(&mut run, Command::Produce { records: 3000, keys: 20, value_bytes: 1024 });
    wait(&mut run, 14_000); // first cleaner pass at 15 s
    let key27: Vec<_> = records(&run, false).into_iter().filter(|r| r.0 == 27).collect();
    assert_eq!(key27.len(), 1, "only the tombstone is left of key-27: {key27:?}");
    let tombstone_kept = key27[0].2;
    assert!(tombstone_kept, "the tombstone survives its first cleaning (its delete horizon is set)");
    // More dirty data before the horizon: cleaned again, the tombstone stays.
    push(&mut run, Command::Produce { records: 6000, keys: 20, value_bytes: 1024 });
    wait(&mut run, 30_000);
    assert!(records(&run, false).iter().any(|r| r.0 == 27 && r.2), "still inside delete.retention.ms");
    // After the horizon, the next cleaning drops it.
    wait(&mut run, 40_000);
    push(&mut run, Command::Produce { records: 12_000, keys: 20, value_bytes: 1024 });
    wait(&mut run, 30_000);
    let key27: Vec<_> = records(&run, false).into_iter().filter(|r| r.0 == 27).collect();
    assert!(key27.is_empty(), "{key27:?}");
}

#[test]
fn slow_reader_misses_the_tombstone_and_resurrects_the_key() {
    let preset = LogLab::presets().iter().find(|p| p.id == "tombstone-resurrection").unwrap();
    let run = Run::<LogLab>::from_preset(preset).unwrap();
    let reader = run.world().reader_view().expect("the preset starts a reader");
    assert_eq!(reader.resurrected_keys, vec![426], "{reader:?}");
    assert!(run.sim().log().iter().any(|e| e.actor == LOG_CLEANER
        && matches!(e.fact, Fact::Cleaned { tombstones_removed, .. } if tombstones_removed > 0)));
}

#[test]
fn keyless_records_are_refused_by_a_compacted_topic() {
    let mut run = compacted(&[]);
    let err = run.history.push(Input::Command(Command::Produce { records: 10, keys: 0, value_bytes: 10 })).unwrap_err();
    assert_eq!(err, Refusal::NullKeyOnCompactedTopic);
    assert!(run.history.tape().is_empty(), "a refused produce is not recorded");
}

fn cleanings_at(run: &Run<LogLab>) -> Vec<u64> {
    run.sim().log().iter().filter(|e| matches!(e.fact, Fact::Cleaned { .. })).map(|e| e.time_ms).collect()
}

/// Kafka: `LogCleanerManager.cleanableOffsets` (a closed segment whose largest timestamp is within
/// `min.compaction.lag.ms` of now is the first uncleanable one).
#[test]
fn min_compaction_lag_ms_keeps_young_records_from_being_cleaned() {
    let mut run = compacted(&[("min.compaction.lag.ms", "60000")]);
    push(&mut run, Command::Produce { records: 5000, keys: 50, value_bytes: 1024 });
    wait(&mut run, 45_000);
    assert!(run.world().log().segments().len() > 2, "the burst rolled segments");
    assert!(
        run.world().last_cleaner_check().is_none(),
        "every closed segment is younger than 60 s: nothing is cleanable (totalBytes 0), the log is skipped"
    );
    assert!(cleanings_at(&run).is_empty());
    let closed = records(&run, true);
    assert!(closed.len() > 3000, "duplicates stay: {}", closed.len());
    wait(&mut run, 30_000);
    let at = cleanings_at(&run);
    assert_eq!(at.len(), 1, "cleaned once the records were 60 s old");
    assert!(at[0] >= 60_000, "{at:?}");
    let closed = records(&run, true);
    let keys: BTreeSet<u32> = closed.iter().map(|r| r.0).collect();
    assert_eq!(closed.len(), keys.len());
}

/// Kafka: `LogCleanerManager.grabFilthiestCompactedLog` with `maxCompactionDelay` (`needCompactionNow`):
/// a dirty record older than `max.compaction.lag.ms` makes the log clean below `min.cleanable.dirty.ratio`.
#[test]
fn max_compaction_lag_ms_cleans_a_log_whose_dirty_ratio_is_too_low() {
    let scenario = |max_lag: &str| {
        let mut run = compacted(&[("max.compaction.lag.ms", max_lag)]);
        push(&mut run, Command::Produce { records: 5000, keys: 3000, value_bytes: 1024 });
        wait(&mut run, 15_000);
        push(&mut run, Command::Produce { records: 1200, keys: 3000, value_bytes: 1024 });
        wait(&mut run, 60_000);
        run
    };
    let default = scenario("9223372036854775807");
    assert_eq!(cleanings_at(&default).len(), 1, "the dirty part stays below the 0.5 ratio");
    let lagged = scenario("30000");
    let at = cleanings_at(&lagged);
    assert_eq!(at.len(), 2, "{at:?}");
    assert!(at[1] >= 45_000, "the second burst's first batch (at 15 s) is 30 s old: {at:?}");
    let check = lagged.world().last_cleaner_check().unwrap();
    assert!(check.dirty_ratio <= 0.5, "{check:?}");
}

/// Kafka: `LogConfig.validateValues` refuses min.compaction.lag.ms > max.compaction.lag.ms.
#[test]
fn a_min_compaction_lag_above_the_max_is_refused_with_kafkas_message() {
    let mut run = compacted(&[("max.compaction.lag.ms", "60000")]);
    let set = Command::SetConfig { name: "min.compaction.lag.ms".into(), value: "60001".into() };
    let err = run.history.push(Input::Command(set)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "conflict topic config setting min.compaction.lag.ms (60001) > max.compaction.lag.ms (60000)"
    );
    assert_eq!(run.world().settings().log.min_compaction_lag_ms, 0, "nothing changed");
    push(&mut run, Command::SetConfig { name: "min.compaction.lag.ms".into(), value: "60000".into() });
    let pairs = [
        ("min.compaction.lag.ms".to_string(), "2".to_string()),
        ("max.compaction.lag.ms".to_string(), "1".to_string()),
    ];
    assert!(Run::<LogLab>::new(0, &pairs).is_err(), "a link with the conflict does not open");
}
