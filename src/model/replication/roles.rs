//! Role changes and the follower side: `makeLeader` / `makeFollower`, the replica
//! fetcher's response handling and truncation (to the HW, or by leader epoch per KIP-101),
//! and the controller's `AlterPartition` and leader election (`PartitionChangeBuilder`).

use super::log::EpochEndOffset;
use super::partition::{FetchRequest, FetchResponse, FollowerProgress, PartitionError, ReplicatedPartition, Role};
use super::truncation::TruncationStep;

/// The plain API's bound on epoch rounds in one `fetch` (each round drops an epoch, so a
/// real exchange ends well before).
const MAX_TRUNCATION_ROUNDS: usize = 64;

/// How a follower cut its log when it started following (for the event log).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Truncation {
    pub from_leo: i64,
    pub to_offset: i64,
}

/// A leader change the controller made (`PartitionChangeBuilder` result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Election {
    pub old_leader: Option<u32>,
    pub new_leader: Option<u32>,
    pub leader_epoch: i32,
    pub isr: Vec<u32>,
    /// The new leader was not in the ISR (`unclean.leader.election.enable`).
    pub unclean: bool,
}

impl ReplicatedPartition {
    /// `makeLeader`: lead at `epoch` with `isr`; the epoch cache gets (epoch, LEO); every
    /// follower's state is reset (ISR members count as caught up now, others never).
    pub fn become_leader(&mut self, broker: u32, epoch: i32, isr: Vec<u32>, now_ms: u64) {
        let assignment = self.assignment.clone();
        let replica = self.replica_mut(broker);
        let leo = replica.log.log_end_offset();
        replica.role = Role::Leader;
        replica.leader_epoch = epoch;
        replica.log.assign_epoch_start(epoch, leo);
        replica.followers.clear();
        for follower in assignment.into_iter().filter(|b| *b != broker) {
            replica.followers.insert(follower, FollowerProgress::reset(isr.contains(&follower), now_ms));
        }
        replica.isr = isr;
        self.maybe_increment_high_watermark(broker);
    }

    /// `makeFollower`: follow `leader` at `epoch`. Without leader epochs the log is cut to the
    /// HW at once; with them the follower first asks the leader (OffsetsForLeaderEpoch).
    pub fn become_follower(&mut self, broker: u32, leader: Option<u32>, epoch: i32) -> Option<Truncation> {
        let (epoch_enabled, truncation_on_fetch) = (self.leader_epoch_enabled, self.truncation_on_fetch);
        let replica = self.replica_mut(broker);
        replica.leader_epoch = epoch;
        replica.isr.clear();
        replica.followers.clear();
        let has_epochs = replica.log.epochs().latest_epoch().is_some();
        // Kafka ≥ 2.7 fetches at once (ReplicaManager.initialFetchOffset: the LEO, with lastFetchedEpoch).
        let asks_first = epoch_enabled && has_epochs && leader.is_some() && !truncation_on_fetch;
        replica.role = Role::Follower { leader, truncating: asks_first };
        if epoch_enabled || leader.is_none() {
            return None;
        }
        let from_leo = replica.log.log_end_offset();
        let to_offset = replica.log.high_watermark();
        replica.log.truncate_to(to_offset);
        (to_offset < from_leo).then_some(Truncation { from_leo, to_offset })
    }

    /// The request a follower sends next: OffsetsForLeaderEpoch (Some epoch) while truncating,
    /// else a fetch from its LEO. None if it is not following anyone.
    pub fn next_request(&self, follower: u32) -> Option<(u32, FollowerRequest)> {
        let replica = self.replica(follower);
        match replica.role {
            Role::Follower { leader: Some(leader), truncating: true } => {
                let epoch = replica.log.epochs().latest_epoch().unwrap_or(-1);
                Some((
                    leader,
                    FollowerRequest::OffsetsForLeaderEpoch {
                        follower,
                        leader_epoch: epoch,
                        current_leader_epoch: replica.leader_epoch,
                    },
                ))
            }
            Role::Follower { leader: Some(leader), truncating: false } => Some((
                leader,
                FollowerRequest::Fetch(FetchRequest {
                    follower,
                    fetch_offset: replica.log.log_end_offset(),
                    current_leader_epoch: replica.leader_epoch,
                    last_fetched_epoch: self.last_fetched_epoch(follower),
                }),
            )),
            _ => None,
        }
    }

    /// The leader side of OffsetsForLeaderEpoch: where `epoch` ends in the leader's log.
    pub fn offsets_for_leader_epoch(
        &self,
        leader: u32,
        epoch: i32,
        current_leader_epoch: i32,
    ) -> Result<EpochEndOffset, PartitionError> {
        let replica = self.replica(leader);
        if replica.role != Role::Leader {
            return Err(PartitionError::NotLeaderOrFollower);
        }
        if current_leader_epoch < replica.leader_epoch {
            return Err(PartitionError::FencedLeaderEpoch);
        }
        if current_leader_epoch > replica.leader_epoch {
            return Err(PartitionError::UnknownLeaderEpoch);
        }
        Ok(replica.log.epochs().end_offset_for(epoch, replica.log.log_end_offset()))
    }

    /// The follower applies the leader's OffsetsForLeaderEpoch answer (KIP-101 / KIP-279): see
    /// `truncate_to_epoch_end`; it keeps asking while it lacks the leader's epoch, then fetches.
    pub fn truncate_by_epoch(
        &mut self,
        follower: u32,
        answer: EpochEndOffset,
    ) -> (Option<Truncation>, Option<TruncationStep>) {
        if !matches!(self.replica(follower).role, Role::Follower { truncating: true, .. }) {
            return (None, None);
        }
        self.truncate_to_epoch_end(follower, answer)
    }

    /// The follower side of a fetch response: append the records, then
    /// HW = min(own LEO, leader's HW); out of range (pre-KIP-101) cuts back to the leader's LEO.
    pub fn handle_fetch_response(&mut self, follower: u32, response: &FetchResponse) -> Option<Truncation> {
        let replica = self.replica_mut(follower);
        if !matches!(replica.role, Role::Follower { truncating: false, .. }) {
            return None;
        }
        match response {
            FetchResponse::Records { records, high_watermark, .. } => {
                for record in records.iter() {
                    replica.log.append(*record);
                }
                let hw = (*high_watermark).min(replica.log.log_end_offset());
                replica.log.set_high_watermark(hw);
                None
            }
            FetchResponse::OffsetOutOfRange { leader_log_end_offset } => {
                let from_leo = replica.log.log_end_offset();
                let to_offset = (*leader_log_end_offset).min(from_leo);
                replica.log.truncate_to(to_offset);
                (to_offset < from_leo).then_some(Truncation { from_leo, to_offset })
            }
            // Truncated by `truncate_on_fetch_response`; no records, no HW taken from it.
            FetchResponse::DivergingEpoch { .. } | FetchResponse::Error(_) => None,
        }
    }

    /// One whole fetch round trip for `follower` (request, then response), truncating by
    /// epoch first if it has to, as many rounds as it takes (KIP-279); the leader's ISR
    /// expansion is committed at once.
    pub fn fetch(&mut self, follower: u32) {
        let now_ms = self.clock_ms;
        for _ in 0..MAX_TRUNCATION_ROUNDS {
            match self.next_request(follower) {
                Some((leader, FollowerRequest::OffsetsForLeaderEpoch { leader_epoch, current_leader_epoch, .. })) => {
                    let Ok(answer) = self.offsets_for_leader_epoch(leader, leader_epoch, current_leader_epoch) else {
                        return;
                    };
                    self.truncate_by_epoch(follower, answer);
                }
                Some((leader, FollowerRequest::Fetch(request))) => {
                    let response = self.handle_fetch(leader, request, now_ms);
                    if let FetchResponse::DivergingEpoch { epoch, end_offset } = response {
                        self.truncate_on_fetch_response(follower, epoch, end_offset);
                        continue;
                    }
                    if let Some(isr) = self.isr_expansion(leader, follower) {
                        let epoch = self.replica(leader).leader_epoch;
                        let _ = self.alter_partition(leader, epoch, isr);
                    }
                    self.handle_fetch_response(follower, &response);
                    return;
                }
                None => return,
            }
        }
    }

    /// The controller's `AlterPartition`: accepted only from the current leader at the current
    /// epoch; the ISR changes both in the controller's record and at the leader.
    pub fn alter_partition(&mut self, leader: u32, leader_epoch: i32, isr: Vec<u32>) -> Result<(), PartitionError> {
        if self.leader != Some(leader) {
            return Err(PartitionError::NotLeaderOrFollower);
        }
        if leader_epoch != self.leader_epoch {
            return Err(PartitionError::FencedLeaderEpoch);
        }
        self.isr = isr.clone();
        self.replica_mut(leader).isr = isr;
        self.maybe_increment_high_watermark(leader);
        Ok(())
    }

    /// The controller drops a fenced broker from the ISR (never the last member) and, if it
    /// led, elects a new leader among `usable` brokers. Returns the election, if any.
    pub fn fence_broker(&mut self, broker: u32, usable: &[u32], unclean_allowed: bool) -> Option<Election> {
        if self.isr.len() > 1 {
            self.isr.retain(|b| *b != broker);
        }
        if self.leader == Some(broker) || self.leader.is_none() {
            return self.elect_leader(usable, unclean_allowed);
        }
        None
    }

    /// `PartitionChangeBuilder`'s election: the first assigned replica that is in the ISR and
    /// usable; if none and unclean election is allowed, the first usable replica (ISR = it alone).
    pub fn elect_leader(&mut self, usable: &[u32], unclean_allowed: bool) -> Option<Election> {
        let old_leader = self.leader;
        let clean = self.assignment.iter().copied().find(|b| self.isr.contains(b) && usable.contains(b));
        let unclean = if clean.is_none() && unclean_allowed {
            self.assignment.iter().copied().find(|b| usable.contains(b))
        } else {
            None
        };
        let new_leader = clean.or(unclean);
        if new_leader == old_leader {
            return None;
        }
        if let Some(leader) = unclean {
            self.isr = vec![leader];
        }
        self.leader = new_leader;
        self.leader_epoch += 1;
        Some(Election {
            old_leader,
            new_leader,
            leader_epoch: self.leader_epoch,
            isr: self.isr.clone(),
            unclean: unclean.is_some(),
        })
    }

    /// A broker process came back: the log is recovered (all of it after a crash, only the
    /// flushed part after a power failure), the HW comes from its checkpoint, no role yet.
    pub fn restart_replica(&mut self, broker: u32, power_loss: bool) {
        let replica = self.replica_mut(broker);
        if power_loss {
            replica.log.recover_after_power_loss();
        } else {
            replica.log.recover_after_crash();
        }
        replica.role = Role::Unknown;
        replica.isr.clear();
        replica.followers.clear();
    }
}

/// What a follower's fetcher thread sends to its leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FollowerRequest {
    /// OffsetsForLeaderEpoch for the follower's latest epoch (KIP-101).
    OffsetsForLeaderEpoch {
        follower: u32,
        leader_epoch: i32,
        current_leader_epoch: i32,
    },
    Fetch(FetchRequest),
}
