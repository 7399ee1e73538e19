//! The producer (`KafkaProducer` + `Sender`, one record per batch) and the leader's
//! produce path (`ReplicaManager.appendRecords`, the produce purgatory `DelayedProduce`).

use super::facts::SendError;
use super::partition::{Appended, PartitionError, Role};
use super::schema::Acks;
use super::{DelayedProduce, Event, Fact, Node, ProducePurgatory, ProduceRequest, RepCtx, Replication};
use crate::model::kernel::Actor;

impl Replication {
    /// `send()` of `records` new records.
    pub(super) fn produce(&mut self, records: u32, ctx: &mut RepCtx) {
        for _ in 0..records {
            let record_id = self.partition.allocate_record_id();
            self.ledger.record_sent(record_id, ctx.now_ms());
            if self.settings.acks != Acks::None {
                let deadline_ms = self.settings.delivery_timeout_ms;
                ctx.schedule(deadline_ms, Event::ProducerRetry { record_id });
            }
            self.send_record(record_id, ctx);
        }
    }

    pub(super) fn on_producer_tick(&mut self, ctx: &mut RepCtx) {
        let limit = self.settings.producer_max_records;
        if limit > 0 && self.producer.load_sent >= limit {
            return;
        }
        self.producer.load_sent += 1;
        self.produce(1, ctx);
        ctx.schedule((1000 / self.producer.load_records_per_sec).max(1), Event::ProducerTick);
    }

    /// A steady producer starts now (the shell's workload on a fresh scene): its first record
    /// goes out after one gap, as the configured load's does from the start.
    pub(super) fn start_load(&mut self, records_per_sec: u64, ctx: &mut RepCtx) {
        self.producer.load_records_per_sec = records_per_sec;
        let acks = self.settings.acks;
        ctx.record(Actor::Producer, Fact::LoadStarted { records_per_sec, acks });
        ctx.schedule((1000 / records_per_sec).max(1), Event::ProducerTick);
    }

    fn delivery_expired(&self, record_id: u64, now_ms: u64) -> bool {
        let entry = self.ledger.get(record_id).expect("sent record");
        now_ms >= entry.sent_ms + self.settings.delivery_timeout_ms
    }

    /// Sends (or re-sends) one record to the leader the producer's metadata names.
    pub(super) fn send_record(&mut self, record_id: u64, ctx: &mut RepCtx) {
        if self.ledger.get(record_id).is_none_or(|e| e.outcome != super::ledger::Outcome::Pending) {
            return;
        }
        if self.producer.records_in_flight.contains(&record_id) {
            return;
        }
        if self.delivery_expired(record_id, ctx.now_ms()) {
            self.producer.waiting_for_leader.remove(&record_id);
            self.give_up(record_id, SendError::DeliveryTimeout, ctx);
            return;
        }
        let Some(leader) = self.partition.leader() else {
            if self.producer.waiting_for_leader.insert(record_id) {
                ctx.record(Actor::Producer, Fact::WaitingForLeader { record_id });
            }
            return;
        };
        self.producer.waiting_for_leader.remove(&record_id);
        let attempt = self.ledger.attempt(record_id);
        let request_id = self.producer.next_request_id;
        self.producer.next_request_id += 1;
        let request = ProduceRequest {
            request_id,
            record_id,
            sequence: self.settings.idempotence.then_some(record_id),
            acks_all: self.settings.acks == Acks::All,
            acks_none: self.settings.acks == Acks::None,
        };
        let event = Event::ProduceArrives { leader, request, sent_ms: ctx.now_ms() };
        let delivered = self.send(Node::Producer, Node::Id(leader), event, ctx);
        if request.acks_none {
            self.ledger.acked(record_id, -1);
            return;
        }
        if !delivered {
            ctx.record(Actor::Producer, Fact::ConnectionRefused { record_id, attempt, broker: leader });
            self.retry(record_id, SendError::Network, ctx);
            return;
        }
        self.producer.in_flight.insert(request_id, record_id);
        self.producer.records_in_flight.insert(record_id);
        debug_assert_eq!(self.producer.in_flight.len(), self.producer.records_in_flight.len());
        ctx.schedule(self.settings.request_timeout_ms, Event::ProduceTimedOut { request_id });
    }

    fn give_up(&mut self, record_id: u64, error: SendError, ctx: &mut RepCtx) {
        self.ledger.failed(record_id, error);
        ctx.record(Actor::Producer, Fact::RecordFailed { record_id, error });
    }

    /// A retriable error: back off `retry.backoff.ms` and send again, unless out of retries.
    fn retry(&mut self, record_id: u64, error: SendError, ctx: &mut RepCtx) {
        let attempts = self.ledger.get(record_id).map_or(0, |e| e.attempts) as u64;
        if attempts > self.settings.retries {
            self.give_up(record_id, error, ctx);
            return;
        }
        ctx.schedule(self.retry_backoff_ms(attempts), Event::ProducerRetry { record_id });
    }

    /// KIP-580's exponential back-off: `retry.backoff.ms` doubled per attempt, capped at
    /// `retry.backoff.max.ms` (Kafka adds ±20% jitter; the lab leaves it out).
    fn retry_backoff_ms(&self, attempts: u64) -> u64 {
        let base_ms = self.settings.retry_backoff_ms;
        let doubled = base_ms.saturating_mul(1u64 << attempts.saturating_sub(1).min(20));
        doubled.min(self.settings.retry_backoff_max_ms.max(base_ms))
    }

    /// The record a request carried, no longer in flight.
    fn answered(&mut self, request_id: u64) -> Option<u64> {
        let record_id = self.producer.in_flight.remove(&request_id)?;
        self.producer.records_in_flight.remove(&record_id);
        Some(record_id)
    }

    pub(super) fn on_produce_timeout(&mut self, request_id: u64, ctx: &mut RepCtx) {
        let Some(record_id) = self.answered(request_id) else {
            return;
        };
        let timeout_ms = self.settings.request_timeout_ms;
        ctx.record(Actor::Producer, Fact::RequestTimedOut { record_id, timeout_ms });
        self.retry(record_id, SendError::RequestTimeout, ctx);
    }

    pub(super) fn on_produce_response(
        &mut self,
        from: u32,
        request_id: u64,
        result: Result<i64, PartitionError>,
        ctx: &mut RepCtx,
    ) {
        let Some(record_id) = self.answered(request_id) else {
            return;
        };
        match result {
            Ok(offset) => {
                if self.ledger.acked(record_id, offset) {
                    ctx.record(Actor::Producer, Fact::Acknowledged { record_id, broker: from, offset });
                }
            }
            Err(error) => {
                ctx.record(Actor::Producer, Fact::ErrorAnswered { record_id, broker: from, error });
                self.retry(record_id, SendError::Partition(error), ctx);
            }
        }
    }

    /// The leader's append path (`ReplicaManager.appendRecords` → `Partition.appendRecordsToLeader`):
    /// the min-ISR check for acks=all, then the append (where an idempotent retry is found to be
    /// a duplicate), then an answer now (acks=1), never (acks=0) or when the HW passes it (acks=all).
    pub(super) fn on_produce(&mut self, leader: u32, request: ProduceRequest, ctx: &mut RepCtx) {
        let hw_before = self.partition.hw(leader);
        // Kafka: Partition.appendRecordsToLeader checks the ISR against effectiveMinIsr before
        // UnifiedLog.appendAsLeader spots a duplicate sequence, so a retry under min ISR is refused too.
        let result = self.partition.append_as_leader(leader, request.record_id, request.sequence, request.acks_all);
        let (actor, record_id) = (Actor::Broker(leader), request.record_id);
        match result {
            Ok(Appended { offset, duplicate: true }) => ctx.record(actor, Fact::DuplicateRecord { record_id, offset }),
            Ok(Appended { offset, duplicate: false }) => {
                let epoch = self.partition.replica(leader).leader_epoch;
                ctx.record(actor, Fact::Appended { record_id, offset, epoch });
                self.complete_delayed_fetches(leader, ctx);
            }
            Err(error) => {
                let fact = if error == PartitionError::NotEnoughReplicas {
                    let isr_size = self.partition.replica(leader).isr.len() as u32;
                    let min_insync_replicas = self.partition.effective_min_isr() as u32;
                    Fact::NotEnoughReplicas { record_id, isr_size, min_insync_replicas }
                } else {
                    Fact::ProduceRejected { record_id, error }
                };
                ctx.record(actor, fact);
            }
        }
        if self.partition.hw(leader) > hw_before {
            self.complete_delayed_produces(leader, ctx);
        }
        if request.acks_none {
            return;
        }
        match result.map(|appended| appended.offset) {
            Ok(offset) if request.acks_all => {
                let delayed = DelayedProduce { request_id: request.request_id, required_offset: offset + 1 };
                self.produce_purgatory.entry(leader).or_default().push(delayed);
                ctx.schedule(
                    self.settings.request_timeout_ms,
                    Event::DelayedProduceExpires { leader, request_id: request.request_id },
                );
                self.complete_delayed_produces(leader, ctx);
            }
            other => self.answer_produce(leader, request.request_id, other, ctx),
        }
    }

    fn answer_produce(&mut self, leader: u32, request_id: u64, result: Result<i64, PartitionError>, ctx: &mut RepCtx) {
        let event = Event::ProduceResponseArrives { from: leader, request_id, result, sent_ms: ctx.now_ms() };
        self.send(Node::Id(leader), Node::Producer, event, ctx);
    }

    /// `DelayedProduce.tryComplete` for everything parked at `leader`: done once the HW reached
    /// the record (NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR shrank below the minimum), or
    /// NOT_LEADER_OR_FOLLOWER once it stopped leading.
    pub(super) fn complete_delayed_produces(&mut self, leader: u32, ctx: &mut RepCtx) {
        let replica = self.partition.replica(leader);
        let leading = replica.role == Role::Leader;
        let hw = replica.log.high_watermark();
        // Every parked produce waits for an offset at or above the floor: none is done yet.
        if leading && self.produce_purgatory.get(&leader).is_some_and(|p| hw < p.floor_offset) {
            return;
        }
        let Some(ProducePurgatory { parked, .. }) = self.produce_purgatory.remove(&leader) else {
            return;
        };
        let isr_size = replica.isr.len();
        // Kafka: Partition.checkEnoughReplicasReachOffset, against effectiveMinIsr.
        let min_isr = self.partition.effective_min_isr();
        let mut still = std::collections::VecDeque::new();
        for delayed in parked {
            let result = if !leading {
                Err(PartitionError::NotLeaderOrFollower)
            } else if hw >= delayed.required_offset && isr_size < min_isr {
                Err(PartitionError::NotEnoughReplicasAfterAppend)
            } else if hw >= delayed.required_offset {
                Ok(delayed.required_offset - 1)
            } else {
                still.push_back(delayed);
                continue;
            };
            self.answer_produce(leader, delayed.request_id, result, ctx);
        }
        if !still.is_empty() {
            self.produce_purgatory.insert(leader, ProducePurgatory::new(still));
        }
    }

    pub(super) fn on_delayed_produce_expired(&mut self, leader: u32, request_id: u64, ctx: &mut RepCtx) {
        let Some(parked) = self.produce_purgatory.get_mut(&leader) else {
            return;
        };
        let Some(index) = parked.parked.iter().position(|d| d.request_id == request_id) else {
            return;
        };
        parked.parked.remove(index);
        self.answer_produce(leader, request_id, Err(PartitionError::RequestTimedOut), ctx);
    }

    /// After a leader change: records waiting for a leader go out now.
    pub(super) fn release_waiting_records(&mut self, ctx: &mut RepCtx) {
        if self.partition.leader().is_none() {
            return;
        }
        let waiting: Vec<u64> = self.producer.waiting_for_leader.iter().copied().collect();
        for record_id in waiting {
            self.send_record(record_id, ctx);
        }
    }
}
