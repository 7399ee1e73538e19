//! Seed 001's walk-through: find offset 368500 in a partition whose segments start at 0 and 368421.

use kafka_lab::model::log::{LogLab, LookupResult, WALKTHROUGH_SEGMENT_BYTES};
use kafka_lab::model::scene::{LabScene, Run};

#[test]
fn walkthrough_finds_368500_in_segment_368421_via_its_index() {
    let preset = LogLab::presets().iter().find(|p| p.id == "find-368500").unwrap();
    assert!(preset.config.contains(WALKTHROUGH_SEGMENT_BYTES));
    let run = Run::<LogLab>::from_preset(preset).unwrap();
    let log = run.world().log();
    let bases: Vec<i64> = log.segments().iter().map(|s| s.base_offset()).collect();
    assert_eq!(bases, vec![0, 368_421]);
    assert_eq!(log.segment_files()[1].log_file, "00000000000000368421.log");
    // The first segment is exactly full: its size is what the preset sets as segment.bytes.
    assert_eq!(log.segments()[0].size_bytes().to_string(), WALKTHROUGH_SEGMENT_BYTES);
    let Some(LookupResult::Offset(Ok(found))) = run.world().last_lookup() else {
        panic!("the preset ends with a lookup: {:?}", run.world().last_lookup());
    };
    assert_eq!(found.segment_base_offset, 368_421);
    assert_eq!(found.segments_compared, vec![368_421], "one comparison of file names settles two segments");
    assert!(found.index_entry.0 <= 368_500 && found.index_entry.0 > 368_421);
    assert!(found.found_batch.base_offset <= 368_500 && 368_500 <= found.found_batch.last_offset);
    assert!(found.scan.bytes_scanned <= 16_384, "the scan skips at most one batch past the index entry");
}
