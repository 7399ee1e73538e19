//! The sender's side of the accumulator, per node as in Kafka: which leaders have a sendable batch
//! (and, on the way, the adaptive load stats), how long a leader has not taken data, and one
//! produce request's worth of batches per ready leader.

use crate::model::kernel::sorted::SortedSet;

use super::accumulator::{Accumulator, BatchView, SendReason};
use super::brokers::Brokers;
use super::sticky::PartitionLoadStats;

/// Kafka's `max.request.size` default: the most batch bytes one produce request carries.
pub const MAX_REQUEST_SIZE_BYTES: u32 = 1_048_576;

/// When a broker last had a sendable batch and when the producer could last send to it
/// (Kafka's `RecordAccumulator.NodeLatencyStats`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeLatencyStats {
    pub ready_time_ms: u64,
    pub drain_time_ms: u64,
}

/// What one readiness check found (Kafka's `ReadyCheckResult`, plus what adaptive partitioning left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadyCheck {
    /// Leaders with at least one sendable batch (full, or waited `linger.ms`).
    pub ready_nodes: SortedSet<u32>,
    /// Partitions the sticky partitioner will not draw: their leader has had data waiting without
    /// taking any for longer than `partitioner.availability.timeout.ms`.
    pub unavailable: Vec<u32>,
}

/// One produce request: the batches drained for one broker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drained {
    pub broker: u32,
    pub batches: Vec<BatchView>,
}

impl Accumulator {
    /// Whether the leader of a partition has not taken data for longer than the availability timeout.
    fn leader_unavailable(&self, leader: u32) -> bool {
        let timeout_ms = self.availability_timeout_ms;
        timeout_ms > 0
            && self
                .node_stats
                .get(&leader)
                .is_some_and(|s| s.ready_time_ms.saturating_sub(s.drain_time_ms) > timeout_ms)
    }

    /// Kafka: `RecordAccumulator.ready` → `partitionReady` → `batchReady`. A leader is ready when the
    /// first batch of any of its (unmuted) partitions is full or has waited `linger.ms`. Queue sizes
    /// feed the adaptive weights once every partition has had a batch; with an availability
    /// timeout, partitions whose leader has not taken data for that long are left out of them.
    pub fn ready(&mut self, now_ms: u64, num_partitions: u32, brokers: &Brokers) -> ReadyCheck {
        let adaptive = self.adaptive && self.queues.len() as u32 >= num_partitions;
        let (mut sizes, mut ids) = (Vec::new(), Vec::new());
        let mut check = ReadyCheck { ready_nodes: SortedSet::new(), unavailable: Vec::new() };
        for (&partition, queue) in &self.queues {
            let leader = brokers.leader_of(partition);
            let Some(&first) = queue.front() else {
                // An empty queue is never left out (Kafka skips the check for it).
                if adaptive {
                    sizes.push(0);
                    ids.push(partition);
                }
                continue;
            };
            if adaptive && self.leader_unavailable(leader) {
                check.unavailable.push(partition);
            } else if adaptive {
                sizes.push(queue.len() as u32);
                ids.push(partition);
            }
            let batch = &self.batches[first as usize];
            let full = queue.len() > 1 || batch.is_full();
            let expired = now_ms.saturating_sub(batch.created_ms) >= self.linger_ms;
            if (full || expired) && !self.muted.contains(&partition) {
                check.ready_nodes.insert(leader);
            }
        }
        let all = self.queues.len();
        let stats = if adaptive { PartitionLoadStats::from_queue_sizes(&sizes, &ids, all) } else { None };
        self.partitioner.set_load_stats(stats);
        check
    }

    /// Kafka: `RecordAccumulator.updateNodeLatencyStats`, called by the sender for every ready leader:
    /// the ready time moves on; the drain time only when the producer could send to it.
    pub fn update_node_latency_stats(&mut self, broker: u32, now_ms: u64, can_drain: bool) {
        if self.availability_timeout_ms == 0 {
            return;
        }
        let stats =
            self.node_stats.entry(broker).or_insert(NodeLatencyStats { ready_time_ms: now_ms, drain_time_ms: now_ms });
        if can_drain {
            stats.drain_time_ms = now_ms;
        }
        stats.ready_time_ms = now_ms;
        debug_assert!(stats.drain_time_ms <= stats.ready_time_ms, "a node drains only when it is ready");
    }

    /// Kafka: `RecordAccumulator.drainBatchesForOneNode` for each node: the first batch of each of
    /// the node's unmuted partitions, round-robin from where the last drain stopped, up to
    /// `max.request.size` — not-yet-full batches included (they go along with the ready one).
    pub fn drain(
        &mut self,
        nodes: &SortedSet<u32>,
        now_ms: u64,
        num_partitions: u32,
        brokers: &Brokers,
    ) -> Vec<Drained> {
        nodes
            .iter()
            .map(|&broker| Drained { broker, batches: self.drain_node(broker, now_ms, num_partitions, brokers) })
            .filter(|d| !d.batches.is_empty())
            .collect()
    }

    fn drain_node(&mut self, broker: u32, now_ms: u64, num_partitions: u32, brokers: &Brokers) -> Vec<BatchView> {
        let parts = brokers.partitions_led(broker, num_partitions);
        let mut ready: Vec<BatchView> = Vec::new();
        if parts.is_empty() {
            return ready;
        }
        let start = self.drain_index.get(&broker).copied().unwrap_or(0) % parts.len();
        let mut size_bytes = 0;
        for step in 0..parts.len() {
            let index = (start + step) % parts.len();
            let partition = parts[index];
            self.drain_index.insert(broker, index);
            if self.muted.contains(&partition) {
                continue;
            }
            let Some(queue) = self.queues.get_mut(&partition) else { continue };
            let Some(&id) = queue.front() else { continue };
            let batch = &mut self.batches[id as usize];
            if size_bytes + batch.size_bytes > MAX_REQUEST_SIZE_BYTES && !ready.is_empty() {
                break;
            }
            let full = queue.len() > 1 || batch.is_full();
            let expired = now_ms.saturating_sub(batch.created_ms) >= self.linger_ms;
            batch.closed = true;
            batch.sent_ms = Some(now_ms);
            batch.send_reason = Some(match (full, expired) {
                (true, _) => SendReason::Full,
                (false, true) => SendReason::Linger,
                (false, false) => SendReason::Carried,
            });
            size_bytes += batch.size_bytes;
            ready.push(batch.clone());
            queue.pop_front();
        }
        ready
    }

    /// With `max.in.flight.requests.per.connection` = 1 the sender mutes a drained partition until
    /// its response arrives (Kafka: `mutePartition` / `unmutePartition`), keeping batches in order.
    pub fn mute(&mut self, partition: u32) {
        self.muted.insert(partition);
    }

    pub fn unmute(&mut self, partition: u32) {
        self.muted.remove(&partition);
    }
}
