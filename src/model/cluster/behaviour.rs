//! How the overview cluster reacts: producer sends, crashes, fencing, elections.

use super::{Cluster, ClusterCtx, Event, Fact, LeaderChange, Partition, StoredRecord, Waiting};
use crate::model::kernel::Actor;

impl Cluster {
    pub(super) fn send_gap_ms(&self, ctx: &mut ClusterCtx) -> u64 {
        let rate = self.settings.records_per_sec.max(1);
        let mean_ms = (1000 / rate).max(1);
        ctx.random_between(mean_ms.div_ceil(2), mean_ms + mean_ms / 2)
    }

    /// `records` sends, one after another (each logs its own append or wait).
    pub(super) fn send_burst(&mut self, records: u32, ctx: &mut ClusterCtx) {
        for _ in 0..records {
            self.send_one(ctx);
        }
    }

    /// One `send()`: draw a key, pick its partition, append at the leader or wait for one
    /// (`true`: appended).
    pub(super) fn send_one(&mut self, ctx: &mut ClusterCtx) -> bool {
        self.retry_waiting(ctx);
        let key_id = ctx.random_between(0, self.settings.distinct_keys - 1) as u32;
        let value_bytes = ctx.random_between(100, 1000) as u32;
        let record = StoredRecord { key_id, value_bytes, timestamp_ms: ctx.now_ms() };
        let partition = self.partition_of(key_id);
        self.stats.sent += 1;
        let appended = self.try_append(partition, record, ctx);
        if !appended {
            ctx.record(Actor::Producer, Fact::RecordWaiting { key_id, partition });
            self.waiting.push(Waiting { partition, record, first_try_ms: ctx.now_ms() });
        }
        appended
    }

    fn live_leader(&self, partition: &Partition) -> Option<u32> {
        partition.leader.filter(|id| self.broker(*id).alive)
    }

    fn try_append(&mut self, partition: u32, record: StoredRecord, ctx: &mut ClusterCtx) -> bool {
        let p = &self.partitions[partition as usize];
        let Some(leader) = self.live_leader(p) else {
            return false;
        };
        let p = &mut self.partitions[partition as usize];
        let offset = p.log_end_offset();
        p.records.push(record);
        self.stats.acknowledged += 1;
        let fact = Fact::Appended { key_id: record.key_id, value_bytes: record.value_bytes, partition, offset };
        ctx.record(Actor::Broker(leader), fact);
        true
    }

    fn retry_waiting(&mut self, ctx: &mut ClusterCtx) {
        let timeout_ms = self.settings.delivery_timeout_ms;
        let waiting = std::mem::take(&mut self.waiting);
        for w in waiting {
            if self.try_append(w.partition, w.record, ctx) {
                continue;
            }
            if ctx.now_ms() >= w.first_try_ms.saturating_add(timeout_ms) {
                self.stats.expired += 1;
                let fact = Fact::RecordExpired { key_id: w.record.key_id, partition: w.partition, timeout_ms };
                ctx.record(Actor::Producer, fact);
            } else {
                self.waiting.push(w);
            }
        }
    }

    pub(super) fn broker(&self, id: u32) -> &super::Broker {
        &self.brokers[(id - 1) as usize]
    }

    /// Crashes a running broker (checked by `refusal`).
    pub(super) fn kill(&mut self, id: u32, ctx: &mut ClusterCtx) {
        let broker = &mut self.brokers[(id - 1) as usize];
        debug_assert!(broker.alive);
        broker.alive = false;
        let incarnation = broker.incarnation;
        ctx.record(Actor::Broker(id), Fact::BrokerCrashed);
        ctx.schedule(self.settings.broker_session_timeout_ms, Event::SessionExpired { broker: id, incarnation });
    }

    /// Restarts a crashed broker (checked by `refusal`).
    pub(super) fn restart(&mut self, id: u32, ctx: &mut ClusterCtx) {
        let broker = &mut self.brokers[(id - 1) as usize];
        debug_assert!(!broker.alive);
        broker.alive = true;
        broker.fenced = false;
        broker.incarnation += 1;
        let incarnation = broker.incarnation;
        ctx.record(Actor::Broker(id), Fact::BrokerRestarted { incarnation });
        for index in 0..self.partitions.len() {
            self.rejoin(index, id, ctx);
        }
        self.retry_waiting(ctx);
    }

    /// A restarted replica catches up and rejoins the ISR; a leaderless partition gets it as leader.
    fn rejoin(&mut self, index: usize, id: u32, ctx: &mut ClusterCtx) {
        let p = &mut self.partitions[index];
        if !p.replicas.contains(&id) {
            return;
        }
        let before = p.isr.clone();
        if !p.isr.contains(&id) {
            p.isr.push(id);
            crate::model::kernel::order::sort_by_key(&mut p.isr, |r| p.replicas.iter().position(|x| x == r));
        }
        let mut leader = LeaderChange::Kept;
        if p.leader.is_none() || p.leader == Some(id) {
            p.leader = Some(id);
            p.leader_epoch += 1;
            leader = LeaderChange::Elected { leader: id, epoch: p.leader_epoch };
        }
        let fact = Fact::IsrExpanded { partition: p.id, replica: id, before, after: p.isr.clone(), leader };
        ctx.record(Actor::Controller, fact);
    }

    pub(super) fn session_expired(&mut self, id: u32, incarnation: u32, ctx: &mut ClusterCtx) {
        let broker = self.broker(id);
        if broker.alive || broker.incarnation != incarnation || broker.fenced {
            return;
        }
        self.brokers[(id - 1) as usize].fenced = true;
        let timeout_ms = self.settings.broker_session_timeout_ms;
        ctx.record(Actor::Controller, Fact::BrokerFenced { broker: id, timeout_ms });
        for index in 0..self.partitions.len() {
            self.remove_from_isr(index, id, ctx);
        }
        self.retry_waiting(ctx);
    }

    /// Drops a fenced broker from a partition's ISR (never the last member) and re-elects if it led.
    fn remove_from_isr(&mut self, index: usize, id: u32, ctx: &mut ClusterCtx) {
        let alive: Vec<u32> = self.brokers.iter().filter(|b| b.alive && !b.fenced).map(|b| b.id).collect();
        let p = &mut self.partitions[index];
        if !p.replicas.contains(&id) {
            return;
        }
        let before = p.isr.clone();
        if p.isr.len() > 1 {
            p.isr.retain(|r| *r != id);
        }
        let mut leader = LeaderChange::Kept;
        if p.leader == Some(id) {
            p.leader = p.replicas.iter().copied().find(|r| p.isr.contains(r) && alive.contains(r));
            p.leader_epoch += 1;
            leader = match p.leader {
                Some(new) => LeaderChange::Moved { from: id, to: new, epoch: p.leader_epoch },
                None => LeaderChange::Offline,
            };
        }
        ctx.record(Actor::Controller, Fact::IsrShrunk { partition: p.id, before, after: p.isr.clone(), leader });
    }

    /// `auto.leader.rebalance.enable`: move leadership back to each partition's preferred replica.
    pub(super) fn leader_imbalance_check(&mut self, ctx: &mut ClusterCtx) {
        if !self.settings.auto_leader_rebalance_enable {
            return;
        }
        let usable: Vec<u32> = self.brokers.iter().filter(|b| b.alive && !b.fenced).map(|b| b.id).collect();
        for p in &mut self.partitions {
            let preferred = p.replicas[0];
            if p.leader != Some(preferred) && p.isr.contains(&preferred) && usable.contains(&preferred) {
                p.leader = Some(preferred);
                p.leader_epoch += 1;
                let fact = Fact::PreferredLeaderElected { partition: p.id, leader: preferred, epoch: p.leader_epoch };
                ctx.record(Actor::Controller, fact);
            }
        }
    }
}
