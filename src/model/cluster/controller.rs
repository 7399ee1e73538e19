//! The KRaft controller's side of the overview: sessions, fencing, registration, unfencing,
//! elections and the preferred-leader check. ELR (KIP-966) is off, as by default in Kafka 4.0
//! (`eligible.leader.replicas.version` needs metadata.version 4.0-IV1, above the default).

use super::{Cluster, ClusterCtx, Event, Fact, LeaderChange};
use crate::model::kernel::Actor;

/// A restarted broker heartbeats every 10 ms while STARTING, until the controller says it has
/// caught up with the metadata log (Kafka: `BrokerLifecycleManager`); the lab's metadata log is
/// short, so its second heartbeat unfences it.
const STARTING_HEARTBEAT_MS: u64 = 10;

/// Which leader a partition change looks for (Kafka: `PartitionChangeBuilder.Election`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Election {
    /// Keep a valid leader, else the first valid replica (`electAnyLeader`).
    Any,
    /// The preferred replica if valid, else as `Any` (`electPreferredLeader`).
    Preferred,
}

/// What a partition change did: the ISR before it and whether the leader moved.
struct Change {
    before: Vec<u32>,
    leader: LeaderChange,
}

impl Cluster {
    /// Fences every broker whose session has expired, oldest last contact first (ties: lower id).
    /// Kafka: `ReplicationControlManager.maybeFenceOneStaleBroker`, `BrokerHeartbeatManager.findOneStaleBroker`.
    pub(super) fn fence_stale_brokers(&mut self, ctx: &mut ClusterCtx) {
        let timeout_ms = self.settings.broker_session_timeout_ms;
        loop {
            let stale = self
                .brokers
                .iter()
                .filter(|b| !b.fenced)
                .filter_map(|b| b.last_heartbeat_ms.map(|t| (t, b.id)))
                .filter(|(t, _)| t + timeout_ms <= ctx.now_ms())
                .min();
            let Some((last_heartbeat_ms, id)) = stale else {
                return;
            };
            self.fence(id, last_heartbeat_ms, ctx);
        }
    }

    /// Kafka: `ReplicationControlManager.handleBrokerFenced`: out of every ISR (never emptying one),
    /// a new leader from the ISR where it led.
    fn fence(&mut self, id: u32, last_heartbeat_ms: u64, ctx: &mut ClusterCtx) {
        self.broker_mut(id).fenced = true;
        let timeout_ms = self.settings.broker_session_timeout_ms;
        ctx.record(Actor::Controller, Fact::BrokerFenced { broker: id, timeout_ms, last_heartbeat_ms });
        for index in 0..self.partitions.len() {
            if !self.partitions[index].isr.contains(&id) {
                continue;
            }
            if let Some(change) = self.change_partition(index, Some(id), Election::Any, ctx) {
                let p = &self.partitions[index];
                let fact = Fact::IsrShrunk {
                    partition: p.id,
                    before: change.before.into(),
                    after: p.isr.as_slice().into(),
                    leader: change.leader,
                };
                ctx.record(Actor::Controller, fact);
            }
        }
        let broker = self.broker(id);
        if broker.alive && broker.incarnation != broker.registered_incarnation {
            // The restarted process retries its registration; now it is accepted.
            self.try_register(id, ctx);
        }
        self.after_controller_write(ctx);
    }

    /// A restarted broker's registration. Refused while the old incarnation's session lasts
    /// (Kafka: `ClusterControlManager.registerBroker`); once registered, fenced until caught up.
    pub(super) fn try_register(&mut self, id: u32, ctx: &mut ClusterCtx) {
        let broker = self.broker(id);
        if !broker.fenced {
            ctx.record(Actor::Controller, Fact::RegistrationRefused { broker: id });
            return;
        }
        let incarnation = broker.incarnation;
        let broker = self.broker_mut(id);
        broker.registered_incarnation = incarnation;
        broker.last_heartbeat_ms = None;
        ctx.record(Actor::Controller, Fact::BrokerRegistered { broker: id, incarnation });
        ctx.schedule(STARTING_HEARTBEAT_MS, Event::Unfence { broker: id, incarnation });
    }

    /// Kafka: `ReplicationControlManager.handleBrokerUnfenced`: a leaderless partition whose ISR
    /// holds this broker gets it as leader; every other partition waits for it to catch up.
    pub(super) fn unfence(&mut self, id: u32, incarnation: u32, ctx: &mut ClusterCtx) {
        let broker = self.broker(id);
        if !broker.alive || broker.incarnation != incarnation || !broker.fenced {
            return;
        }
        let broker = self.broker_mut(id);
        broker.fenced = false;
        broker.heartbeats_from_ms = ctx.now_ms();
        ctx.record(Actor::Controller, Fact::BrokerUnfenced { broker: id });
        for index in 0..self.partitions.len() {
            if self.partitions[index].leader.is_some() {
                continue;
            }
            if let Some(Change { leader: LeaderChange::Elected { leader, epoch }, .. }) =
                self.change_partition(index, None, Election::Any, ctx)
            {
                let partition = self.partitions[index].id;
                ctx.record(Actor::Controller, Fact::LeaderElected { partition, leader, epoch });
            }
        }
        self.retry_waiting(ctx);
        self.after_controller_write(ctx);
    }

    /// Kafka: `PartitionChangeBuilder.build` with ELR off: drop `remove` from the ISR unless that
    /// would empty it, then keep a valid leader or elect one (`isValidNewLeader`: in the ISR and
    /// unfenced). `None` when nothing changed.
    fn change_partition(
        &mut self,
        index: usize,
        remove: Option<u32>,
        election: Election,
        ctx: &mut ClusterCtx,
    ) -> Option<Change> {
        let unfenced: Vec<u32> = self.brokers.iter().filter(|b| !b.fenced).map(|b| b.id).collect();
        let p = &mut self.partitions[index];
        let before = p.isr.clone();
        let target: Vec<u32> = p.isr.iter().copied().filter(|r| Some(*r) != remove).collect();
        if !target.is_empty() {
            p.isr = target;
        }
        let valid = |r: &u32| p.isr.contains(r) && unfenced.contains(r) && Some(*r) != remove;
        let preferred = p.replicas[0];
        let new_leader = if election == Election::Preferred && valid(&preferred) {
            Some(preferred)
        } else if p.leader.is_some_and(|l| valid(&l)) {
            p.leader
        } else {
            p.replicas.iter().copied().find(valid)
        };
        let old_leader = p.leader;
        let leader = match (old_leader, new_leader) {
            _ if old_leader == new_leader => LeaderChange::Kept,
            (_, None) => LeaderChange::Offline,
            (Some(from), Some(to)) => LeaderChange::Moved { from, to, epoch: p.leader_epoch + 1 },
            (None, Some(leader)) => LeaderChange::Elected { leader, epoch: p.leader_epoch + 1 },
        };
        if leader != LeaderChange::Kept {
            p.leader = new_leader;
            p.leader_epoch += 1;
            if let Some(new) = new_leader {
                self.take_leadership(index, new, ctx);
            }
        }
        let changed = leader != LeaderChange::Kept || self.partitions[index].isr != before;
        changed.then_some(Change { before, leader })
    }

    /// A new leader's log is the partition's log: what lies above its end was never committed and
    /// goes (followers truncate to it). Kafka: `Partition.makeLeader`, `leaderEpochStartOffsetOpt`.
    fn take_leadership(&mut self, index: usize, leader: u32, ctx: &mut ClusterCtx) {
        let p = &mut self.partitions[index];
        let leo = p.replica_log_end_offset(leader);
        p.leader_epoch_start_offset = leo;
        if leo < p.log_end_offset() {
            let last = p.log_end_offset() - 1;
            debug_assert!(leo >= p.high_watermark(), "only uncommitted records are truncated");
            p.records.truncate(leo as usize);
            for end in &mut p.log_end_offsets {
                *end = (*end).min(leo);
            }
            let fact = Fact::LogTruncated { partition: p.id, leader, offset: leo, last };
            ctx.record(Actor::Controller, fact);
        }
    }

    /// The preferred-leader check (`auto.leader.rebalance.enable`): each partition off its preferred
    /// replica gets it back if it is in the ISR and unfenced. Kafka: `ReplicationControlManager.maybeBalancePartitionLeaders`.
    pub(super) fn leader_imbalance_check(&mut self, ctx: &mut ClusterCtx) {
        self.imbalance_check_scheduled = false;
        for index in 0..self.partitions.len() {
            let p = &self.partitions[index];
            if p.leader == Some(p.replicas[0]) {
                continue;
            }
            if let Some(LeaderChange::Moved { to: leader, epoch, .. } | LeaderChange::Elected { leader, epoch }) =
                self.change_partition(index, None, Election::Preferred, ctx).map(|c| c.leader)
            {
                let partition = self.partitions[index].id;
                ctx.record(Actor::Controller, Fact::PreferredLeaderElected { partition, leader, epoch });
            }
        }
        self.retry_waiting(ctx);
        self.after_controller_write(ctx);
    }

    /// What follows every controller write: the preferred-leader check is scheduled
    /// leader.imbalance.check.interval.seconds ahead if a partition is off its preferred leader and
    /// none is pending (Kafka: `QuorumController.maybeScheduleNextBalancePartitionLeaders`), and
    /// restarted followers fetch from whichever leaders they can.
    pub(super) fn after_controller_write(&mut self, ctx: &mut ClusterCtx) {
        let imbalanced = self.partitions.iter().any(|p| p.leader != Some(p.replicas[0]));
        if self.settings.auto_leader_rebalance_enable && imbalanced && !self.imbalance_check_scheduled {
            self.imbalance_check_scheduled = true;
            ctx.schedule(self.settings.leader_imbalance_check_interval_ms, Event::LeaderImbalanceCheck);
        }
        self.start_fetchers(ctx);
    }
}
