//! The event log: every state change as a typed fact with who did it and when.
//! Facts are data (the UI renders them through its catalog); the trace hash is
//! computed over the typed entry, so rewording a text never changes a fingerprint.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::actor::Actor;

/// One line of the event log (like a broker's server.log line: time, who, what).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LogEntry<F> {
    pub time_ms: u64,
    pub actor: Actor,
    pub fact: F,
}

const CHUNK_LEN: usize = 64;

/// Append-only log whose clones share full chunks, so snapshots stay cheap.
#[derive(Clone, Debug)]
pub struct EventLog<F> {
    chunks: Vec<Arc<Vec<LogEntry<F>>>>,
    tail: Vec<LogEntry<F>>,
    trace_hash: u64,
}

impl<F> Default for EventLog<F> {
    fn default() -> Self {
        Self { chunks: Vec::new(), tail: Vec::new(), trace_hash: TraceHasher::default().finish() }
    }
}

impl<F: Hash> EventLog<F> {
    pub fn push(&mut self, time_ms: u64, actor: Actor, fact: F) {
        let entry = LogEntry { time_ms, actor, fact };
        let mut hasher = TraceHasher(self.trace_hash);
        entry.hash(&mut hasher);
        hasher.write_u8(0xff);
        self.trace_hash = hasher.finish();
        self.tail.push(entry);
        if self.tail.len() == CHUNK_LEN {
            let full = std::mem::replace(&mut self.tail, Vec::with_capacity(CHUNK_LEN));
            self.chunks.push(Arc::new(full));
        }
    }
}

impl<F> EventLog<F> {
    pub fn len(&self) -> usize {
        self.chunks.len() * CHUNK_LEN + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry at `index` (0 is the oldest).
    pub fn get(&self, index: usize) -> Option<&LogEntry<F>> {
        let chunk = index / CHUNK_LEN;
        if chunk < self.chunks.len() {
            self.chunks[chunk].get(index % CHUNK_LEN)
        } else {
            self.tail.get(index - self.chunks.len() * CHUNK_LEN)
        }
    }

    /// The newest `count` entries, oldest first.
    pub fn last(&self, count: usize) -> Vec<&LogEntry<F>> {
        let start = self.len().saturating_sub(count);
        (start..self.len()).filter_map(|i| self.get(i)).collect()
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &LogEntry<F>> {
        self.chunks.iter().flat_map(|chunk| chunk.iter()).chain(self.tail.iter())
    }

    /// A digest of every entry so far: equal logs give equal hashes, on every platform.
    pub fn trace_hash(&self) -> u64 {
        self.trace_hash
    }
}

/// FNV-1a (64-bit) that writes every integer as little-endian 64 bits, so `usize`
/// and enum discriminants hash the same on wasm32 and on 64-bit hosts.
#[derive(Clone, Copy, Debug)]
pub struct TraceHasher(u64);

impl Default for TraceHasher {
    fn default() -> Self {
        TraceHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for TraceHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.write(&i.to_le_bytes());
    }
    fn write_u128(&mut self, i: u128) {
        self.write(&i.to_le_bytes());
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_i8(&mut self, i: i8) {
        self.write_u64(i as u64);
    }
    fn write_i16(&mut self, i: i16) {
        self.write_u64(i as u64);
    }
    fn write_i32(&mut self, i: i32) {
        self.write_u64(i as u64);
    }
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }
    fn write_isize(&mut self, i: isize) {
        self.write_u64(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    enum Fact {
        Entry(usize),
        Later,
    }

    #[test]
    fn clones_share_history_but_diverge_after() {
        let mut log = EventLog::default();
        for i in 0..150 {
            log.push(i, Actor::Broker(1), Fact::Entry(i as usize));
        }
        let snapshot = log.clone();
        log.push(200, Actor::Broker(2), Fact::Later);
        assert_eq!(snapshot.len(), 150);
        assert_eq!(log.len(), 151);
        assert_eq!(log.get(149), snapshot.get(149));
        assert_ne!(log.trace_hash(), snapshot.trace_hash());
        assert_eq!(log.last(1)[0].fact, Fact::Later);
        assert_eq!(log.iter().count(), 151);
    }

    #[test]
    fn the_hash_covers_the_typed_fact_not_its_wording() {
        let hash = |fact: Fact| {
            let mut log = EventLog::default();
            log.push(5, Actor::Controller, fact);
            log.trace_hash()
        };
        assert_ne!(hash(Fact::Entry(1)), hash(Fact::Entry(2)));
        assert_eq!(hash(Fact::Later), hash(Fact::Later));
    }

    #[test]
    fn integers_hash_as_64_bits_whatever_the_platform() {
        let mut narrow = TraceHasher::default();
        narrow.write_usize(7);
        let mut wide = TraceHasher::default();
        wide.write_u64(7);
        assert_eq!(narrow.finish(), wide.finish());
    }
}
