//! The controller (KRaft quorum, seen as one node) and the faults: broker sessions and
//! fencing, leader election, metadata propagation, kill / restart / pause / cut / heal / slow.

use super::facts::TruncationCause;
use super::partition::Role;
use super::roles::Election;
use super::{Command, Event, Fact, Fault, FetchProtocol, Node, RepCtx, Replication};
use crate::model::kernel::Actor;

impl Replication {
    /// A broker can heartbeat to the controller: running, and its link to the controller is up.
    pub(super) fn controller_reachable(&self, id: u32) -> bool {
        self.node_running(Node::Id(id)) && self.link_up(Node::Id(id), Node::Controller)
    }

    fn usable_brokers(&self) -> Vec<u32> {
        self.brokers.iter().filter(|b| !b.fenced).map(|b| b.id).collect()
    }

    /// Re-evaluates a broker's controller session after any change to it.
    pub(super) fn session_changed(&mut self, id: u32, ctx: &mut RepCtx) {
        let reachable = self.controller_reachable(id);
        let timeout_ms = self.settings.broker_session_timeout_ms;
        let broker = self.broker_mut(id);
        let was_heartbeating = std::mem::replace(&mut broker.heartbeating, reachable);
        if !reachable {
            if was_heartbeating && !broker.fenced {
                broker.session_token += 1;
                let token = broker.session_token;
                ctx.schedule(timeout_ms, Event::SessionExpired { broker: id, token });
            }
            return;
        }
        broker.session_token += 1;
        if broker.fenced {
            broker.fenced = false;
            self.partition.set_broker_fenced(id, false);
            ctx.record(Actor::Controller, Fact::BrokerUnfenced { broker: id });
            if self.partition.leader().is_none() {
                self.elect(ctx);
            }
        }
        self.propagate(ctx);
    }

    pub(super) fn on_session_expired(&mut self, id: u32, token: u64, ctx: &mut RepCtx) {
        if self.broker(id).session_token != token || self.broker(id).fenced {
            return;
        }
        self.broker_mut(id).fenced = true;
        self.partition.set_broker_fenced(id, true);
        let timeout_ms = self.settings.broker_session_timeout_ms;
        ctx.record(Actor::Controller, Fact::BrokerFenced { broker: id, timeout_ms });
        if self.hosts_replica(id) {
            let isr_before = self.partition.isr();
            let usable = self.usable_brokers();
            let election = self.partition.fence_broker(id, &usable, self.settings.unclean_leader_election);
            if self.partition.isr() != isr_before {
                ctx.record(Actor::Controller, Fact::IsrChanged { before: isr_before, after: self.partition.isr() });
            }
            self.log_election(election, ctx);
        }
        self.propagate(ctx);
    }

    /// Runs an election (offline partition, or the unclean flag was just turned on).
    pub(super) fn elect(&mut self, ctx: &mut RepCtx) {
        let usable = self.usable_brokers();
        let election = self.partition.elect_leader(&usable, self.settings.unclean_leader_election);
        self.log_election(election, ctx);
    }

    pub(super) fn log_election(&mut self, election: Option<Election>, ctx: &mut RepCtx) {
        let Some(e) = election else {
            if self.partition.leader().is_none() {
                ctx.record(Actor::Controller, Fact::StaysOffline);
            }
            return;
        };
        let (old, epoch) = (e.old_leader, e.leader_epoch);
        let fact = match e.new_leader {
            Some(new) if e.unclean => Fact::UncleanLeaderElected { old, new, epoch, isr: e.isr.clone() },
            Some(new) => Fact::LeaderElected { old, new, epoch, isr: e.isr.clone() },
            None => Fact::PartitionOffline { old, epoch },
        };
        ctx.record(Actor::Controller, fact);
        if let Some(new) = e.new_leader {
            self.last_leader = new;
        }
    }

    /// Pushes the controller's record to every broker that can hear it: each replica
    /// becomes leader or follower (truncating as its mode says) if its view is stale.
    pub(super) fn propagate(&mut self, ctx: &mut RepCtx) {
        for id in self.partition.assignment().to_vec() {
            if self.controller_reachable(id) {
                self.sync_replica(id, ctx);
            }
        }
        self.release_waiting_records(ctx);
        self.maybe_schedule_unclean_check(ctx);
    }

    fn sync_replica(&mut self, id: u32, ctx: &mut RepCtx) {
        let (leader, epoch, isr) = (self.partition.leader(), self.partition.leader_epoch(), self.partition.isr());
        let replica = self.partition.replica(id);
        if leader == Some(id) {
            if replica.role != Role::Leader || replica.leader_epoch != epoch {
                self.partition.become_leader(id, epoch, isr.clone(), ctx.now_ms());
                let (leo, hw) = (self.partition.leo(id), self.partition.hw(id));
                let fact = Fact::BecameLeader { epoch, log_end_offset: leo, high_watermark: hw, isr: isr.clone() };
                ctx.record(Actor::Broker(id), fact);
                let broker = self.broker_mut(id);
                broker.leader_task_token += 1;
                broker.fetch_session += 1;
                let token = broker.leader_task_token;
                ctx.schedule(self.settings.isr_expiration_period_ms(), Event::IsrExpiration { broker: id, token });
                self.complete_delayed_produces(id, ctx);
            } else if replica.isr != isr {
                let hw_before = self.partition.hw(id);
                self.partition.replica_mut(id).isr = isr;
                self.partition.maybe_increment_high_watermark(id);
                if self.partition.hw(id) > hw_before {
                    self.complete_delayed_produces(id, ctx);
                }
            }
            return;
        }
        let up_to_date =
            replica.leader_epoch == epoch && matches!(replica.role, Role::Follower { leader: l, .. } if l == leader);
        if up_to_date {
            return;
        }
        let was_leader = replica.role == Role::Leader;
        let truncation = self.partition.become_follower(id, leader, epoch);
        if self.settings.leader_epoch_enabled {
            let last_fetched_epoch = (self.settings.fetch_protocol == FetchProtocol::DivergingEpoch)
                .then(|| self.partition.replica(id).log.epochs().latest_epoch().unwrap_or(-1));
            ctx.record(Actor::Broker(id), Fact::BecameFollower { leader, epoch, last_fetched_epoch });
        } else {
            self.log_truncation(id, truncation, TruncationCause::BecameFollower { leader, epoch }, ctx);
        }
        if was_leader {
            self.complete_delayed_produces(id, ctx);
            self.complete_delayed_fetches(id, ctx);
        }
        self.restart_fetcher(id, ctx);
    }

    pub(super) fn on_checkpoint(&mut self, ctx: &mut RepCtx) {
        for id in self.partition.assignment().to_vec() {
            if self.broker(id).alive {
                self.partition.replica_mut(id).log.checkpoint_high_watermark();
            }
        }
        ctx.schedule(self.settings.hw_checkpoint_interval_ms, Event::Checkpoint);
    }

    pub(super) fn on_os_flush(&mut self, ctx: &mut RepCtx) {
        for id in self.partition.assignment().to_vec() {
            if self.broker(id).alive {
                self.partition.replica_mut(id).log.flush();
            }
        }
        ctx.schedule(self.settings.os_flush_interval_ms, Event::OsFlush);
    }

    pub(super) fn on_pause_end(&mut self, id: u32, token: u64, ctx: &mut RepCtx) {
        if self.broker(id).pause_token != token || !self.broker(id).paused {
            return;
        }
        self.broker_mut(id).paused = false;
        ctx.record(Actor::Broker(id), Fact::PauseEnded);
        let stash = std::mem::take(&mut self.broker_mut(id).stash);
        for event in stash {
            if self.broker(id).alive && !self.broker(id).paused {
                self.dispatch(event, ctx);
            }
        }
        self.session_changed(id, ctx);
    }

    /// Crash (kill -9) or power failure: the process and its in-memory state are gone.
    fn crash(&mut self, id: u32, power_loss: bool, ctx: &mut RepCtx) {
        let broker = self.broker_mut(id);
        broker.alive = false;
        broker.paused = false;
        broker.stash.clear();
        broker.awaiting_fetch = false;
        self.produce_purgatory.remove(&id);
        self.fetch_purgatory.remove(&id);
        ctx.cancel_where(|e| e.target_broker() == Some(id));
        let fact = if power_loss && self.hosts_replica(id) {
            let leo_before = self.partition.leo(id);
            self.partition.replica_mut(id).log.recover_after_power_loss();
            Fact::PowerFailed { leo_before, leo_after: self.partition.leo(id) }
        } else {
            Fact::Crashed
        };
        ctx.record(Actor::Broker(id), fact);
        self.session_changed(id, ctx);
    }

    fn restart(&mut self, id: u32, ctx: &mut RepCtx) {
        self.broker_mut(id).alive = true;
        if self.hosts_replica(id) {
            self.partition.restart_replica(id, false);
            let (leo, hw) = (self.partition.leo(id), self.partition.hw(id));
            ctx.record(Actor::Broker(id), Fact::RestartedWithLog { log_end_offset: leo, high_watermark: hw });
        } else {
            ctx.record(Actor::Broker(id), Fact::Restarted);
        }
        self.restart_fetcher(id, ctx);
        self.session_changed(id, ctx);
    }

    /// Carries out a command `check` accepted.
    pub(super) fn run_command(&mut self, command: &Command, ctx: &mut RepCtx) {
        match *command {
            Command::Produce { records } => self.produce(records, ctx),
            Command::Fault(fault) => self.inject(fault, ctx),
            Command::SteadyLoad { records_per_sec } => self.start_load(u64::from(records_per_sec), ctx),
            // KRaft: the config alone elects nobody; the periodic check or ElectLeaders does.
            Command::SetUncleanElection(enabled) => {
                self.settings.unclean_leader_election = enabled;
                ctx.record(Actor::Controller, Fact::UncleanElectionSet { enabled });
            }
            Command::ElectUncleanLeader => self.elect_leaders_unclean(ctx),
        }
    }

    fn inject(&mut self, fault: Fault, ctx: &mut RepCtx) {
        match fault {
            Fault::Crash(Node::Id(id)) => self.crash(id, false, ctx),
            Fault::PowerFail(Node::Id(id)) => self.crash(id, true, ctx),
            Fault::Restart(Node::Id(id)) => self.restart(id, ctx),
            Fault::Pause { node: Node::Id(broker), duration_ms: Some(duration_ms) } => {
                let state = self.broker_mut(broker);
                state.paused = true;
                state.pause_token += 1;
                let token = state.pause_token;
                ctx.schedule(duration_ms, Event::PauseEnds { broker, token });
                ctx.record(Actor::Broker(broker), Fact::Paused { duration_ms });
                self.session_changed(broker, ctx);
            }
            Fault::Slow { node: Node::Id(broker), delay_ms } => {
                self.broker_mut(broker).slow_fetch_delay_ms = delay_ms;
                ctx.record(Actor::Broker(broker), Fact::Slowed { delay_ms });
            }
            Fault::Cut(a, b) | Fault::Heal(a, b) => {
                let key = (a.min(b), a.max(b));
                if matches!(fault, Fault::Cut(..)) {
                    self.cut_links.insert(key);
                    ctx.record(Actor::Network, Fact::LinkCut { a, b });
                } else {
                    self.cut_links.remove(&key);
                    ctx.record(Actor::Network, Fact::LinkHealed { a, b });
                }
                for id in [a, b].into_iter().filter_map(Node::id) {
                    self.session_changed(id, ctx);
                }
            }
            _ => debug_assert!(false, "check refuses {fault:?}"),
        }
    }
}
