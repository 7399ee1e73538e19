//! The scene's commands once checked: crash, restart, pause, slow down, poison, add/close
//! members, grow the topic.

use super::client::Member;
use super::{ClientPhase, Event, Fact, GroupCtx, GroupLab, LeaveReason, Request, SpanKind};
use super::{MemberFact, TopicFact};
use crate::model::kernel::Actor;

impl GroupLab {
    pub(super) fn kill(&mut self, index: u32, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        let mut held = Vec::new();
        for batch in
            [self.member_mut(index).batch.take(), self.member_mut(index).worker_busy.take()].into_iter().flatten()
        {
            let done = now.saturating_sub(batch.started_ms) / batch.ms_per_record.max(1);
            self.process_batch(index, &batch, Some(done), ctx);
            held.extend(batch.ranges);
        }
        held.extend(self.member(index).worker_queue.iter().flat_map(|b| b.ranges.iter().copied()));
        // What the dead process held unprocessed and another owner already skipped is gone now.
        for (partition, from, to) in held {
            for (from, to) in self.ledger.abandon(partition, from, to) {
                ctx.record(Actor::Member(index), Fact::Member(MemberFact::RecordsLost { partition, from, to }));
            }
        }
        let incarnation = self.member(index).incarnation;
        ctx.cancel_where(|e| matches!(e, Event::Poll { member, incarnation: i } | Event::HeartbeatTick { member, incarnation: i } if *member == index && *i == incarnation));
        let m = self.member_mut(index);
        m.alive = false;
        m.span(SpanKind::Dead, now, u64::MAX);
        ctx.record(Actor::Member(index), Fact::Member(MemberFact::MemberCrashed));
    }

    /// A fatal JoinGroup error (Kafka raises it from `poll()`): the consumer's loop ends.
    pub(super) fn stop_on_fatal_error(&mut self, index: u32, error: super::ErrorCode, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        m.close_span(SpanKind::Joining, now);
        m.alive = false;
        m.span(SpanKind::Dead, now, u64::MAX);
        ctx.record(Actor::Member(index), Fact::Member(MemberFact::JoinFailed { error }));
    }

    fn reset_client(m: &mut Member) {
        m.member_id = None;
        m.generation = -1;
        m.phase = ClientPhase::Unjoined;
        m.is_leader = false;
        m.assigned.clear();
        m.previous_assignment.clear();
        m.positions.clear();
        m.needs_rejoin = false;
        m.join_prepare = super::client::JoinPrepare::Idle;
        m.batch = None;
        m.worker_queue.clear();
        m.worker_busy = None;
        m.blocked_in_poll = false;
        m.stop_started_ms = None;
        m.paused_until_ms = 0;
    }

    pub(super) fn restart(&mut self, index: u32, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        m.close_span(SpanKind::Dead, now);
        Self::reset_client(m);
        self.start_member(index, ctx);
    }

    pub(super) fn pause(&mut self, index: u32, duration_ms: u64, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        m.paused_until_ms = m.paused_until_ms.max(now) + duration_ms;
        m.span(SpanKind::Paused, now, m.paused_until_ms);
        let incarnation = m.incarnation;
        // Work in progress resumes after the pause: shift its completion by the pause.
        for batch in [m.batch.as_mut(), m.worker_busy.as_mut()].into_iter().flatten() {
            batch.started_ms += duration_ms;
        }
        let shifted: Vec<(u64, Event)> =
            [m.batch.as_ref().map(|b| (b, true)), m.worker_busy.as_ref().map(|b| (b, false))]
                .into_iter()
                .flatten()
                .map(|(b, foreground)| {
                    let at = b.started_ms + b.duration_ms();
                    let event = if foreground {
                        Event::BatchDone { member: index, incarnation, batch: b.seq }
                    } else {
                        Event::WorkerDone { member: index, incarnation, batch: b.seq }
                    };
                    (at, event)
                })
                .collect();
        ctx.cancel_where(
            |e| matches!(e, Event::BatchDone { member, .. } | Event::WorkerDone { member, .. } if *member == index),
        );
        for (at, event) in shifted {
            ctx.schedule(at.saturating_sub(now), event);
        }
        ctx.record(Actor::Member(index), Fact::Member(MemberFact::MemberPaused { duration_ms }));
    }

    pub(super) fn slow(&mut self, index: u32, ms_per_record: u64, ctx: &mut GroupCtx) {
        self.member_mut(index).ms_per_record = ms_per_record;
        ctx.record(Actor::Member(index), Fact::Member(MemberFact::ProcessingTimeSet { ms_per_record }));
    }

    pub(super) fn poison(&mut self, partition: u32, ctx: &mut GroupCtx) {
        let offset = self.log_end[partition as usize];
        self.log_end[partition as usize] += 1;
        self.poison.insert(partition, offset);
        ctx.record(Actor::Producer, Fact::Topic(TopicFact::PoisonPillAppended { partition, offset }));
    }

    pub(super) fn add_members(&mut self, count: u32, ctx: &mut GroupCtx) {
        for _ in 0..count {
            let index = self.members.len() as u32 + 1;
            self.members.push(Member::new(index, &self.settings));
            self.start_member(index, ctx);
        }
    }

    /// `consumer.close()`: commits if auto-commit is on, and a dynamic member sends LeaveGroup
    /// (a static member does not, so its partitions wait for `session.timeout.ms`).
    pub(super) fn close(&mut self, index: u32, ctx: &mut GroupCtx) {
        let now = ctx.now_ms();
        if self.settings.enable_auto_commit && self.member(index).member_id.is_some() {
            self.commit_positions(index, super::AfterCommit::Nothing, ctx);
        }
        let m = self.member(index);
        if let (Some(member_id), None) = (m.member_id.clone(), &m.instance_id) {
            self.send_to_coordinator(index, Request::LeaveGroup { member_id, reason: LeaveReason::Closed }, ctx);
        }
        let m = self.member_mut(index);
        m.alive = false;
        m.closed = true;
        m.span(SpanKind::Dead, now, u64::MAX);
        ctx.record(Actor::Member(index), Fact::Member(MemberFact::MemberClosed));
    }

    pub(super) fn grow(&mut self, count: u32, ctx: &mut GroupCtx) {
        let current = self.log_end.len() as u32;
        self.log_end.resize(count as usize, 0);
        self.ledger.grow(count as usize);
        self.lag_history.resize(count as usize, Vec::new());
        ctx.record(Actor::Controller, Fact::Topic(TopicFact::PartitionsGrown { from: current, to: count }));
    }
}
