//! One partition's replicas and the controller's record of it: the leader-side
//! fetch handling, the high-watermark rule and the ISR rules of Kafka's `Partition`.

use crate::model::kernel::sorted::{SortedMap, SortedSet};

use super::log::{FetchedRecords, LogRecord, ReplicaLog};

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
    /// Largest time at which this follower's fetch offset had reached the leader's LEO
    /// (None: never since this leader took over; Kafka writes 0, a time long past).
    pub last_caught_up_ms: Option<u64>,
    pub last_fetch_leader_leo: i64,
    /// When its last fetch arrived (None: none since this leader took over).
    pub last_fetch_ms: Option<u64>,
}

impl FollowerProgress {
    /// The state a new leader starts from (`Replica.resetReplicaState` for a new leader):
    /// LEO unknown; caught up now if it is in the ISR, else never.
    pub fn reset(in_isr: bool, now_ms: u64) -> Self {
        Self {
            log_end_offset: -1,
            last_caught_up_ms: in_isr.then_some(now_ms),
            last_fetch_leader_leo: -1,
            last_fetch_ms: None,
        }
    }
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
    pub followers: SortedMap<u32, FollowerProgress>,
}

/// A leader's append: the record's offset, and whether the log already held it (an
/// idempotent producer's retry of a batch that had been appended).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appended {
    pub offset: i64,
    pub duplicate: bool,
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
        records: FetchedRecords,
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
/// and `min.insync.replicas` (set by the scene; Kafka's defaults 30000 and 1 otherwise).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicatedPartition {
    pub(super) assignment: Vec<u32>,
    pub(super) leader: Option<u32>,
    pub(super) leader_epoch: i32,
    pub(super) isr: Vec<u32>,
    pub(super) replicas: SortedMap<u32, Replica>,
    pub(super) next_record_id: u64,
    /// The partition's clock: the plain API advances it, the scene sets it to the kernel's time.
    pub(super) clock_ms: u64,
    pub(super) leader_epoch_enabled: bool,
    /// The topic's `min.insync.replicas` as configured (may exceed the replication factor).
    pub(super) min_insync_replicas: usize,
    pub(super) replica_lag_time_max_ms: u64,
    /// Brokers the leader's metadata says are fenced: not ISR-eligible (`isReplicaIsrEligible`).
    pub(super) fenced: SortedSet<u32>,
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
                    followers: SortedMap::new(),
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
            min_insync_replicas: 1,
            replica_lag_time_max_ms: 30_000,
            fenced: SortedSet::new(),
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

    /// The scene's kernel time, before each event and command (it only moves forward).
    pub(super) fn sync_clock(&mut self, now_ms: u64) {
        debug_assert!(now_ms >= self.clock_ms, "the kernel's clock went back");
        self.clock_ms = now_ms;
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
            self.append_as_leader(leader, id, None, false).expect("the controller's leader accepts appends");
        }
    }

    /// Numbers a new record for the durability ledger.
    pub fn allocate_record_id(&mut self) -> u64 {
        self.next_record_id += 1;
        self.next_record_id
    }

    /// `appendRecordsToLeader`: with `acks_all`, an ISR below the effective minimum refuses
    /// the write first (NOT_ENOUGH_REPLICAS, nothing appended); then the log appends the record
    /// stamped with the leader epoch, unless its idempotent `sequence` is already there (a
    /// duplicate answers with the offset it has); then the HW may move.
    pub fn append_as_leader(
        &mut self,
        leader: u32,
        record_id: u64,
        sequence: Option<u64>,
        acks_all: bool,
    ) -> Result<Appended, PartitionError> {
        let min_isr = self.effective_min_isr();
        let replica = self.replica_mut(leader);
        if replica.role != Role::Leader {
            return Err(PartitionError::NotLeaderOrFollower);
        }
        if acks_all && replica.isr.len() < min_isr {
            return Err(PartitionError::NotEnoughReplicas);
        }
        if let Some(offset) = sequence.and_then(|s| self.offset_of_sequence(leader, s)) {
            return Ok(Appended { offset, duplicate: true });
        }
        let replica = self.replica_mut(leader);
        let offset = replica.log.log_end_offset();
        replica.log.append(LogRecord { leader_epoch: replica.leader_epoch, record_id, sequence });
        self.maybe_increment_high_watermark(leader);
        Ok(Appended { offset, duplicate: false })
    }

    /// The offset where an idempotent producer's sequence already sits in `leader`'s log.
    pub fn offset_of_sequence(&self, leader: u32, sequence: u64) -> Option<i64> {
        self.replica(leader).log.offset_of_sequence(sequence)
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
        // Kafka: Partition.readRecords takes the HW before this fetch's offset is counted.
        let initial_high_watermark = replica.log.high_watermark();
        let progress = replica.followers.entry(request.follower).or_insert(FollowerProgress::reset(false, now_ms));
        progress.last_caught_up_ms = if request.fetch_offset >= leader_leo {
            progress.last_caught_up_ms.max(Some(now_ms))
        } else if request.fetch_offset >= progress.last_fetch_leader_leo {
            progress.last_caught_up_ms.max(progress.last_fetch_ms)
        } else {
            progress.last_caught_up_ms
        };
        progress.log_end_offset = request.fetch_offset;
        progress.last_fetch_leader_leo = progress.last_fetch_leader_leo.max(leader_leo);
        progress.last_fetch_ms = Some(now_ms);
        self.maybe_increment_high_watermark(leader);
        match self.read_for_follower(leader, request.fetch_offset) {
            FetchResponse::Records { records, leader_log_end_offset, .. } => {
                FetchResponse::Records { records, high_watermark: initial_high_watermark, leader_log_end_offset }
            }
            other => other,
        }
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
}
