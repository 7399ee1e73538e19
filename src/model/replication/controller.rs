//! The controller (KRaft quorum, seen as one node) and the faults: broker sessions and
//! fencing, leader election, metadata propagation, kill / restart / pause / cut / heal / slow.

use super::partition::Role;
use super::roles::Election;
use super::world::{join, Command, Event, Node, Replication, TOPIC};
use crate::model::kernel::Ctx;

impl Replication {
    /// A broker can heartbeat to the controller: running, and its link to the controller is up.
    pub(super) fn controller_reachable(&self, id: u32) -> bool {
        self.node_running(Node::Broker(id)) && self.link_up(Node::Broker(id), Node::Controller)
    }

    fn usable_brokers(&self) -> Vec<u32> {
        self.brokers.iter().filter(|b| !b.fenced).map(|b| b.id).collect()
    }

    /// Re-evaluates a broker's controller session after any change to it.
    pub(super) fn session_changed(&mut self, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
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
            ctx.log("controller", format!("broker-{id} registered and unfenced"));
            if self.partition.leader().is_none() {
                self.elect(ctx);
            }
        }
        self.propagate(ctx);
    }

    pub(super) fn on_session_expired(
        &mut self,
        id: u32,
        token: u64,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) {
        if self.broker(id).session_token != token || self.broker(id).fenced {
            return;
        }
        self.broker_mut(id).fenced = true;
        let timeout_ms = self.settings.broker_session_timeout_ms;
        ctx.log(
            "controller",
            format!("fenced broker-{id}: no heartbeat within broker.session.timeout.ms={timeout_ms}"),
        );
        if self.hosts_replica(id) {
            let isr_before = self.partition.isr();
            let usable = self.usable_brokers();
            let election = self.partition.fence_broker(id, &usable, self.settings.unclean_leader_election);
            if self.partition.isr() != isr_before {
                ctx.log(
                    "controller",
                    format!("{TOPIC}-0: Isr {} → {}", join(&isr_before), join(&self.partition.isr())),
                );
            }
            self.log_election(election, ctx);
        }
        self.propagate(ctx);
    }

    /// Runs an election (offline partition, or the unclean flag was just turned on).
    pub(super) fn elect(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let usable = self.usable_brokers();
        let election = self.partition.elect_leader(&usable, self.settings.unclean_leader_election);
        self.log_election(election, ctx);
    }

    fn log_election(&mut self, election: Option<Election>, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let Some(e) = election else {
            if self.partition.leader().is_none() {
                ctx.log(
                    "controller",
                    format!("{TOPIC}-0 stays offline: no live ISR member and unclean.leader.election.enable=false"),
                );
            }
            return;
        };
        let old = e.old_leader.map_or("none".to_string(), |l| l.to_string());
        let text = match e.new_leader {
            Some(new) if e.unclean => format!(
                "{TOPIC}-0: UNCLEAN leader election: Leader {old} → {new}, a replica outside the ISR (LeaderEpoch {}, Isr {}); records it lacks are lost",
                e.leader_epoch,
                join(&e.isr)
            ),
            Some(new) => format!("{TOPIC}-0: Leader {old} → {new} (LeaderEpoch {}, Isr {})", e.leader_epoch, join(&e.isr)),
            None => format!("{TOPIC}-0: Leader {old} → none (LeaderEpoch {}): no live replica in the ISR, partition offline", e.leader_epoch),
        };
        ctx.log("controller", text);
        if let Some(new) = e.new_leader {
            self.last_leader = new;
        }
    }

    /// Pushes the controller's record to every broker that can hear it: each replica
    /// becomes leader or follower (truncating as its mode says) if its view is stale.
    pub(super) fn propagate(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        for id in self.partition.assignment().to_vec() {
            if self.controller_reachable(id) {
                self.sync_replica(id, ctx);
            }
        }
        self.release_waiting_records(ctx);
    }

    fn sync_replica(&mut self, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let (leader, epoch, isr) = (self.partition.leader(), self.partition.leader_epoch(), self.partition.isr());
        let replica = self.partition.replica(id);
        let actor = format!("broker-{id}");
        if leader == Some(id) {
            if replica.role != Role::Leader || replica.leader_epoch != epoch {
                self.partition.become_leader(id, epoch, isr.clone(), ctx.now_ms());
                let (leo, hw) = (self.partition.leo(id), self.partition.hw(id));
                ctx.log(
                    actor,
                    format!(
                        "became leader of {TOPIC}-0 at leader epoch {epoch} (LEO {leo}, HW {hw}, Isr {})",
                        join(&isr)
                    ),
                );
                let broker = self.broker_mut(id);
                broker.leader_task_token += 1;
                broker.fetch_session += 1;
                let token = broker.leader_task_token;
                ctx.schedule(self.settings.replica_lag_time_max_ms / 2, Event::IsrExpiration { broker: id, token });
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
        let leader_text = leader.map_or("no leader".to_string(), |l| format!("broker-{l}"));
        let why = format!("became follower of {leader_text} at leader epoch {epoch}");
        if self.settings.leader_epoch_enabled {
            ctx.log(actor, format!("{why} (will ask OffsetsForLeaderEpoch before fetching)"));
        } else {
            self.log_truncation(id, truncation, &format!("{why}, truncating to its high watermark"), ctx);
        }
        if was_leader {
            self.complete_delayed_produces(id, ctx);
            self.complete_delayed_fetches(id, ctx);
        }
        self.restart_fetcher(id, ctx);
    }

    pub(super) fn on_checkpoint(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        for id in self.partition.assignment().to_vec() {
            if self.broker(id).alive {
                self.partition.replica_mut(id).log.checkpoint_high_watermark();
            }
        }
        ctx.schedule(self.settings.hw_checkpoint_interval_ms, Event::Checkpoint);
    }

    pub(super) fn on_os_flush(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        for id in self.partition.assignment().to_vec() {
            if self.broker(id).alive {
                self.partition.replica_mut(id).log.flush();
            }
        }
        ctx.schedule(self.settings.os_flush_interval_ms, Event::OsFlush);
    }

    pub(super) fn on_pause_end(&mut self, id: u32, token: u64, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        if self.broker(id).pause_token != token || !self.broker(id).paused {
            return;
        }
        self.broker_mut(id).paused = false;
        ctx.log(format!("broker-{id}"), "GC pause over: handling what queued up meanwhile");
        let stash = std::mem::take(&mut self.broker_mut(id).stash);
        for event in stash {
            if self.broker(id).alive && !self.broker(id).paused {
                self.dispatch(event, ctx);
            }
        }
        self.session_changed(id, ctx);
    }

    /// Crash (kill -9) or power failure: the process and its in-memory state are gone.
    fn crash(&mut self, id: u32, power_loss: bool, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let broker = self.broker_mut(id);
        broker.alive = false;
        broker.paused = false;
        broker.stash.clear();
        broker.awaiting_fetch = false;
        self.produce_purgatory.remove(&id);
        self.fetch_purgatory.remove(&id);
        ctx.cancel_where(|e| e.target_broker() == Some(id));
        let text = if power_loss && self.hosts_replica(id) {
            let before = self.partition.leo(id);
            self.partition.replica_mut(id).log.recover_after_power_loss();
            format!(
                "power failure: records the OS had not flushed are gone (LEO {before} → {})",
                self.partition.leo(id)
            )
        } else {
            "crashed (kill -9): heartbeats to the controller stop".to_string()
        };
        ctx.log(format!("broker-{id}"), text);
        self.session_changed(id, ctx);
    }

    fn restart(&mut self, id: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        self.broker_mut(id).alive = true;
        if self.hosts_replica(id) {
            self.partition.restart_replica(id, false);
            let (leo, hw) = (self.partition.leo(id), self.partition.hw(id));
            ctx.log(
                format!("broker-{id}"),
                format!("restarted: log recovered with LEO {leo}, HW {hw} read from its checkpoint"),
            );
        } else {
            ctx.log(format!("broker-{id}"), "restarted");
        }
        self.restart_fetcher(id, ctx);
        self.session_changed(id, ctx);
    }

    /// Carries out a command already checked by `validate`.
    pub(super) fn run_command(&mut self, command: &Command, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        match *command {
            Command::Produce { records } => self.produce(records, ctx),
            Command::Kill(id) => self.crash(id, false, ctx),
            Command::PowerFail(id) => self.crash(id, true, ctx),
            Command::Restart(id) => self.restart(id, ctx),
            Command::Pause { broker, duration_ms } => {
                let state = self.broker_mut(broker);
                state.paused = true;
                state.pause_token += 1;
                let token = state.pause_token;
                ctx.schedule(duration_ms, Event::PauseEnds { broker, token });
                ctx.log(format!("broker-{broker}"), format!("stop-the-world GC pause for {duration_ms} ms"));
                self.session_changed(broker, ctx);
            }
            Command::Slow { broker, delay_ms } => {
                self.broker_mut(broker).slow_fetch_delay_ms = delay_ms;
                ctx.log(format!("broker-{broker}"), format!("each fetch now waits {delay_ms} ms more"));
            }
            Command::Cut(a, b) | Command::Heal(a, b) => {
                let cut = matches!(command, Command::Cut(..));
                let key = (a.min(b), a.max(b));
                if cut {
                    self.cut_links.insert(key);
                } else {
                    self.cut_links.remove(&key);
                }
                let verb = if cut { "cut" } else { "healed" };
                ctx.log("network", format!("link {} ↔ {} {verb}", a.name(), b.name()));
                for node in [a, b] {
                    if let Node::Broker(id) = node {
                        self.session_changed(id, ctx);
                    }
                }
            }
            Command::SetUncleanElection(enabled) => {
                self.settings.unclean_leader_election = enabled;
                ctx.log("controller", format!("topic config unclean.leader.election.enable={enabled}"));
                if self.partition.leader().is_none() {
                    self.elect(ctx);
                    self.propagate(ctx);
                }
            }
        }
    }
}
