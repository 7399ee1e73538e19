//! The V2 record format's byte sizes (Kafka's DefaultRecord / DefaultRecordBatch)
//! and the compact in-memory form the lab keeps instead of the bytes.

/// Kafka's `DefaultRecordBatch.RECORD_BATCH_OVERHEAD`: the V2 batch header is 61 bytes.
pub const BATCH_HEADER_BYTES: u32 = 61;

/// Marks a null key (no key) in [`RecordEntry::key_id`].
pub const NULL_KEY: u32 = u32::MAX;

/// Marks a null value (a tombstone) in [`RecordEntry::value_bytes`].
pub const NULL_VALUE: u32 = u32::MAX;

/// Bytes of a zig-zag varint (Kafka's `ByteUtils.sizeOfVarint`).
pub fn varint_bytes(value: i32) -> u32 {
    varlong_bytes(i64::from(value))
}

/// Bytes of a zig-zag varlong (Kafka's `ByteUtils.sizeOfVarlong`).
pub fn varlong_bytes(value: i64) -> u32 {
    let mut zigzag = ((value << 1) ^ (value >> 63)) as u64;
    let mut bytes = 1;
    while zigzag >= 0x80 {
        zigzag >>= 7;
        bytes += 1;
    }
    bytes
}

/// The key bytes the lab writes for key id `n`: the text `key-n`.
pub fn key_text(key_id: u32) -> String {
    format!("key-{key_id}")
}

/// Length of `key_text(key_id)` without building it.
pub fn key_len(key_id: u32) -> u32 {
    4 + key_id.checked_ilog10().unwrap_or(0) + 1
}

/// A record's size exactly as Kafka's `DefaultRecord.sizeInBytes` computes it (no headers),
/// for the lab's `key-N` keys.
pub fn record_size_bytes(offset_delta: u32, timestamp_delta_ms: i64, key_id: u32, value_bytes: u32) -> u32 {
    let key = (key_id != NULL_KEY).then(|| key_len(key_id));
    let value = (value_bytes != NULL_VALUE).then_some(value_bytes);
    v2_record_size_bytes(offset_delta, timestamp_delta_ms, key, value)
}

/// Kafka's `DefaultRecord.sizeInBytes` for any key and value lengths (`None` = null), no headers.
pub fn v2_record_size_bytes(
    offset_delta: u32,
    timestamp_delta_ms: i64,
    key_bytes: Option<u32>,
    value_bytes: Option<u32>,
) -> u32 {
    let field = |size: Option<u32>| size.map_or(1, |size| varint_bytes(size as i32) + size);
    let headers_count = 1;
    let attributes = 1;
    let body = attributes
        + varlong_bytes(timestamp_delta_ms)
        + varint_bytes(offset_delta as i32)
        + field(key_bytes)
        + field(value_bytes)
        + headers_count;
    varint_bytes(body as i32) + body
}

/// Kafka's `DefaultRecord.MAX_RECORD_OVERHEAD`: the most a record's length, attributes,
/// timestamp delta and offset delta can take (5 + 1 + 10 + 5 bytes).
pub const MAX_RECORD_OVERHEAD_BYTES: u32 = 21;

/// Kafka's `DefaultRecordBatch.estimateBatchSizeUpperBound` (no headers): the size the producer's
/// `ensureValidRecordSize` compares with `max.request.size` and `buffer.memory`.
pub fn estimate_batch_size_upper_bound(key_id: u32, value_bytes: u32) -> u32 {
    let field = |size: Option<u32>| size.map_or(1, |size| varint_bytes(size as i32) + size);
    let key = (key_id != NULL_KEY).then(|| key_len(key_id));
    let value = (value_bytes != NULL_VALUE).then_some(value_bytes);
    let headers_count = 1;
    BATCH_HEADER_BYTES + MAX_RECORD_OVERHEAD_BYTES + field(key) + field(value) + headers_count
}

/// One record as the lab stores it: 16 bytes instead of its key and value bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordEntry {
    /// Index into the key space (`key-N`), or [`NULL_KEY`].
    pub key_id: u32,
    /// Value length, or [`NULL_VALUE`] for a tombstone.
    pub value_bytes: u32,
    /// Offset minus the batch's base offset (kept through compaction, so gaps appear).
    pub offset_delta: u32,
    /// CreateTime minus the batch's first record's CreateTime.
    pub timestamp_delta_ms: u32,
}

impl RecordEntry {
    pub fn is_tombstone(&self) -> bool {
        self.value_bytes == NULL_VALUE
    }
}

/// A V2 record batch (Kafka's `DefaultRecordBatch`) without its record bytes; reads no config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    pub base_offset: i64,
    /// CreateTime of the batch's first record as produced (deltas are from here).
    pub first_timestamp_ms: i64,
    /// The batch's `maxTimestamp` field.
    pub max_timestamp_ms: i64,
    /// Set by the cleaner on a batch holding tombstones (KIP-534), else -1.
    pub delete_horizon_ms: i64,
    /// Byte position of the batch in its segment's `.log` file.
    pub position: u32,
    pub size_bytes: u32,
    /// Where this batch's records start in the segment's record table.
    pub first_record: u32,
    pub record_count: u32,
    /// `lastOffsetDelta`: kept by the cleaner even when the last records are removed.
    pub last_offset_delta: u32,
}

impl Batch {
    pub fn last_offset(&self) -> i64 {
        self.base_offset + i64::from(self.last_offset_delta)
    }

    pub fn next_offset(&self) -> i64 {
        self.last_offset() + 1
    }

    pub fn end_position(&self) -> u32 {
        self.position + self.size_bytes
    }

    /// The timestamp the header carries as `baseTimestamp` (the delete horizon once set).
    pub fn wire_base_timestamp_ms(&self) -> i64 {
        if self.delete_horizon_ms >= 0 {
            self.delete_horizon_ms
        } else {
            self.first_timestamp_ms
        }
    }
}

/// The byte size of a batch holding `records` (whose deltas are from `first_timestamp_ms`).
pub fn batch_size_bytes(records: &[RecordEntry], first_timestamp_ms: i64, wire_base_timestamp_ms: i64) -> u32 {
    let shift = first_timestamp_ms - wire_base_timestamp_ms;
    BATCH_HEADER_BYTES
        + records
            .iter()
            .map(|r| {
                record_size_bytes(r.offset_delta, i64::from(r.timestamp_delta_ms) + shift, r.key_id, r.value_bytes)
            })
            .sum::<u32>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_grow_every_seven_bits_after_zigzag() {
        assert_eq!(varint_bytes(0), 1);
        assert_eq!(varint_bytes(-1), 1);
        assert_eq!(varint_bytes(63), 1);
        assert_eq!(varint_bytes(64), 2);
        assert_eq!(varint_bytes(1024), 2);
        assert_eq!(varint_bytes(8191), 2);
        assert_eq!(varint_bytes(8192), 3);
        assert_eq!(varlong_bytes(i64::MAX), 10);
    }

    #[test]
    fn a_keyless_1kb_record_takes_1033_bytes_as_the_first_of_its_batch() {
        // body = attributes 1 + tsDelta 1 + offsetDelta 1 + null key 1 + varint(1024) 2 + 1024 + headers 1 = 1031
        assert_eq!(record_size_bytes(0, 0, NULL_KEY, 1024), 1031 + 2);
        assert_eq!(record_size_bytes(0, 0, 7, NULL_VALUE), 1 + 1 + 1 + 1 + 1 + 5 + 1 + 1);
        assert_eq!(key_len(0), 5);
        assert_eq!(key_len(10), 6);
        assert_eq!(key_text(123).len() as u32, key_len(123));
    }

    /// Kafka: `DefaultRecordBatch.estimateBatchSizeUpperBound` against `DefaultRecord.sizeInBytes`.
    #[test]
    fn the_producers_size_estimate_counts_the_worst_case_record_overhead() {
        // 61 + 21 + null key 1 + varint(1024) 2 + 1024 + headers 1
        assert_eq!(estimate_batch_size_upper_bound(NULL_KEY, 1024), 1110);
        let exact = BATCH_HEADER_BYTES + record_size_bytes(0, 0, NULL_KEY, 1024);
        assert_eq!(exact, 1094, "the batch written is 16 bytes smaller than the estimate");
    }
}
