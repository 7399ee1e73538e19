//! One partition's replicas and the controller's record of it: the leader-side
//! fetch handling, the high-watermark rule and the ISR rules of Kafka's `Partition`.

use std::collections::BTreeMap;

use super::log::{LogRecord, ReplicaLog};

/// What a replica believes its own role is (set by the controller's metadata).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Just restarted (or never told): not serving, not fetching.
    Unknown,
    Leader,
    /// Fetching from `leader` (None: the partition has no leader, so nothing to fetch from).
    Follower {
        leader: Option<u32>,
        truncating: bool,
    },
}

/// The leader's view of one follower (Kafka's `ReplicaState` kept by the leader for a remote replica).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowerProgress {
    /// The follower's LEO as its last fetch offset reported; -1 while unknown.
    pub log_end_offset: i64,
    /// Largest time at which this follower's fetch offset had reached the leader's LEO.
    pub last_caught_up_ms: u64,
    pub last_fetch_leader_leo: i64,
    pub last_fetch_ms: u64,
}

/// One broker's replica of the partition: its log, the epoch it knows, its role,
/// and (when it leads) its own ISR view and the progress of every follower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replica {
    pub broker: u32,
    pub log: ReplicaLog,
    pub leader_epoch: i32,
    pub role: Role,
    /// The ISR as this replica, when it leads, believes it (used for HW and acks=all).
    pub isr: Vec<u32>,
    pub followers: BTreeMap<u32, FollowerProgress>,
}

/// A follower's fetch request (FetchRequest v12+: fetch offset plus the follower's current leader epoch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchRequest {
    pub follower: u32,
    pub fetch_offset: i64,
    pub current_leader_epoch: i32,
    /// The epoch of the follower's last record (FetchRequest v12+, KIP-595); None: not sent.
    pub last_fetched_epoch: Option<i32>,
}

/// Errors a partition leader answers with, named as Kafka's `Errors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartitionError {
    NotLeaderOrFollower,
    FencedLeaderEpoch,
    UnknownLeaderEpoch,
    NotEnoughReplicas,
    NotEnoughReplicasAfterAppend,
    RequestTimedOut,
}

impl PartitionError {
    /// Kafka's error code name, as the broker logs it.
    pub fn name(self) -> &'static str {
        match self {
            PartitionError::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            PartitionError::FencedLeaderEpoch => "FENCED_LEADER_EPOCH",
            PartitionError::UnknownLeaderEpoch => "UNKNOWN_LEADER_EPOCH",
            PartitionError::NotEnoughReplicas => "NOT_ENOUGH_REPLICAS",
            PartitionError::NotEnoughReplicasAfterAppend => "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
            PartitionError::RequestTimedOut => "REQUEST_TIMED_OUT",
        }
    }
}

/// The leader's answer to a fetch: records from the fetch offset plus its high watermark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchResponse {
    Records {
        records: Vec<LogRecord>,
        high_watermark: i64,
        leader_log_end_offset: i64,
    },
    /// The fetch offset is past the leader's log end (OFFSET_OUT_OF_RANGE).
    OffsetOutOfRange {
        leader_log_end_offset: i64,
    },
    /// The follower's log diverges from the leader's: the largest leader epoch ≤ its
    /// lastFetchedEpoch and where that epoch ends on the leader (no records, KIP-595).
    DivergingEpoch {
        epoch: i32,
        end_offset: i64,
    },
    Error(PartitionError),
}

/// Kafka's `Partition` for every replica of one partition, plus the controller's
/// `PartitionRegistration` (leader, leader epoch, ISR). Reads `replica.lag.time.max.ms`
/// (passed in) and `min.insync.replicas` (passed in on appends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicatedPartition {
    pub(super) assignment: Vec<u32>,
    pub(super) leader: Option<u32>,
    pub(super) leader_epoch: i32,
    pub(super) isr: Vec<u32>,
    pub(super) replicas: BTreeMap<u32, Replica>,
    pub(super) next_record_id: u64,
    /// Virtual time used by the plain (kernel-less) API.
    pub(super) clock_ms: u64,
    pub(super) leader_epoch_enabled: bool,
    /// Followers send lastFetchedEpoch and truncate on a divergingEpoch (Kafka ≥ 2.7), rather
    /// than asking OffsetsForLeaderEpoch first (0.11–2.6). See `truncation.rs`.
    pub(super) truncation_on_fetch: bool,
}

impl ReplicatedPartition {
    /// A new partition: `leader` leads at epoch 0, every replica is in the ISR and follows it.
    pub fn new(replicas: &[u32], leader: u32) -> Self {
        assert!(replicas.contains(&leader), "the leader must be one of the replicas");
        let states = replicas
            .iter()
            .map(|&broker| {
                let role = if broker == leader {
                    Role::Leader
                } else {
                    Role::Follower { leader: Some(leader), truncating: false }
                };
                let replica = Replica {
                    broker,
                    log: ReplicaLog::default(),
                    leader_epoch: 0,
                    role,
                    isr: Vec::new(),
                    followers: BTreeMap::new(),
                };
                (broker, replica)
            })
            .collect();
        let mut partition = Self {
            assignment: replicas.to_vec(),
            leader: Some(leader),
            leader_epoch: 0,
            isr: replicas.to_vec(),
            replicas: states,
            next_record_id: 0,
            clock_ms: 0,
            leader_epoch_enabled: true,
            truncation_on_fetch: true,
        };
        partition.become_leader(leader, 0, replicas.to_vec(), 0);
        partition
    }

    /// Selects KIP-101 truncation (true, Kafka ≥ 0.11) or truncation to the HW (false, before).
    pub fn set_leader_epoch_enabled(&mut self, enabled: bool) {
        self.leader_epoch_enabled = enabled;
    }

    /// Moves the plain API's virtual clock forward.
    pub fn advance_clock(&mut self, duration_ms: u64) {
        self.clock_ms += duration_ms;
    }

    pub fn now_ms(&self) -> u64 {
        self.clock_ms
    }

    /// The assigned replicas, preferred leader first.
    pub fn assignment(&self) -> &[u32] {
        &self.assignment
    }

    /// The controller's leader (None: offline).
    pub fn leader(&self) -> Option<u32> {
        self.leader
    }

    /// The controller's leader epoch.
    pub fn leader_epoch(&self) -> i32 {
        self.leader_epoch
    }

    /// The ISR as the controller has committed it.
    pub fn isr(&self) -> Vec<u32> {
        self.isr.clone()
    }

    pub fn replica(&self, broker: u32) -> &Replica {
        self.replicas.get(&broker).unwrap_or_else(|| panic!("broker {broker} hosts no replica of this partition"))
    }

    pub(super) fn replica_mut(&mut self, broker: u32) -> &mut Replica {
        self.replicas.get_mut(&broker).unwrap_or_else(|| panic!("broker {broker} hosts no replica of this partition"))
    }

    /// The log end offset of a replica's own log.
    pub fn leo(&self, replica: u32) -> i64 {
        self.replica(replica).log.log_end_offset()
    }

    /// The high watermark a replica itself holds (a follower's lags the leader's).
    pub fn hw(&self, replica: u32) -> i64 {
        self.replica(replica).log.high_watermark()
    }

    /// Appends `records` new records at the controller's leader (acks=1 style, no ISR check).
    pub fn append_to_leader(&mut self, records: u32) {
        let leader = self.leader.expect("append_to_leader needs a leader");
        for _ in 0..records {
            let id = self.allocate_record_id();
            self.append_as_leader(leader, id, None, None).expect("the controller's leader accepts appends");
        }
    }

    /// Numbers a new record for the durability ledger.
    pub fn allocate_record_id(&mut self) -> u64 {
        self.next_record_id += 1;
        self.next_record_id
    }

    /// Appends one record at `leader`, stamped with its leader epoch. With `min_isr`
    /// (acks=all) a too-small ISR refuses the write: NOT_ENOUGH_REPLICAS, nothing appended.
    pub fn append_as_leader(
        &mut self,
        leader: u32,
        record_id: u64,
        sequence: Option<u64>,
        min_isr: Option<usize>,
    ) -> Result<i64, PartitionError> {
        let replica = self.replica_mut(leader);
        if replica.role != Role::Leader {
            return Err(PartitionError::NotLeaderOrFollower);
        }
        if min_isr.is_some_and(|min| replica.isr.len() < min) {
            return Err(PartitionError::NotEnoughReplicas);
        }
        let offset = replica.log.log_end_offset();
        replica.log.append(LogRecord { leader_epoch: replica.leader_epoch, record_id, sequence });
        self.maybe_increment_high_watermark(leader);
        Ok(offset)
    }

    /// The offset where an idempotent producer's sequence already sits in `leader`'s log.
    pub fn offset_of_sequence(&self, leader: u32, sequence: u64) -> Option<i64> {
        self.replica(leader).log.records().iter().position(|r| r.sequence == Some(sequence)).map(|i| i as i64)
    }

    /// `maybeIncrementLeaderHW`: HW = min LEO over the leader and its ISR followers; it only
    /// moves forward (a follower whose LEO is unknown holds it back). True if it advanced.
    pub fn maybe_increment_high_watermark(&mut self, leader: u32) -> bool {
        let replica = self.replica_mut(leader);
        let mut candidate = replica.log.log_end_offset();
        for follower in replica.isr.iter().filter(|b| **b != leader) {
            let leo = replica.followers.get(follower).map_or(-1, |p| p.log_end_offset);
            candidate = candidate.min(leo);
        }
        if candidate > replica.log.high_watermark() {
            replica.log.set_high_watermark(candidate);
            return true;
        }
        false
    }

    /// The leader side of a fetch (`fetchRecords` + `updateFollowerFetchState`): checks the
    /// epoch, records the follower's LEO and caught-up time, may advance the HW, reads records.
    pub fn handle_fetch(&mut self, leader: u32, request: FetchRequest, now_ms: u64) -> FetchResponse {
        if let Some(diverging) = self.check_last_fetched_epoch(leader, &request) {
            return diverging;
        }
        let replica = self.replica_mut(leader);
        if replica.role != Role::Leader {
            return FetchResponse::Error(PartitionError::NotLeaderOrFollower);
        }
        if request.current_leader_epoch < replica.leader_epoch {
            return FetchResponse::Error(PartitionError::FencedLeaderEpoch);
        }
        if request.current_leader_epoch > replica.leader_epoch {
            return FetchResponse::Error(PartitionError::UnknownLeaderEpoch);
        }
        let leader_leo = replica.log.log_end_offset();
        if request.fetch_offset > leader_leo {
            return FetchResponse::OffsetOutOfRange { leader_log_end_offset: leader_leo };
        }
        let progress = replica.followers.entry(request.follower).or_insert(FollowerProgress {
            log_end_offset: -1,
            last_caught_up_ms: 0,
            last_fetch_leader_leo: -1,
            last_fetch_ms: 0,
        });
        progress.last_caught_up_ms = if request.fetch_offset >= leader_leo {
            progress.last_caught_up_ms.max(now_ms)
        } else if request.fetch_offset >= progress.last_fetch_leader_leo {
            progress.last_caught_up_ms.max(progress.last_fetch_ms)
        } else {
            progress.last_caught_up_ms
        };
        progress.log_end_offset = request.fetch_offset;
        progress.last_fetch_leader_leo = progress.last_fetch_leader_leo.max(leader_leo);
        progress.last_fetch_ms = now_ms;
        self.maybe_increment_high_watermark(leader);
        self.read_for_follower(leader, request.fetch_offset)
    }

    /// What a (possibly delayed) fetch returns now: records from `fetch_offset` and the current HW.
    pub fn read_for_follower(&self, leader: u32, fetch_offset: i64) -> FetchResponse {
        let log = &self.replica(leader).log;
        if fetch_offset > log.log_end_offset() {
            return FetchResponse::OffsetOutOfRange { leader_log_end_offset: log.log_end_offset() };
        }
        FetchResponse::Records {
            records: log.read_from(fetch_offset),
            high_watermark: log.high_watermark(),
            leader_log_end_offset: log.log_end_offset(),
        }
    }

    /// `isFollowerInSync` for ISR expansion: the follower reached the leader's HW and the
    /// start of the leader's current epoch.
    fn follower_can_join_isr(&self, leader: u32, follower: u32) -> bool {
        let replica = self.replica(leader);
        let Some(progress) = replica.followers.get(&follower) else {
            return false;
        };
        let epoch_start = replica.log.epochs().entries().last().map_or(0, |(_, start)| *start);
        progress.log_end_offset >= replica.log.high_watermark() && progress.log_end_offset >= epoch_start
    }

    /// `isCaughtUp`: the follower's LEO equals the leader's, or it caught up within `lag_max_ms`.
    fn follower_is_caught_up(&self, leader: u32, follower: u32, now_ms: u64, lag_max_ms: u64) -> bool {
        let replica = self.replica(leader);
        let leader_leo = replica.log.log_end_offset();
        replica
            .followers
            .get(&follower)
            .is_some_and(|p| p.log_end_offset == leader_leo || now_ms.saturating_sub(p.last_caught_up_ms) <= lag_max_ms)
    }

    /// The ISR `leader` would ask the controller for after `follower`'s fetch (`maybeExpandIsr`):
    /// the follower joins if it is out of the ISR and now in sync.
    pub fn isr_expansion(&self, leader: u32, follower: u32) -> Option<Vec<u32>> {
        let replica = self.replica(leader);
        if replica.role != Role::Leader
            || replica.isr.contains(&follower)
            || !self.follower_can_join_isr(leader, follower)
        {
            return None;
        }
        Some(self.assignment.iter().copied().filter(|b| replica.isr.contains(b) || *b == follower).collect())
    }

    /// The ISR `leader` would ask for after the periodic lag check (`maybeShrinkIsr`), if it shrinks.
    pub fn isr_shrink(&self, leader: u32, now_ms: u64, lag_max_ms: u64) -> Option<Vec<u32>> {
        let replica = self.replica(leader);
        if replica.role != Role::Leader {
            return None;
        }
        let kept: Vec<u32> = replica
            .isr
            .iter()
            .copied()
            .filter(|b| *b == leader || self.follower_is_caught_up(leader, *b, now_ms, lag_max_ms))
            .collect();
        (kept.len() < replica.isr.len()).then_some(kept)
    }
}
