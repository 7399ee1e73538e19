//! The 4.x fetch protocol (KIP-320 / KIP-595, Kafka ≥ 2.7): a follower fetches from its log
//! end with the epoch of its last record (lastFetchedEpoch); the leader answers a
//! divergingEpoch instead of records when that epoch ends earlier in its own log, and the
//! follower truncates from the fetch response. The 0.11–2.6 protocol (OffsetsForLeaderEpoch
//! before the first fetch) stays as `lab.fetch.protocol=offsets-for-leader-epoch`.

use super::log::EpochEndOffset;
use super::partition::{FetchRequest, FetchResponse, ReplicatedPartition, Role};
use super::roles::Truncation;
use super::truncation::TruncationStep;

/// How a follower finds where its log diverges from the leader's (`lab.fetch.protocol`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FetchProtocol {
    /// Kafka ≥ 2.7 (every 4.x cluster): Fetch carries lastFetchedEpoch, the response a divergingEpoch.
    DivergingEpoch,
    /// Kafka 0.11–2.6: OffsetsForLeaderEpoch first, then fetches without an epoch.
    OffsetsForLeaderEpoch,
}

impl FetchProtocol {
    /// The `lab.fetch.protocol` values, default first.
    pub const VALUES: &'static [&'static str] = &["diverging-epoch", "offsets-for-leader-epoch"];

    pub fn from_config_value(value: &str) -> Self {
        if value == "offsets-for-leader-epoch" {
            FetchProtocol::OffsetsForLeaderEpoch
        } else {
            FetchProtocol::DivergingEpoch
        }
    }

    pub fn config_value(self) -> &'static str {
        match self {
            FetchProtocol::DivergingEpoch => "diverging-epoch",
            FetchProtocol::OffsetsForLeaderEpoch => "offsets-for-leader-epoch",
        }
    }
}

impl ReplicatedPartition {
    /// Selects the follower's fetch protocol (the 4.x one by default).
    pub fn set_fetch_protocol(&mut self, protocol: FetchProtocol) {
        self.truncation_on_fetch = protocol == FetchProtocol::DivergingEpoch;
    }

    pub fn fetch_protocol(&self) -> FetchProtocol {
        if self.truncation_on_fetch {
            FetchProtocol::DivergingEpoch
        } else {
            FetchProtocol::OffsetsForLeaderEpoch
        }
    }

    /// What a follower puts in its fetch as lastFetchedEpoch: its latest epoch under the 4.x
    /// protocol with leader epochs on (Kafka: AbstractFetcherThread.partitionFetchState), else none.
    pub(super) fn last_fetched_epoch(&self, follower: u32) -> Option<i32> {
        let send = self.truncation_on_fetch && self.leader_epoch_enabled;
        send.then(|| self.replica(follower).log.epochs().latest_epoch()).flatten()
    }

    /// The leader's lastFetchedEpoch check before it reads (Kafka: Partition.readRecords): the
    /// epoch's end on the leader (`endOffsetForEpoch`); a smaller epoch, or an end before the
    /// fetch offset, is a divergingEpoch; an epoch it cannot place is OFFSET_OUT_OF_RANGE.
    /// None: read as usual (also when the fetch fails its role or epoch checks, answered later).
    pub(super) fn check_last_fetched_epoch(&self, leader: u32, request: &FetchRequest) -> Option<FetchResponse> {
        let last_fetched_epoch = request.last_fetched_epoch?;
        let replica = self.replica(leader);
        if replica.role != Role::Leader || request.current_leader_epoch != replica.leader_epoch {
            return None;
        }
        let leader_log_end_offset = replica.log.log_end_offset();
        let end = replica.log.epochs().end_offset_for(last_fetched_epoch, leader_log_end_offset);
        match end.leader_epoch {
            None => Some(FetchResponse::OffsetOutOfRange { leader_log_end_offset }),
            Some(epoch) if epoch < last_fetched_epoch || end.end_offset < request.fetch_offset => {
                Some(FetchResponse::DivergingEpoch { epoch, end_offset: end.end_offset })
            }
            Some(_) => None,
        }
    }

    /// The follower side of a divergingEpoch (Kafka: AbstractFetcherThread.truncateOnFetchResponse):
    /// it truncates and keeps fetching; the next fetch carries its new last epoch, so a
    /// follower that lacked the leader's epoch is answered again until the logs agree.
    pub fn truncate_on_fetch_response(
        &mut self,
        follower: u32,
        epoch: i32,
        end_offset: i64,
    ) -> (Option<Truncation>, Option<TruncationStep>) {
        if !matches!(self.replica(follower).role, Role::Follower { truncating: false, .. }) {
            return (None, None);
        }
        self.truncate_to_epoch_end(follower, EpochEndOffset { leader_epoch: Some(epoch), end_offset })
    }
}
