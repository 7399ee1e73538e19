//! The groups scene's stories: which facts are key moments, and what each preset shows.

mod figures;
mod keys;
mod presets;
mod restarts;
#[cfg(test)]
mod tests;

use super::{CoordinatorFact, Fact, GroupState, MemberFact, RebalanceFact, TopicFact};
use crate::model::kernel::{Moment, Salience, Salient};

pub use figures::{churn_figures, loop_verdict};
pub use keys::STORY_KEYS;
pub use presets::story;

impl Salient for Fact {
    fn salience(&self) -> Salience {
        match self {
            Fact::Coordinator(fact) => fact.salience(),
            Fact::Rebalance(fact) => fact.salience(),
            Fact::Member(fact) => fact.salience(),
            Fact::Topic(fact) => fact.salience(),
        }
    }
}

impl Salient for CoordinatorFact {
    fn salience(&self) -> Salience {
        match self {
            // A rebalance starts with PreparingRebalance and ends when the group is Stable again
            // (Kafka's `prepareRebalance` and the SyncGroup that completes `CompletingRebalance`).
            CoordinatorFact::PreparingRebalance { .. } => Salience::Key(Moment::RebalanceStart),
            CoordinatorFact::StateChanged { to: GroupState::Stable, .. } => Salience::Key(Moment::RebalanceEnd),
            CoordinatorFact::StateChanged { .. } => Salience::Notable,
            CoordinatorFact::SessionExpired { .. }
            | CoordinatorFact::JoinTimedOut { .. }
            | CoordinatorFact::SyncTimedOut { .. } => Salience::Key(Moment::Expiry),
            // One line per member per round of the protocol.
            CoordinatorFact::JoinReceived { .. }
            | CoordinatorFact::MemberIdRequired { .. }
            | CoordinatorFact::AssignmentReceived { .. } => Salience::Routine,
            CoordinatorFact::MemberLeft { .. }
            | CoordinatorFact::JoinFromUnknownMember { .. }
            | CoordinatorFact::StaticMemberReplaced { .. }
            | CoordinatorFact::StaticMemberKept { .. }
            | CoordinatorFact::SessionTimeoutRefused { .. }
            | CoordinatorFact::JoinCompleted { .. }
            | CoordinatorFact::CommitRejected { .. } => Salience::Notable,
        }
    }
}

impl Salient for RebalanceFact {
    fn salience(&self) -> Salience {
        match self {
            // A heartbeat's answer: the member learns of the rebalance at its next heartbeat.
            RebalanceFact::RebalanceNoticed => Salience::Routine,
            RebalanceFact::PartitionsLost { .. }
            | RebalanceFact::PartitionsRevoked { .. }
            | RebalanceFact::AssignmentComputed { .. }
            | RebalanceFact::PartitionsAssigned { .. }
            | RebalanceFact::MetadataChanged { .. }
            | RebalanceFact::HeartbeatRejected { .. } => Salience::Notable,
        }
    }
}

impl Salient for MemberFact {
    fn salience(&self) -> Salience {
        match self {
            MemberFact::MemberCrashed | MemberFact::MemberPaused { .. } | MemberFact::ProcessingTimeSet { .. } => {
                Salience::Key(Moment::Fault)
            }
            MemberFact::PollTimeoutExpired { .. } => Salience::Key(Moment::Expiry),
            MemberFact::RecordsLost { .. } | MemberFact::RecordsReprocessed { .. } => Salience::Key(Moment::Loss),
            // Every poll() of a stuck partition fails again: the pill itself is the key moment.
            MemberFact::PoisonPillFailed { .. } => Salience::Routine,
            MemberFact::MemberStarted { .. }
            | MemberFact::CommitFailed { .. }
            | MemberFact::JoinFailed { .. }
            | MemberFact::ResetToLatest { .. }
            | MemberFact::MemberClosed => Salience::Notable,
        }
    }
}

impl Salient for TopicFact {
    fn salience(&self) -> Salience {
        match self {
            TopicFact::PoisonPillAppended { .. } => Salience::Key(Moment::Fault),
            TopicFact::PartitionsGrown { .. } => Salience::Notable,
        }
    }
}
