//! The output partition's leader (broker-1) and the two downstream consumers.
//!
//! Kafka: `UnifiedLog.appendAsLeader` with `ProducerStateManager` (in `core`), the fetch path
//! bounded by the high watermark (read_uncommitted) or the last stable offset (read_committed),
//! and the consumer's `CompletedFetch` dropping aborted batches and control records.

use super::core::{Appended, Batch, EntryKind, Isolation, KafkaError, RecordStatus};
use super::{ClientId, Event, Fact, ProduceOutcome, TxnCtx, TxnLab, OTHER_FIRST_RECORD};
use crate::model::kernel::Actor;

impl TxnLab {
    /// A produce request reaches the leader: the lab's injected failures first, then the append.
    pub(super) fn produce_arrives(&mut self, client: ClientId, batch: &Batch, request: u64, ctx: &mut TxnCtx) {
        let (first, last) =
            (batch.record_ids.first().copied().unwrap_or(0), batch.record_ids.last().copied().unwrap_or(0));
        let outcome = if self.fail_next_request {
            self.fail_next_request = false;
            ctx.record(Actor::Broker(1), Fact::NotEnoughReplicas { first, last });
            ProduceOutcome::NotEnoughReplicas
        } else {
            self.append(batch, ctx)
        };
        match outcome {
            ProduceOutcome::Written { base_offset, last_offset }
            | ProduceOutcome::Duplicate { base_offset, last_offset }
                if self.lose_next_answer =>
            {
                self.lose_next_answer = false;
                ctx.record(Actor::Network, Fact::ConnectionDropped { base: base_offset, last: last_offset });
                self.drop_connection(client, request, ctx);
            }
            outcome if !self.settings.acks_none => {
                ctx.schedule(self.settings.network_delay_ms, Event::ProduceAnswered { client, request, outcome })
            }
            _ => {}
        }
    }

    /// The connection drops: every other request of `client` still on it fails too
    /// (Kafka: `NetworkClient.handleDisconnections`): those not yet at the leader are lost, the
    /// answers of those already written never come; the client sees a NETWORK_EXCEPTION for each.
    fn drop_connection(&mut self, client: ClientId, request: u64, ctx: &mut TxnCtx) {
        let mut failed = vec![request];
        ctx.cancel_where(|event| match event {
            Event::ProduceArrives { client: c, request, .. } | Event::ProduceAnswered { client: c, request, .. }
                if *c == client =>
            {
                failed.push(*request);
                true
            }
            _ => false,
        });
        crate::model::kernel::order::sort(&mut failed);
        failed.dedup();
        for request in failed {
            let event = Event::ProduceAnswered { client, request, outcome: ProduceOutcome::Disconnected };
            ctx.schedule(self.settings.network_delay_ms, event);
        }
    }

    fn append(&mut self, batch: &Batch, ctx: &mut TxnCtx) -> ProduceOutcome {
        let sequence = batch.producer_id.map(|_| batch.base_sequence);
        match self.log.append(batch) {
            Ok(Appended::Written { base_offset, last_offset }) => {
                let fact = Fact::Written {
                    producer_id: batch.producer_id,
                    epoch: batch.epoch,
                    sequence,
                    base: base_offset,
                    last: last_offset,
                    transactional: batch.transactional,
                };
                ctx.record(Actor::Broker(1), fact);
                self.note_duplicates_and_order(base_offset, last_offset, ctx);
                ProduceOutcome::Written { base_offset, last_offset }
            }
            Ok(Appended::Duplicate { base_offset, last_offset }) => {
                let fact =
                    Fact::DuplicateAnswered { sequence: batch.base_sequence, base: base_offset, last: last_offset };
                ctx.record(Actor::Broker(1), fact);
                ProduceOutcome::Duplicate { base_offset, last_offset }
            }
            Err(error) => {
                let fact = Fact::ProduceRefused {
                    producer_id: batch.producer_id.unwrap_or(0),
                    epoch: batch.epoch,
                    sequence: batch.base_sequence,
                    error,
                };
                ctx.record(Actor::Broker(1), fact);
                ProduceOutcome::Refused(error)
            }
        }
    }

    /// What the lab sees that the broker cannot: a record written twice (outside an aborted
    /// transaction), or written after a later record of the same producer.
    fn note_duplicates_and_order(&mut self, base: u64, last: u64, ctx: &mut TxnCtx) {
        for offset in base..=last {
            let Some(EntryKind::Data { record_id: record, .. }) =
                self.log.entries().get(offset as usize).map(|e| e.kind)
            else {
                continue;
            };
            let kept = |o: &u64| *o < base && self.log.status(*o) != RecordStatus::Aborted;
            let earlier = self.record_offsets.get(&record).and_then(|offsets| offsets.iter().copied().find(kept));
            // The same producer's ids: the app's payments below OTHER_FIRST_RECORD, producer-2's above.
            let family_end = if record >= OTHER_FIRST_RECORD { u64::MAX } else { OTHER_FIRST_RECORD };
            let after = (record < family_end)
                .then(|| self.record_offsets.range(record + 1..family_end).rev())
                .into_iter()
                .flatten()
                .find(|(_, offsets)| offsets.iter().any(kept))
                .map(|(id, _)| *id);
            if let Some(earlier) = earlier {
                ctx.record(Actor::Broker(1), Fact::DuplicateWritten { record, offset, earlier });
            } else if let Some(after) = after {
                ctx.record(Actor::Broker(1), Fact::Reordered { record, offset, after });
            }
            self.record_offsets.entry(record).or_default().push(offset);
        }
    }

    /// Both consumers fetch everything up to their bound.
    pub(super) fn poll_consumers(&mut self, ctx: &mut TxnCtx) {
        let hw = self.log.high_watermark();
        debug_assert!(self.log.last_stable_offset() <= hw, "the LSO is never above the high watermark");
        for index in 0..self.consumers.len() {
            let consumer = &self.consumers[index];
            let isolation = consumer.isolation;
            let bound = match isolation {
                Isolation::ReadUncommitted => hw,
                Isolation::ReadCommitted => self.log.last_stable_offset(),
            };
            let fetched: Vec<(u64, u64)> = self
                .log
                .read(consumer.position, isolation)
                .into_iter()
                .filter(|e| e.offset < bound)
                .filter_map(|e| match e.kind {
                    EntryKind::Data { record_id, .. } => Some((e.offset, record_id)),
                    EntryKind::Control { .. } => None,
                })
                .collect();
            let consumer = &mut self.consumers[index];
            let mut duplicates = 0;
            for (offset, record_id) in &fetched {
                duplicates += u64::from(!consumer.seen.insert(*record_id));
                consumer.received.push(*offset);
                consumer.record_ids.push(*record_id);
            }
            consumer.position = consumer.position.max(bound);
            consumer.peak_lag = consumer.peak_lag.max(hw.saturating_sub(consumer.position));
            if let (Some(first), Some(last)) = (fetched.first(), fetched.last()) {
                let fact = Fact::Fetched {
                    isolation,
                    records: fetched.len() as u64,
                    first: first.0,
                    last: last.0,
                    duplicates,
                };
                ctx.record(Actor::Consumer(None), fact);
            }
        }
    }
}

/// Whether a produce error means the producer's epoch is fenced.
pub fn is_fencing(error: KafkaError) -> bool {
    matches!(error, KafkaError::ProducerFenced | KafkaError::InvalidProducerEpoch)
}
