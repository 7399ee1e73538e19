//! Unclean leader election in KRaft: turning `unclean.leader.election.enable` on does not elect
//! at once. The controller checks leaderless partitions every `unclean.leader.election.interval.ms`
//! (QuorumController.maybeScheduleNextElectUncleanLeaders → ReplicationControlManager.
//! maybeElectUncleanLeaders), or an operator forces it with
//! `kafka-leader-election --election-type unclean` (ReplicationControlManager.electLeaders).

use super::{Event, Fact, RepCtx, Replication};
use crate::model::kernel::Actor;

/// Why the controller refused an ElectLeaders request (Kafka's error code names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElectionError {
    /// The partition already has a leader.
    ElectionNotNeeded,
    /// No live replica could lead.
    EligibleLeadersNotAvailable,
}

impl ElectionError {
    pub fn name(self) -> &'static str {
        match self {
            ElectionError::ElectionNotNeeded => "ELECTION_NOT_NEEDED",
            ElectionError::EligibleLeadersNotAvailable => "ELIGIBLE_LEADERS_NOT_AVAILABLE",
        }
    }
}

impl Replication {
    /// After a controller change: a leaderless partition gets the periodic unclean check, one
    /// interval from now, unless one is already scheduled (maybeScheduleNextElectUncleanLeaders).
    pub(super) fn maybe_schedule_unclean_check(&mut self, ctx: &mut RepCtx) {
        if self.unclean_check_scheduled || self.partition.leader().is_some() {
            return;
        }
        self.unclean_check_scheduled = true;
        ctx.schedule(self.settings.unclean_election_interval_ms, Event::UncleanElectionCheck);
    }

    /// The periodic check (maybeElectUncleanLeaders): a leaderless partition whose topic allows
    /// unclean elections gets one; it is checked again an interval later while leaderless.
    pub(super) fn on_unclean_check(&mut self, ctx: &mut RepCtx) {
        self.unclean_check_scheduled = false;
        if self.partition.leader().is_none() {
            let (enabled, interval_ms) =
                (self.settings.unclean_leader_election, self.settings.unclean_election_interval_ms);
            ctx.record(Actor::Controller, Fact::UncleanCheck { enabled, interval_ms });
            if enabled {
                self.elect_allowing_unclean(ctx);
            }
        }
        self.maybe_schedule_unclean_check(ctx);
    }

    /// `kafka-leader-election --election-type unclean`: the controller's electLeader with
    /// ElectionType.UNCLEAN, whatever the topic config says.
    pub(super) fn elect_leaders_unclean(&mut self, ctx: &mut RepCtx) {
        ctx.record(Actor::Controller, Fact::ElectLeadersRequested);
        if self.partition.leader().is_some() {
            let error = ElectionError::ElectionNotNeeded;
            ctx.record(Actor::Controller, Fact::ElectLeadersFailed { error });
            return;
        }
        if !self.elect_allowing_unclean(ctx) {
            let error = ElectionError::EligibleLeadersNotAvailable;
            ctx.record(Actor::Controller, Fact::ElectLeadersFailed { error });
        }
        self.maybe_schedule_unclean_check(ctx);
    }

    /// An election that may pick a replica outside the ISR (PartitionChangeBuilder's
    /// Election.UNCLEAN); tells the brokers. True if the partition has a leader now.
    fn elect_allowing_unclean(&mut self, ctx: &mut RepCtx) -> bool {
        let usable: Vec<u32> = self.brokers.iter().filter(|b| !b.fenced).map(|b| b.id).collect();
        let election = self.partition.elect_leader(&usable, true);
        if election.is_some() {
            self.log_election(election, ctx);
            self.propagate(ctx);
        }
        self.partition.leader().is_some()
    }
}
