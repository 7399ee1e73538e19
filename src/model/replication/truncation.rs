//! Truncation by leader epoch on the follower (KIP-101, KIP-279): where to cut the log given
//! the leader's (epoch, end offset) answer, and whether the follower must ask again.

use super::log::{EpochEndOffset, ReplicaLog};
use super::partition::{ReplicatedPartition, Role};
use super::roles::Truncation;

/// Where a follower cuts its log after an epoch answer (Kafka's `OffsetTruncationState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TruncationStep {
    pub offset: i64,
    /// False: the leader's epoch is not in this replica's cache, so it cut to the end of the
    /// largest smaller epoch it has and must ask again with that one (KIP-279).
    pub complete: bool,
    /// That smaller local epoch, when `complete` is false.
    pub local_epoch: Option<i32>,
}

/// Kafka: AbstractFetcherThread.getOffsetTruncationState. `answer` is the leader's largest epoch
/// ≤ the one asked and where it ends; `fallback_offset` is used when the leader does not know
/// the epoch (the follower's HW, as its initial fetch offset).
pub fn offset_truncation_state(log: &ReplicaLog, answer: EpochEndOffset, fallback_offset: i64) -> TruncationStep {
    let log_end_offset = log.log_end_offset();
    let done = |offset: i64| TruncationStep { offset: offset.min(log_end_offset), complete: true, local_epoch: None };
    let Some(epoch) = answer.leader_epoch else {
        return done(fallback_offset);
    };
    // The follower's own largest epoch ≤ the leader's, and where it ends here (`endOffsetForEpoch`).
    let own = log.epochs().end_offset_for(epoch, log_end_offset);
    match own.leader_epoch {
        // The follower tracks no epoch that old: the leader's offset is safe to use.
        None => done(answer.end_offset),
        // It never had the leader's epoch: cut where its own smaller epoch ends, then ask again.
        Some(local) if local != epoch => {
            TruncationStep { offset: own.end_offset.min(log_end_offset), complete: false, local_epoch: Some(local) }
        }
        Some(_) => done(own.end_offset.min(answer.end_offset)),
    }
}

impl ReplicatedPartition {
    /// The follower applies the leader's epoch answer (OffsetsForLeaderEpoch or a fetch
    /// response's divergingEpoch): it cuts its log as `offset_truncation_state` says. Under
    /// OffsetsForLeaderEpoch it keeps truncating (asks again) until the step is complete.
    /// Kafka: AbstractFetcherThread.maybeTruncateToEpochEndOffsets.
    pub fn truncate_to_epoch_end(
        &mut self,
        follower: u32,
        answer: EpochEndOffset,
    ) -> (Option<Truncation>, Option<TruncationStep>) {
        let keep_asking = !self.truncation_on_fetch;
        let replica = self.replica_mut(follower);
        let Role::Follower { leader, .. } = replica.role else {
            return (None, None);
        };
        let from_leo = replica.log.log_end_offset();
        let step = offset_truncation_state(&replica.log, answer, replica.log.high_watermark());
        replica.log.truncate_to(step.offset);
        replica.role = Role::Follower { leader, truncating: keep_asking && !step.complete };
        debug_assert!(replica.log.high_watermark() <= replica.log.log_end_offset(), "HW must never pass the LEO");
        let truncation = (step.offset < from_leo).then_some(Truncation { from_leo, to_offset: step.offset });
        (truncation, Some(step))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::replication::log::LogRecord;

    /// A log whose records carry `epochs` in order (one record per entry).
    fn log_of(epochs: &[i32]) -> ReplicaLog {
        let mut log = ReplicaLog::default();
        for (id, epoch) in epochs.iter().enumerate() {
            log.append(LogRecord { leader_epoch: *epoch, record_id: id as u64, sequence: None });
        }
        log
    }

    // Kafka: AbstractFetcherThread.getOffsetTruncationState, the KIP-279 case.
    #[test]
    fn a_follower_lacking_the_leaders_epoch_cuts_to_its_smaller_epoch_and_asks_again() {
        // Follower: epoch 0 at 0–1, epoch 1 at 2–4, epoch 3 at 5. The leader answers epoch 2 ends at 5.
        let log = log_of(&[0, 0, 1, 1, 1, 3]);
        let answer = EpochEndOffset { leader_epoch: Some(2), end_offset: 5 };
        let step = offset_truncation_state(&log, answer, 0);
        assert_eq!(step, TruncationStep { offset: 5, complete: false, local_epoch: Some(1) });
    }

    #[test]
    fn a_follower_with_the_leaders_epoch_cuts_where_either_side_ends_it() {
        let log = log_of(&[0, 0, 1, 1, 1]);
        let answer = EpochEndOffset { leader_epoch: Some(0), end_offset: 3 };
        assert_eq!(
            offset_truncation_state(&log, answer, 0),
            TruncationStep { offset: 2, complete: true, local_epoch: None }
        );
        let unknown = EpochEndOffset { leader_epoch: None, end_offset: -1 };
        assert_eq!(offset_truncation_state(&log, unknown, 4).offset, 4, "an unknown epoch falls back to the HW");
    }
}
