//! How the overview cluster reacts: producer sends, crashes, fencing, elections.

use super::{Cluster, ClusterCtx, Event, Fact, Partition, StoredRecord, Waiting};
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

    /// The leader, if it is serving: a crashed leader the controller has not fenced yet takes nothing.
    fn live_leader(&self, partition: &Partition) -> Option<u32> {
        partition.leader.filter(|id| self.broker(*id).serving())
    }

    fn try_append(&mut self, partition: u32, record: StoredRecord, ctx: &mut ClusterCtx) -> bool {
        let p = &self.partitions[partition as usize];
        let Some(leader) = self.live_leader(p) else {
            return false;
        };
        let offset = self.partitions[partition as usize].log_end_offset();
        self.partitions[partition as usize].records.push(record);
        self.replicate_to_isr(partition as usize);
        self.stats.acknowledged += 1;
        let fact = Fact::Appended { key_id: record.key_id, value_bytes: record.value_bytes, partition, offset };
        ctx.record(Actor::Broker(leader), fact);
        true
    }

    pub(super) fn retry_waiting(&mut self, ctx: &mut ClusterCtx) {
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

    pub(super) fn broker_mut(&mut self, id: u32) -> &mut super::Broker {
        &mut self.brokers[(id - 1) as usize]
    }

    /// Crashes a running broker (checked by `refusal`): its heartbeats stop, and the controller
    /// fences it broker.session.timeout.ms after the last one it got.
    /// Kafka: `BrokerHeartbeatManager.touch` / `nextCheckTimeNs`; heartbeats every broker.heartbeat.interval.ms.
    pub(super) fn kill(&mut self, id: u32, ctx: &mut ClusterCtx) {
        let interval_ms = self.settings.broker_heartbeat_interval_ms.max(1);
        let timeout_ms = self.settings.broker_session_timeout_ms;
        let now_ms = ctx.now_ms();
        let broker = self.broker_mut(id);
        debug_assert!(broker.alive);
        let was_serving = broker.serving();
        broker.alive = false;
        ctx.record(Actor::Broker(id), Fact::BrokerCrashed);
        if was_serving {
            let since_ms = now_ms - broker.heartbeats_from_ms;
            let last_ms = broker.heartbeats_from_ms + since_ms / interval_ms * interval_ms;
            broker.last_heartbeat_ms = Some(last_ms);
            let incarnation = broker.incarnation;
            let delay_ms = (last_ms + timeout_ms).saturating_sub(now_ms);
            ctx.schedule(delay_ms, Event::SessionExpired { broker: id, incarnation });
        }
    }

    /// Restarts a crashed broker (checked by `refusal`): a new incarnation asks to register.
    pub(super) fn restart(&mut self, id: u32, ctx: &mut ClusterCtx) {
        let broker = self.broker_mut(id);
        debug_assert!(!broker.alive);
        broker.alive = true;
        broker.incarnation += 1;
        let incarnation = broker.incarnation;
        ctx.record(Actor::Broker(id), Fact::BrokerRestarted { incarnation });
        self.try_register(id, ctx);
    }
}
