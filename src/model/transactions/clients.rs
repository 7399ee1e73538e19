//! The producer clients: InitProducerId at start, the accumulator and its sender (sequences,
//! max.in.flight.requests.per.connection, retries after retry.backoff.ms), and the answers.
//!
//! Kafka: `Sender`, `RecordAccumulator.drain` and `TransactionManager`. A retried batch of an
//! idempotent producer waits until nothing before it is in flight
//! (`RecordAccumulator.shouldStopDrainBatchesForPartition`), so batches go out again in sequence
//! order; without idempotence a retry is re-queued first (`RecordAccumulator.reenqueue`) and may
//! land after a later batch that was already in flight.

use super::core::{Batch, KafkaError};
use super::{
    Client, ClientId, ClientState, Event, Fact, PendingBatch, ProduceOutcome, TxnCtx, TxnLab, OTHER_LABEL,
    TRANSACTIONAL_ID,
};
use crate::model::kernel::Actor;

/// A plain (or idempotent, not transactional) app's client id, as Kafka numbers them.
pub const APP_LABEL: &str = "producer-1";

impl Client {
    fn new(label: &'static str, transactional: bool) -> Self {
        Self {
            label,
            producer_id: None,
            epoch: 0,
            next_sequence: 0,
            state: ClientState::Running,
            transactional,
            paused_until_ms: None,
            queue: Vec::new(),
            in_flight: Vec::new(),
            sent: 0,
            acked: 0,
            txn_open: false,
            partition_added: false,
            end_requested: None,
            deferred: Vec::new(),
            awaiting_init: false,
        }
    }

    fn first_last(batch: &PendingBatch) -> (u64, u64) {
        (batch.record_ids.first().copied().unwrap_or(0), batch.record_ids.last().copied().unwrap_or(0))
    }
}

impl TxnLab {
    /// A new incarnation of the app, which calls initTransactions (or gets a producer id).
    pub(super) fn start_incarnation(&mut self, ctx: &mut TxnCtx) {
        let transactional = self.settings.transactional;
        let label = if transactional { TRANSACTIONAL_ID } else { APP_LABEL };
        self.clients.push(Client::new(label, transactional));
        let id = ClientId::App(self.current());
        self.init_producer(id, ctx);
    }

    /// The second producer, plain or idempotent as the config says, never transactional.
    pub(super) fn start_other(&mut self, ctx: &mut TxnCtx) {
        self.other = Some(Client::new(OTHER_LABEL, false));
        self.init_producer(ClientId::Other, ctx);
        ctx.record(Actor::Producer, Fact::StreamStarted { per_sec: self.other_rate() });
        ctx.schedule(self.other_gap_ms(), Event::OtherSend);
    }

    fn other_rate(&self) -> u64 {
        self.settings.other_records_per_sec.max(1)
    }

    fn other_gap_ms(&self) -> u64 {
        1000 / self.other_rate()
    }

    pub(super) fn other_send(&mut self, ctx: &mut TxnCtx) {
        if self.log_full(1) {
            return;
        }
        let record = self.next_other_record;
        self.next_other_record += 1;
        self.enqueue(ClientId::Other, vec![record], ctx);
        ctx.schedule(self.other_gap_ms(), Event::OtherSend);
    }

    /// InitProducerId (Kafka: `TransactionManager.initializeTransactions`; without idempotence
    /// there is no producer id at all). Over an open transaction of the previous epoch the
    /// coordinator first fences that epoch (epoch + 1) and aborts it, answering
    /// CONCURRENT_TRANSACTIONS; the client retries after retry.backoff.ms and gets the next epoch.
    pub(super) fn init_producer(&mut self, id: ClientId, ctx: &mut TxnCtx) {
        let Some(client) = self.client_mut(id) else { return };
        client.awaiting_init = false;
        let (label, transactional) = (client.label, client.transactional);
        if !self.settings.idempotence {
            ctx.record(Actor::Producer, Fact::PlainProducer { label });
            return;
        }
        let txn_id = transactional.then_some(TRANSACTIONAL_ID);
        if transactional && self.coordinator_cut {
            self.client_mut(id).expect("a client").awaiting_init = true;
            ctx.record(Actor::Producer, Fact::CoordinatorUnreachable { request: "InitProducerId" });
            return;
        }
        let timeout_ms = self.settings.transaction_timeout_ms;
        let old_epoch = txn_id.and_then(|t| self.coordinator.metadata(t)).map_or(0, |m| m.producer_epoch);
        match self.coordinator.init_producer_id(txn_id, timeout_ms, ctx.now_ms()) {
            Ok((producer_id, fencing_epoch, Some(markers))) => {
                let fact = Fact::OpenTransactionFenced { producer_id, old_epoch, new_epoch: fencing_epoch };
                ctx.record(Actor::Coordinator, fact);
                let event = Event::MarkersArrive { transactional_id: TRANSACTIONAL_ID, markers, timed_out: false };
                ctx.schedule(self.settings.network_delay_ms, event);
                self.init_later(id, KafkaError::ConcurrentTransactions, ctx);
            }
            Ok((producer_id, epoch, None)) => {
                let client = self.client_mut(id).expect("a client");
                client.producer_id = Some(producer_id);
                client.epoch = epoch;
                client.next_sequence = 0;
                ctx.record(Actor::Coordinator, Fact::ProducerIdAssigned { label, producer_id, epoch, transactional });
                ctx.schedule(0, Event::Drain(id));
            }
            Err(KafkaError::ConcurrentTransactions) => self.init_later(id, KafkaError::ConcurrentTransactions, ctx),
            Err(error) => {
                let fact = Fact::CoordinatorRefused { request: "InitProducerId", epoch: old_epoch, error };
                ctx.record(Actor::Coordinator, fact);
            }
        }
    }

    /// InitProducerId again after retry.backoff.ms.
    fn init_later(&mut self, id: ClientId, error: KafkaError, ctx: &mut TxnCtx) {
        self.client_mut(id).expect("a client").awaiting_init = true;
        let backoff_ms = self.settings.retry_backoff_ms;
        ctx.record(Actor::Producer, Fact::InitRetrying { error, backoff_ms });
        ctx.schedule(backoff_ms, Event::Drain(id));
    }

    /// The app sends `records` new records.
    pub(super) fn produce(&mut self, records: u32, ctx: &mut TxnCtx) {
        let first = self.next_record;
        self.next_record += u64::from(records);
        let id = ClientId::App(self.current());
        self.enqueue(id, (first..first + u64::from(records)).collect(), ctx);
    }

    /// `send()`: the records wait linger.ms in the accumulator as one batch.
    pub(super) fn enqueue(&mut self, id: ClientId, record_ids: Vec<u64>, ctx: &mut TxnCtx) {
        let request = self.next_request;
        self.next_request += 1;
        let now_ms = ctx.now_ms();
        let linger_ms = self.settings.linger_ms;
        let Some(client) = self.client_mut(id) else { return };
        client.sent += record_ids.len() as u64;
        if client.transactional {
            client.txn_open = true;
        }
        client.queue.push(PendingBatch {
            id: request,
            base_sequence: None,
            record_ids,
            attempts: 0,
            not_before_ms: now_ms,
            created_ms: now_ms,
        });
        ctx.schedule(linger_ms, Event::Drain(id));
    }

    /// The sender thread: AddPartitionsToTxn first if needed, then up to
    /// max.in.flight.requests.per.connection requests, then EndTxn once everything is answered.
    pub(super) fn drain(&mut self, id: ClientId, ctx: &mut TxnCtx) {
        if self.client(id).is_none_or(|c| c.state != ClientState::Running) {
            return;
        }
        if self.client(id).is_some_and(|c| c.awaiting_init) {
            self.init_producer(id, ctx);
            if self.client(id).is_none_or(|c| c.awaiting_init || c.producer_id.is_none()) {
                return;
            }
        }
        if !self.ensure_partition_added(id, ctx) {
            return;
        }
        let now_ms = ctx.now_ms();
        loop {
            let (max_in_flight, idempotent) = (self.settings.max_in_flight as usize, self.settings.idempotence);
            let client = self.client(id).expect("checked above");
            let Some(next) = client.queue.first() else { break };
            if client.in_flight.len() >= max_in_flight {
                break;
            }
            // An idempotent producer resends a retried batch only when nothing is in flight.
            if idempotent && next.attempts > 0 && !client.in_flight.is_empty() {
                break;
            }
            if next.not_before_ms > now_ms {
                let wait_ms = next.not_before_ms - now_ms;
                ctx.schedule(wait_ms, Event::Drain(id));
                break;
            }
            self.send_first(id, ctx);
        }
        self.maybe_finish(id, ctx);
    }

    /// Sends the accumulator's first batch as one produce request.
    fn send_first(&mut self, id: ClientId, ctx: &mut TxnCtx) {
        let (idempotent, acks_none, delay_ms) =
            (self.settings.idempotence, self.settings.acks_none, self.settings.network_delay_ms);
        let max_in_flight = self.settings.max_in_flight as usize;
        let client = self.client_mut(id).expect("a live client");
        let mut batch = client.queue.remove(0);
        if idempotent && batch.base_sequence.is_none() {
            batch.base_sequence = Some(client.next_sequence);
            client.next_sequence += batch.record_ids.len() as i32;
        }
        batch.attempts += 1;
        let wire = Batch {
            producer_id: client.producer_id,
            epoch: client.epoch,
            base_sequence: batch.base_sequence.unwrap_or(-1),
            records: batch.record_ids.len() as u32,
            transactional: client.transactional,
            record_ids: batch.record_ids.clone(),
        };
        let (first, last) = Client::first_last(&batch);
        let fact = Fact::BatchSent {
            label: client.label,
            first,
            last,
            sequence: batch.base_sequence,
            attempt: batch.attempts,
        };
        let request = batch.id;
        if acks_none {
            // acks=0: no answer ever comes, so the batch counts as sent and done.
            client.acked += batch.record_ids.len() as u64;
        } else {
            client.in_flight.push(batch);
        }
        debug_assert!(client.in_flight.len() <= max_in_flight, "max.in.flight.requests.per.connection exceeded");
        ctx.record(Actor::Producer, fact);
        ctx.schedule(delay_ms, Event::ProduceArrives { client: id, batch: wire, request });
    }

    /// The leader's answer (or the dropped connection) reaches the client.
    pub(super) fn answered(&mut self, id: ClientId, request: u64, outcome: ProduceOutcome, ctx: &mut TxnCtx) {
        let Some(client) = self.client_mut(id).filter(|c| c.state == ClientState::Running) else { return };
        let Some(at) = client.in_flight.iter().position(|b| b.id == request) else { return };
        let batch = client.in_flight.remove(at);
        match outcome {
            ProduceOutcome::Written { .. } | ProduceOutcome::Duplicate { .. } => {
                client.acked += batch.record_ids.len() as u64;
            }
            ProduceOutcome::NotEnoughReplicas => self.retry(id, batch, "NOT_ENOUGH_REPLICAS", ctx),
            ProduceOutcome::Disconnected => self.retry(id, batch, "NETWORK_EXCEPTION", ctx),
            ProduceOutcome::Refused(KafkaError::OutOfOrderSequenceNumber) if self.earlier_pending(id, &batch) => {
                self.retry(id, batch, KafkaError::OutOfOrderSequenceNumber.name(), ctx)
            }
            ProduceOutcome::Refused(error @ (KafkaError::InvalidProducerEpoch | KafkaError::ProducerFenced)) => {
                self.fence_client(id, error, ctx)
            }
            ProduceOutcome::Refused(error) => {
                let (first, last) = Client::first_last(&batch);
                ctx.record(Actor::Producer, Fact::GaveUp { first, last, error: error.name() });
            }
        }
        ctx.schedule(0, Event::Drain(id));
    }

    /// A batch with a lower sequence is still waiting for a retry or an answer.
    fn earlier_pending(&self, id: ClientId, batch: &PendingBatch) -> bool {
        let Some(client) = self.client(id) else { return false };
        let before = |b: &PendingBatch| b.base_sequence < batch.base_sequence;
        client.queue.iter().chain(&client.in_flight).any(before)
    }

    /// Re-queues a failed batch after retry.backoff.ms (or gives up when retries are used up).
    fn retry(&mut self, id: ClientId, mut batch: PendingBatch, error: &'static str, ctx: &mut TxnCtx) {
        let (first, last) = Client::first_last(&batch);
        let backoff_ms = self.settings.retry_backoff_ms;
        if batch.attempts > self.settings.retries {
            ctx.record(Actor::Producer, Fact::GaveUp { first, last, error });
            return;
        }
        // Kafka: ProducerBatch.hasReachedDeliveryTimeout (a retry due past delivery.timeout.ms
        // expires the batch with a TimeoutException instead).
        if ctx.now_ms() + backoff_ms > batch.created_ms + self.settings.delivery_timeout_ms {
            ctx.record(Actor::Producer, Fact::GaveUp { first, last, error: "TimeoutException" });
            return;
        }
        batch.not_before_ms = ctx.now_ms() + backoff_ms;
        let idempotent = self.settings.idempotence;
        let client = self.client_mut(id).expect("a live client");
        // Kafka: RecordAccumulator.reenqueue puts a retry first; an idempotent producer's queue
        // stays in sequence order (insertInSequenceOrder).
        let at = if idempotent {
            client.queue.iter().position(|b| b.base_sequence.is_none_or(|s| Some(s) > batch.base_sequence))
        } else {
            Some(0)
        };
        client.queue.insert(at.unwrap_or(client.queue.len()), batch);
        ctx.record(Actor::Producer, Fact::Retrying { first, last, error, backoff_ms });
        ctx.schedule(backoff_ms, Event::Drain(id));
    }

    /// The client learns that a newer epoch owns its transactional id: it stops for good.
    pub(super) fn fence_client(&mut self, id: ClientId, error: KafkaError, ctx: &mut TxnCtx) {
        let Some(client) = self.client_mut(id) else { return };
        if client.state == ClientState::Fenced {
            return;
        }
        client.state = ClientState::Fenced;
        client.queue.clear();
        client.in_flight.clear();
        client.end_requested = None;
        let fact = Fact::ClientFenced { label: client.label, epoch: client.epoch, error };
        ctx.record(Actor::Producer, fact);
    }
}
