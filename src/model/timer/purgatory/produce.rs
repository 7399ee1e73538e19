//! The produce purgatory (`DelayedProduce` for acks=all) and the high watermark it waits on.

use super::{record, Purgatory, WaitingProduce, LEADER, MAX_PRODUCE_RECORDS};
use crate::model::kernel::Actor;
use crate::model::timer::tasks::Tasks;
use crate::model::timer::{PurgatoryFact, Refusal, TaskOrigin, TimerCtx};

impl Purgatory {
    /// Why a produce request of `records` records is refused, if it is.
    pub(in crate::model::timer) fn produce_refusal(&self, records: u32) -> Option<Refusal> {
        (records == 0 || records > MAX_PRODUCE_RECORDS).then_some(Refusal::ProduceCount { records })
    }

    /// The producer's request: the leader appends, then acks=all waits in the produce purgatory.
    pub(in crate::model::timer) fn produce(&mut self, records: u32, tasks: &mut Tasks, ctx: &mut TimerCtx) {
        debug_assert!(self.produce_refusal(records).is_none());
        let request = self.next_request;
        self.next_request += 1;
        let first_offset = self.log_end_offset;
        self.log_end_offset += u64::from(records);
        let required_offset = self.log_end_offset;
        let appended = PurgatoryFact::Appended {
            request,
            first_offset,
            last_offset: required_offset - 1,
            log_end_offset: required_offset,
        };
        record(ctx, Actor::Broker(LEADER), appended);
        self.wake_follower_fetches(tasks, ctx);
        self.advance_high_watermark(tasks, ctx);
        if !self.acks_all {
            record(ctx, Actor::Broker(LEADER), PurgatoryFact::AcknowledgedAtOnce { request });
            return;
        }
        if self.high_watermark >= required_offset {
            self.completed += 1;
            record(ctx, Actor::Broker(LEADER), PurgatoryFact::AlreadySatisfied { request, isr: self.isr.clone() });
            return;
        }
        let origin = TaskOrigin::DelayedProduce { request, required_offset };
        let (task, parked) = tasks.schedule(self.request_timeout_ms, origin, ctx);
        let waits = PurgatoryFact::ProduceParked { request, required_offset, timeout_ms: self.request_timeout_ms };
        record(ctx, Actor::Broker(LEADER), waits);
        self.produces.push(WaitingProduce { request, required_offset, task, sent_ms: ctx.now_ms() });
        if !parked {
            self.expire_produce(request, task, ctx);
        }
    }

    pub(super) fn expire_produce(&mut self, request: u64, task: u64, ctx: &mut TimerCtx) {
        let Some(position) = self.produces.iter().position(|p| p.request == request && p.task == task) else {
            return;
        };
        let waiting = self.produces.remove(position);
        self.expired += 1;
        let fact = PurgatoryFact::ProduceExpired {
            request,
            waited_ms: ctx.now_ms() - waiting.sent_ms,
            high_watermark: self.high_watermark,
            required_offset: waiting.required_offset,
        };
        record(ctx, Actor::Broker(LEADER), fact);
    }

    /// The HW is the smallest log end offset in the ISR; produces it passes complete.
    pub(super) fn advance_high_watermark(&mut self, tasks: &mut Tasks, ctx: &mut TimerCtx) {
        let new_hw = self
            .isr
            .iter()
            .map(|&id| if id == LEADER { self.log_end_offset } else { self.follower(id).fetched_offset })
            .min()
            .unwrap_or(self.log_end_offset);
        if new_hw <= self.high_watermark {
            return;
        }
        let moved = PurgatoryFact::HighWatermarkMoved { from: self.high_watermark, to: new_hw, isr: self.isr.clone() };
        record(ctx, Actor::Broker(LEADER), moved);
        self.high_watermark = new_hw;
        debug_assert!(self.high_watermark <= self.log_end_offset, "HW must not pass the LEO");
        let (done, still): (Vec<_>, Vec<_>) = self.produces.iter().partition(|p| p.required_offset <= new_hw);
        self.produces = still;
        for waiting in done {
            self.completed += 1;
            let waited_ms = ctx.now_ms() - waiting.sent_ms;
            let fact = PurgatoryFact::ProduceCompleted { request: waiting.request, waited_ms, high_watermark: new_hw };
            record(ctx, Actor::Broker(LEADER), fact);
            tasks.cancel(waiting.task, ctx);
        }
        self.wake_consumer_fetch(tasks, ctx);
    }
}
