//! Append-mostly storage whose clones share full chunks (no Kafka counterpart:
//! it keeps time-travel snapshots of a million-record log cheap: a snapshot copies only
//! the chunk pointers and the tail, so memory grows with the records, not with records ×
//! snapshots).

use std::sync::Arc;

const CHUNK_LEN: usize = 1024;

/// A vector split into shared, immutable full chunks plus a private tail.
#[derive(Clone, Debug)]
pub struct ChunkedVec<T> {
    chunks: Vec<Arc<Vec<T>>>,
    tail: Vec<T>,
}

impl<T> Default for ChunkedVec<T> {
    fn default() -> Self {
        Self { chunks: Vec::new(), tail: Vec::new() }
    }
}

impl<T> ChunkedVec<T> {
    pub fn push(&mut self, item: T) {
        self.tail.push(item);
        if self.tail.len() == CHUNK_LEN {
            let full = std::mem::take(&mut self.tail);
            self.chunks.push(Arc::new(full));
        }
    }

    pub fn len(&self) -> usize {
        self.chunks.len() * CHUNK_LEN + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, index: usize) -> Option<&T> {
        let chunk = index / CHUNK_LEN;
        if chunk < self.chunks.len() {
            self.chunks[chunk].get(index % CHUNK_LEN)
        } else {
            self.tail.get(index - self.chunks.len() * CHUNK_LEN)
        }
    }

    pub fn last(&self) -> Option<&T> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.iter()).chain(self.tail.iter())
    }

    /// The items from `start` on, skipping whole chunks rather than item by item.
    pub fn iter_from(&self, start: usize) -> impl Iterator<Item = &T> + '_ {
        let start = start.min(self.len());
        let skipped_chunks = start / CHUNK_LEN;
        self.chunks[skipped_chunks..]
            .iter()
            .flat_map(|chunk| chunk.iter())
            .chain(self.tail.iter())
            .skip(start % CHUNK_LEN)
    }

    /// Heap bytes held (capacity, not just length), for the memory report.
    pub fn heap_bytes(&self) -> usize {
        let item = std::mem::size_of::<T>();
        self.chunks.len() * (CHUNK_LEN * item + std::mem::size_of::<Arc<Vec<T>>>() + 2 * std::mem::size_of::<usize>())
            + self.tail.capacity() * item
    }
}

impl<T: Clone> ChunkedVec<T> {
    /// The item at `index`, to change in place. A chunk that a clone still shares is copied
    /// first (copy on write), so snapshots never see the change.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        let chunk = index / CHUNK_LEN;
        if chunk < self.chunks.len() {
            Arc::make_mut(&mut self.chunks[chunk]).get_mut(index % CHUNK_LEN)
        } else {
            self.tail.get_mut(index - self.chunks.len() * CHUNK_LEN)
        }
    }

    /// Grows to at least `len` items, filling with `value` (never shrinks).
    pub fn extend_to(&mut self, len: usize, value: &T) {
        while self.len() < len {
            self.push(value.clone());
        }
    }

    /// Keeps the first `len` items (rebuilds only the chunks past the cut).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len() {
            return;
        }
        let kept: Vec<T> = self.iter_from(len / CHUNK_LEN * CHUNK_LEN).take(len % CHUNK_LEN).cloned().collect();
        self.chunks.truncate(len / CHUNK_LEN);
        self.tail = kept;
    }
}

impl<T: PartialEq> PartialEq for ChunkedVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: Eq> Eq for ChunkedVec<T> {}

impl<T> std::ops::Index<usize> for ChunkedVec<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        self.get(index).expect("an index below len()")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_get_truncate_across_chunk_boundaries() {
        let mut v = ChunkedVec::default();
        for i in 0..2500u32 {
            v.push(i);
        }
        assert_eq!(v.len(), 2500);
        assert_eq!(v.get(1024), Some(&1024));
        assert_eq!(v.last(), Some(&2499));
        let snapshot = v.clone();
        v.truncate(1500);
        assert_eq!(v.len(), 1500);
        assert_eq!(v.last(), Some(&1499));
        v.push(7);
        assert_eq!(v.get(1500), Some(&7));
        assert_eq!(snapshot.get(1500), Some(&1500));
        v.truncate(0);
        assert!(v.is_empty());
    }

    #[test]
    fn a_change_through_get_mut_never_reaches_a_clone_taken_before() {
        let mut v = ChunkedVec::default();
        v.extend_to(3000, &0u32);
        let snapshot = v.clone();
        *v.get_mut(5).expect("in a full chunk") = 7;
        *v.get_mut(2999).expect("in the tail") = 9;
        assert_eq!((v[5], v[2999]), (7, 9));
        assert_eq!((snapshot[5], snapshot[2999]), (0, 0));
        assert_eq!(v.get_mut(3000), None);
    }

    #[test]
    fn iter_from_starts_at_the_asked_item_on_both_sides_of_a_chunk_boundary() {
        let mut v = ChunkedVec::default();
        for i in 0..2100u32 {
            v.push(i);
        }
        for start in [0, 1, 1023, 1024, 1025, 2047, 2048, 2099, 2100, 5000] {
            let expected: Vec<u32> = (start.min(2100) as u32..2100).collect();
            assert_eq!(v.iter_from(start).copied().collect::<Vec<_>>(), expected, "from {start}");
        }
    }
}
