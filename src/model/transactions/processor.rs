//! The consume–transform–produce processor: it polls the `payments` input topic, writes one
//! record per payment to `payments-validated` (the payment's number is the record id), inserts
//! one database row per payment when the sink is on, and commits its input offsets — plainly
//! (commitSync after the batches are acknowledged) or inside the transaction
//! (sendOffsetsToTransaction). The database is outside Kafka: no transaction covers it.

use super::{ClientId, Fact, TxnCtx, TxnLab};
use crate::model::kernel::Actor;

impl TxnLab {
    /// `process-N`: poll, transform, send, insert.
    pub(super) fn process(&mut self, records: u32, ctx: &mut TxnCtx) {
        let Some(processor) = self.processor.as_mut() else { return };
        let from = processor.position;
        let to = from + u64::from(records) - 1;
        processor.position = to + 1;
        processor.processed += u64::from(records);
        ctx.record(Actor::Producer, Fact::Polled { from, to });
        // Payment at input offset o is payment number o + 1.
        let ids: Vec<u64> = (from + 1..=to + 1).collect();
        if let Some(rows) = self.sink.as_mut() {
            let mut again = 0;
            for id in &ids {
                let times = rows.entry(*id).or_insert(0);
                again += u64::from(*times > 0);
                *times += 1;
            }
            ctx.record(Actor::Producer, Fact::RowsInserted { first: from + 1, last: to + 1, again });
        }
        let id = ClientId::App(self.current());
        self.enqueue(id, ids, ctx);
    }

    /// A restarted processor resumes from the committed offset.
    pub(super) fn processor_restarts(&mut self, ctx: &mut TxnCtx) {
        let Some(processor) = self.processor.as_mut() else { return };
        let again = processor.position.saturating_sub(processor.committed);
        processor.position = processor.committed;
        processor.pending_txn_offset = None;
        processor.commit_requested = false;
        ctx.record(Actor::Producer, Fact::ResumedFromCommitted { committed: processor.committed, processed: again });
    }
}
