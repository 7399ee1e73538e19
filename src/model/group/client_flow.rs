//! The member's side of the protocol responses, fetching, processing (with poison pills and a
//! worker-thread hand-off) and committing after or before processing.

use super::{MemberFact, RebalanceFact};
use crate::model::kernel::sorted::SortedMap;

use super::assignor::{assign, AssignorKind, Subscription, TopicPartition};
use super::client::Batch;
use super::{
    AfterCommit, ClientPhase, ErrorCode, Event, Fact, GroupCtx, GroupLab, ManualCommit, MemberMetadata, OffsetReset,
    Protocol, Request, Response, SpanKind, StopSpan, TOPIC,
};
use crate::model::kernel::Actor;

impl GroupLab {
    /// `poll()`'s fetch: up to `max.poll.records` from the assigned partitions, rotating the start.
    pub(super) fn fetch(&mut self, index: u32, now_ms: u64) -> Option<Batch> {
        let max_records = self.settings.max_poll_records;
        let log_end = self.log_end.clone();
        let m = self.member_mut(index);
        if m.assigned.is_empty() {
            return None;
        }
        let count = m.assigned.len();
        let start = m.next_rotation(count);
        let mut left = max_records;
        let mut ranges = Vec::new();
        for i in 0..count {
            let p = m.assigned[(start + i) % count];
            let Some(&from) = m.positions.get(&p) else { continue };
            let take = (log_end[p as usize] - from).min(left);
            if take > 0 {
                ranges.push((p, from, from + take));
                m.positions.insert(p, from + take);
                left -= take;
            }
            if left == 0 {
                break;
            }
        }
        if ranges.is_empty() {
            return None;
        }
        m.batch_seq += 1;
        Some(Batch { seq: m.batch_seq, ranges, started_ms: now_ms, ms_per_record: m.ms_per_record })
    }

    pub(super) fn after_fetch(&mut self, index: u32, batch: Option<Batch>, ctx: &mut GroupCtx) {
        let incarnation = self.member(index).incarnation;
        let poll_timeout_ms = self.settings.poll_timeout_ms;
        let Some(batch) = batch else {
            ctx.schedule(poll_timeout_ms, Event::Poll { member: index, incarnation });
            return;
        };
        if self.settings.handoff_to_worker_thread {
            self.member_mut(index).worker_queue.push(batch);
            self.start_worker(index, ctx);
            ctx.schedule(poll_timeout_ms, Event::Poll { member: index, incarnation });
            return;
        }
        let manual_before =
            !self.settings.enable_auto_commit && self.settings.manual_commit == ManualCommit::BeforeProcessing;
        if manual_before {
            self.commit_positions(index, AfterCommit::Nothing, ctx);
        }
        let (seq, duration) = (batch.seq, batch.duration_ms());
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        m.span(SpanKind::Process, now, now + duration);
        m.batch = Some(batch);
        ctx.schedule(duration, Event::BatchDone { member: index, incarnation, batch: seq });
    }

    fn start_worker(&mut self, index: u32, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        if m.worker_busy.is_some() || m.worker_queue.is_empty() {
            return;
        }
        let mut batch = m.worker_queue.remove(0);
        batch.started_ms = now;
        let (seq, duration) = (batch.seq, batch.duration_ms());
        m.span(SpanKind::Process, now, now + duration);
        m.worker_busy = Some(batch);
        let incarnation = m.incarnation;
        ctx.schedule(duration, Event::WorkerDone { member: index, incarnation, batch: seq });
    }

    pub(super) fn on_worker_done(&mut self, index: u32, seq: u64, ctx: &mut GroupCtx) {
        let m = self.member_mut(index);
        let Some(batch) = m.worker_busy.take().filter(|b| b.seq == seq) else { return };
        self.process_batch(index, &batch, None, ctx);
        self.start_worker(index, ctx);
    }

    pub(super) fn on_batch_done(&mut self, index: u32, seq: u64, ctx: &mut GroupCtx) {
        let Some(batch) = self.member_mut(index).batch.take().filter(|b| b.seq == seq) else { return };
        self.process_batch(index, &batch, None, ctx);
        let incarnation = self.member(index).incarnation;
        let manual_after =
            !self.settings.enable_auto_commit && self.settings.manual_commit == ManualCommit::AfterProcessing;
        if manual_after {
            self.commit_positions(index, AfterCommit::Poll, ctx);
        } else {
            ctx.schedule(0, Event::Poll { member: index, incarnation });
        }
    }

    /// Applies a batch's side effects to the ledger; `limit` processes only the first records
    /// (a crash mid-batch). A poison pill fails, and the error handler seeks back to it.
    pub(super) fn process_batch(&mut self, index: u32, batch: &Batch, limit: Option<u64>, ctx: &mut GroupCtx) {
        let mut budget = limit.unwrap_or(u64::MAX);
        for &(p, from, to) in &batch.ranges {
            let pill = self.poison.get(&p).copied().filter(|o| (from..to).contains(o));
            let end = pill.unwrap_or(to).min(from.saturating_add(budget.min(i64::MAX as u64) as i64));
            let processed = self.ledger.process(p, from, end);
            self.record_ledger(index, p, processed, ctx);
            budget = budget.saturating_sub((end - from) as u64);
            if let (Some(offset), None) = (pill, limit) {
                self.member_mut(index).positions.insert(p, offset);
                ctx.record(Actor::Member(index), Fact::Member(MemberFact::PoisonPillFailed { partition: p, offset }));
            }
        }
    }

    /// Offsets of `partition` that live members have fetched but not processed yet.
    fn pending_ranges(&self, partition: u32) -> Vec<(i64, i64)> {
        let live = self.members.iter().filter(|m| m.alive);
        let batches = live.flat_map(|m| m.batch.iter().chain(m.worker_busy.iter()).chain(m.worker_queue.iter()));
        batches.flat_map(|b| b.ranges.iter()).filter(|r| r.0 == partition).map(|&(_, from, to)| (from, to)).collect()
    }

    /// Reports what the ledger saw in one processed range: offsets skipped for good, offsets repeated.
    fn record_ledger(&self, index: u32, partition: u32, processed: super::Processed, ctx: &mut GroupCtx) {
        if let Some((from, to)) = processed.lost {
            ctx.record(Actor::Member(index), Fact::Member(MemberFact::RecordsLost { partition, from, to }));
        }
        if let Some((from, to)) = processed.repeated {
            ctx.record(Actor::Member(index), Fact::Member(MemberFact::RecordsReprocessed { partition, from, to }));
        }
    }

    pub(super) fn on_response(&mut self, index: u32, response: Response, ctx: &mut GroupCtx) {
        match response {
            Response::Join { error, member_id, generation, protocol, leader, members } => {
                let assignor = protocol.unwrap_or_else(|| self.settings.strategy.preferred());
                self.on_join_response(index, error, member_id, (generation, assignor), &leader, members, ctx)
            }
            Response::Sync { error, assignment } => self.on_sync_response(index, error, assignment, ctx),
            Response::Heartbeat { error } => self.on_heartbeat_response(index, error, ctx),
            Response::Commit { error, then, .. } => {
                if error != ErrorCode::None {
                    // Before a join the failure is only logged: the join goes on.
                    if then != AfterCommit::Join {
                        self.member_mut(index).needs_rejoin = true;
                    }
                    ctx.record(Actor::Member(index), Fact::Member(MemberFact::CommitFailed { error }));
                }
                match then {
                    AfterCommit::Nothing => {}
                    AfterCommit::Poll => {
                        let incarnation = self.member(index).incarnation;
                        ctx.schedule(0, Event::Poll { member: index, incarnation });
                    }
                    AfterCommit::Join => self.join_prepared(index, ctx),
                }
            }
        }
    }

    /// Kafka: `AbstractCoordinator.JoinGroupResponseHandler`.
    #[allow(clippy::too_many_arguments)]
    fn on_join_response(
        &mut self,
        index: u32,
        error: ErrorCode,
        member_id: String,
        (generation, assignor): (i32, AssignorKind),
        leader: &str,
        members: Vec<MemberMetadata>,
        ctx: &mut GroupCtx,
    ) {
        if self.member(index).phase != ClientPhase::Joining {
            return;
        }
        match error {
            ErrorCode::None => {}
            // KIP-394: keep the id the coordinator gave and rejoin with it right away.
            ErrorCode::MemberIdRequired => {
                let m = self.member_mut(index);
                m.member_id = Some(member_id);
                m.generation = -1;
                return self.send_join(index, ctx);
            }
            ErrorCode::InvalidSessionTimeout => return self.stop_on_fatal_error(index, error, ctx),
            _ => {
                let m = self.member_mut(index);
                m.member_id = None;
                m.generation = -1;
                return self.send_join(index, ctx);
            }
        }
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        m.close_span(SpanKind::Joining, now);
        m.span(SpanKind::AwaitingSync, now, u64::MAX);
        m.member_id = Some(member_id.clone());
        m.generation = generation;
        m.phase = ClientPhase::AwaitingSync;
        m.is_leader = leader == member_id;
        let assignments = if m.is_leader && !members.is_empty() {
            Some(self.run_assignor(index, generation, assignor, &members, ctx))
        } else {
            None
        };
        self.send_to_coordinator(index, Request::SyncGroup { member_id, generation, assignments }, ctx);
    }

    /// The leader runs `partition.assignment.strategy` over every member's subscription.
    fn run_assignor(
        &mut self,
        index: u32,
        generation: i32,
        assignor: AssignorKind,
        members: &[MemberMetadata],
        ctx: &mut GroupCtx,
    ) -> SortedMap<String, Vec<u32>> {
        let partitions = self.log_end.len();
        let subscriptions: Vec<Subscription> = members
            .iter()
            .map(|m| Subscription {
                member_id: m.member_id.clone(),
                group_instance_id: m.instance_id.clone(),
                topics: vec![TOPIC.to_string()],
                owned: m.owned.iter().map(|p| TopicPartition::new(TOPIC, *p)).collect(),
                generation: m.generation,
            })
            .collect();
        let per_topic = crate::model::kernel::sorted::SortedMap::from([(TOPIC.to_string(), partitions as u32)]);
        let result: SortedMap<String, Vec<u32>> = assign(assignor, &per_topic, &subscriptions)
            .into_iter()
            .map(|(id, tps)| (id, tps.into_iter().map(|tp| tp.partition).collect()))
            .collect();
        self.member_mut(index).leader_partition_count = partitions;
        ctx.record(
            Actor::Member(index),
            Fact::Rebalance(RebalanceFact::AssignmentComputed { generation, assignor, assignment: result.clone() }),
        );
        result
    }

    fn on_sync_response(&mut self, index: u32, error: ErrorCode, assignment: Vec<u32>, ctx: &mut GroupCtx) {
        if self.member(index).phase != ClientPhase::AwaitingSync {
            return;
        }
        let now = ctx.now_ms();
        if error != ErrorCode::None {
            let m = self.member_mut(index);
            m.close_span(SpanKind::AwaitingSync, now);
            if error != ErrorCode::RebalanceInProgress {
                m.member_id = None;
                m.generation = -1;
            }
            m.phase = ClientPhase::Unjoined;
            self.start_join(index, ctx);
            return;
        }
        let eager = self.is_eager();
        if !eager {
            let revoked: Vec<u32> =
                self.member(index).assigned.iter().copied().filter(|p| !assignment.contains(p)).collect();
            // Kafka: onJoinComplete revokes without committing (the commit was onJoinPrepare's).
            if !revoked.is_empty() {
                let m = self.member_mut(index);
                m.assigned.retain(|p| !revoked.contains(p));
                m.needs_rejoin = true;
                let fact = Fact::Rebalance(RebalanceFact::PartitionsRevoked {
                    partitions: revoked,
                    protocol: Protocol::Cooperative,
                });
                ctx.record(Actor::Member(index), fact);
            }
        }
        let added: Vec<u32> = assignment.iter().copied().filter(|p| !self.member(index).assigned.contains(p)).collect();
        for &p in &added {
            self.init_position(index, p, ctx);
        }
        let m = self.member_mut(index);
        m.assigned.extend(added.iter().copied());
        crate::model::kernel::order::sort(&mut m.assigned);
        m.previous_assignment = assignment.clone();
        m.phase = ClientPhase::Stable;
        m.close_span(SpanKind::AwaitingSync, now);
        ctx.record(
            Actor::Member(index),
            Fact::Rebalance(RebalanceFact::PartitionsAssigned { partitions: added, generation: m.generation }),
        );
        if let Some(from_ms) = m.stop_started_ms.take() {
            let stop = StopSpan { member: index, from_ms, to_ms: now, generation: m.generation };
            self.stops.push(stop);
        }
        let m = self.member_mut(index);
        if m.blocked_in_poll {
            m.blocked_in_poll = false;
            let incarnation = m.incarnation;
            ctx.schedule(0, Event::Poll { member: index, incarnation });
        }
    }

    /// Position of a newly assigned partition: its committed offset, else `auto.offset.reset`.
    fn init_position(&mut self, index: u32, partition: u32, ctx: &mut GroupCtx) {
        let position = match self.coordinator.committed(partition) {
            Some(offset) => {
                let pending = self.pending_ranges(partition);
                for lost in self.ledger.start_from_committed(partition, offset, &pending) {
                    self.record_ledger(index, partition, super::Processed { lost: Some(lost), repeated: None }, ctx);
                }
                offset
            }
            None if self.settings.auto_offset_reset == OffsetReset::Earliest => 0,
            None => {
                let end = self.log_end[partition as usize];
                self.ledger.skip_by_reset(partition, end);
                ctx.record(Actor::Member(index), Fact::Member(MemberFact::ResetToLatest { partition, offset: end }));
                end
            }
        };
        self.member_mut(index).positions.insert(partition, position);
    }

    fn on_heartbeat_response(&mut self, index: u32, error: ErrorCode, ctx: &mut GroupCtx) {
        let m = self.member_mut(index);
        match error {
            ErrorCode::None | ErrorCode::MemberIdRequired | ErrorCode::InvalidSessionTimeout => {}
            ErrorCode::RebalanceInProgress => {
                if m.phase == ClientPhase::Stable && !m.needs_rejoin {
                    m.needs_rejoin = true;
                    ctx.record(Actor::Member(index), Fact::Rebalance(RebalanceFact::RebalanceNoticed));
                }
            }
            ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration => {
                if matches!(m.phase, ClientPhase::Stable | ClientPhase::AwaitingSync) {
                    ctx.record(Actor::Member(index), Fact::Rebalance(RebalanceFact::HeartbeatRejected { error }));
                    m.member_id = None;
                    m.generation = -1;
                    m.phase = ClientPhase::Unjoined;
                    m.needs_rejoin = true;
                }
            }
        }
    }
}
