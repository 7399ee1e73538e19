//! The lab's producer: bursts of records batched as Kafka's `RecordAccumulator` does
//! (`MemoryRecordsBuilder.hasRoomFor` against `batch.size`), created at a steady rate.

use super::partition::NewRecord;
use super::record::{record_size_bytes, BATCH_HEADER_BYTES, NULL_KEY};
use std::collections::VecDeque;

/// A burst of records (like one `kafka-producer-perf-test` run); reads `batch.size`, `lab.producer.records.per.sec`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Burst {
    pub total: u32,
    pub sent: u32,
    /// Keys are drawn from `key-0 … key-(keys-1)`; 0 means records have no key.
    pub keys: u32,
    pub value_bytes: u32,
    /// Seeds the key draw (from the kernel's RNG).
    pub seed: u64,
    /// When record 0 was created, in microseconds of virtual time.
    pub start_us: u64,
    pub records_per_sec: u64,
}

impl Burst {
    fn key_of(&self, index: u32) -> u32 {
        if self.keys == 0 {
            return NULL_KEY;
        }
        (splitmix64(self.seed ^ u64::from(index)) % u64::from(self.keys)) as u32
    }

    fn created_ms(&self, index: u32) -> i64 {
        ((self.start_us + u64::from(index) * 1_000_000 / self.records_per_sec) / 1000) as i64
    }

    /// The next batch: records from `sent` while `hasRoomFor` says they fit in `batch_size` bytes.
    pub fn plan_batch(&self, batch_size: u32) -> Vec<NewRecord> {
        let mut batch: Vec<NewRecord> = Vec::new();
        let mut bytes = BATCH_HEADER_BYTES;
        for index in self.sent..self.total {
            let record = NewRecord {
                key_id: self.key_of(index),
                value_bytes: self.value_bytes,
                timestamp_ms: self.created_ms(index),
            };
            let first_ts = batch.first().map_or(record.timestamp_ms, |r| r.timestamp_ms);
            let size = record_size_bytes(
                batch.len() as u32,
                record.timestamp_ms - first_ts,
                record.key_id,
                record.value_bytes,
            );
            if !batch.is_empty() && bytes + size > batch_size {
                break;
            }
            bytes += size;
            batch.push(record);
        }
        batch
    }

    pub fn is_done(&self) -> bool {
        self.sent >= self.total
    }
}

/// The largest batch a burst of `records` records of `value_bytes` would send with `batch_size`,
/// counted with the burst's longest key (`key-(keys-1)`) for every record, so a bound for any key
/// draw; stops counting once it passes `stop_above_bytes`. This is the size the broker compares
/// with `max.message.bytes` (Kafka: `UnifiedLog.analyzeAndValidateRecords`, `batch.sizeInBytes`).
pub fn largest_batch_bytes(burst: &Burst, batch_size: u32, stop_above_bytes: u32) -> u32 {
    let key_id = if burst.keys == 0 { NULL_KEY } else { burst.keys - 1 };
    let mut bytes = BATCH_HEADER_BYTES;
    for index in 0..burst.total {
        let delta_ms = burst.created_ms(index) - burst.created_ms(0);
        let size = record_size_bytes(index, delta_ms, key_id, burst.value_bytes);
        if index > 0 && bytes.saturating_add(size) > batch_size {
            break;
        }
        bytes = bytes.saturating_add(size);
        if bytes > stop_above_bytes {
            break;
        }
    }
    bytes
}

/// Bursts waiting their turn and the batch planned next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Producer {
    pub bursts: VecDeque<Burst>,
    pub pending: Vec<NewRecord>,
    pub records_sent: u64,
}

fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifteen_keyless_1kb_records_fill_a_16kb_batch() {
        let burst =
            Burst { total: 100, sent: 0, keys: 0, value_bytes: 1024, seed: 1, start_us: 0, records_per_sec: 10_000 };
        assert_eq!(burst.plan_batch(16_384).len(), 15);
        assert_eq!(burst.plan_batch(0).len(), 1, "batch.size=0 still sends one record per batch");
        let keyed = Burst { keys: 10, ..burst };
        assert!(keyed.plan_batch(16_384).iter().all(|r| r.key_id < 10));
    }

    #[test]
    fn the_largest_batch_is_one_record_unless_batch_size_holds_more() {
        let burst =
            Burst { total: 100, sent: 0, keys: 0, value_bytes: 1024, seed: 1, start_us: 0, records_per_sec: 10_000 };
        let fifteen: u32 = 61
            + burst
                .plan_batch(16_384)
                .iter()
                .enumerate()
                .map(|(i, r)| record_size_bytes(i as u32, r.timestamp_ms, r.key_id, r.value_bytes))
                .sum::<u32>();
        assert_eq!(largest_batch_bytes(&burst, 16_384, u32::MAX), fifteen);
        assert_eq!(largest_batch_bytes(&burst, 0, u32::MAX), 61 + 1033, "batch.size=0: one record a batch");
        let keyed = Burst { keys: 1000, total: 1, ..burst };
        assert_eq!(largest_batch_bytes(&keyed, 16_384, u32::MAX), 61 + record_size_bytes(0, 0, 999, 1024));
    }
}
