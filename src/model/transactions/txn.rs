//! The transaction's round trips with the coordinator: AddPartitionsToTxn before the first
//! batch, sendOffsetsToTransaction and EndTxn once every batch is answered, WriteTxnMarkers,
//! and the coordinator's periodic abort of expired transactions.
//!
//! Kafka: `TransactionCoordinator.handleAddPartitionsToTransaction`, `handleEndTransaction`,
//! `abortTimedOutTransactions` (run every
//! transaction.abort.timed.out.transaction.cleanup.interval.ms), `TransactionMarkerChannelManager`.

use super::core::{KafkaError, Markers};
use super::{ClientId, ClientState, Event, Fact, TxnCtx, TxnLab, OFFSETS, OUTPUT, TRANSACTIONAL_ID};
use crate::model::kernel::Actor;

impl TxnLab {
    /// AddPartitionsToTxn for the output partition before a transactional batch goes out;
    /// false while the client must wait (coordinator unreachable, or a retry is due).
    pub(super) fn ensure_partition_added(&mut self, id: ClientId, ctx: &mut TxnCtx) -> bool {
        let client = self.client(id).expect("a live client");
        if !client.transactional || client.partition_added || client.queue.is_empty() {
            return true;
        }
        self.add_partition(id, OUTPUT, ctx)
    }

    /// One AddPartitionsToTxn (or AddOffsetsToTxn) round trip; false when the client must wait.
    fn add_partition(&mut self, id: ClientId, partition: super::core::TopicPartition, ctx: &mut TxnCtx) -> bool {
        let request = if partition == OFFSETS { "AddOffsetsToTxn" } else { "AddPartitionsToTxn" };
        if self.coordinator_cut {
            ctx.record(Actor::Producer, Fact::CoordinatorUnreachable { request });
            return false;
        }
        let client = self.client(id).expect("a live client");
        let (producer_id, epoch) = (client.producer_id.unwrap_or(0), client.epoch);
        match self.coordinator.add_partitions(TRANSACTIONAL_ID, producer_id, epoch, &[partition], ctx.now_ms()) {
            Ok(()) => {
                if partition == OUTPUT {
                    self.client_mut(id).expect("a live client").partition_added = true;
                }
                let partition = format!("{}-{}", partition.topic, partition.partition);
                ctx.record(Actor::Coordinator, Fact::PartitionAdded { partition, epoch });
                true
            }
            Err(error) => {
                self.coordinator_refused(id, request, error, ctx);
                false
            }
        }
    }

    /// A refusal from the coordinator: fenced for good, or retried after retry.backoff.ms.
    fn coordinator_refused(&mut self, id: ClientId, request: &'static str, error: KafkaError, ctx: &mut TxnCtx) {
        let epoch = self.client(id).map_or(0, |c| c.epoch);
        ctx.record(Actor::Coordinator, Fact::CoordinatorRefused { request, epoch, error });
        match error {
            KafkaError::ProducerFenced | KafkaError::InvalidProducerEpoch | KafkaError::InvalidProducerIdMapping => {
                self.fence_client(id, error, ctx)
            }
            // The previous transaction is still completing: the client retries.
            KafkaError::ConcurrentTransactions => ctx.schedule(self.settings.retry_backoff_ms, Event::Drain(id)),
            _ => {
                if let Some(client) = self.client_mut(id) {
                    client.end_requested = None;
                }
            }
        }
    }

    /// commitTransaction / abortTransaction (or the processor's plain commitSync).
    pub(super) fn request_end(&mut self, commit: bool, ctx: &mut TxnCtx) {
        let id = ClientId::App(self.current());
        let transactional = self.client(id).is_some_and(|c| c.transactional);
        if !transactional {
            if let Some(processor) = self.processor.as_mut() {
                processor.commit_requested = true;
            }
        } else if let Some(client) = self.client_mut(id) {
            client.end_requested = Some(commit);
            // After an abort the application seeks back to its committed offsets.
            if let Some(processor) = self.processor.as_mut().filter(|_| !commit) {
                processor.position = processor.committed;
            }
        }
        self.maybe_finish(id, ctx);
    }

    /// Once every batch is answered: the plain offset commit, or sendOffsetsToTransaction and EndTxn.
    pub(super) fn maybe_finish(&mut self, id: ClientId, ctx: &mut TxnCtx) {
        let Some(client) = self.client(id) else { return };
        if client.state != ClientState::Running || !client.queue.is_empty() || !client.in_flight.is_empty() {
            return;
        }
        if id == ClientId::App(self.current()) {
            self.maybe_commit_plain_offsets(ctx);
        }
        let Some(commit) = self.client(id).and_then(|c| c.end_requested) else { return };
        if commit && !self.send_offsets_to_transaction(id, ctx) {
            return;
        }
        if self.coordinator_cut {
            ctx.record(Actor::Producer, Fact::CoordinatorUnreachable { request: "EndTxn" });
            return;
        }
        self.end_txn(id, commit, ctx);
    }

    fn maybe_commit_plain_offsets(&mut self, ctx: &mut TxnCtx) {
        let Some(processor) = self.processor.as_mut().filter(|p| p.commit_requested) else { return };
        processor.commit_requested = false;
        processor.committed = processor.position;
        ctx.record(Actor::Producer, Fact::OffsetsCommitted { offset: processor.position });
    }

    /// sendOffsetsToTransaction: AddOffsetsToTxn, then TxnOffsetCommit (the offset is written
    /// to __consumer_offsets inside the transaction). False while the client must wait.
    fn send_offsets_to_transaction(&mut self, id: ClientId, ctx: &mut TxnCtx) -> bool {
        let Some(processor) = self.processor.as_ref() else { return true };
        if processor.pending_txn_offset.is_some() || processor.position == processor.committed {
            return true;
        }
        let offset = processor.position;
        if !self.add_partition(id, OFFSETS, ctx) {
            return false;
        }
        if let Some(processor) = self.processor.as_mut() {
            processor.pending_txn_offset = Some(offset);
        }
        ctx.record(Actor::Producer, Fact::OffsetsSentToTransaction { offset });
        true
    }

    fn end_txn(&mut self, id: ClientId, commit: bool, ctx: &mut TxnCtx) {
        let client = self.client(id).expect("a live client");
        debug_assert!(client.queue.is_empty() && client.in_flight.is_empty(), "EndTxn before every batch is answered");
        let (producer_id, epoch, added) = (client.producer_id.unwrap_or(0), client.epoch, client.partition_added);
        let offsets_added = self.processor.as_ref().is_some_and(|p| p.pending_txn_offset.is_some());
        if !added && !offsets_added {
            // Nothing reached the coordinator: the client ends the transaction on its own.
            self.close_client_txn(id);
            return;
        }
        ctx.record(Actor::Producer, Fact::EndTxn { epoch, commit });
        match self.coordinator.end_txn(TRANSACTIONAL_ID, producer_id, epoch, commit, ctx.now_ms()) {
            Ok(markers) => {
                self.close_client_txn(id);
                // Transaction version 2 bumps the epoch on every EndTxn: the client takes it.
                let epoch = self.coordinator.metadata(TRANSACTIONAL_ID).map(|m| m.producer_epoch);
                if let (Some(client), Some(epoch)) = (self.client_mut(id), epoch) {
                    client.epoch = epoch;
                }
                let event = Event::MarkersArrive { transactional_id: TRANSACTIONAL_ID, markers, timed_out: false };
                ctx.schedule(self.settings.network_delay_ms, event);
            }
            Err(error) => self.coordinator_refused(id, "EndTxn", error, ctx),
        }
    }

    fn close_client_txn(&mut self, id: ClientId) {
        if let Some(client) = self.client_mut(id) {
            client.txn_open = false;
            client.partition_added = false;
            client.end_requested = None;
        }
    }

    /// WriteTxnMarkers: a control record on the output partition; the offsets of
    /// __consumer_offsets count (commit) or not (abort); then the coordinator completes.
    pub(super) fn markers_arrive(&mut self, txn_id: &str, markers: &Markers, timed_out: bool, ctx: &mut TxnCtx) {
        let (producer_id, epoch, commit) = (markers.producer_id, markers.epoch, markers.commit);
        for partition in &markers.partitions {
            if *partition == OUTPUT {
                match self.log.append_marker(producer_id, epoch, commit) {
                    Ok(offset) => {
                        let fact = Fact::MarkerWritten { producer_id, epoch, commit, offset, timed_out };
                        ctx.record(Actor::Broker(1), fact);
                    }
                    Err(error) => {
                        let fact = Fact::CoordinatorRefused { request: "WriteTxnMarkers", epoch, error };
                        ctx.record(Actor::Broker(1), fact);
                    }
                }
            } else if *partition == OFFSETS {
                self.offsets_marker(commit, ctx);
            }
        }
        self.coordinator.markers_written(txn_id, ctx.now_ms());
    }

    fn offsets_marker(&mut self, commit: bool, ctx: &mut TxnCtx) {
        let Some(processor) = self.processor.as_mut() else { return };
        let Some(offset) = processor.pending_txn_offset.take() else { return };
        if commit {
            processor.committed = offset;
        }
        ctx.record(Actor::Broker(1), Fact::TransactionalOffsets { offset, commit });
    }

    /// The coordinator's periodic check: an Ongoing transaction older than its timeout is fenced
    /// (its epoch bumped) and aborted.
    pub(super) fn abort_timed_out(&mut self, ctx: &mut TxnCtx) {
        let before: Vec<(String, u16, u64, u64)> = self
            .coordinator
            .transactions()
            .filter_map(|m| m.txn_start_ms.map(|s| (m.transactional_id.clone(), m.producer_epoch, s, m.txn_timeout_ms)))
            .collect();
        for (txn_id, markers) in self.coordinator.abort_timed_out(ctx.now_ms()) {
            let Some((_, epoch, started_ms, timeout_ms)) = before.iter().find(|(t, ..)| *t == txn_id).cloned() else {
                continue;
            };
            let new_epoch = self.coordinator.metadata(&txn_id).map_or(markers.epoch, |m| m.producer_epoch);
            let fact = Fact::TransactionTimedOut {
                producer_id: markers.producer_id,
                epoch,
                new_epoch,
                started_ms,
                timeout_ms,
            };
            ctx.record(Actor::Coordinator, fact);
            let event = Event::MarkersArrive { transactional_id: TRANSACTIONAL_ID, markers, timed_out: true };
            ctx.schedule(self.settings.network_delay_ms, event);
        }
    }
}
