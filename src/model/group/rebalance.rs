//! The coordinator's join and sync completion, heartbeats, expiry, leaving and offset commits
//! (Kafka's `completeClassicGroupJoin`, `classicGroupSync`, heartbeat and OffsetCommit paths).

use super::CoordinatorFact;
use crate::model::kernel::sorted::SortedMap;

use super::coordinator::NEW_MEMBER_JOIN_TIMEOUT_MS;
use super::{ErrorCode, Event, Fact, GroupCtx, GroupLab, GroupState, RebalanceReason, Response};
use crate::model::kernel::Actor;

impl GroupLab {
    /// Ends the join phase (Kafka: `completeClassicGroupJoin`): dynamic members that did not rejoin
    /// are removed; static ones stay (KIP-345) until their session expires. The generation
    /// advances and every member gets its JoinGroup response (the leader with everyone's
    /// subscription).
    pub(super) fn complete_join(&mut self, ctx: &mut GroupCtx) {
        self.coordinator.in_initial_delay = false;
        let missing: Vec<(String, bool)> = self
            .coordinator
            .members
            .values()
            .filter(|m| !m.awaiting_join)
            .map(|m| (m.member_id.clone(), m.instance_id.is_some()))
            .collect();
        for (id, is_static) in missing {
            if is_static {
                let fact = CoordinatorFact::StaticMemberKept { member_id: id.clone() };
                ctx.record(Actor::Coordinator, Fact::Coordinator(fact));
                continue;
            }
            ctx.record(Actor::Coordinator, Fact::Coordinator(CoordinatorFact::JoinTimedOut { member_id: id.clone() }));
            self.coordinator.members.remove(&id);
            self.coordinator.assignment.remove(&id);
        }
        self.coordinator.join_order.retain(|id| self.coordinator.members.contains_key(id));
        if !self.coordinator.members.is_empty() && !self.elect_joined_leader() {
            // Only static members that did not rejoin are left: wait another rebalance timeout.
            let rebalance = self.coordinator.rebalance_seq;
            ctx.schedule(self.coordinator.rebalance_timeout_ms, Event::JoinTimeout { rebalance });
            return;
        }
        self.coordinator.generation += 1;
        if self.coordinator.members.is_empty() {
            self.coordinator.leader = None;
            self.coordinator.protocol = None;
            self.coordinator.assignment.clear();
            self.coordinator.transition(GroupState::Empty, ctx.now_ms(), ctx);
            return;
        }
        self.coordinator.protocol = self.coordinator.select_protocol();
        let leader = self.coordinator.leader.clone().expect("a member leads");
        self.coordinator.transition(GroupState::CompletingRebalance, ctx.now_ms(), ctx);
        let generation = self.coordinator.generation;
        let everyone = self.member_metadata();
        let routes: Vec<(String, u32, u32)> =
            self.coordinator.members.values().map(|m| (m.member_id.clone(), m.client, m.incarnation)).collect();
        for member in self.coordinator.members.values_mut() {
            member.awaiting_join = false;
            member.awaiting_sync = false;
            member.is_new = false;
            member.pending_sync = true;
        }
        for (id, client, incarnation) in routes {
            let members = if id == leader { everyone.clone() } else { Vec::new() };
            let response = Response::Join {
                error: ErrorCode::None,
                member_id: id.clone(),
                generation,
                protocol: self.coordinator.protocol,
                leader: leader.clone(),
                members,
            };
            self.send_to_member(client, incarnation, response, ctx);
            self.reset_session(&id, ctx);
        }
        let members = self.coordinator.members.len() as u32;
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::JoinCompleted { generation, members, leader }),
        );
        ctx.schedule(self.coordinator.rebalance_timeout_ms, Event::SyncTimeout { generation });
    }

    /// Kafka: `ClassicGroup.maybeElectNewJoinedLeader`: keep a leader that rejoined, else the
    /// first member that did; false if none did.
    fn elect_joined_leader(&mut self) -> bool {
        let c = &self.coordinator;
        if c.leader.as_ref().and_then(|l| c.members.get(l)).is_some_and(|m| m.awaiting_join) {
            return true;
        }
        let joined = c.join_order.iter().find(|id| c.members.get(*id).is_some_and(|m| m.awaiting_join)).cloned();
        let elected = joined.is_some();
        if elected {
            self.coordinator.leader = joined;
        }
        elected
    }

    pub(super) fn fail_pending_syncs(&mut self, ctx: &mut GroupCtx) {
        let pending: Vec<(u32, u32)> = self
            .coordinator
            .members
            .values_mut()
            .filter(|m| m.awaiting_sync)
            .map(|m| {
                m.awaiting_sync = false;
                (m.client, m.incarnation)
            })
            .collect();
        for (client, incarnation) in pending {
            self.send_to_member(
                client,
                incarnation,
                Response::Sync { error: ErrorCode::RebalanceInProgress, assignment: vec![] },
                ctx,
            );
        }
    }

    fn sync_error(&self, member_id: &str, generation: i32) -> Option<ErrorCode> {
        if !self.coordinator.members.contains_key(member_id) {
            Some(ErrorCode::UnknownMemberId)
        } else if generation != self.coordinator.generation {
            Some(ErrorCode::IllegalGeneration)
        } else if self.coordinator.state == GroupState::PreparingRebalance {
            Some(ErrorCode::RebalanceInProgress)
        } else {
            None
        }
    }

    pub(super) fn on_sync(
        &mut self,
        member_id: &str,
        generation: i32,
        assignments: Option<SortedMap<String, Vec<u32>>>,
        ctx: &mut GroupCtx,
    ) {
        if let Some(error) = self.sync_error(member_id, generation) {
            if let Some((client, incarnation)) = self.route(member_id) {
                self.send_to_member(client, incarnation, Response::Sync { error, assignment: vec![] }, ctx);
            }
            return;
        }
        self.reset_session(member_id, ctx);
        // Kafka: removePendingSyncMember.
        self.coordinator.members.get_mut(member_id).expect("known").pending_sync = false;
        if self.coordinator.state == GroupState::Stable {
            let assignment = self.coordinator.assignment.get(member_id).cloned().unwrap_or_default();
            let (client, incarnation) = self.route(member_id).expect("known");
            self.send_to_member(client, incarnation, Response::Sync { error: ErrorCode::None, assignment }, ctx);
            return;
        }
        self.coordinator.members.get_mut(member_id).expect("known").awaiting_sync = true;
        let Some(assignments) = assignments.filter(|_| self.coordinator.leader.as_deref() == Some(member_id)) else {
            return;
        };
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::AssignmentReceived { leader: member_id.to_string(), generation }),
        );
        self.coordinator.assignment = self
            .coordinator
            .members
            .keys()
            .map(|id| (id.clone(), assignments.get(id).cloned().unwrap_or_default()))
            .collect();
        self.coordinator.transition(GroupState::Stable, ctx.now_ms(), ctx);
        let waiting: Vec<(String, u32, u32)> = self
            .coordinator
            .members
            .values()
            .filter(|m| m.awaiting_sync)
            .map(|m| (m.member_id.clone(), m.client, m.incarnation))
            .collect();
        for (id, client, incarnation) in waiting {
            let assignment = self.coordinator.assignment.get(&id).cloned().unwrap_or_default();
            self.coordinator.members.get_mut(&id).expect("known").awaiting_sync = false;
            self.send_to_member(client, incarnation, Response::Sync { error: ErrorCode::None, assignment }, ctx);
        }
    }

    fn route(&self, member_id: &str) -> Option<(u32, u32)> {
        self.coordinator.members.get(member_id).map(|m| (m.client, m.incarnation))
    }

    /// Kafka: `expirePendingSync`: members that still owe a SyncGroup for this generation, in
    /// CompletingRebalance or already Stable, are removed and the group rebalances.
    pub(super) fn on_sync_timeout(&mut self, generation: i32, ctx: &mut GroupCtx) {
        let state = self.coordinator.state;
        if generation != self.coordinator.generation
            || !matches!(state, GroupState::CompletingRebalance | GroupState::Stable)
        {
            return;
        }
        let laggards: Vec<String> =
            self.coordinator.members.values().filter(|m| m.pending_sync).map(|m| m.member_id.clone()).collect();
        if laggards.is_empty() {
            return;
        }
        for id in laggards {
            ctx.record(Actor::Coordinator, Fact::Coordinator(CoordinatorFact::SyncTimedOut { member_id: id.clone() }));
            self.coordinator.members.remove(&id);
            self.coordinator.join_order.retain(|j| *j != id);
            self.coordinator.assignment.remove(&id);
            if self.coordinator.leader.as_deref() == Some(id.as_str()) {
                self.coordinator.leader = self.coordinator.join_order.first().cloned();
            }
        }
        self.prepare_rebalance(RebalanceReason::SyncTimeout, ctx);
    }

    pub(super) fn on_heartbeat(&mut self, member_id: &str, generation: i32, ctx: &mut GroupCtx) -> ErrorCode {
        if !self.coordinator.members.contains_key(member_id) || self.coordinator.state == GroupState::Empty {
            return ErrorCode::UnknownMemberId;
        }
        if generation != self.coordinator.generation {
            return ErrorCode::IllegalGeneration;
        }
        self.reset_session(member_id, ctx);
        match self.coordinator.state {
            GroupState::PreparingRebalance => ErrorCode::RebalanceInProgress,
            _ => ErrorCode::None,
        }
    }

    /// Kafka: `expireClassicGroupMemberHeartbeat`: a pending (KIP-394) id just goes; a member
    /// goes unless it waits in a JoinGroup or SyncGroup (`hasSatisfiedHeartbeat`), which a
    /// new member's parked JoinGroup does not save.
    pub(super) fn on_session_expiry(&mut self, member_id: &str, deadline_ms: u64, ctx: &mut GroupCtx) {
        if self.coordinator.pending_members.get(member_id) == Some(&deadline_ms) {
            self.coordinator.pending_members.remove(member_id);
            self.maybe_complete_join(ctx);
            return;
        }
        let Some(member) = self.coordinator.members.get(member_id) else { return };
        if member.session_deadline_ms != deadline_ms {
            return;
        }
        if !member.is_new && (member.awaiting_join || member.awaiting_sync) {
            // Kafka reschedules the heartbeat when the join or sync completes; the lab keeps it alive.
            self.reset_session(member_id, ctx);
            return;
        }
        let timeout_ms = if member.is_new { NEW_MEMBER_JOIN_TIMEOUT_MS } else { self.coordinator.session_timeout_ms };
        let client = member.client;
        self.record_departure(client, ctx.now_ms());
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::SessionExpired { member_id: member_id.to_string(), timeout_ms }),
        );
        self.remove_member(member_id, ctx);
    }

    /// Removes a member and moves the group on, as Kafka's `removeMemberAndUpdateClassicGroup`:
    /// a parked JoinGroup is answered UNKNOWN_MEMBER_ID; from Stable or CompletingRebalance the
    /// group rebalances (and, if nobody is left, completes that join into Empty).
    pub(super) fn remove_member(&mut self, member_id: &str, ctx: &mut GroupCtx) {
        let Some(member) = self.coordinator.members.remove(member_id) else { return };
        if member.awaiting_join {
            let response = Response::Join {
                error: ErrorCode::UnknownMemberId,
                member_id: String::new(),
                generation: -1,
                protocol: None,
                leader: String::new(),
                members: vec![],
            };
            self.send_to_member(member.client, member.incarnation, response, ctx);
        }
        self.coordinator.join_order.retain(|id| id != member_id);
        if self.coordinator.leader.as_deref() == Some(member_id) {
            self.coordinator.leader = self.coordinator.join_order.first().cloned();
        }
        match self.coordinator.state {
            GroupState::Stable | GroupState::CompletingRebalance => {
                let reason = RebalanceReason::MemberRemoved { member_id: member_id.to_string() };
                self.prepare_rebalance(reason, ctx);
            }
            GroupState::PreparingRebalance if self.coordinator.all_joined() => self.complete_join(ctx),
            _ => {}
        }
    }

    /// Kafka's OffsetCommit validation for a classic group, then the write.
    pub(super) fn on_commit(
        &mut self,
        member_id: Option<&str>,
        generation: i32,
        offsets: &SortedMap<u32, i64>,
        ctx: &mut GroupCtx,
    ) -> ErrorCode {
        let Some(id) = member_id else { return ErrorCode::UnknownMemberId };
        let error = if !self.coordinator.members.contains_key(id) {
            ErrorCode::UnknownMemberId
        } else if generation != self.coordinator.generation {
            ErrorCode::IllegalGeneration
        } else if self.coordinator.state == GroupState::CompletingRebalance {
            ErrorCode::RebalanceInProgress
        } else {
            ErrorCode::None
        };
        if error != ErrorCode::None {
            ctx.record(
                Actor::Coordinator,
                Fact::Coordinator(CoordinatorFact::CommitRejected { member_id: id.to_string(), error }),
            );
            return error;
        }
        for (partition, offset) in offsets {
            self.coordinator.commit(*partition, *offset);
        }
        error
    }
}
