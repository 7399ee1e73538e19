//! Kafka's classic group coordinator (`ClassicGroup` in the group coordinator): the states Empty,
//! PreparingRebalance, CompletingRebalance, Stable and Dead, JoinGroup/SyncGroup/Heartbeat/
//! LeaveGroup handling, heartbeat expiry, and offset commits.

use super::CoordinatorFact;
use std::collections::BTreeMap;

use super::{ErrorCode, Event, Fact, GroupCtx, GroupLab, GroupState, RebalanceReason, Request, Response, Settings};
use crate::model::kernel::Actor;

/// Kafka's `ClassicGroupMember` as the coordinator keeps it; reads session.timeout.ms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupMember {
    pub member_id: String,
    pub instance_id: Option<String>,
    /// Which lab member process this is (routing of responses), and its incarnation.
    pub client: u32,
    pub incarnation: u32,
    pub owned: Vec<u32>,
    pub generation: i32,
    pub awaiting_join: bool,
    pub awaiting_sync: bool,
    pub session_deadline_ms: u64,
}

/// Kafka's classic group coordinator state for one group; reads session.timeout.ms,
/// max.poll.interval.ms (the rebalance timeout) and group.initial.rebalance.delay.ms.
#[derive(Clone, Debug)]
pub struct Coordinator {
    pub state: GroupState,
    pub generation: i32,
    pub leader: Option<String>,
    pub members: BTreeMap<String, GroupMember>,
    /// Join order (the leader is the first joiner still present).
    pub(super) join_order: Vec<String>,
    /// The assignment stored by the last SyncGroup of the leader.
    pub assignment: BTreeMap<String, Vec<u32>>,
    committed: BTreeMap<u32, i64>,
    rebalance_seq: u64,
    new_member_added: bool,
    in_initial_delay: bool,
    session_timeout_ms: u64,
    rebalance_timeout_ms: u64,
    initial_delay_ms: u64,
    /// (time, state, generation) at every transition, for the UI's state strip.
    pub transitions: Vec<(u64, GroupState, i32)>,
    member_seq: u64,
}

impl Coordinator {
    pub fn new(settings: &Settings) -> Self {
        Self {
            state: GroupState::Empty,
            generation: 0,
            leader: None,
            members: BTreeMap::new(),
            join_order: Vec::new(),
            assignment: BTreeMap::new(),
            committed: BTreeMap::new(),
            rebalance_seq: 0,
            new_member_added: false,
            in_initial_delay: false,
            session_timeout_ms: settings.session_timeout_ms,
            rebalance_timeout_ms: settings.max_poll_interval_ms,
            initial_delay_ms: settings.group_initial_rebalance_delay_ms,
            transitions: vec![(0, GroupState::Empty, 0)],
            member_seq: 0,
        }
    }

    /// The committed offset (next offset to read) of a partition, if any.
    pub fn committed(&self, partition: u32) -> Option<i64> {
        self.committed.get(&partition).copied()
    }

    /// Who owns a partition in the stored assignment.
    pub fn owner_of(&self, partition: u32) -> Option<&str> {
        self.assignment.iter().find(|(_, list)| list.contains(&partition)).map(|(member, _)| member.as_str())
    }

    pub(super) fn transition(&mut self, state: GroupState, now_ms: u64, ctx: &mut GroupCtx) {
        let from = self.state;
        self.state = state;
        self.transitions.push((now_ms, state, self.generation));
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::StateChanged { from, to: state, generation: self.generation }),
        );
    }

    /// Stores a committed offset; debug-checks Kafka's invariant committed ≤ LEO is kept by callers.
    pub(super) fn commit(&mut self, partition: u32, offset: i64) {
        self.committed.insert(partition, offset);
    }

    fn all_joined(&self) -> bool {
        self.members.values().all(|m| m.awaiting_join)
    }
}

impl GroupLab {
    pub(super) fn on_request(&mut self, client: u32, incarnation: u32, request: Request, ctx: &mut GroupCtx) {
        match request {
            Request::JoinGroup { member_id, instance_id, owned, generation } => {
                self.on_join(client, incarnation, member_id, instance_id, owned, generation, ctx)
            }
            Request::SyncGroup { member_id, generation, assignments } => {
                self.on_sync(&member_id, generation, assignments, ctx)
            }
            Request::Heartbeat { member_id, generation } => {
                let error = self.on_heartbeat(&member_id, generation, ctx);
                self.send_to_member(client, incarnation, Response::Heartbeat { error }, ctx);
            }
            Request::LeaveGroup { member_id, reason } => {
                if self.coordinator.members.contains_key(&member_id) {
                    ctx.record(
                        Actor::Coordinator,
                        Fact::Coordinator(CoordinatorFact::MemberLeft { member_id: member_id.clone(), reason }),
                    );
                    self.remove_member(&member_id, ctx);
                }
            }
            Request::OffsetCommit { member_id, generation, offsets, blocking } => {
                let error = self.on_commit(member_id.as_deref(), generation, &offsets, ctx);
                self.send_to_member(client, incarnation, Response::Commit { error, offsets, blocking }, ctx);
            }
        }
    }

    fn new_member_id(&mut self, client: u32, instance_id: &Option<String>, ctx: &mut GroupCtx) -> String {
        self.coordinator.member_seq += 1;
        let suffix = format!("{:06x}", ctx.random_u64() & 0xff_ffff);
        match instance_id {
            Some(instance) => format!("{instance}-{suffix}"),
            None => format!("consumer-{}-{client}-{suffix}", super::GROUP_ID),
        }
    }

    pub(super) fn reset_session(&mut self, member_id: &str, ctx: &mut GroupCtx) {
        let deadline_ms = ctx.now_ms() + self.coordinator.session_timeout_ms;
        if let Some(member) = self.coordinator.members.get_mut(member_id) {
            member.session_deadline_ms = deadline_ms;
            ctx.schedule(
                self.coordinator.session_timeout_ms,
                Event::SessionExpiry { member_id: member_id.to_string(), deadline_ms },
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn on_join(
        &mut self,
        client: u32,
        incarnation: u32,
        member_id: Option<String>,
        instance_id: Option<String>,
        owned: Vec<u32>,
        generation: i32,
        ctx: &mut GroupCtx,
    ) {
        let known_static = instance_id.as_ref().and_then(|i| {
            self.coordinator.members.values().find(|m| m.instance_id.as_ref() == Some(i)).map(|m| m.member_id.clone())
        });
        let id = match (&member_id, known_static) {
            (Some(id), _) if self.coordinator.members.contains_key(id) => id.clone(),
            (Some(id), _) if instance_id.is_none() => {
                ctx.record(
                    Actor::Coordinator,
                    Fact::Coordinator(CoordinatorFact::JoinFromUnknownMember { member_id: id.clone() }),
                );
                let response = Response::Join {
                    error: ErrorCode::UnknownMemberId,
                    member_id: String::new(),
                    generation: -1,
                    leader: String::new(),
                    members: vec![],
                };
                self.send_to_member(client, incarnation, response, ctx);
                return;
            }
            (_, Some(old_id)) => return self.replace_static_member(client, incarnation, &old_id, owned, ctx),
            _ => {
                let id = self.new_member_id(client, &instance_id, ctx);
                self.add_member(client, incarnation, &id, instance_id.clone(), ctx);
                id
            }
        };
        let member = self.coordinator.members.get_mut(&id).expect("member present");
        member.owned = owned;
        member.generation = generation;
        member.client = client;
        member.incarnation = incarnation;
        member.awaiting_join = true;
        member.awaiting_sync = false;
        let state = self.coordinator.state;
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::JoinReceived { member_id: id.clone(), state }),
        );
        match state {
            GroupState::Empty | GroupState::Stable | GroupState::CompletingRebalance => {
                let reason = if member_id.is_none() {
                    RebalanceReason::NewMember { member_id: id }
                } else {
                    RebalanceReason::UpdatedMetadata { member_id: id }
                };
                self.prepare_rebalance(reason, ctx);
            }
            GroupState::PreparingRebalance => self.maybe_complete_join(ctx),
            GroupState::Dead => {}
        }
    }

    fn add_member(&mut self, client: u32, incarnation: u32, id: &str, instance_id: Option<String>, ctx: &mut GroupCtx) {
        let member = GroupMember {
            member_id: id.to_string(),
            instance_id,
            client,
            incarnation,
            owned: vec![],
            generation: -1,
            awaiting_join: true,
            awaiting_sync: false,
            session_deadline_ms: 0,
        };
        self.coordinator.members.insert(id.to_string(), member);
        self.coordinator.join_order.push(id.to_string());
        self.coordinator.new_member_added = true;
        self.reset_session(id, ctx);
    }

    /// KIP-345: a static member rejoining with a known `group.instance.id` takes over the old
    /// member's place and assignment; in Stable no rebalance happens.
    fn replace_static_member(
        &mut self,
        client: u32,
        incarnation: u32,
        old_id: &str,
        owned: Vec<u32>,
        ctx: &mut GroupCtx,
    ) {
        let mut member = self.coordinator.members.remove(old_id).expect("known static member");
        let new_id = self.new_member_id(client, &member.instance_id, ctx);
        let fact = Fact::Coordinator(CoordinatorFact::StaticMemberReplaced {
            instance_id: member.instance_id.clone().unwrap_or_default(),
            old_member_id: old_id.to_string(),
            new_member_id: new_id.clone(),
        });
        ctx.record(Actor::Coordinator, fact);
        member.member_id = new_id.clone();
        member.client = client;
        member.incarnation = incarnation;
        if !owned.is_empty() {
            member.owned = owned;
        }
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
        if self.coordinator.state == GroupState::PreparingRebalance {
            self.coordinator.members.get_mut(&new_id).expect("inserted").awaiting_join = true;
            self.maybe_complete_join(ctx);
            return;
        }
        let leader = self.coordinator.leader.clone().unwrap_or_default();
        let response = Response::Join {
            error: ErrorCode::None,
            member_id: new_id,
            generation: self.coordinator.generation,
            leader,
            members: vec![],
        };
        self.send_to_member(client, incarnation, response, ctx);
    }

    pub(super) fn prepare_rebalance(&mut self, reason: RebalanceReason, ctx: &mut GroupCtx) {
        if self.coordinator.state == GroupState::CompletingRebalance {
            self.fail_pending_syncs(ctx);
        }
        let initial = self.coordinator.state == GroupState::Empty;
        self.coordinator.rebalance_seq += 1;
        let rebalance = self.coordinator.rebalance_seq;
        let (state, generation) = (self.coordinator.state, self.coordinator.generation);
        ctx.record(
            Actor::Coordinator,
            Fact::Coordinator(CoordinatorFact::PreparingRebalance { state, generation, reason }),
        );
        self.coordinator.transition(GroupState::PreparingRebalance, ctx.now_ms(), ctx);
        if initial {
            let delay_ms = self.coordinator.initial_delay_ms;
            let remaining_ms = self.coordinator.rebalance_timeout_ms.saturating_sub(delay_ms);
            self.coordinator.in_initial_delay = true;
            self.coordinator.new_member_added = false;
            ctx.schedule(delay_ms, Event::InitialDelay { rebalance, delay_ms, remaining_ms });
        } else if self.coordinator.all_joined() {
            self.complete_join(ctx);
        } else {
            ctx.schedule(self.coordinator.rebalance_timeout_ms, Event::JoinTimeout { rebalance });
        }
    }

    pub(super) fn on_initial_delay(&mut self, rebalance: u64, delay_ms: u64, remaining_ms: u64, ctx: &mut GroupCtx) {
        if rebalance != self.coordinator.rebalance_seq || self.coordinator.state != GroupState::PreparingRebalance {
            return;
        }
        if self.coordinator.new_member_added && remaining_ms != 0 {
            self.coordinator.new_member_added = false;
            let next_delay = self.coordinator.initial_delay_ms.min(remaining_ms);
            let next_remaining = remaining_ms.saturating_sub(delay_ms);
            ctx.schedule(
                next_delay,
                Event::InitialDelay { rebalance, delay_ms: next_delay, remaining_ms: next_remaining },
            );
        } else {
            self.coordinator.in_initial_delay = false;
            self.complete_join(ctx);
        }
    }

    pub(super) fn on_join_timeout(&mut self, rebalance: u64, ctx: &mut GroupCtx) {
        if rebalance == self.coordinator.rebalance_seq
            && self.coordinator.state == GroupState::PreparingRebalance
            && !self.coordinator.in_initial_delay
        {
            self.complete_join(ctx);
        }
    }

    pub(super) fn maybe_complete_join(&mut self, ctx: &mut GroupCtx) {
        let c = &self.coordinator;
        if c.state == GroupState::PreparingRebalance && !c.in_initial_delay && c.all_joined() {
            self.complete_join(ctx);
        }
    }
}
