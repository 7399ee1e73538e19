//! The coordinator's JoinGroup handling (Kafka's `classicGroupJoinToClassicGroup` and the paths
//! it takes): the session timeout range check, KIP-394's MEMBER_ID_REQUIRED round trip for new
//! dynamic members, KIP-345's static member replacement, and what a known member's rejoin does
//! in each state.

use super::assignor::AssignorKind;
use super::coordinator::{GroupMember, NEW_MEMBER_JOIN_TIMEOUT_MS};
use super::{
    CoordinatorFact, ErrorCode, Event, Fact, GroupCtx, GroupLab, GroupState, MemberMetadata, RebalanceReason, Response,
};
use crate::model::kernel::Actor;

/// A JoinGroup's protocol metadata (Kafka's `JoinGroupRequestProtocol` list with the consumer's
/// `Subscription`): the assignors by preference, the partitions owned and the generation they are
/// owned in. The coordinator compares it to decide whether a rejoin changes anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinMetadata {
    pub protocols: Vec<AssignorKind>,
    pub owned: Vec<u32>,
    pub generation: i32,
}

/// What the client does once an OffsetCommit is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterCommit {
    /// An asynchronous commit (auto-commit in `poll()`, `commitAsync`): nothing waits.
    Nothing,
    /// `commitSync` after processing: the poll loop continues once answered.
    Poll,
    /// `onJoinPrepare`'s auto-commit: the JoinGroup goes out once answered.
    Join,
}

/// One JoinGroup as the coordinator receives it.
pub(super) struct Join {
    pub client: u32,
    pub incarnation: u32,
    pub member_id: Option<String>,
    pub instance_id: Option<String>,
    pub session_timeout_ms: u64,
    pub metadata: JoinMetadata,
}

impl GroupLab {
    /// Kafka: `GroupCoordinatorService.joinGroup` (session timeout range), then
    /// `classicGroupJoinToClassicGroup`.
    pub(super) fn on_join(&mut self, join: Join, ctx: &mut GroupCtx) {
        let c = &self.coordinator;
        if !(c.min_session_timeout_ms..=c.max_session_timeout_ms).contains(&join.session_timeout_ms) {
            let fact = CoordinatorFact::SessionTimeoutRefused {
                session_timeout_ms: join.session_timeout_ms,
                min_ms: c.min_session_timeout_ms,
                max_ms: c.max_session_timeout_ms,
            };
            ctx.record(Actor::Coordinator, Fact::Coordinator(fact));
            let id = join.member_id.clone().unwrap_or_default();
            return self.answer_join_error(&join, ErrorCode::InvalidSessionTimeout, id, ctx);
        }
        match join.member_id.clone() {
            None => self.join_new_member(join, ctx),
            Some(id) if self.coordinator.pending_members.remove(&id).is_some() => {
                // Kafka: a pending (KIP-394) member rejoining with its id is added now.
                self.add_member_then_rebalance(&join, &id, ctx)
            }
            Some(id) if !self.coordinator.members.contains_key(&id) => {
                ctx.record(
                    Actor::Coordinator,
                    Fact::Coordinator(CoordinatorFact::JoinFromUnknownMember { member_id: id.clone() }),
                );
                self.answer_join_error(&join, ErrorCode::UnknownMemberId, String::new(), ctx)
            }
            Some(id) => self.join_existing_member(join, &id, ctx),
        }
    }

    fn answer_join_error(&mut self, join: &Join, error: ErrorCode, member_id: String, ctx: &mut GroupCtx) {
        let response =
            Response::Join { error, member_id, generation: -1, protocol: None, leader: String::new(), members: vec![] };
        self.send_to_member(join.client, join.incarnation, response, ctx);
    }

    /// Kafka: `classicGroupJoinNewMember`: a static member replaces its old id; a dynamic one is
    /// given an id and asked to come back with it (KIP-394).
    fn join_new_member(&mut self, join: Join, ctx: &mut GroupCtx) {
        let known_static = join.instance_id.as_ref().and_then(|i| {
            self.coordinator.members.values().find(|m| m.instance_id.as_ref() == Some(i)).map(|m| m.member_id.clone())
        });
        let id = self.new_member_id(join.client, &join.instance_id, ctx);
        if let Some(old_id) = known_static {
            return self.replace_static_member(&join, &old_id, id, ctx);
        }
        if join.instance_id.is_some() {
            return self.add_member_then_rebalance(&join, &id, ctx);
        }
        // Kafka: classicGroupJoinNewDynamicMember; the pending id expires with the session timeout.
        let deadline_ms = ctx.now_ms() + join.session_timeout_ms;
        self.coordinator.pending_members.insert(id.clone(), deadline_ms);
        ctx.schedule(join.session_timeout_ms, Event::SessionExpiry { member_id: id.clone(), deadline_ms });
        let state = self.coordinator.state;
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::MemberIdRequired { member_id: id.clone(), state }),
        );
        self.answer_join_error(&join, ErrorCode::MemberIdRequired, id, ctx);
    }

    /// Kafka: `addMemberThenRebalanceOrCompleteJoin`. A new member's parked JoinGroup expires
    /// after `NEW_MEMBER_JOIN_TIMEOUT_MS` (it cannot heartbeat yet).
    fn add_member_then_rebalance(&mut self, join: &Join, id: &str, ctx: &mut GroupCtx) {
        let state = self.coordinator.state;
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::JoinReceived { member_id: id.into(), state }),
        );
        let member = GroupMember {
            member_id: id.to_string(),
            instance_id: join.instance_id.clone(),
            client: join.client,
            incarnation: join.incarnation,
            metadata: join.metadata.clone(),
            awaiting_join: true,
            awaiting_sync: false,
            is_new: true,
            pending_sync: false,
            session_deadline_ms: 0,
        };
        self.coordinator.members.insert(id.to_string(), member);
        self.coordinator.join_order.push(id.to_string());
        self.coordinator.new_member_added = true;
        if self.coordinator.leader.is_none() {
            self.coordinator.leader = Some(id.to_string());
        }
        self.reset_session_after(id, NEW_MEMBER_JOIN_TIMEOUT_MS, ctx);
        self.rebalance_or_complete_join(RebalanceReason::NewMember { member_id: id.to_string() }, ctx);
    }

    /// Stores a rejoining member's request and parks its JoinGroup (Kafka: `ClassicGroup.updateMember`).
    fn update_member(&mut self, join: &Join, id: &str) {
        let member = self.coordinator.members.get_mut(id).expect("member present");
        member.metadata = join.metadata.clone();
        member.client = join.client;
        member.incarnation = join.incarnation;
        member.awaiting_join = true;
    }

    /// Kafka: `classicGroupJoinExistingMember`, by the group's state.
    fn join_existing_member(&mut self, join: Join, id: &str, ctx: &mut GroupCtx) {
        let state = self.coordinator.state;
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::JoinReceived { member_id: id.into(), state }),
        );
        let member = &self.coordinator.members[id];
        let unchanged = member.metadata == join.metadata;
        let leader = self.coordinator.leader.as_deref() == Some(id);
        let updated = RebalanceReason::UpdatedMetadata { member_id: id.to_string() };
        match state {
            GroupState::PreparingRebalance => {
                self.update_member(&join, id);
                self.maybe_complete_join(ctx);
            }
            // Same metadata: it missed the JoinGroup response; answer with the current generation.
            GroupState::CompletingRebalance if unchanged => self.answer_current_generation(&join, id, leader, ctx),
            GroupState::Stable if leader => {
                self.update_member(&join, id);
                self.prepare_rebalance(RebalanceReason::LeaderRejoined { member_id: id.to_string() }, ctx);
            }
            // A follower with nothing new gets the current generation and syncs again.
            GroupState::Stable if unchanged => self.answer_current_generation(&join, id, false, ctx),
            GroupState::CompletingRebalance | GroupState::Stable => {
                self.update_member(&join, id);
                self.prepare_rebalance(updated, ctx);
            }
            GroupState::Empty | GroupState::Dead => {
                self.answer_join_error(&join, ErrorCode::UnknownMemberId, id.to_string(), ctx)
            }
        }
    }

    /// A JoinGroup answer for the generation in force; the leader gets the members if asked.
    fn answer_current_generation(&mut self, join: &Join, id: &str, with_members: bool, ctx: &mut GroupCtx) {
        let members = if with_members { self.member_metadata() } else { Vec::new() };
        let response = Response::Join {
            error: ErrorCode::None,
            member_id: id.to_string(),
            generation: self.coordinator.generation,
            protocol: self.coordinator.protocol,
            leader: self.coordinator.leader.clone().unwrap_or_default(),
            members,
        };
        self.send_to_member(join.client, join.incarnation, response, ctx);
    }

    /// Every member's subscription, as the leader's JoinGroup response carries them.
    pub(super) fn member_metadata(&self) -> Vec<MemberMetadata> {
        self.coordinator
            .members
            .values()
            .map(|m| MemberMetadata {
                member_id: m.member_id.clone(),
                instance_id: m.instance_id.clone(),
                owned: m.metadata.owned.clone(),
                generation: m.metadata.generation,
            })
            .collect()
    }

    /// KIP-345 (Kafka: `updateStaticMemberThenRebalanceOrCompleteJoin`): a static member coming
    /// back with a known `group.instance.id` takes over the old member's place and assignment.
    /// In Stable no rebalance happens unless the selected protocol would change; in
    /// CompletingRebalance it must rebalance (the leader assigned to the old member id).
    fn replace_static_member(&mut self, join: &Join, old_id: &str, new_id: String, ctx: &mut GroupCtx) {
        let mut member = self.coordinator.members.remove(old_id).expect("known static member");
        let fact = Fact::Coordinator(CoordinatorFact::StaticMemberReplaced {
            instance_id: member.instance_id.clone().unwrap_or_default(),
            old_member_id: old_id.to_string(),
            new_member_id: new_id.clone(),
        });
        ctx.record(Actor::Coordinator, fact);
        member.member_id = new_id.clone();
        self.coordinator.members.insert(new_id.clone(), member);
        for slot in self.coordinator.join_order.iter_mut().filter(|s| *s == old_id) {
            *slot = new_id.clone();
        }
        if let Some(list) = self.coordinator.assignment.remove(old_id) {
            self.coordinator.assignment.insert(new_id.clone(), list);
        }
        if self.coordinator.leader.as_deref() == Some(old_id) {
            self.coordinator.leader = Some(new_id.clone());
        }
        self.reset_session(&new_id, ctx);
        self.update_member(join, &new_id);
        let reason = RebalanceReason::UpdatedMetadata { member_id: new_id.clone() };
        match self.coordinator.state {
            GroupState::Stable if self.coordinator.select_protocol() == self.coordinator.protocol => {
                // No rebalance: even a returning leader just syncs (Kafka tells it to skip the assignment).
                self.coordinator.members.get_mut(&new_id).expect("inserted").awaiting_join = false;
                self.answer_current_generation(join, &new_id, false, ctx);
            }
            GroupState::Stable | GroupState::CompletingRebalance => self.prepare_rebalance(reason, ctx),
            _ => self.maybe_complete_join(ctx),
        }
    }
}
