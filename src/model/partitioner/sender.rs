//! The producer's sender thread in the Partitioner scene: per-node readiness, per-node drain,
//! produce requests in flight to slow brokers, and the appends that feed it.

use crate::model::kernel::sorted::SortedSet;

use super::accumulator::SendReason;
use super::ready::Drained;
use super::sticky::Switch;
use super::{Event, Fact, Partitioner, PartitionerCtx, SwitchView};
use crate::model::kernel::Actor;

impl Partitioner {
    /// Appends one record through the sticky partitioner (`key_bytes`: its key's length, `None` for
    /// a null key) and runs the sender; returns its partition and offset.
    pub(super) fn append_sticky(&mut self, key_bytes: Option<u32>, ctx: &mut PartitionerCtx) -> (u32, u64) {
        let value_bytes = self.settings.value_bytes;
        let now_ms = ctx.now_ms();
        let n = self.num_partitions;
        let outcome = self.accumulator.append(key_bytes, None, value_bytes, now_ms, n, &mut Self::random_int(ctx));
        let log = &mut self.logs[outcome.partition as usize];
        let offset = log.end_offset;
        log.end_offset += 1;
        if let Some(switch) = outcome.switch {
            self.switches.push(SwitchView { at_ms: now_ms, switch });
            let Switch { from, to, produced_bytes } = switch;
            ctx.record(Actor::Producer, Fact::StickySwitched { produced_bytes, from, to });
        }
        if outcome.new_batch {
            ctx.record(Actor::Producer, Fact::BatchCreated { batch: outcome.batch_id, partition: outcome.partition });
            ctx.schedule(self.accumulator.linger_ms(), Event::SenderWakeup);
        }
        self.run_sender(ctx);
        (outcome.partition, offset)
    }

    /// Kafka: `Sender.sendProducerData`, again and again while a leader takes data (Kafka's sender
    /// polls with no wait while it has sendable data for a node that can take it). A ready leader
    /// that has `max.in.flight.requests.per.connection` requests unanswered is skipped: only its
    /// ready time moves on, which is what `partitioner.availability.timeout.ms` measures.
    pub(super) fn run_sender(&mut self, ctx: &mut PartitionerCtx) {
        loop {
            let now_ms = ctx.now_ms();
            let check = self.accumulator.ready(now_ms, self.num_partitions, &self.brokers);
            self.report_availability(check.unavailable, ctx);
            let mut sendable = SortedSet::new();
            for broker in check.ready_nodes {
                let can_send = self.brokers.can_send(broker);
                self.accumulator.update_node_latency_stats(broker, now_ms, can_send);
                if can_send {
                    sendable.insert(broker);
                } else if self.busy.insert(broker) {
                    let (in_flight, max) = (self.brokers.in_flight(broker), self.brokers.max_in_flight());
                    ctx.record(Actor::Sender, Fact::BrokerBusy { broker, in_flight, max });
                }
            }
            let drained = self.accumulator.drain(&sendable, now_ms, self.num_partitions, &self.brokers);
            if drained.is_empty() {
                return;
            }
            for request in drained {
                self.send_request(request, ctx);
            }
        }
    }

    /// One produce request: its batches leave the accumulator; a slow broker answers later.
    fn send_request(&mut self, request: Drained, ctx: &mut PartitionerCtx) {
        let Drained { broker, batches } = request;
        self.busy.remove(&broker);
        let linger_ms = self.accumulator.linger_ms();
        for batch in &batches {
            let fact = Fact::BatchSent {
                batch: batch.id,
                partition: batch.partition,
                broker,
                records: batch.records,
                size_bytes: batch.size_bytes,
                limit_bytes: batch.write_limit_bytes,
                reason: batch.send_reason.unwrap_or(SendReason::Full),
                linger_ms,
            };
            ctx.record(Actor::Sender, fact);
        }
        if self.brokers.request_sent(broker) {
            let partitions: Vec<u32> = batches.iter().map(|b| b.partition).collect();
            // Kafka's guaranteeMessageOrder: with one request in flight, a drained partition waits for its answer.
            if self.brokers.max_in_flight() == 1 {
                partitions.iter().for_each(|p| self.accumulator.mute(*p));
            }
            ctx.schedule(self.brokers.latency_ms(broker), Event::ProduceResponse { broker, partitions });
        }
    }

    /// A slow broker answered: the connection takes another request, and the sender runs again.
    pub(super) fn on_produce_response(&mut self, broker: u32, partitions: &[u32], ctx: &mut PartitionerCtx) {
        self.brokers.response_received(broker);
        partitions.iter().for_each(|p| self.accumulator.unmute(*p));
        self.run_sender(ctx);
    }

    /// Says when adaptive partitioning starts or stops leaving a leader's partitions out.
    fn report_availability(&mut self, unavailable: Vec<u32>, ctx: &mut PartitionerCtx) {
        if unavailable == self.unavailable {
            return;
        }
        let timeout_ms = self.settings.availability_timeout_ms;
        for broker in 1..=self.brokers.count() {
            let led = |list: &[u32]| -> Vec<u32> {
                list.iter().copied().filter(|p| self.brokers.leader_of(*p) == broker).collect()
            };
            let (before, after) = (led(&self.unavailable), led(&unavailable));
            let left_out: Vec<u32> = after.iter().copied().filter(|p| !before.contains(p)).collect();
            let back: Vec<u32> = before.iter().copied().filter(|p| !after.contains(p)).collect();
            if !left_out.is_empty() {
                ctx.record(Actor::Producer, Fact::PartitionsUnavailable { broker, partitions: left_out, timeout_ms });
            }
            if !back.is_empty() {
                ctx.record(Actor::Producer, Fact::PartitionsAvailable { broker, partitions: back });
            }
        }
        self.unavailable = unavailable;
    }
}
