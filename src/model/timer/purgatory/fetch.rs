//! Fetches in the purgatory model: followers' fetches (replica.fetch.wait.max.ms,
//! replica.fetch.min.bytes), the consumer's (fetch.max.wait.ms, fetch.min.bytes), and the
//! ISR bookkeeping they drive (replica.lag.time.max.ms, broker.session.timeout.ms).

use super::{record, ParkedFetch, Purgatory, LEADER, RECORD_BYTES};
use crate::model::kernel::Actor;
use crate::model::timer::tasks::Tasks;
use crate::model::timer::{Event, Fetcher, PurgatoryFact, TaskOrigin, TimerCtx};

impl Purgatory {
    /// The leader gets a follower's fetch: it learns the follower's offset, may move the ISR
    /// and HW, then answers at once if enough bytes are there, else parks a `DelayedFetch`.
    pub(super) fn on_follower_fetch(
        &mut self,
        replica: u32,
        incarnation: u32,
        fetch_offset: u64,
        tasks: &mut Tasks,
        ctx: &mut TimerCtx,
    ) {
        let (now_ms, leader_leo) = (ctx.now_ms(), self.log_end_offset);
        let follower = self.follower_mut(replica);
        if !follower.fetching() || follower.incarnation != incarnation {
            return;
        }
        // Kafka's lastCaughtUpTimeMs rules: caught up now, or as of the previous fetch.
        if fetch_offset >= leader_leo {
            follower.last_caught_up_ms = follower.last_caught_up_ms.max(now_ms);
        } else if fetch_offset >= follower.last_fetch_leader_leo {
            follower.last_caught_up_ms = follower.last_caught_up_ms.max(follower.last_fetch_ms);
        }
        follower.last_fetch_leader_leo = leader_leo;
        follower.last_fetch_ms = now_ms;
        follower.fetched_offset = fetch_offset;
        self.maybe_expand_isr(replica, ctx);
        self.advance_high_watermark(tasks, ctx);
        let available_bytes = (leader_leo - fetch_offset) * RECORD_BYTES;
        if available_bytes >= self.replica_min_bytes {
            self.respond_to_follower(replica, incarnation, ctx);
            return;
        }
        let origin = TaskOrigin::DelayedFetch { fetcher: Fetcher::Follower(replica), fetch_offset };
        let (task, parked) = tasks.schedule(self.replica_wait_ms, origin, ctx);
        if parked {
            self.follower_mut(replica).parked = Some(ParkedFetch { task, fetch_offset, incarnation });
        } else {
            self.respond_to_follower(replica, incarnation, ctx);
        }
    }

    fn respond_to_follower(&mut self, replica: u32, incarnation: u32, ctx: &mut TimerCtx) {
        let event = Event::FollowerResponse { replica, incarnation, up_to_offset: self.log_end_offset };
        ctx.schedule(self.network_ms, event);
    }

    /// New records: parked follower fetches that now have enough bytes complete early.
    pub(super) fn wake_follower_fetches(&mut self, tasks: &mut Tasks, ctx: &mut TimerCtx) {
        for index in 0..self.followers.len() {
            let Some(parked) = self.followers[index].parked else {
                continue;
            };
            let available_bytes = (self.log_end_offset - parked.fetch_offset) * RECORD_BYTES;
            if available_bytes < self.replica_min_bytes.max(1) {
                continue;
            }
            let replica = self.followers[index].id;
            self.followers[index].parked = None;
            let min_bytes = self.replica_min_bytes;
            let fact = PurgatoryFact::FollowerFetchCompletedEarly { replica, available_bytes, min_bytes };
            record(ctx, Actor::Broker(LEADER), fact);
            tasks.cancel(parked.task, ctx);
            self.respond_to_follower(replica, parked.incarnation, ctx);
        }
    }

    pub(super) fn expire_follower_fetch(&mut self, replica: u32, task: u64, ctx: &mut TimerCtx) {
        let follower = self.follower_mut(replica);
        match follower.parked.filter(|parked| parked.task == task) {
            Some(parked) => {
                follower.parked = None;
                let fact = PurgatoryFact::FollowerFetchExpired { replica, wait_ms: self.replica_wait_ms };
                record(ctx, Actor::Broker(LEADER), fact);
                self.respond_to_follower(replica, parked.incarnation, ctx);
            }
            None => record(ctx, Actor::Broker(LEADER), PurgatoryFact::StaleFollowerFetchExpired { replica }),
        }
    }

    pub(super) fn on_follower_response(
        &mut self,
        replica: u32,
        incarnation: u32,
        up_to_offset: u64,
        ctx: &mut TimerCtx,
    ) {
        let network_ms = self.network_ms;
        let follower = self.follower_mut(replica);
        if !follower.fetching() || follower.incarnation != incarnation {
            return;
        }
        if up_to_offset > follower.log_end_offset {
            let fact =
                PurgatoryFact::FollowerFetched { first_offset: follower.log_end_offset, last_offset: up_to_offset - 1 };
            follower.log_end_offset = up_to_offset;
            record(ctx, Actor::Broker(replica), fact);
        }
        let event = Event::FollowerFetch { replica, incarnation, fetch_offset: follower.log_end_offset };
        ctx.schedule(network_ms, event);
    }

    /// A follower at or past the HW rejoins the ISR.
    fn maybe_expand_isr(&mut self, replica: u32, ctx: &mut TimerCtx) {
        let follower = self.follower(replica);
        if self.isr.contains(&replica) || follower.fenced || follower.fetched_offset < self.high_watermark {
            return;
        }
        let before = self.isr.clone();
        self.isr.push(replica);
        crate::model::kernel::order::sort(&mut self.isr);
        let fact = PurgatoryFact::IsrExpanded { replica, before, after: self.isr.clone() };
        record(ctx, Actor::Broker(LEADER), fact);
    }

    /// The leader's isr-expiration check: followers behind for more than replica.lag.time.max.ms leave the ISR.
    pub(super) fn shrink_isr(&mut self, tasks: &mut Tasks, ctx: &mut TimerCtx) {
        let now_ms = ctx.now_ms();
        let lagging: Vec<u32> = self
            .followers
            .iter()
            .filter(|f| self.isr.contains(&f.id))
            .filter(|f| f.fetched_offset < self.log_end_offset && now_ms - f.last_caught_up_ms > self.lag_max_ms)
            .map(|f| f.id)
            .collect();
        for replica in lagging {
            let before = self.isr.clone();
            self.isr.retain(|id| *id != replica);
            let caught_up_ms = self.follower(replica).last_caught_up_ms;
            let fact = PurgatoryFact::IsrShrunk {
                replica,
                before,
                after: self.isr.clone(),
                caught_up_ms,
                lag_max_ms: self.lag_max_ms,
            };
            record(ctx, Actor::Broker(LEADER), fact);
        }
        self.advance_high_watermark(tasks, ctx);
    }

    /// The controller fences a crashed broker whose heartbeats stopped (KRaft) and drops it from the ISR.
    pub(super) fn session_expired(&mut self, replica: u32, incarnation: u32, tasks: &mut Tasks, ctx: &mut TimerCtx) {
        let follower = self.follower_mut(replica);
        if follower.alive || follower.incarnation != incarnation {
            return;
        }
        follower.fenced = true;
        let before = self.isr.clone();
        self.isr.retain(|id| *id != replica);
        let fact = PurgatoryFact::BrokerFenced {
            replica,
            timeout_ms: self.session_timeout_ms,
            before,
            after: self.isr.clone(),
        };
        record(ctx, Actor::Controller, fact);
        self.advance_high_watermark(tasks, ctx);
    }

    /// The consumer reads only up to the HW; too few bytes parks a `DelayedFetch`.
    pub(super) fn on_consumer_fetch(&mut self, fetch_offset: u64, tasks: &mut Tasks, ctx: &mut TimerCtx) {
        let available_bytes = (self.high_watermark - fetch_offset) * RECORD_BYTES;
        if available_bytes >= self.consumer_min_bytes {
            ctx.schedule(self.network_ms, Event::ConsumerResponse { up_to_offset: self.high_watermark });
            return;
        }
        let origin = TaskOrigin::DelayedFetch { fetcher: Fetcher::Consumer, fetch_offset };
        let (task, parked) = tasks.schedule(self.consumer_wait_ms, origin, ctx);
        if parked {
            self.consumer_parked = Some(ParkedFetch { task, fetch_offset, incarnation: 0 });
        } else {
            ctx.schedule(self.network_ms, Event::ConsumerResponse { up_to_offset: self.high_watermark });
        }
    }

    /// The HW moved: a parked consumer fetch with enough bytes completes early.
    pub(super) fn wake_consumer_fetch(&mut self, tasks: &mut Tasks, ctx: &mut TimerCtx) {
        let Some(parked) = self.consumer_parked else {
            return;
        };
        let available_bytes = (self.high_watermark - parked.fetch_offset) * RECORD_BYTES;
        if available_bytes < self.consumer_min_bytes.max(1) {
            return;
        }
        self.consumer_parked = None;
        let fact = PurgatoryFact::ConsumerFetchCompletedEarly { available_bytes, min_bytes: self.consumer_min_bytes };
        record(ctx, Actor::Broker(LEADER), fact);
        tasks.cancel(parked.task, ctx);
        ctx.schedule(self.network_ms, Event::ConsumerResponse { up_to_offset: self.high_watermark });
    }

    pub(super) fn expire_consumer_fetch(&mut self, task: u64, ctx: &mut TimerCtx) {
        if self.consumer_parked.is_some_and(|parked| parked.task == task) {
            self.consumer_parked = None;
            record(ctx, Actor::Broker(LEADER), PurgatoryFact::ConsumerFetchExpired { wait_ms: self.consumer_wait_ms });
            ctx.schedule(self.network_ms, Event::ConsumerResponse { up_to_offset: self.high_watermark });
        }
    }

    pub(super) fn on_consumer_response(&mut self, up_to_offset: u64, ctx: &mut TimerCtx) {
        if up_to_offset > self.consumer_offset {
            let fact =
                PurgatoryFact::ConsumerReceived { first_offset: self.consumer_offset, last_offset: up_to_offset - 1 };
            record(ctx, Actor::Consumer(None), fact);
            self.consumer_offset = up_to_offset;
        }
        ctx.schedule(self.network_ms, Event::ConsumerFetch { fetch_offset: self.consumer_offset });
    }
}
