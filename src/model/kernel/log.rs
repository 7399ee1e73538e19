//! The event log: every state change as a human-readable line with Kafka's names.

use std::sync::Arc;

/// One line of the event log (like a broker's server.log line: time, who, what).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub time_ms: u64,
    pub actor: String,
    pub text: String,
}

const CHUNK_LEN: usize = 64;

/// Append-only log whose clones share full chunks, so snapshots stay cheap.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    chunks: Vec<Arc<Vec<LogEntry>>>,
    tail: Vec<LogEntry>,
    trace_hash: TraceHash,
}

impl EventLog {
    pub fn push(&mut self, time_ms: u64, actor: impl Into<String>, text: impl Into<String>) {
        let entry = LogEntry { time_ms, actor: actor.into(), text: text.into() };
        self.trace_hash.add(&entry);
        self.tail.push(entry);
        if self.tail.len() == CHUNK_LEN {
            let full = std::mem::replace(&mut self.tail, Vec::with_capacity(CHUNK_LEN));
            self.chunks.push(Arc::new(full));
        }
    }

    pub fn len(&self) -> usize {
        self.chunks.len() * CHUNK_LEN + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry at `index` (0 is the oldest).
    pub fn get(&self, index: usize) -> Option<&LogEntry> {
        let chunk = index / CHUNK_LEN;
        if chunk < self.chunks.len() {
            self.chunks[chunk].get(index % CHUNK_LEN)
        } else {
            self.tail.get(index - self.chunks.len() * CHUNK_LEN)
        }
    }

    /// The newest `count` entries, oldest first.
    pub fn last(&self, count: usize) -> Vec<&LogEntry> {
        let start = self.len().saturating_sub(count);
        (start..self.len()).filter_map(|i| self.get(i)).collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = &LogEntry> {
        self.chunks.iter().flat_map(|chunk| chunk.iter()).chain(self.tail.iter())
    }

    /// A digest of every entry so far: equal logs give equal hashes.
    pub fn trace_hash(&self) -> u64 {
        self.trace_hash.0
    }
}

/// FNV-1a (64-bit) over each entry's time, actor and text.
#[derive(Clone, Copy, Debug)]
struct TraceHash(u64);

impl Default for TraceHash {
    fn default() -> Self {
        TraceHash(0xcbf2_9ce4_8422_2325)
    }
}

impl TraceHash {
    fn add(&mut self, entry: &LogEntry) {
        self.bytes(&entry.time_ms.to_le_bytes());
        self.bytes(entry.actor.as_bytes());
        self.bytes(&[0]);
        self.bytes(entry.text.as_bytes());
        self.bytes(&[0xff]);
    }

    fn bytes(&mut self, data: &[u8]) {
        for byte in data {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_history_but_diverge_after() {
        let mut log = EventLog::default();
        for i in 0..150 {
            log.push(i, "broker-1", format!("entry {i}"));
        }
        let snapshot = log.clone();
        log.push(200, "broker-2", "later");
        assert_eq!(snapshot.len(), 150);
        assert_eq!(log.len(), 151);
        assert_eq!(log.get(149), snapshot.get(149));
        assert_ne!(log.trace_hash(), snapshot.trace_hash());
        assert_eq!(log.last(1)[0].text, "later");
        assert_eq!(log.iter().count(), 151);
    }
}
