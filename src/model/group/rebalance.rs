//! The coordinator's join and sync completion, heartbeats, expiry, leaving and offset commits
//! (Kafka's `completeClassicGroupJoin`, `classicGroupSync`, heartbeat and OffsetCommit paths).

use super::CoordinatorFact;
use std::collections::BTreeMap;

use super::{ErrorCode, Event, Fact, GroupCtx, GroupLab, GroupState, MemberMetadata, RebalanceReason, Response};
use crate::model::kernel::Actor;

impl GroupLab {
    /// Ends the join phase: members that did not rejoin are removed, the generation advances,
    /// and every member gets its JoinGroup response (the leader with everyone's subscription).
    pub(super) fn complete_join(&mut self, ctx: &mut GroupCtx) {
        let missing: Vec<String> =
            self.coordinator.members.values().filter(|m| !m.awaiting_join).map(|m| m.member_id.clone()).collect();
        for id in missing {
            ctx.record(Actor::Coordinator, Fact::Coordinator(CoordinatorFact::JoinTimedOut { member_id: id.clone() }));
            self.coordinator.members.remove(&id);
            self.coordinator.assignment.remove(&id);
        }
        self.coordinator.join_order.retain(|id| self.coordinator.members.contains_key(id));
        self.coordinator.generation += 1;
        if self.coordinator.members.is_empty() {
            self.coordinator.leader = None;
            self.coordinator.assignment.clear();
            self.coordinator.transition(GroupState::Empty, ctx.now_ms(), ctx);
            return;
        }
        let leader_gone = self.coordinator.leader.as_ref().is_none_or(|l| !self.coordinator.members.contains_key(l));
        if leader_gone {
            self.coordinator.leader = self.coordinator.join_order.first().cloned();
        }
        let leader = self.coordinator.leader.clone().expect("a member leads");
        self.coordinator.transition(GroupState::CompletingRebalance, ctx.now_ms(), ctx);
        let generation = self.coordinator.generation;
        let everyone: Vec<MemberMetadata> = self
            .coordinator
            .members
            .values()
            .map(|m| MemberMetadata {
                member_id: m.member_id.clone(),
                instance_id: m.instance_id.clone(),
                owned: m.owned.clone(),
                generation: m.generation,
            })
            .collect();
        let routes: Vec<(String, u32, u32)> =
            self.coordinator.members.values().map(|m| (m.member_id.clone(), m.client, m.incarnation)).collect();
        for member in self.coordinator.members.values_mut() {
            member.awaiting_join = false;
            member.awaiting_sync = false;
        }
        for (id, client, incarnation) in routes {
            let members = if id == leader { everyone.clone() } else { Vec::new() };
            let response = Response::Join {
                error: ErrorCode::None,
                member_id: id.clone(),
                generation,
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
        ctx.schedule(self.settings.max_poll_interval_ms, Event::SyncTimeout { generation });
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
        assignments: Option<BTreeMap<String, Vec<u32>>>,
        ctx: &mut GroupCtx,
    ) {
        if let Some(error) = self.sync_error(member_id, generation) {
            if let Some((client, incarnation)) = self.route(member_id) {
                self.send_to_member(client, incarnation, Response::Sync { error, assignment: vec![] }, ctx);
            }
            return;
        }
        self.reset_session(member_id, ctx);
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

    pub(super) fn on_sync_timeout(&mut self, generation: i32, ctx: &mut GroupCtx) {
        if generation != self.coordinator.generation || self.coordinator.state != GroupState::CompletingRebalance {
            return;
        }
        let laggards: Vec<String> =
            self.coordinator.members.values().filter(|m| !m.awaiting_sync).map(|m| m.member_id.clone()).collect();
        for id in laggards {
            ctx.record(Actor::Coordinator, Fact::Coordinator(CoordinatorFact::SyncTimedOut { member_id: id.clone() }));
            self.coordinator.members.remove(&id);
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

    pub(super) fn on_session_expiry(&mut self, member_id: &str, deadline_ms: u64, ctx: &mut GroupCtx) {
        let Some(member) = self.coordinator.members.get(member_id) else { return };
        if member.session_deadline_ms != deadline_ms {
            return;
        }
        if member.awaiting_join || member.awaiting_sync {
            // A member blocked in JoinGroup/SyncGroup is kept alive while it waits.
            self.reset_session(member_id, ctx);
            return;
        }
        let timeout_ms = self.settings.session_timeout_ms;
        let client = member.client;
        self.record_departure(client, ctx.now_ms());
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::SessionExpired { member_id: member_id.to_string(), timeout_ms }),
        );
        self.remove_member(member_id, ctx);
    }

    /// Removes a member and moves the group on, as Kafka's `removeMemberAndUpdateClassicGroup`.
    pub(super) fn remove_member(&mut self, member_id: &str, ctx: &mut GroupCtx) {
        self.coordinator.members.remove(member_id);
        self.coordinator.join_order.retain(|id| id != member_id);
        match self.coordinator.state {
            GroupState::Stable | GroupState::CompletingRebalance => {
                let reason = RebalanceReason::MemberRemoved { member_id: member_id.to_string() };
                if self.coordinator.members.is_empty() {
                    self.coordinator.assignment.clear();
                    self.coordinator.leader = None;
                    self.coordinator.generation += 1;
                    self.coordinator.transition(GroupState::Empty, ctx.now_ms(), ctx);
                } else {
                    self.prepare_rebalance(reason, ctx);
                }
            }
            GroupState::PreparingRebalance => {
                self.maybe_complete_join(ctx);
            }
            GroupState::Empty | GroupState::Dead => {}
        }
    }

    /// Kafka's OffsetCommit validation for a classic group, then the write.
    pub(super) fn on_commit(
        &mut self,
        member_id: Option<&str>,
        generation: i32,
        offsets: &BTreeMap<u32, i64>,
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
