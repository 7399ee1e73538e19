//! A consumer process as Kafka's `KafkaConsumer` + `ConsumerCoordinator` run it: a heartbeat
//! thread (KIP-62) beside a processing loop (poll → process → commit), eager or cooperative
//! rebalancing, auto-commit, and the poll timeout that turns a stuck member into a leaver.

use super::{MemberFact, RebalanceFact};
use crate::model::kernel::sorted::SortedMap;

use super::assignor::AssignorKind;
use super::{
    AfterCommit, ClientPhase, Event, Fact, GroupCtx, GroupLab, JoinMetadata, LaneSpan, LeaveReason, Protocol, Request,
    Settings, SpanKind,
};
use crate::model::kernel::Actor;

/// Spans kept per member lane.
const MAX_SPANS: usize = 400;
/// Process spans closer than this merge into one busy stretch, so a lane keeps minutes, not
/// seconds, of history (a lane is drawn at ~0.1 s per pixel).
const MERGE_PROCESS_GAP_MS: u64 = 250;

/// Records returned by one `poll()`: per partition the offsets `[from, to)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Batch {
    pub seq: u64,
    pub ranges: Vec<(u32, i64, i64)>,
    pub started_ms: u64,
    pub ms_per_record: u64,
}

impl Batch {
    pub fn records(&self) -> u64 {
        self.ranges.iter().map(|(_, from, to)| (to - from) as u64).sum()
    }

    pub fn duration_ms(&self) -> u64 {
        (self.records() * self.ms_per_record).max(1)
    }
}

/// Where `onJoinPrepare`'s auto-commit stands before a JoinGroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinPrepare {
    Idle,
    /// The commit is in flight; an eager member fetches nothing meanwhile (its partitions are
    /// pending revocation), a cooperative one goes on processing.
    Committing,
    /// Answered: the next `poll()` sends the JoinGroup.
    Committed,
}

/// One consumer process (Kafka's `KafkaConsumer`); reads group.instance.id (via lab.static.membership),
/// heartbeat.interval.ms, max.poll.interval.ms, max.poll.records, enable.auto.commit,
/// auto.commit.interval.ms, auto.offset.reset.
#[derive(Clone, Debug)]
pub struct Member {
    pub index: u32,
    pub client_id: String,
    pub instance_id: Option<String>,
    pub alive: bool,
    pub closed: bool,
    pub incarnation: u32,
    pub member_id: Option<String>,
    pub generation: i32,
    pub phase: ClientPhase,
    pub is_leader: bool,
    pub assigned: Vec<u32>,
    /// The last assignment received (what an eager StickyAssignor member reports in its user data).
    pub previous_assignment: Vec<u32>,
    pub needs_rejoin: bool,
    pub join_prepare: JoinPrepare,
    pub positions: SortedMap<u32, i64>,
    pub(super) batch: Option<Batch>,
    pub(super) worker_queue: Vec<Batch>,
    pub(super) worker_busy: Option<Batch>,
    /// Eager: the processing thread sits inside `poll()` until the rebalance completes.
    pub blocked_in_poll: bool,
    pub last_poll_ms: u64,
    pub last_auto_commit_ms: u64,
    pub paused_until_ms: u64,
    pub ms_per_record: u64,
    pub stop_started_ms: Option<u64>,
    pub lane: Vec<LaneSpan>,
    pub(super) batch_seq: u64,
    fetch_rotation: usize,
    pub(super) leader_partition_count: usize,
}

impl Member {
    pub fn new(index: u32, settings: &Settings) -> Self {
        Self {
            index,
            client_id: format!("consumer-{}-{index}", super::GROUP_ID),
            instance_id: settings.static_membership.then(|| format!("instance-{index}")),
            alive: false,
            closed: false,
            incarnation: 0,
            member_id: None,
            generation: -1,
            phase: ClientPhase::Unjoined,
            is_leader: false,
            assigned: Vec::new(),
            previous_assignment: Vec::new(),
            needs_rejoin: false,
            join_prepare: JoinPrepare::Idle,
            positions: SortedMap::new(),
            batch: None,
            worker_queue: Vec::new(),
            worker_busy: None,
            blocked_in_poll: false,
            last_poll_ms: 0,
            last_auto_commit_ms: 0,
            paused_until_ms: 0,
            ms_per_record: settings.process_ms_per_record,
            stop_started_ms: None,
            lane: Vec::new(),
            batch_seq: 0,
            fetch_rotation: 0,
            leader_partition_count: 0,
        }
    }

    pub(super) fn span(&mut self, kind: SpanKind, from_ms: u64, to_ms: u64) {
        if kind == SpanKind::Process {
            let previous = self.lane.iter_mut().rev().find(|s| s.kind != SpanKind::Heartbeat);
            if let Some(p) =
                previous.filter(|p| p.kind == SpanKind::Process && p.to_ms + MERGE_PROCESS_GAP_MS >= from_ms)
            {
                p.to_ms = p.to_ms.max(to_ms);
                return;
            }
        }
        self.lane.push(LaneSpan { kind, from_ms, to_ms });
        if self.lane.len() > MAX_SPANS {
            self.lane.remove(0);
        }
    }

    /// Closes the newest open span of `kind` (one whose end is still unknown).
    pub(super) fn close_span(&mut self, kind: SpanKind, now_ms: u64) {
        if let Some(span) = self.lane.iter_mut().rev().find(|s| s.kind == kind && s.to_ms == u64::MAX) {
            span.to_ms = now_ms;
        }
    }

    /// Which assigned partition the next fetch starts from (Kafka rotates fetch order).
    pub(super) fn next_rotation(&mut self, count: usize) -> usize {
        self.fetch_rotation = (self.fetch_rotation + 1) % count.max(1);
        self.fetch_rotation
    }
}

fn event_target(event: &Event) -> Option<(u32, u32)> {
    match event {
        Event::ToMember { member, incarnation, .. }
        | Event::HeartbeatTick { member, incarnation }
        | Event::Poll { member, incarnation }
        | Event::BatchDone { member, incarnation, .. }
        | Event::WorkerDone { member, incarnation, .. }
        | Event::MetadataRefresh { member, incarnation } => Some((*member, *incarnation)),
        _ => None,
    }
}

impl GroupLab {
    /// EAGER unless every assignor of the member's list supports COOPERATIVE.
    pub(super) fn is_eager(&self) -> bool {
        !self.settings.strategy.is_cooperative()
    }

    pub(super) fn start_member(&mut self, index: u32, ctx: &mut GroupCtx) {
        let heartbeat_ms = self.settings.heartbeat_interval_ms;
        let refresh_ms = self.settings.metadata_max_age_ms;
        let now = ctx.now_ms();
        let first_poll_ms = ctx.random_between(0, 50);
        let m = self.member_mut(index);
        m.alive = true;
        m.closed = false;
        m.incarnation += 1;
        m.last_poll_ms = now;
        m.last_auto_commit_ms = now;
        let incarnation = m.incarnation;
        let fact = Fact::Member(MemberFact::MemberStarted {
            client_id: m.client_id.clone(),
            instance_id: m.instance_id.clone(),
        });
        ctx.record(Actor::Member(index), fact);
        ctx.schedule(first_poll_ms, Event::Poll { member: index, incarnation });
        ctx.schedule(heartbeat_ms, Event::HeartbeatTick { member: index, incarnation });
        ctx.schedule(refresh_ms, Event::MetadataRefresh { member: index, incarnation });
    }

    pub(super) fn on_member_event(&mut self, event: Event, ctx: &mut GroupCtx) {
        let Some((index, incarnation)) = event_target(&event) else { return };
        let m = self.member(index);
        if !m.alive || m.incarnation != incarnation {
            return;
        }
        if ctx.now_ms() < m.paused_until_ms {
            let wait = m.paused_until_ms - ctx.now_ms();
            ctx.schedule(wait, event);
            return;
        }
        match event {
            Event::Poll { .. } => self.on_poll(index, ctx),
            Event::HeartbeatTick { .. } => self.on_heartbeat_tick(index, ctx),
            Event::BatchDone { batch, .. } => self.on_batch_done(index, batch, ctx),
            Event::WorkerDone { batch, .. } => self.on_worker_done(index, batch, ctx),
            Event::MetadataRefresh { .. } => self.on_metadata_refresh(index, ctx),
            Event::ToMember { response, .. } => self.on_response(index, response, ctx),
            _ => {}
        }
    }

    fn on_heartbeat_tick(&mut self, index: u32, ctx: &mut GroupCtx) {
        let heartbeat_ms = self.settings.heartbeat_interval_ms;
        let max_poll_ms = self.settings.max_poll_interval_ms;
        let now = ctx.now_ms();
        let incarnation = self.member(index).incarnation;
        ctx.schedule(heartbeat_ms, Event::HeartbeatTick { member: index, incarnation });
        let m = self.member(index);
        let Some(member_id) = m.member_id.clone() else { return };
        if !matches!(m.phase, ClientPhase::Stable | ClientPhase::AwaitingSync) {
            return;
        }
        if !m.blocked_in_poll && now.saturating_sub(m.last_poll_ms) > max_poll_ms {
            self.poll_timeout_expired(index, &member_id, max_poll_ms, ctx);
            return;
        }
        let generation = m.generation;
        self.member_mut(index).span(SpanKind::Heartbeat, now, now);
        self.send_to_coordinator(index, Request::Heartbeat { member_id, generation }, ctx);
    }

    /// The heartbeat thread notices `poll()` was not called within `max.poll.interval.ms`.
    fn poll_timeout_expired(&mut self, index: u32, member_id: &str, max_poll_ms: u64, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        let dynamic = m.instance_id.is_none();
        m.member_id = None;
        m.generation = -1;
        m.phase = ClientPhase::Unjoined;
        m.needs_rejoin = true;
        m.span(SpanKind::PollTimeout, now, now);
        self.record_departure(index, now);
        ctx.record(
            Actor::Member(index),
            Fact::Member(MemberFact::PollTimeoutExpired { max_poll_interval_ms: max_poll_ms, dynamic }),
        );
        if dynamic {
            let reason = LeaveReason::PollTimeout;
            self.send_to_coordinator(index, Request::LeaveGroup { member_id: member_id.to_string(), reason }, ctx);
        }
    }

    fn on_metadata_refresh(&mut self, index: u32, ctx: &mut GroupCtx) {
        let refresh_ms = self.settings.metadata_max_age_ms;
        let partitions = self.log_end.len();
        let m = self.member_mut(index);
        let incarnation = m.incarnation;
        if m.is_leader && m.phase == ClientPhase::Stable && m.leader_partition_count != partitions {
            m.needs_rejoin = true;
            let fact = Fact::Rebalance(RebalanceFact::MetadataChanged {
                partitions: partitions as u32,
                assigned: m.leader_partition_count as u32,
            });
            ctx.record(Actor::Member(index), fact);
        }
        ctx.schedule(refresh_ms, Event::MetadataRefresh { member: index, incarnation });
    }

    /// Starts (or restarts) the join, as Kafka's `ConsumerCoordinator.onJoinPrepare`: with
    /// auto-commit on, a member still in the group commits every assigned partition first, in
    /// either protocol, and sends JoinGroup once that commit is answered. A member that was
    /// pushed out loses its partitions without committing.
    pub(super) fn start_join(&mut self, index: u32, ctx: &mut GroupCtx) {
        let m = self.member(index);
        if m.member_id.is_none() && !m.assigned.is_empty() && m.generation < 0 && m.phase == ClientPhase::Unjoined {
            let lost = std::mem::take(&mut self.member_mut(index).assigned);
            ctx.record(Actor::Member(index), Fact::Rebalance(RebalanceFact::PartitionsLost { partitions: lost }));
        }
        let m = self.member(index);
        // Kafka commits with generationIfStable(): only a member that is Stable in the group.
        let in_group = m.member_id.is_some() && m.phase == ClientPhase::Stable;
        match m.join_prepare {
            JoinPrepare::Committing => {}
            JoinPrepare::Idle if self.settings.enable_auto_commit && in_group && !m.assigned.is_empty() => {
                self.member_mut(index).join_prepare = JoinPrepare::Committing;
                self.commit_positions(index, AfterCommit::Join, ctx);
            }
            JoinPrepare::Idle | JoinPrepare::Committed => self.send_join(index, ctx),
        }
    }

    /// `onJoinPrepare`'s commit was answered (whatever the error, the join goes on): the JoinGroup
    /// goes out now if the processing thread is inside `poll()`, else at its next `poll()`.
    pub(super) fn join_prepared(&mut self, index: u32, ctx: &mut GroupCtx) {
        let m = self.member_mut(index);
        if m.join_prepare != JoinPrepare::Committing {
            return;
        }
        m.join_prepare = JoinPrepare::Committed;
        if m.blocked_in_poll || m.batch.is_none() {
            self.start_join(index, ctx);
        }
    }

    /// Kafka: the rest of `onJoinPrepare` (eager members revoke everything) and the JoinGroup.
    pub(super) fn send_join(&mut self, index: u32, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        m.join_prepare = JoinPrepare::Idle;
        if self.is_eager() && !self.member(index).assigned.is_empty() {
            let m = self.member_mut(index);
            let revoked = std::mem::take(&mut m.assigned);
            m.stop_started_ms = Some(now);
            ctx.record(
                Actor::Member(index),
                Fact::Rebalance(RebalanceFact::PartitionsRevoked { partitions: revoked, protocol: Protocol::Eager }),
            );
        }
        let sticky_eager = self.assignor() == AssignorKind::Sticky;
        let protocols = self.settings.strategy.list().to_vec();
        let session_timeout_ms = self.settings.session_timeout_ms;
        let m = self.member_mut(index);
        m.needs_rejoin = false;
        if m.phase != ClientPhase::Joining {
            m.span(SpanKind::Joining, now, u64::MAX);
        }
        m.phase = ClientPhase::Joining;
        let owned = if sticky_eager { m.previous_assignment.clone() } else { m.assigned.clone() };
        let request = Request::JoinGroup {
            member_id: m.member_id.clone(),
            instance_id: m.instance_id.clone(),
            session_timeout_ms,
            metadata: JoinMetadata { protocols, owned, generation: m.generation },
        };
        self.send_to_coordinator(index, request, ctx);
    }

    fn on_poll(&mut self, index: u32, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        let eager = self.is_eager();
        self.member_mut(index).last_poll_ms = now;
        let m = self.member(index);
        let in_rebalance = matches!(m.phase, ClientPhase::Joining | ClientPhase::AwaitingSync);
        if !in_rebalance && (m.member_id.is_none() || m.needs_rejoin || m.join_prepare == JoinPrepare::Committed) {
            self.start_join(index, ctx);
        }
        let m = self.member(index);
        let pending_revocation = m.join_prepare == JoinPrepare::Committing;
        if eager && (pending_revocation || matches!(m.phase, ClientPhase::Joining | ClientPhase::AwaitingSync)) {
            self.member_mut(index).blocked_in_poll = true;
            return;
        }
        self.maybe_auto_commit(index, ctx);
        let batch = self.fetch(index, now);
        self.after_fetch(index, batch, ctx);
    }

    fn maybe_auto_commit(&mut self, index: u32, ctx: &mut GroupCtx) {
        let interval_ms = self.settings.auto_commit_interval_ms;
        let m = self.member(index);
        if self.settings.enable_auto_commit
            && m.phase == ClientPhase::Stable
            && ctx.now_ms() >= m.last_auto_commit_ms + interval_ms
        {
            self.member_mut(index).last_auto_commit_ms = ctx.now_ms();
            self.commit_positions(index, AfterCommit::Nothing, ctx);
        }
    }

    /// Sends an OffsetCommit of the positions of every assigned partition.
    pub(super) fn commit_positions(&mut self, index: u32, then: AfterCommit, ctx: &mut GroupCtx) {
        let m = self.member(index);
        let offsets: SortedMap<u32, i64> =
            m.assigned.iter().filter_map(|p| m.positions.get(p).map(|o| (*p, *o))).collect();
        let request = Request::OffsetCommit { member_id: m.member_id.clone(), generation: m.generation, offsets, then };
        self.send_to_coordinator(index, request, ctx);
    }
}
