//! The id → position index that makes cancel O(1) (Kafka keeps the same link on each
//! `TimerTaskEntry`: the entry knows which `TimerTaskList` it sits in).

use std::collections::BTreeMap;

use crate::model::kernel::ChunkedVec;

/// Ids below this are indexed by a plain `Vec` (O(1)); larger ids fall back to a `BTreeMap`.
pub const DENSE_ID_LIMIT: u64 = 1 << 21;

/// The value meaning "no entry".
pub const EMPTY: u64 = u64::MAX;

/// A map from task id to a packed `u64` position; the lab's stand-in for `TimerTaskEntry.list`.
/// The dense part grows with every id ever used, so it lives in shared chunks: a snapshot of
/// the wheel copies chunk pointers, not two million slots (issue 18's memory budget).
#[derive(Clone, Debug, Default)]
pub struct IdIndex {
    dense: ChunkedVec<u64>,
    sparse: BTreeMap<u64, u64>,
}

impl IdIndex {
    /// The value stored for `id`, if any.
    #[inline]
    pub fn get(&self, id: u64) -> Option<u64> {
        if id < DENSE_ID_LIMIT {
            self.dense.get(id as usize).copied().filter(|v| *v != EMPTY)
        } else {
            self.sparse.get(&id).copied()
        }
    }

    /// Stores `value` (never [`EMPTY`]) for `id`.
    #[inline]
    pub fn set(&mut self, id: u64, value: u64) {
        debug_assert_ne!(value, EMPTY);
        if id < DENSE_ID_LIMIT {
            let index = id as usize;
            self.dense.extend_to(index + 1, &EMPTY);
            *self.dense.get_mut(index).expect("just extended") = value;
        } else {
            self.sparse.insert(id, value);
        }
    }

    /// Removes `id`, returning what was stored.
    #[inline]
    pub fn remove(&mut self, id: u64) -> Option<u64> {
        if id < DENSE_ID_LIMIT {
            let slot = self.dense.get_mut(id as usize)?;
            let value = std::mem::replace(slot, EMPTY);
            (value != EMPTY).then_some(value)
        } else {
            self.sparse.remove(&id)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_huge_ids_are_both_found_and_removed() {
        let mut index = IdIndex::default();
        index.set(3, 30);
        index.set(DENSE_ID_LIMIT + 5, 50);
        assert_eq!(index.get(3), Some(30));
        assert_eq!(index.get(2), None);
        assert_eq!(index.get(DENSE_ID_LIMIT + 5), Some(50));
        assert_eq!(index.remove(3), Some(30));
        assert_eq!(index.remove(3), None);
        assert_eq!(index.remove(DENSE_ID_LIMIT + 5), Some(50));
        assert_eq!(index.get(DENSE_ID_LIMIT + 5), None);
    }
}
