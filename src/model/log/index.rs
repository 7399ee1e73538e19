//! The sparse offset and time indexes of a segment (Kafka's `OffsetIndex`,
//! `TimeIndex` and their `AbstractIndex` search), stored byte-for-byte as Kafka does.

use crate::model::kernel::ChunkedVec;
use std::cmp::Ordering;

/// `segment.index.bytes` default (Kafka's `LOG_INDEX_SIZE_MAX_BYTES_DEFAULT`, 10 MiB).
pub const DEFAULT_MAX_INDEX_BYTES: u32 = 10 * 1024 * 1024;
/// Bytes Kafka keeps "warm" at the end of an index and searches first (`AbstractIndex.warmEntries`).
const WARM_SECTION_BYTES: usize = 8192;

/// Why an index refused an entry (Kafka's `InvalidOffsetException` / full-index errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexError {
    /// The offset is not larger than the last entry's.
    NotIncreasing { offset: i64, last_offset: i64, slot: usize },
    /// The offset index holds `max_entries` entries already.
    Full { entries: usize },
    /// The time index holds `max_entries - 1` entries (its last slot is kept for the roll).
    TimeIndexFull { entries: usize },
    /// The offset does not fit in 4 bytes relative to the base offset.
    Overflow { offset: i64, base_offset: i64 },
}

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexError::NotIncreasing { offset, last_offset, slot } => write!(
                f,
                "Attempt to append an offset {offset} to position {slot} no larger than the last offset appended ({last_offset})"
            ),
            IndexError::Full { entries } => write!(f, "Attempt to append to a full index (size = {entries})."),
            IndexError::TimeIndexFull { entries } => {
                write!(f, "Attempt to append to a full time index (size = {entries}).")
            }
            IndexError::Overflow { offset, base_offset } => {
                write!(f, "Integer overflow for offset: {offset} (base offset {base_offset})")
            }
        }
    }
}

/// One probe of Kafka's `AbstractIndex.binarySearch`, kept for the lookup animation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexProbe {
    pub slot: usize,
    /// The entry's key there: an offset (offset index) or a timestamp (time index).
    pub key: i64,
    /// How the entry's key compares with the target.
    pub ordering: Ordering,
}

/// A traced `AbstractIndex.largestLowerBoundSlotFor`: the probes made and the slot found.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct IndexSearch {
    pub probes: Vec<IndexProbe>,
    pub slot: Option<usize>,
    /// True when the target fell in the warm tail Kafka searches first.
    pub warm_hit: bool,
}

/// Kafka's `AbstractIndex.indexSlotRangeFor` (largest lower bound) with its warm/cold split.
fn largest_lower_bound(len: usize, entry_bytes: usize, key_at: impl Fn(usize) -> i64, target: i64) -> IndexSearch {
    let mut search = IndexSearch::default();
    if len == 0 {
        return search;
    }
    let probe = |slot: usize, search: &mut IndexSearch| {
        let key = key_at(slot);
        let ordering = key.cmp(&target);
        search.probes.push(IndexProbe { slot, key, ordering });
        ordering
    };
    let first_warm = (len - 1).saturating_sub(WARM_SECTION_BYTES / entry_bytes);
    let (low, high) = if probe(first_warm, &mut search) == Ordering::Less {
        search.warm_hit = true;
        (first_warm, len - 1)
    } else if probe(0, &mut search) == Ordering::Greater {
        return search;
    } else {
        (0, first_warm)
    };
    let (mut low, mut high) = (low, high);
    while low < high {
        let mid = (low + high).div_ceil(2);
        match probe(mid, &mut search) {
            Ordering::Greater => high = mid - 1,
            Ordering::Less => low = mid,
            Ordering::Equal => {
                low = mid;
                break;
            }
        }
    }
    search.slot = Some(low);
    search
}

/// Kafka's `OffsetIndex`: 8-byte entries (4-byte offset relative to the base, 4-byte position);
/// reads `segment.index.bytes` (its capacity) and is filled at the `index.interval.bytes` cadence.
#[derive(Clone, Debug)]
pub struct OffsetIndex {
    base_offset: i64,
    entries: ChunkedVec<[u8; 8]>,
    max_entries: usize,
}

impl OffsetIndex {
    /// An empty index with Kafka's default capacity (`segment.index.bytes` = 10 MiB).
    pub fn new(base_offset: i64) -> Self {
        Self::with_max_bytes(base_offset, DEFAULT_MAX_INDEX_BYTES)
    }

    /// An empty index holding at most `max_index_bytes / 8` entries.
    pub fn with_max_bytes(base_offset: i64, max_index_bytes: u32) -> Self {
        Self { base_offset, entries: ChunkedVec::default(), max_entries: max_index_bytes as usize / 8 }
    }

    pub fn base_offset(&self) -> i64 {
        self.base_offset
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Kafka: `AbstractIndex.isFull`, every slot used (the time index reserves one, see [`TimeIndex::is_full`]).
    pub fn is_full(&self) -> bool {
        self.len() >= self.max_entries
    }

    pub fn max_entries(&self) -> usize {
        self.max_entries
    }

    /// Bytes the index file holds (entries × 8).
    pub fn size_bytes(&self) -> usize {
        self.len() * 8
    }

    /// Whether `offset` fits as a 4-byte offset relative to the base (`canAppendOffset`).
    pub fn can_append_offset(&self, offset: i64) -> bool {
        let relative = offset - self.base_offset;
        (0..=i64::from(i32::MAX)).contains(&relative)
    }

    /// The entry in `slot` as (absolute offset, position).
    pub fn entry(&self, slot: usize) -> Option<(i64, u32)> {
        self.entries.get(slot).map(|bytes| {
            let relative = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            let position = u32::from_be_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
            (self.base_offset + i64::from(relative), position)
        })
    }

    pub fn last_offset(&self) -> Option<i64> {
        self.len().checked_sub(1).and_then(|slot| self.entry(slot)).map(|(offset, _)| offset)
    }

    /// Adds `offset → position`; refuses an offset not larger than the last entry's.
    pub fn append(&mut self, offset: i64, position: u32) -> Result<(), IndexError> {
        if self.is_full() {
            return Err(IndexError::Full { entries: self.len() });
        }
        if let Some(last_offset) = self.last_offset().filter(|last| offset <= *last) {
            return Err(IndexError::NotIncreasing { offset, last_offset, slot: self.len() });
        }
        if !self.can_append_offset(offset) {
            return Err(IndexError::Overflow { offset, base_offset: self.base_offset });
        }
        let relative = (offset - self.base_offset) as u32;
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&relative.to_be_bytes());
        bytes[4..].copy_from_slice(&position.to_be_bytes());
        self.entries.push(bytes);
        Ok(())
    }

    /// The largest entry ≤ `target`, or `(base_offset, 0)` when there is none.
    pub fn lookup(&self, target: i64) -> (i64, u32) {
        self.lookup_traced(target).0
    }

    /// [`lookup`](Self::lookup) plus the binary search's probes.
    pub fn lookup_traced(&self, target: i64) -> ((i64, u32), IndexSearch) {
        let search = largest_lower_bound(self.len(), 8, |slot| self.entry(slot).map_or(0, |e| e.0), target);
        let found = search.slot.and_then(|slot| self.entry(slot)).unwrap_or((self.base_offset, 0));
        (found, search)
    }

    /// Drops every entry whose offset is ≥ `offset`.
    pub fn truncate_to(&mut self, offset: i64) {
        let keep = match largest_lower_bound(self.len(), 8, |slot| self.entry(slot).map_or(0, |e| e.0), offset).slot {
            None => 0,
            Some(slot) if self.entry(slot).map(|e| e.0) == Some(offset) => slot,
            Some(slot) => slot + 1,
        };
        self.entries.truncate(keep);
    }

    pub fn iter(&self) -> impl Iterator<Item = (i64, u32)> + '_ {
        (0..self.len()).filter_map(|slot| self.entry(slot))
    }

    pub fn heap_bytes(&self) -> usize {
        self.entries.heap_bytes()
    }
}

/// Kafka's `TimeIndex`: 12-byte entries (8-byte timestamp, 4-byte relative offset), appended
/// only when the timestamp grows; reads `segment.index.bytes` (its capacity).
#[derive(Clone, Debug)]
pub struct TimeIndex {
    base_offset: i64,
    entries: ChunkedVec<[u8; 12]>,
    max_entries: usize,
}

impl TimeIndex {
    pub fn with_max_bytes(base_offset: i64, max_index_bytes: u32) -> Self {
        Self { base_offset, entries: ChunkedVec::default(), max_entries: max_index_bytes as usize / 12 }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Kafka: `TimeIndex.isFull` keeps the last slot free for the entry `onBecomeInactiveSegment`
    /// writes at roll (`maybeAppend(.., skipFullCheck = true)`), so it is full one entry early.
    pub fn is_full(&self) -> bool {
        self.len() + 1 >= self.max_entries
    }

    pub fn max_entries(&self) -> usize {
        self.max_entries
    }

    pub fn size_bytes(&self) -> usize {
        self.len() * 12
    }

    /// The entry in `slot` as (timestamp, absolute offset).
    pub fn entry(&self, slot: usize) -> Option<(i64, i64)> {
        self.entries.get(slot).map(|b| {
            let timestamp = i64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
            let relative = u32::from_be_bytes([b[8], b[9], b[10], b[11]]);
            (timestamp, self.base_offset + i64::from(relative))
        })
    }

    /// The last entry, or Kafka's `(-1, base offset)` when empty.
    pub fn last_entry(&self) -> (i64, i64) {
        self.len().checked_sub(1).and_then(|slot| self.entry(slot)).unwrap_or((-1, self.base_offset))
    }

    /// Kafka's `maybeAppend`: adds `(timestamp, offset)` only if the timestamp is larger than the last.
    pub fn maybe_append(&mut self, timestamp_ms: i64, offset: i64, skip_full_check: bool) -> Result<bool, IndexError> {
        if !skip_full_check && self.is_full() {
            return Err(IndexError::TimeIndexFull { entries: self.len() });
        }
        let (last_timestamp, last_offset) = self.last_entry();
        if !self.is_empty() && offset < last_offset {
            return Err(IndexError::NotIncreasing { offset, last_offset, slot: self.len() });
        }
        if timestamp_ms <= last_timestamp {
            return Ok(false);
        }
        let mut bytes = [0u8; 12];
        bytes[..8].copy_from_slice(&timestamp_ms.to_be_bytes());
        bytes[8..].copy_from_slice(&((offset - self.base_offset) as u32).to_be_bytes());
        self.entries.push(bytes);
        Ok(true)
    }

    /// The largest entry with timestamp ≤ `target_ms` (or `(-1, base offset)`), with probes.
    pub fn lookup_traced(&self, target_ms: i64) -> ((i64, i64), IndexSearch) {
        let search = largest_lower_bound(self.len(), 12, |slot| self.entry(slot).map_or(0, |e| e.0), target_ms);
        let found = search.slot.and_then(|slot| self.entry(slot)).unwrap_or((-1, self.base_offset));
        (found, search)
    }

    pub fn iter(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        (0..self.len()).filter_map(|slot| self.entry(slot))
    }

    pub fn heap_bytes(&self) -> usize {
        self.entries.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_index_finds_the_largest_entry_at_or_below_the_target() {
        let mut index = OffsetIndex::new(100);
        assert_eq!(index.lookup(150), (100, 0));
        for (i, offset) in [110, 120, 130].iter().enumerate() {
            index.append(*offset, (i as u32 + 1) * 4096).unwrap();
        }
        assert_eq!(index.lookup(99), (100, 0));
        assert_eq!(index.lookup(109), (100, 0));
        assert_eq!(index.lookup(110), (110, 4096));
        assert_eq!(index.lookup(129), (120, 8192));
        assert_eq!(index.lookup(10_000), (130, 12288));
        assert_eq!(index.size_bytes(), 24);
    }

    #[test]
    fn offset_index_refuses_offsets_that_do_not_grow_and_truncates_from_an_offset() {
        let mut index = OffsetIndex::new(0);
        index.append(10, 100).unwrap();
        assert!(matches!(index.append(10, 200), Err(IndexError::NotIncreasing { .. })));
        assert!(matches!(index.append(5, 200), Err(IndexError::NotIncreasing { .. })));
        index.append(20, 200).unwrap();
        index.append(30, 300).unwrap();
        index.truncate_to(20);
        assert_eq!(index.len(), 1);
        index.truncate_to(11);
        assert_eq!(index.len(), 1);
        index.truncate_to(0);
        assert_eq!(index.len(), 0);
        let mut tiny = OffsetIndex::with_max_bytes(0, 16);
        tiny.append(1, 0).unwrap();
        tiny.append(2, 0).unwrap();
        assert_eq!(tiny.append(3, 0), Err(IndexError::Full { entries: 2 }));
    }

    #[test]
    fn large_indexes_search_the_warm_tail_first_in_few_probes() {
        let mut index = OffsetIndex::new(0);
        for i in 0..100_000i64 {
            index.append(i * 10, i as u32).unwrap();
        }
        let ((offset, _), search) = index.lookup_traced(999_995);
        assert_eq!(offset, 999_990);
        assert!(search.warm_hit);
        assert!(search.probes.len() <= 12, "{}", search.probes.len());
        let ((offset, _), cold) = index.lookup_traced(5);
        assert_eq!(offset, 0);
        assert!(!cold.warm_hit && cold.probes.len() <= 20);
    }

    #[test]
    fn time_index_only_grows_and_falls_back_to_the_base_offset() {
        let mut index = TimeIndex::with_max_bytes(50, DEFAULT_MAX_INDEX_BYTES);
        assert_eq!(index.lookup_traced(5).0, (-1, 50));
        assert!(index.maybe_append(1000, 60, false).unwrap());
        assert!(!index.maybe_append(1000, 70, false).unwrap());
        assert!(index.maybe_append(2000, 80, false).unwrap());
        assert_eq!(index.lookup_traced(1500).0, (1000, 60));
        assert_eq!(index.lookup_traced(999).0, (-1, 50));
    }

    /// Kafka: `TimeIndex.isFull` and `maybeAppend(.., skipFullCheck)`.
    #[test]
    fn time_index_refuses_its_last_slot_except_to_the_roll() {
        let mut index = TimeIndex::with_max_bytes(0, 36);
        assert!(index.maybe_append(10, 1, false).unwrap());
        assert!(index.maybe_append(20, 2, false).unwrap());
        assert!(index.is_full(), "2 of 3 slots");
        assert_eq!(index.maybe_append(30, 3, false), Err(IndexError::TimeIndexFull { entries: 2 }));
        assert!(index.maybe_append(30, 3, true).unwrap(), "onBecomeInactiveSegment skips the check");
        assert_eq!(index.len(), 3);
    }
}
