//! The leader's high-watermark and ISR rules of Kafka's `Partition`: the effective
//! `min.insync.replicas`, `maybeIncrementLeaderHW`, and when a follower may join or must leave the ISR.

use super::partition::{ReplicatedPartition, Role};

impl ReplicatedPartition {
    /// Sets the topic's `min.insync.replicas` (any value ≥ 1, even above the replication factor).
    pub fn set_min_insync_replicas(&mut self, min_insync_replicas: usize) {
        self.min_insync_replicas = min_insync_replicas.max(1);
    }

    /// Sets `replica.lag.time.max.ms`, which also decides whom the HW waits for.
    pub fn set_replica_lag_time_max_ms(&mut self, lag_ms: u64) {
        self.replica_lag_time_max_ms = lag_ms;
    }

    /// The leader's metadata learns that `broker` is fenced (or no longer is).
    pub fn set_broker_fenced(&mut self, broker: u32, fenced: bool) {
        if fenced {
            self.fenced.insert(broker);
        } else {
            self.fenced.remove(&broker);
        }
    }

    /// `effectiveMinIsr`: `min.insync.replicas`, but never more than the replication factor.
    pub fn effective_min_isr(&self) -> usize {
        self.min_insync_replicas.min(self.assignment.len())
    }

    /// `isUnderMinIsr`: `broker` leads and its ISR is smaller than the effective minimum.
    pub fn is_under_min_isr(&self, broker: u32) -> bool {
        let replica = self.replica(broker);
        replica.role == Role::Leader && replica.isr.len() < self.effective_min_isr()
    }

    /// `maybeIncrementLeaderHW`: nothing moves while the ISR is under the effective minimum;
    /// otherwise HW = the smallest LEO over the leader, its ISR followers and any follower out
    /// of the ISR that is caught up and ISR-eligible (`shouldWaitForReplicaToJoinIsr`: waiting
    /// for it lets it reach the HW and rejoin). It only moves forward. True if it advanced.
    pub fn maybe_increment_high_watermark(&mut self, leader: u32) -> bool {
        if self.is_under_min_isr(leader) {
            return false;
        }
        let (now_ms, lag_ms) = (self.clock_ms, self.replica_lag_time_max_ms);
        let replica = self.replica(leader);
        let mut candidate = replica.log.log_end_offset();
        for follower in self.assignment.iter().copied().filter(|b| *b != leader) {
            let leo = replica.followers.get(&follower).map_or(-1, |p| p.log_end_offset);
            let waits_to_join =
                !self.fenced.contains(&follower) && self.follower_is_caught_up(leader, follower, now_ms, lag_ms);
            if leo < candidate && (replica.isr.contains(&follower) || waits_to_join) {
                candidate = leo;
            }
        }
        let replica = self.replica_mut(leader);
        if candidate > replica.log.high_watermark() {
            replica.log.set_high_watermark(candidate);
            debug_assert!(replica.log.high_watermark() <= replica.log.log_end_offset(), "HW passed the leader's LEO");
            return true;
        }
        false
    }

    /// `isFollowerInSync` for ISR expansion: the follower reached the leader's HW and the
    /// start of the leader's current epoch.
    fn follower_can_join_isr(&self, leader: u32, follower: u32) -> bool {
        let replica = self.replica(leader);
        let Some(progress) = replica.followers.get(&follower) else {
            return false;
        };
        let epoch_start = replica.log.epochs().entries().last().map_or(0, |(_, start)| *start);
        progress.log_end_offset >= replica.log.high_watermark() && progress.log_end_offset >= epoch_start
    }

    /// `isCaughtUp`: the follower's LEO equals the leader's, or it caught up within `lag_max_ms`.
    fn follower_is_caught_up(&self, leader: u32, follower: u32, now_ms: u64, lag_max_ms: u64) -> bool {
        let replica = self.replica(leader);
        let leader_leo = replica.log.log_end_offset();
        replica.followers.get(&follower).is_some_and(|p| {
            p.log_end_offset == leader_leo
                || p.last_caught_up_ms.is_some_and(|t| now_ms.saturating_sub(t) <= lag_max_ms)
        })
    }

    /// The ISR `leader` would ask the controller for after `follower`'s fetch (`maybeExpandIsr`):
    /// the follower joins if it is out of the ISR and now in sync.
    pub fn isr_expansion(&self, leader: u32, follower: u32) -> Option<Vec<u32>> {
        let replica = self.replica(leader);
        if replica.role != Role::Leader
            || replica.isr.contains(&follower)
            || !self.follower_can_join_isr(leader, follower)
        {
            return None;
        }
        Some(self.assignment.iter().copied().filter(|b| replica.isr.contains(b) || *b == follower).collect())
    }

    /// The ISR `leader` would ask for after the periodic lag check (`maybeShrinkIsr`), if it shrinks.
    pub fn isr_shrink(&self, leader: u32, now_ms: u64, lag_max_ms: u64) -> Option<Vec<u32>> {
        let replica = self.replica(leader);
        if replica.role != Role::Leader {
            return None;
        }
        let kept: Vec<u32> = replica
            .isr
            .iter()
            .copied()
            .filter(|b| *b == leader || self.follower_is_caught_up(leader, *b, now_ms, lag_max_ms))
            .collect();
        (kept.len() < replica.isr.len()).then_some(kept)
    }
}
