//! The follower fetcher (`ReplicaFetcherThread` / `AbstractFetcherThread`) and the leader's
//! side of replication (`ReplicaManager.fetchMessages`, fetch purgatory, `isr-expiration`).

use super::facts::{IsrDirection, TruncationCause};
use super::log::EpochEndOffset;
use super::partition::{FetchRequest, FetchResponse, PartitionError, Role};
use super::roles::{FollowerRequest, Truncation};
use super::truncation::TruncationStep;
use super::{DelayedFetch, Event, Fact, Node, RepCtx, Replication};
use crate::model::kernel::Actor;

impl Replication {
    /// Restarts a broker's fetcher: new session (older responses are ignored), wake up now.
    pub(super) fn restart_fetcher(&mut self, follower: u32, ctx: &mut RepCtx) {
        let broker = self.broker_mut(follower);
        broker.fetch_session += 1;
        broker.awaiting_fetch = false;
        let session = broker.fetch_session;
        let delay_ms = broker.slow_fetch_delay_ms;
        ctx.schedule(delay_ms, Event::FetcherWakeup { follower, session });
    }

    fn schedule_next_fetch(&mut self, follower: u32, backoff_ms: u64, ctx: &mut RepCtx) {
        let broker = self.broker(follower);
        let session = broker.fetch_session;
        ctx.schedule(backoff_ms + broker.slow_fetch_delay_ms, Event::FetcherWakeup { follower, session });
    }

    pub(super) fn fetcher_wakeup(&mut self, follower: u32, session: u64, ctx: &mut RepCtx) {
        if session != self.broker(follower).fetch_session || self.broker(follower).awaiting_fetch {
            return;
        }
        let Some((leader, request)) = self.partition.next_request(follower) else {
            return;
        };
        let now_ms = ctx.now_ms();
        let request_id = self.broker(follower).fetch_attempt + 1;
        self.broker_mut(follower).fetch_attempt = request_id;
        let event = match request {
            FollowerRequest::Fetch(request) => Event::FetchArrives { leader, request, request_id, sent_ms: now_ms },
            FollowerRequest::OffsetsForLeaderEpoch { leader_epoch, current_leader_epoch, .. } => {
                Event::EpochRequestArrives {
                    leader,
                    follower,
                    leader_epoch,
                    current_leader_epoch,
                    request_id,
                    sent_ms: now_ms,
                }
            }
        };
        if !self.send(Node::Id(follower), Node::Id(leader), event, ctx) {
            let backoff_ms = self.settings.replica_fetch_backoff_ms;
            if !std::mem::replace(&mut self.broker_mut(follower).fetch_refused, true) {
                ctx.record(Actor::Broker(follower), Fact::FetchConnectionRefused { leader, backoff_ms });
            }
            self.schedule_next_fetch(follower, backoff_ms, ctx);
            return;
        }
        let broker = self.broker_mut(follower);
        broker.fetch_refused = false;
        broker.awaiting_fetch = true;
        ctx.schedule(self.settings.replica_socket_timeout_ms, Event::FetchTimedOut { follower, request_id });
    }

    /// Whether an answer (or timeout) is for the follower's one outstanding request.
    fn is_current(&self, follower: u32, request_id: u64) -> bool {
        let broker = self.broker(follower);
        broker.awaiting_fetch && broker.fetch_attempt == request_id
    }

    pub(super) fn on_fetch_timeout(&mut self, follower: u32, request_id: u64, ctx: &mut RepCtx) {
        if !self.is_current(follower, request_id) {
            return;
        }
        self.broker_mut(follower).awaiting_fetch = false;
        let timeout_ms = self.settings.replica_socket_timeout_ms;
        ctx.record(Actor::Broker(follower), Fact::FetchTimedOut { timeout_ms });
        self.schedule_next_fetch(follower, self.settings.replica_fetch_backoff_ms, ctx);
    }

    /// The leader receives a fetch: updates the follower's state, maybe the HW and the ISR,
    /// then answers now or parks the fetch until data arrives or the wait runs out.
    pub(super) fn on_fetch(&mut self, leader: u32, request: FetchRequest, request_id: u64, ctx: &mut RepCtx) {
        let hw_before = self.partition.hw(leader);
        let response = self.partition.handle_fetch(leader, request, ctx.now_ms());
        if let Some(isr) = self.partition.isr_expansion(leader, request.follower) {
            self.try_alter_isr(leader, isr, ctx);
        }
        if self.partition.hw(leader) > hw_before {
            self.complete_delayed_produces(leader, ctx);
        }
        let nothing_new = matches!(&response, FetchResponse::Records { records, .. } if records.is_empty());
        let wait_ms = self.settings.replica_fetch_wait_max_ms;
        if nothing_new && wait_ms > 0 {
            let parked = DelayedFetch { follower: request.follower, fetch_offset: request.fetch_offset, request_id };
            self.fetch_purgatory.entry(leader).or_default().push(parked);
            ctx.schedule(wait_ms, Event::DelayedFetchExpires { leader, follower: request.follower, request_id });
            return;
        }
        self.answer_fetch(leader, request.follower, response, request_id, ctx);
    }

    fn answer_fetch(&mut self, leader: u32, follower: u32, response: FetchResponse, request_id: u64, ctx: &mut RepCtx) {
        let event = Event::FetchResponseArrives { follower, leader, response, request_id, sent_ms: ctx.now_ms() };
        self.send(Node::Id(leader), Node::Id(follower), event, ctx);
    }

    /// Answers every fetch parked at `leader` (new data arrived, or it stopped leading).
    pub(super) fn complete_delayed_fetches(&mut self, leader: u32, ctx: &mut RepCtx) {
        let parked = self.fetch_purgatory.remove(&leader).unwrap_or_default();
        for fetch in parked {
            let response = self.delayed_fetch_answer(leader, fetch.fetch_offset);
            self.answer_fetch(leader, fetch.follower, response, fetch.request_id, ctx);
        }
    }

    fn delayed_fetch_answer(&self, leader: u32, fetch_offset: i64) -> FetchResponse {
        if self.partition.replica(leader).role == Role::Leader {
            self.partition.read_for_follower(leader, fetch_offset)
        } else {
            FetchResponse::Error(PartitionError::NotLeaderOrFollower)
        }
    }

    pub(super) fn on_delayed_fetch_expired(&mut self, leader: u32, follower: u32, request_id: u64, ctx: &mut RepCtx) {
        let Some(parked) = self.fetch_purgatory.get_mut(&leader) else {
            return;
        };
        let Some(index) = parked.iter().position(|f| f.follower == follower && f.request_id == request_id) else {
            return;
        };
        let fetch = parked.remove(index);
        let response = self.delayed_fetch_answer(leader, fetch.fetch_offset);
        self.answer_fetch(leader, follower, response, request_id, ctx);
    }

    /// The follower gets the leader's answer: appends, takes min(own LEO, leader HW), fetches again.
    pub(super) fn on_fetch_response(
        &mut self,
        follower: u32,
        leader: u32,
        response: FetchResponse,
        request_id: u64,
        ctx: &mut RepCtx,
    ) {
        if !self.is_current(follower, request_id) {
            return;
        }
        self.broker_mut(follower).awaiting_fetch = false;
        let (leo_before, hw_before) = (self.partition.leo(follower), self.partition.hw(follower));
        let truncation = self.partition.handle_fetch_response(follower, &response);
        let actor = Actor::Broker(follower);
        let mut backoff_ms = 0;
        match &response {
            FetchResponse::Error(error) => {
                backoff_ms = self.settings.replica_fetch_backoff_ms;
                ctx.record(actor, Fact::FetchFailed { leader, error: *error });
            }
            FetchResponse::OffsetOutOfRange { leader_log_end_offset } => {
                let cause = TruncationCause::OutOfRange {
                    fetch_offset: leo_before,
                    leader,
                    leader_log_end_offset: *leader_log_end_offset,
                };
                self.log_truncation(follower, truncation, cause, ctx);
            }
            FetchResponse::DivergingEpoch { epoch, end_offset } => {
                let (truncation, step) = self.partition.truncate_on_fetch_response(follower, *epoch, *end_offset);
                let diverging = TruncationCause::DivergingEpoch { leader, epoch: *epoch, end_offset: *end_offset };
                if let Some(step) = step {
                    self.log_truncation(follower, truncation, epoch_cause(diverging, step), ctx);
                }
            }
            FetchResponse::Records { records, high_watermark, .. } => {
                let (leo, hw) = (self.partition.leo(follower), self.partition.hw(follower));
                if !records.is_empty() || hw != hw_before {
                    let records = u32::try_from(records.len()).unwrap_or(u32::MAX);
                    let (leo_after, hw_after, leader_hw) = (leo, hw, *high_watermark);
                    let fact = Fact::Fetched { leader, records, leo_before, leo_after, hw_before, hw_after, leader_hw };
                    ctx.record(actor, fact);
                }
            }
        }
        self.schedule_next_fetch(follower, backoff_ms, ctx);
    }

    pub(super) fn on_epoch_request(
        &mut self,
        leader: u32,
        follower: u32,
        leader_epoch: i32,
        current_leader_epoch: i32,
        request_id: u64,
        ctx: &mut RepCtx,
    ) {
        let answer = self.partition.offsets_for_leader_epoch(leader, leader_epoch, current_leader_epoch);
        let event = Event::EpochResponseArrives { follower, leader, answer, request_id, sent_ms: ctx.now_ms() };
        self.send(Node::Id(leader), Node::Id(follower), event, ctx);
    }

    /// KIP-101: the follower truncates only what diverges from the leader, then fetches.
    pub(super) fn on_epoch_response(
        &mut self,
        follower: u32,
        leader: u32,
        answer: Result<EpochEndOffset, PartitionError>,
        request_id: u64,
        ctx: &mut RepCtx,
    ) {
        if !self.is_current(follower, request_id) {
            return;
        }
        self.broker_mut(follower).awaiting_fetch = false;
        match answer {
            Err(error) => {
                ctx.record(Actor::Broker(follower), Fact::EpochRequestFailed { leader, error });
                self.schedule_next_fetch(follower, self.settings.replica_fetch_backoff_ms, ctx);
            }
            Ok(answer) => {
                let (truncation, step) = self.partition.truncate_by_epoch(follower, answer);
                let cause = match answer.leader_epoch {
                    Some(epoch) => TruncationCause::EpochEnds { leader, epoch, end_offset: answer.end_offset },
                    None => TruncationCause::EpochUnknown { leader },
                };
                if let Some(step) = step {
                    self.log_truncation(follower, truncation, epoch_cause(cause, step), ctx);
                }
                self.schedule_next_fetch(follower, 0, ctx);
            }
        }
    }

    pub(super) fn log_truncation(
        &self,
        follower: u32,
        truncation: Option<Truncation>,
        cause: TruncationCause,
        ctx: &mut RepCtx,
    ) {
        let log_end_offset = self.partition.leo(follower);
        ctx.record(Actor::Broker(follower), Fact::Truncated { cause, truncation, log_end_offset });
    }

    /// The leader's `isr-expiration` task: drop followers not caught up within `replica.lag.time.max.ms`.
    pub(super) fn on_isr_expiration(&mut self, broker: u32, token: u64, ctx: &mut RepCtx) {
        if token != self.broker(broker).leader_task_token || self.partition.replica(broker).role != Role::Leader {
            return;
        }
        let lag_ms = self.settings.replica_lag_time_max_ms;
        if let Some(isr) = self.partition.isr_shrink(broker, ctx.now_ms(), lag_ms) {
            self.try_alter_isr(broker, isr, ctx);
        }
        ctx.schedule(self.settings.isr_expiration_period_ms(), Event::IsrExpiration { broker, token });
    }

    /// Sends AlterPartition to the controller; it takes effect only if the controller is reachable.
    pub(super) fn try_alter_isr(&mut self, leader: u32, isr: Vec<u32>, ctx: &mut RepCtx) {
        let before = self.partition.replica(leader).isr.clone();
        let direction = if isr.len() < before.len() { IsrDirection::Shrinking } else { IsrDirection::Expanding };
        let actor = Actor::Broker(leader);
        if !self.controller_reachable(leader) {
            if direction == IsrDirection::Expanding {
                return;
            }
            ctx.record(actor, Fact::IsrChangeUnreachable { direction, before, after: isr });
            return;
        }
        if let Some(fenced) = isr.iter().copied().find(|b| !before.contains(b) && self.broker(*b).fenced) {
            ctx.record(Actor::Controller, Fact::AlterPartitionIneligible { leader, fenced });
            return;
        }
        let epoch = self.partition.replica(leader).leader_epoch;
        let hw_before = self.partition.hw(leader);
        match self.partition.alter_partition(leader, epoch, isr.clone()) {
            Ok(()) => {
                let (hw, leo) = (self.partition.hw(leader), self.partition.leo(leader));
                let (after, under_min_isr) = (isr.clone(), self.partition.is_under_min_isr(leader));
                let (high_watermark, log_end_offset) = (hw, leo);
                let fact = Fact::IsrUpdated { direction, before, after, high_watermark, log_end_offset, under_min_isr };
                ctx.record(actor, fact);
                ctx.record(Actor::Controller, Fact::AlterPartitionAccepted { leader, isr });
                if hw > hw_before {
                    self.complete_delayed_produces(leader, ctx);
                }
            }
            Err(error) => ctx.record(actor, Fact::AlterPartitionRejected { error }),
        }
    }
}

/// The truncation line's cause: the leader's answer, or (KIP-279) that the follower lacked the
/// leader's epoch and cut only to the end of its own smaller one, to ask again.
fn epoch_cause(answered: TruncationCause, step: TruncationStep) -> TruncationCause {
    match (answered, step.local_epoch) {
        (
            TruncationCause::EpochEnds { leader, epoch, end_offset }
            | TruncationCause::DivergingEpoch { leader, epoch, end_offset },
            Some(local_epoch),
        ) if !step.complete => TruncationCause::EpochMissing { leader, epoch, end_offset, local_epoch },
        _ => answered,
    }
}
