//! The replication scene's stories: which facts are key moments, and what each preset shows.
//! The texts are in `keys.rs`, the answers and captions computed from the run in `say.rs`,
//! each preset's story in `presets.rs`.

mod keys;
mod presets;
mod say;
#[cfg(test)]
mod tests;

use super::{Fact, IsrDirection, SendError};
use crate::model::kernel::{Moment, Salience, Salient};

pub use keys::STORY_KEYS;
pub use presets::story;
pub use say::{durability_ledger, id_ranges};

impl Salient for Fact {
    fn salience(&self) -> Salience {
        match self {
            // A fetch that brings no record but a higher HW: the follower learns that what it
            // holds is committed (the last row of the HW/LEO table).
            Fact::Fetched { records: 0, hw_before, hw_after, .. } if hw_after > hw_before => {
                Salience::Key(Moment::Answer)
            }
            Fact::Fetched { .. }
            | Fact::Appended { .. }
            | Fact::Acknowledged { .. }
            | Fact::ConnectionRefused { .. }
            | Fact::ErrorAnswered { .. } => Salience::Routine,
            Fact::Crashed
            | Fact::PowerFailed { .. }
            | Fact::Restarted
            | Fact::RestartedWithLog { .. }
            | Fact::Paused { .. }
            | Fact::PauseEnded
            | Fact::Slowed { .. }
            | Fact::LinkCut { .. }
            | Fact::LinkHealed { .. } => Salience::Key(Moment::Fault),
            Fact::BrokerFenced { .. } => Salience::Key(Moment::Fence),
            Fact::IsrChanged { before, after } if after.len() < before.len() => Salience::Key(Moment::IsrShrink),
            Fact::IsrChanged { .. } => Salience::Key(Moment::IsrExpand),
            Fact::IsrUpdated { direction: IsrDirection::Shrinking, .. } => Salience::Key(Moment::IsrShrink),
            Fact::IsrUpdated { direction: IsrDirection::Expanding, .. } => Salience::Key(Moment::IsrExpand),
            Fact::LeaderElected { .. } | Fact::UncleanLeaderElected { .. } | Fact::PartitionOffline { .. } => {
                Salience::Key(Moment::Election)
            }
            Fact::Truncated { truncation: Some(_), .. } => Salience::Key(Moment::Deletion),
            Fact::RecordFailed { error: SendError::DeliveryTimeout, .. } => Salience::Key(Moment::Expiry),
            Fact::PartitionCreated { .. }
            | Fact::BrokerUnfenced { .. }
            | Fact::StaysOffline
            | Fact::UncleanElectionSet { .. }
            | Fact::UncleanCheck { .. }
            | Fact::ElectLeadersRequested
            | Fact::ElectLeadersFailed { .. }
            | Fact::AlterPartitionIneligible { .. }
            | Fact::AlterPartitionAccepted { .. }
            | Fact::BecameLeader { .. }
            | Fact::BecameFollower { .. }
            | Fact::Truncated { truncation: None, .. }
            | Fact::FetchConnectionRefused { .. }
            | Fact::FetchTimedOut { .. }
            | Fact::FetchFailed { .. }
            | Fact::EpochRequestFailed { .. }
            | Fact::IsrChangeUnreachable { .. }
            | Fact::AlterPartitionRejected { .. }
            | Fact::DuplicateRecord { .. }
            | Fact::ProduceRejected { .. }
            | Fact::NotEnoughReplicas { .. }
            | Fact::RecordFailed { .. }
            | Fact::WaitingForLeader { .. }
            | Fact::LoadStarted { .. }
            | Fact::RequestTimedOut { .. } => Salience::Notable,
        }
    }
}
