//! A consumer that rebuilds a table from a compacted topic, reading from the start
//! at a fixed pace (the seed's "reader slower than delete.retention.ms").

use super::partition::PartitionLog;
use super::record::NULL_KEY;
use std::collections::BTreeMap;

/// A KTable-style consumer restoring state from offset 0; reads `lab` pace only (records per second).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableReader {
    pub position: i64,
    pub records_per_sec: u32,
    pub records_read: u64,
    /// Key → offset of the value the reader holds (tombstones remove keys).
    pub table: BTreeMap<u32, i64>,
    pub caught_up: bool,
}

impl TableReader {
    pub fn new(start_offset: i64, records_per_sec: u32) -> Self {
        Self { position: start_offset, records_per_sec, records_read: 0, table: BTreeMap::new(), caught_up: false }
    }

    /// One second of reading: up to `records_per_sec` records from `position`, as a fetch returns them.
    pub fn poll(&mut self, log: &PartitionLog) {
        if self.position < log.log_start_offset() {
            // auto.offset.reset=earliest after an OffsetOutOfRange
            self.position = log.log_start_offset();
        }
        let budget = self.records_per_sec as u64;
        let mut read = 0u64;
        'segments: for segment in log.segments() {
            if segment.next_offset() <= self.position {
                continue;
            }
            let start = segment.batch_at_position(segment.offset_index().lookup(self.position).1);
            for batch_index in start..segment.batches().len() {
                let batch = segment.batch(batch_index);
                if batch.last_offset() < self.position {
                    continue;
                }
                for record in segment.batch_records(batch) {
                    let offset = batch.base_offset + i64::from(record.offset_delta);
                    if offset < self.position {
                        continue;
                    }
                    if read == budget {
                        break 'segments;
                    }
                    if record.key_id != NULL_KEY {
                        if record.is_tombstone() {
                            self.table.remove(&record.key_id);
                        } else {
                            self.table.insert(record.key_id, offset);
                        }
                    }
                    read += 1;
                    self.position = offset + 1;
                }
                self.position = self.position.max(batch.next_offset());
            }
        }
        self.records_read += read;
        self.caught_up = self.position >= log.log_end_offset();
    }

    /// Keys the reader holds a value for while the log's latest word on them is a delete (or nothing).
    pub fn resurrected_keys(&self, log: &PartitionLog) -> Vec<u32> {
        let mut latest_live: BTreeMap<u32, bool> = BTreeMap::new();
        for segment in log.segments() {
            for batch in segment.batches().iter() {
                for record in segment.batch_records(batch) {
                    latest_live.insert(record.key_id, !record.is_tombstone());
                }
            }
        }
        self.table.keys().copied().filter(|key| !latest_live.get(key).copied().unwrap_or(false)).collect()
    }
}
