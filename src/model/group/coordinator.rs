//! Kafka's classic group coordinator (`ClassicGroup` in the group coordinator): the states Empty,
//! PreparingRebalance, CompletingRebalance, Stable and Dead, JoinGroup/SyncGroup/Heartbeat/
//! LeaveGroup handling, heartbeat expiry, and offset commits.

use super::CoordinatorFact;
use crate::model::kernel::sorted::SortedMap;

use super::assignor::AssignorKind;
use super::{Event, Fact, GroupCtx, GroupLab, GroupState, JoinMetadata, RebalanceReason, Request, Response, Settings};
use crate::model::kernel::Actor;

/// Kafka's `ClassicGroupMember` as the coordinator keeps it; reads session.timeout.ms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupMember {
    pub member_id: String,
    pub instance_id: Option<String>,
    /// Which lab member process this is (routing of responses), and its incarnation.
    pub client: u32,
    pub incarnation: u32,
    /// The protocol metadata of its last JoinGroup that changed it.
    pub metadata: JoinMetadata,
    pub awaiting_join: bool,
    pub awaiting_sync: bool,
    /// Joined the group in this rebalance (Kafka's `isNew`): its parked JoinGroup times out
    /// after `NEW_MEMBER_JOIN_TIMEOUT_MS`, not when its session would.
    pub is_new: bool,
    /// Still owes a SyncGroup for the current generation (Kafka's `pendingSyncMembers`).
    pub pending_sync: bool,
    pub session_deadline_ms: u64,
}

/// Kafka's `CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS`: 5 minutes.
pub const NEW_MEMBER_JOIN_TIMEOUT_MS: u64 = 5 * 60 * 1000;

/// Kafka's classic group coordinator state for one group; reads session.timeout.ms,
/// max.poll.interval.ms (the rebalance timeout), group.initial.rebalance.delay.ms and
/// group.min/max.session.timeout.ms.
#[derive(Clone, Debug)]
pub struct Coordinator {
    pub state: GroupState,
    pub generation: i32,
    pub leader: Option<String>,
    /// The assignor the group selected at the last completed join (Kafka's `protocolName`).
    pub protocol: Option<AssignorKind>,
    pub members: SortedMap<String, GroupMember>,
    /// KIP-394: member ids handed out with MEMBER_ID_REQUIRED, with their session deadline.
    pub pending_members: SortedMap<String, u64>,
    /// Join order (the leader is the first joiner still present).
    pub(super) join_order: Vec<String>,
    /// The assignment stored by the last SyncGroup of the leader.
    pub assignment: SortedMap<String, Vec<u32>>,
    committed: SortedMap<u32, i64>,
    pub(super) rebalance_seq: u64,
    pub(super) new_member_added: bool,
    pub(super) in_initial_delay: bool,
    pub(super) session_timeout_ms: u64,
    pub(super) rebalance_timeout_ms: u64,
    initial_delay_ms: u64,
    pub(super) min_session_timeout_ms: u64,
    pub(super) max_session_timeout_ms: u64,
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
            protocol: None,
            members: SortedMap::new(),
            pending_members: SortedMap::new(),
            join_order: Vec::new(),
            assignment: SortedMap::new(),
            committed: SortedMap::new(),
            rebalance_seq: 0,
            new_member_added: false,
            in_initial_delay: false,
            session_timeout_ms: settings.session_timeout_ms,
            rebalance_timeout_ms: settings.max_poll_interval_ms,
            initial_delay_ms: settings.group_initial_rebalance_delay_ms,
            min_session_timeout_ms: settings.group_min_session_timeout_ms,
            max_session_timeout_ms: settings.group_max_session_timeout_ms,
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

    /// Moves the group to `state`; only the moves `ClassicGroupState` allows.
    pub(super) fn transition(&mut self, state: GroupState, now_ms: u64, ctx: &mut GroupCtx) {
        let from = self.state;
        debug_assert!(valid_transition(from, state), "ClassicGroupState forbids {from:?} -> {state:?}");
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

    /// Kafka: `ClassicGroup.hasAllMembersJoined` (every member rejoined, no KIP-394 id outstanding).
    pub(super) fn all_joined(&self) -> bool {
        self.members.values().all(|m| m.awaiting_join) && self.pending_members.is_empty()
    }

    /// Kafka: `ClassicGroup.canRebalance` (PreparingRebalance may follow the current state).
    pub(super) fn can_rebalance(&self) -> bool {
        valid_transition(self.state, GroupState::PreparingRebalance)
    }

    /// Kafka: `ClassicGroup.selectProtocol`: among the assignors every member supports, each
    /// member votes for its first; the most votes win (a tie goes to the earliest vote here).
    pub fn select_protocol(&self) -> Option<AssignorKind> {
        let candidates: Vec<AssignorKind> = ALL_ASSIGNORS
            .into_iter()
            .filter(|k| self.members.values().all(|m| m.metadata.protocols.contains(k)))
            .collect();
        let votes: Vec<AssignorKind> = self
            .members
            .values()
            .filter_map(|m| m.metadata.protocols.iter().find(|p| candidates.contains(p)).copied())
            .collect();
        let count = |k: &AssignorKind| votes.iter().filter(|v| *v == k).count();
        votes.iter().copied().fold(None, |best: Option<AssignorKind>, k| match best {
            Some(b) if count(&b) >= count(&k) => Some(b),
            _ => Some(k),
        })
    }
}

const ALL_ASSIGNORS: [AssignorKind; 4] =
    [AssignorKind::Range, AssignorKind::RoundRobin, AssignorKind::Sticky, AssignorKind::CooperativeSticky];

/// Kafka: `ClassicGroupState`'s valid previous states.
fn valid_transition(from: GroupState, to: GroupState) -> bool {
    use GroupState::*;
    match to {
        Empty => from == PreparingRebalance,
        PreparingRebalance => matches!(from, Stable | CompletingRebalance | Empty),
        CompletingRebalance => from == PreparingRebalance,
        Stable => from == CompletingRebalance,
        Dead => true,
    }
}

impl GroupLab {
    pub(super) fn on_request(&mut self, client: u32, incarnation: u32, request: Request, ctx: &mut GroupCtx) {
        match request {
            Request::JoinGroup { member_id, instance_id, session_timeout_ms, metadata } => {
                let join =
                    super::join::Join { client, incarnation, member_id, instance_id, session_timeout_ms, metadata };
                self.on_join(join, ctx)
            }
            Request::SyncGroup { member_id, generation, assignments } => {
                self.on_sync(&member_id, generation, assignments, ctx)
            }
            Request::Heartbeat { member_id, generation } => {
                let error = self.on_heartbeat(&member_id, generation, ctx);
                self.send_to_member(client, incarnation, Response::Heartbeat { error }, ctx);
            }
            Request::LeaveGroup { member_id, reason } => {
                if self.coordinator.pending_members.remove(&member_id).is_some() {
                    self.maybe_complete_join(ctx);
                } else if self.coordinator.members.contains_key(&member_id) {
                    ctx.record(
                        Actor::Coordinator,
                        Fact::Coordinator(CoordinatorFact::MemberLeft { member_id: member_id.clone(), reason }),
                    );
                    self.remove_member(&member_id, ctx);
                }
            }
            Request::OffsetCommit { member_id, generation, offsets, then } => {
                let error = self.on_commit(member_id.as_deref(), generation, &offsets, ctx);
                self.send_to_member(client, incarnation, Response::Commit { error, offsets, then }, ctx);
            }
        }
    }

    /// Kafka: `ClassicGroup.generateMemberId` (instance id or client id, then a unique suffix).
    pub(super) fn new_member_id(&mut self, client: u32, instance_id: &Option<String>, ctx: &mut GroupCtx) -> String {
        self.coordinator.member_seq += 1;
        let suffix = format!("{:06x}", ctx.random_u64() & 0xff_ffff);
        match instance_id {
            Some(instance) => format!("{instance}-{suffix}"),
            None => format!("consumer-{}-{client}-{suffix}", super::GROUP_ID),
        }
    }

    /// Kafka: `rescheduleClassicGroupMemberHeartbeat` with the member's session timeout.
    pub(super) fn reset_session(&mut self, member_id: &str, ctx: &mut GroupCtx) {
        let timeout_ms = self.coordinator.session_timeout_ms;
        self.reset_session_after(member_id, timeout_ms, ctx);
    }

    pub(super) fn reset_session_after(&mut self, member_id: &str, timeout_ms: u64, ctx: &mut GroupCtx) {
        let deadline_ms = ctx.now_ms() + timeout_ms;
        if let Some(member) = self.coordinator.members.get_mut(member_id) {
            member.session_deadline_ms = deadline_ms;
            ctx.schedule(timeout_ms, Event::SessionExpiry { member_id: member_id.to_string(), deadline_ms });
        }
    }

    /// Kafka: `maybePrepareRebalanceOrCompleteJoin`.
    pub(super) fn rebalance_or_complete_join(&mut self, reason: RebalanceReason, ctx: &mut GroupCtx) {
        if self.coordinator.can_rebalance() {
            self.prepare_rebalance(reason, ctx);
        } else {
            self.maybe_complete_join(ctx);
        }
    }

    /// Kafka: `GroupMetadataManager.prepareRebalance`.
    pub(super) fn prepare_rebalance(&mut self, reason: RebalanceReason, ctx: &mut GroupCtx) {
        if self.coordinator.state == GroupState::CompletingRebalance {
            self.fail_pending_syncs(ctx);
        }
        // removeSyncExpiration: nobody owes a SyncGroup any more.
        for member in self.coordinator.members.values_mut() {
            member.pending_sync = false;
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
