//! How the overview cluster reacts: producer sends, crashes, fencing, elections.

use super::{join, Cluster, Event, Partition, StoredRecord, Waiting, TOPIC};
use crate::model::kernel::Ctx;

impl Cluster {
    pub(super) fn send_gap_ms(&self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> u64 {
        let rate = self.config.int("lab.producer.records.per.sec").max(1) as u64;
        let mean_ms = (1000 / rate).max(1);
        ctx.random_between(mean_ms.div_ceil(2), mean_ms + mean_ms / 2)
    }

    /// One `send()`: draw a key, pick its partition, append at the leader or wait for one.
    pub(super) fn send_one(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        self.retry_waiting(ctx);
        let keys = self.config.int("lab.producer.distinct.keys") as u64;
        let key_id = ctx.random_between(0, keys - 1) as u32;
        let value_bytes = ctx.random_between(100, 1000) as u32;
        let record = StoredRecord { key_id, value_bytes, timestamp_ms: ctx.now_ms() };
        let partition = self.partition_of(key_id);
        self.stats.sent += 1;
        if !self.try_append(partition, record, ctx) {
            ctx.log(
                "producer",
                format!(
                    "{} → {TOPIC}-{partition}: no live leader, the record waits (NOT_LEADER_OR_FOLLOWER)",
                    Cluster::key_text(key_id)
                ),
            );
            self.waiting.push(Waiting { partition, record, first_try_ms: ctx.now_ms() });
        }
    }

    fn live_leader(&self, partition: &Partition) -> Option<u32> {
        partition.leader.filter(|id| self.broker(*id).alive)
    }

    fn try_append(
        &mut self,
        partition: u32,
        record: StoredRecord,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> bool {
        let p = &self.partitions[partition as usize];
        let Some(leader) = self.live_leader(p) else {
            return false;
        };
        let p = &mut self.partitions[partition as usize];
        let offset = p.log_end_offset();
        p.records.push(record);
        self.stats.acknowledged += 1;
        ctx.log(
            format!("broker-{leader}"),
            format!(
                "appended {} ({} B) to {TOPIC}-{partition} at offset {offset}",
                Cluster::key_text(record.key_id),
                record.value_bytes
            ),
        );
        true
    }

    fn retry_waiting(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let timeout_ms = self.config.int("delivery.timeout.ms") as u64;
        let waiting = std::mem::take(&mut self.waiting);
        for w in waiting {
            if self.try_append(w.partition, w.record, ctx) {
                continue;
            }
            if ctx.now_ms() >= w.first_try_ms + timeout_ms {
                self.stats.expired += 1;
                ctx.log(
                    "producer",
                    format!(
                        "{} → {TOPIC}-{}: expired after delivery.timeout.ms={timeout_ms} (TimeoutException)",
                        Cluster::key_text(w.record.key_id),
                        w.partition
                    ),
                );
            } else {
                self.waiting.push(w);
            }
        }
    }

    pub(super) fn broker(&self, id: u32) -> &super::Broker {
        &self.brokers[(id - 1) as usize]
    }

    fn check_broker(&self, id: u32) -> Result<(), String> {
        if id == 0 || id as usize > self.brokers.len() {
            return Err(format!("There is no broker {id}: this cluster has brokers 1 to {}.", self.brokers.len()));
        }
        Ok(())
    }

    pub(super) fn kill(&mut self, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        self.check_broker(id)?;
        if !self.broker(id).alive {
            return Err(format!("broker-{id} is already down."));
        }
        let broker = &mut self.brokers[(id - 1) as usize];
        broker.alive = false;
        let incarnation = broker.incarnation;
        let timeout_ms = self.config.int("broker.session.timeout.ms") as u64;
        ctx.log(format!("broker-{id}"), "crashed (no controlled shutdown): its heartbeats to the controller stop");
        ctx.schedule(timeout_ms, Event::SessionExpired { broker: id, incarnation });
        Ok(())
    }

    pub(super) fn restart(&mut self, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        self.check_broker(id)?;
        if self.broker(id).alive {
            return Err(format!("broker-{id} is already running."));
        }
        let broker = &mut self.brokers[(id - 1) as usize];
        broker.alive = true;
        broker.fenced = false;
        broker.incarnation += 1;
        let incarnation = broker.incarnation;
        ctx.log(
            format!("broker-{id}"),
            format!("restarted, registered with the controller (incarnation {incarnation}) and unfenced"),
        );
        for index in 0..self.partitions.len() {
            self.rejoin(index, id, ctx);
        }
        self.retry_waiting(ctx);
        Ok(())
    }

    /// A restarted replica catches up and rejoins the ISR; a leaderless partition gets it as leader.
    fn rejoin(&mut self, index: usize, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let p = &mut self.partitions[index];
        if !p.replicas.contains(&id) {
            return;
        }
        let before = join(&p.isr);
        if !p.isr.contains(&id) {
            p.isr.push(id);
            p.isr.sort_by_key(|r| p.replicas.iter().position(|x| x == r));
        }
        let mut text = format!("{TOPIC}-{}: replica {id} caught up, Isr {before} → {}", p.id, join(&p.isr));
        if p.leader.is_none() || p.leader == Some(id) {
            p.leader = Some(id);
            p.leader_epoch += 1;
            text.push_str(&format!(", Leader {id} (LeaderEpoch {})", p.leader_epoch));
        }
        ctx.log("controller", text);
    }

    pub(super) fn session_expired(
        &mut self,
        id: u32,
        incarnation: u32,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) {
        let broker = self.broker(id);
        if broker.alive || broker.incarnation != incarnation || broker.fenced {
            return;
        }
        self.brokers[(id - 1) as usize].fenced = true;
        let timeout_ms = self.config.int("broker.session.timeout.ms");
        ctx.log("controller", format!("fenced broker-{id}: no heartbeat for broker.session.timeout.ms={timeout_ms}"));
        for index in 0..self.partitions.len() {
            self.remove_from_isr(index, id, ctx);
        }
        self.retry_waiting(ctx);
    }

    /// Drops a fenced broker from a partition's ISR (never the last member) and re-elects if it led.
    fn remove_from_isr(&mut self, index: usize, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let alive: Vec<u32> = self.brokers.iter().filter(|b| b.alive && !b.fenced).map(|b| b.id).collect();
        let p = &mut self.partitions[index];
        if !p.replicas.contains(&id) {
            return;
        }
        let isr_before = join(&p.isr);
        if p.isr.len() > 1 {
            p.isr.retain(|r| *r != id);
        }
        let mut text = format!("{TOPIC}-{}: Isr {isr_before} → {}", p.id, join(&p.isr));
        if p.leader == Some(id) {
            p.leader = p.replicas.iter().copied().find(|r| p.isr.contains(r) && alive.contains(r));
            p.leader_epoch += 1;
            match p.leader {
                Some(new) => text.push_str(&format!(", Leader {id} → {new} (LeaderEpoch {})", p.leader_epoch)),
                None => text.push_str(", Leader none: no live replica in the ISR (partition offline)"),
            }
        }
        ctx.log("controller", text);
    }

    /// `auto.leader.rebalance.enable`: move leadership back to each partition's preferred replica.
    pub(super) fn leader_imbalance_check(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        if !self.config.bool("auto.leader.rebalance.enable") {
            return;
        }
        let usable: Vec<u32> = self.brokers.iter().filter(|b| b.alive && !b.fenced).map(|b| b.id).collect();
        for p in &mut self.partitions {
            let preferred = p.replicas[0];
            if p.leader != Some(preferred) && p.isr.contains(&preferred) && usable.contains(&preferred) {
                p.leader = Some(preferred);
                p.leader_epoch += 1;
                ctx.log(
                    "controller",
                    format!(
                        "{TOPIC}-{}: preferred leader election, Leader {preferred} (LeaderEpoch {})",
                        p.id, p.leader_epoch
                    ),
                );
            }
        }
    }
}
