//! How much memory the model of a partition takes, and how small the sparse index
//! is next to a dense one (an 8-byte entry per record, as Kafka's entries are).

use super::partition::PartitionLog;

/// The figures the performance budget asks for (no Kafka counterpart).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemoryReport {
    pub records: usize,
    /// Heap bytes of batches, records and both indexes (capacity, not just length).
    pub model_bytes: usize,
    pub bytes_per_record: f64,
    /// Offset index bytes as Kafka stores them (8 per entry) over all segments.
    pub sparse_index_bytes: usize,
    /// An entry for every record: 8 bytes each.
    pub dense_index_bytes: usize,
    /// sparse ÷ dense.
    pub sparse_to_dense: f64,
}

/// Measures `log`.
pub fn memory_report(log: &PartitionLog) -> MemoryReport {
    let records = log.record_count();
    let (log_bytes, index_bytes) = log
        .segments()
        .iter()
        .chain(log.deleted_segments())
        .map(|s| s.heap_bytes())
        .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    let model_bytes = std::mem::size_of::<PartitionLog>() + log_bytes + index_bytes;
    let sparse_index_bytes: usize = log.segments().iter().map(|s| s.offset_index().size_bytes()).sum();
    let dense_index_bytes = records * 8;
    MemoryReport {
        records,
        model_bytes,
        bytes_per_record: model_bytes as f64 / records.max(1) as f64,
        sparse_index_bytes,
        dense_index_bytes,
        sparse_to_dense: sparse_index_bytes as f64 / dense_index_bytes.max(1) as f64,
    }
}
