//! Followers: in-sync ones copy each append at once (lab simplification); a restarted one fetches
//! what it missed at lab.replica.fetch.bytes.per.sec and rejoins the ISR once it reaches the
//! leader's high watermark, through the leader's AlterPartition.

use super::{Cluster, ClusterCtx, Event, Fact, LeaderChange};
use crate::model::kernel::Actor;

/// How often a lagging follower's fetch rounds come back (the lab's grain for catching up).
pub const FETCH_ROUND_MS: u64 = 100;

impl Cluster {
    /// After an append at the leader: every serving ISR member has it (the lab's followers in
    /// sync copy at once); a crashed member the controller has not fenced yet falls behind.
    pub(super) fn replicate_to_isr(&mut self, index: usize) {
        let serving: Vec<u32> = self.brokers.iter().filter(|b| b.serving()).map(|b| b.id).collect();
        let p = &mut self.partitions[index];
        let leo = p.records.len() as i64;
        for (replica, end) in p.replicas.iter().zip(p.log_end_offsets.iter_mut()) {
            if p.isr.contains(replica) && serving.contains(replica) {
                *end = leo;
            }
        }
    }

    /// Partitions `broker` lags on and can fetch now: out of the ISR, with a serving leader.
    fn lagging_partitions(&self, broker: u32) -> Vec<usize> {
        (0..self.partitions.len())
            .filter(|i| {
                let p = &self.partitions[*i];
                p.replicas.contains(&broker)
                    && !p.isr.contains(&broker)
                    && p.leader.is_some_and(|l| l != broker && self.broker(l).serving())
            })
            .collect()
    }

    /// Starts a fetch round for every serving broker that lags somewhere and has none pending.
    pub(super) fn start_fetchers(&mut self, ctx: &mut ClusterCtx) {
        for index in 0..self.brokers.len() {
            let broker = &self.brokers[index];
            let (id, incarnation) = (broker.id, broker.incarnation);
            if self.fetching[index] || !broker.serving() || self.lagging_partitions(id).is_empty() {
                continue;
            }
            self.fetching[index] = true;
            ctx.schedule(FETCH_ROUND_MS, Event::ReplicaFetch { broker: id, incarnation });
        }
    }

    /// One fetch round: each lagging partition gets an equal share of the round's bytes (at least
    /// one record); a follower that reaches the leader's high watermark and its epoch's start
    /// joins the ISR. Kafka: `Partition.isFollowerInSync`, `Partition.maybeExpandIsr`.
    pub(super) fn fetch_round(&mut self, id: u32, incarnation: u32, ctx: &mut ClusterCtx) {
        self.fetching[(id - 1) as usize] = false;
        let broker = self.broker(id);
        if !broker.serving() || broker.incarnation != incarnation {
            return;
        }
        let lagging = self.lagging_partitions(id);
        if lagging.is_empty() {
            return;
        }
        let round_bytes = self.settings.replica_fetch_bytes_per_sec * FETCH_ROUND_MS / 1000;
        let share_bytes = round_bytes / lagging.len() as u64;
        for index in lagging {
            self.fetch_partition(index, id, share_bytes);
            self.maybe_expand_isr(index, id, ctx);
        }
        self.after_controller_write(ctx);
    }

    /// Copies records after the follower's end, up to `share_bytes` (at least one record).
    fn fetch_partition(&mut self, index: usize, follower: u32, share_bytes: u64) {
        let p = &mut self.partitions[index];
        let slot = p.replicas.iter().position(|r| *r == follower).expect("a replica");
        // A follower truncates to the leader's log before fetching (`Partition.truncateTo`).
        let mut end = p.log_end_offsets[slot].min(p.log_end_offset());
        let mut taken_bytes = 0;
        while end < p.log_end_offset() {
            let bytes = u64::from(p.records[end as usize].value_bytes);
            if taken_bytes > 0 && taken_bytes + bytes > share_bytes {
                break;
            }
            taken_bytes += bytes;
            end += 1;
        }
        p.log_end_offsets[slot] = end;
    }

    /// The leader adds a caught-up follower to the ISR (an AlterPartition the controller accepts:
    /// the follower is unfenced).
    fn maybe_expand_isr(&mut self, index: usize, follower: u32, ctx: &mut ClusterCtx) {
        let p = &mut self.partitions[index];
        let end = p.replica_log_end_offset(follower);
        if end < p.high_watermark() || end < p.leader_epoch_start_offset {
            return;
        }
        let before = p.isr.clone();
        p.isr.push(follower);
        crate::model::kernel::order::sort_by_key(&mut p.isr, |r| p.replicas.iter().position(|x| x == r));
        let fact = Fact::IsrExpanded {
            partition: p.id,
            replica: follower,
            before: before.into(),
            after: p.isr.as_slice().into(),
            leader: LeaderChange::Kept,
        };
        let leader = p.leader.expect("a follower fetches from a leader");
        ctx.record(Actor::Broker(leader), fact);
    }
}
