//! The scene's stories: which facts are key moments, and what each preset shows.

use super::broker::is_fencing;
use super::{Fact, TxnLab};
use crate::model::kernel::{Moment, Salience, Salient};
use crate::model::story::{Cue, Story};

use super::story_say as say;
pub use super::story_say::STORY_KEYS;

impl Salient for Fact {
    fn salience(&self) -> Salience {
        match self {
            Fact::BatchSent { attempt: 1, .. }
            | Fact::Written { .. }
            | Fact::PartitionAdded { .. }
            | Fact::Fetched { duplicates: 0, .. }
            | Fact::RowsInserted { again: 0, .. }
            | Fact::CoordinatorUnreachable { .. } => Salience::Routine,
            Fact::EarlierRuns { .. }
            | Fact::ProducerIdAssigned { .. }
            | Fact::PlainProducer { .. }
            | Fact::BatchSent { .. }
            | Fact::DuplicateAnswered { .. }
            | Fact::Retrying { .. }
            | Fact::GaveUp { .. }
            | Fact::EndTxn { .. }
            | Fact::Polled { .. }
            | Fact::OffsetsCommitted { .. }
            | Fact::OffsetsSentToTransaction { .. }
            | Fact::TransactionalOffsets { .. }
            | Fact::ResumedFromCommitted { .. }
            | Fact::StreamStarted { .. } => Salience::Notable,
            Fact::ProduceRefused { error, .. } | Fact::CoordinatorRefused { error, .. } if is_fencing(*error) => {
                Salience::Key(Moment::Fence)
            }
            Fact::ProduceRefused { .. } | Fact::CoordinatorRefused { .. } => Salience::Notable,
            Fact::OpenTransactionFenced { .. } | Fact::ClientFenced { .. } => Salience::Key(Moment::Fence),
            Fact::DuplicateWritten { .. }
            | Fact::Reordered { .. }
            | Fact::Fetched { .. }
            | Fact::RowsInserted { .. } => Salience::Key(Moment::Loss),
            Fact::MarkerWritten { .. } => Salience::Key(Moment::Answer),
            Fact::TransactionTimedOut { .. } => Salience::Key(Moment::Expiry),
            Fact::NotEnoughReplicas { .. }
            | Fact::ConnectionDropped { .. }
            | Fact::Crashed { .. }
            | Fact::Restarted { .. }
            | Fact::Paused { .. }
            | Fact::Resumed { .. }
            | Fact::CoordinatorCut
            | Fact::CoordinatorHealed => Salience::Key(Moment::Fault),
        }
    }
}

/// The scene's story for `preset` (`None`: the scene's default).
pub fn story(_preset: Option<&str>) -> Story<TxnLab> {
    {
        Story {
            start: Cue::At(0),
            speed: 1.0,
            question: say::default_question,
            watch: say::default_watch,
            outcome: Cue::Start,
            answer: say::default_answer,
            beats: &[],
        }
    }
}
