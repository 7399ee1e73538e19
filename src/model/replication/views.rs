//! Small read-only views of the replication scene for the UI and for tests.

use std::fmt;

use super::ledger::LedgerSummary;
use super::log::{LogRecord, Records};
use super::partition::Role;
use super::{join, Replication, TOPIC};

/// One offset of a replica's log: which record, stamped with which leader epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordView {
    pub offset: i64,
    pub record_id: u64,
    pub leader_epoch: i32,
    /// Below this replica's own HW (visible to consumers if this replica leads).
    pub below_high_watermark: bool,
}

/// A broker column: its process state and its replica's log with LEO and HW markers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaView {
    pub broker: u32,
    pub alive: bool,
    pub paused: bool,
    pub fenced: bool,
    /// The role this broker believes it has.
    pub role: ReplicaRole,
    pub leader_epoch: i32,
    pub log_end_offset: i64,
    pub high_watermark: i64,
    pub in_isr: bool,
    pub slow_fetch_delay_ms: u64,
    /// The records from offset `records_from` on (all of them, or none, or a window).
    pub records: Vec<RecordView>,
    /// The offset of `records[0]`.
    pub records_from: i64,
    /// Before a window: the runs of one leader epoch among the records left out, as
    /// (epoch, first offset, count).
    pub folded_runs: Vec<(i32, i64, usize)>,
    /// The leader-epoch-checkpoint: (epoch, start offset) pairs.
    pub epoch_cache: Vec<(i32, i64)>,
}

impl ReplicaView {
    /// The record at `offset`, if this view holds it.
    pub fn record_at(&self, offset: i64) -> Option<RecordView> {
        let index = usize::try_from(offset.checked_sub(self.records_from)?).ok()?;
        self.records.get(index).copied()
    }
}

/// Runs of one leader epoch among `records`: (epoch, first offset, count).
fn epoch_runs(records: impl Iterator<Item = LogRecord>) -> Vec<(i32, i64, usize)> {
    let mut runs: Vec<(i32, i64, usize)> = Vec::new();
    for (offset, record) in records.enumerate() {
        match runs.last_mut() {
            Some(run) if run.0 == record.leader_epoch => run.2 += 1,
            _ => runs.push((record.leader_epoch, offset as i64, 1)),
        }
    }
    runs
}

/// Which records a replica view carries.
#[derive(Clone, Copy)]
enum Shown {
    None,
    /// From this offset on; the ones before fold into epoch runs.
    From(i64),
}

/// The controller's view: the partition record and which brokers it fenced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerView {
    pub leader: Option<u32>,
    pub leader_epoch: i32,
    pub isr: Vec<u32>,
    pub fenced: Vec<u32>,
    pub unclean_leader_election: bool,
}

/// `kafka-topics --describe` for the partition, plus the health counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribeView {
    /// Kafka's describe line, as fields (its `Display` is Kafka's own text).
    pub line: DescribeLine,
    pub under_replicated_partitions: u32,
    pub under_min_isr_partitions: u32,
    pub offline_partitions: u32,
}

/// What a broker believes its role is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplicaRole {
    Leader,
    Follower,
    /// Just restarted: no metadata yet.
    Unknown,
}

impl ReplicaRole {
    fn of(role: &Role) -> Self {
        match role {
            Role::Leader => ReplicaRole::Leader,
            Role::Follower { .. } => ReplicaRole::Follower,
            Role::Unknown => ReplicaRole::Unknown,
        }
    }
}

/// The `kafka-topics --describe` line of the partition, as its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribeLine {
    pub topic: &'static str,
    pub partition: u32,
    pub leader: Option<u32>,
    pub replicas: Vec<u32>,
    pub isr: Vec<u32>,
}

/// Kafka's own text: `Topic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2`.
impl fmt::Display for DescribeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let leader = self.leader.map_or("none".to_string(), |l| l.to_string());
        write!(
            f,
            "Topic: {}\tPartition: {}\tLeader: {leader}\tReplicas: {}\tIsr: {}",
            self.topic,
            self.partition,
            join(&self.replicas),
            join(&self.isr)
        )
    }
}

impl Replication {
    /// Every assigned replica with its whole log (for the log grid).
    pub fn replica_views(&self) -> Vec<ReplicaView> {
        self.replica_views_with(Shown::From(0))
    }

    /// Every assigned replica with its records from `from_offset` on, the older ones folded
    /// into epoch runs: what the log grid draws, without copying a long log on every step.
    pub fn replica_window(&self, from_offset: i64) -> Vec<ReplicaView> {
        self.replica_views_with(Shown::From(from_offset.max(0)))
    }

    /// Every assigned replica without its records (`records` is empty): cards and captions
    /// need only offsets and roles, and copying every record of every replica on each step
    /// is what made a 7-broker run slow to draw.
    pub fn replica_states(&self) -> Vec<ReplicaView> {
        self.replica_views_with(Shown::None)
    }

    fn replica_views_with(&self, shown: Shown) -> Vec<ReplicaView> {
        let isr = self.partition.isr();
        self.partition
            .assignment()
            .iter()
            .map(|&id| {
                let replica = self.partition.replica(id);
                let broker = self.broker(id);
                let hw = replica.log.high_watermark();
                let records = replica.log.records();
                let (from, folded_runs) = match shown {
                    Shown::None => (records.len(), Vec::new()),
                    Shown::From(offset) => {
                        let from = usize::try_from(offset).unwrap_or(usize::MAX).min(records.len());
                        (from, epoch_runs(records.iter().take(from)))
                    }
                };
                ReplicaView {
                    broker: id,
                    alive: broker.alive,
                    paused: broker.paused,
                    fenced: broker.fenced,
                    role: ReplicaRole::of(&replica.role),
                    leader_epoch: replica.leader_epoch,
                    log_end_offset: replica.log.log_end_offset(),
                    high_watermark: hw,
                    in_isr: isr.contains(&id),
                    slow_fetch_delay_ms: broker.slow_fetch_delay_ms,
                    records_from: from as i64,
                    folded_runs,
                    records: records
                        .iter_from(from)
                        .zip(from..)
                        .map(|(r, offset)| RecordView {
                            offset: offset as i64,
                            record_id: r.record_id,
                            leader_epoch: r.leader_epoch,
                            below_high_watermark: (offset as i64) < hw,
                        })
                        .collect(),
                    epoch_cache: replica.log.epochs().entries().to_vec(),
                }
            })
            .collect()
    }

    pub fn controller_view(&self) -> ControllerView {
        ControllerView {
            leader: self.partition.leader(),
            leader_epoch: self.partition.leader_epoch(),
            isr: self.partition.isr(),
            fenced: self.brokers.iter().filter(|b| b.fenced).map(|b| b.id).collect(),
            unclean_leader_election: self.settings.unclean_leader_election,
        }
    }

    pub fn describe(&self) -> DescribeView {
        let isr = self.partition.isr();
        let line = DescribeLine {
            topic: TOPIC,
            partition: 0,
            leader: self.partition.leader(),
            replicas: self.partition.assignment().to_vec(),
            isr: isr.clone(),
        };
        DescribeView {
            line,
            under_replicated_partitions: u32::from(isr.len() < self.partition.assignment().len()),
            // Kafka: TopicCommand's isUnderMinIsr (no leader, or an ISR below the configured minimum).
            under_min_isr_partitions: u32::from(
                self.partition.leader().is_none() || isr.len() < self.settings.min_insync_replicas,
            ),
            offline_partitions: u32::from(self.partition.leader().is_none()),
        }
    }

    /// The log the ledger is read against: the current leader's, or the last leader's if offline.
    pub fn reference_log(&self) -> Records<'_> {
        let leader = self.partition.leader().unwrap_or(self.last_leader);
        self.partition.replica(leader).log.records()
    }

    /// The ledger's totals against the current leader's log.
    pub fn ledger_summary(&self) -> LedgerSummary {
        self.ledger.summarize(self.reference_log().iter())
    }

    /// Record ids the producer was told are stored but the leader no longer has.
    pub fn acked_lost(&self) -> Vec<u64> {
        self.ledger.acked_lost(self.reference_log().iter())
    }

    /// Offsets where a live replica holds a different record than the leader (silent divergence).
    pub fn divergent_offsets(&self) -> Vec<i64> {
        let Some(leader) = self.partition.leader() else {
            return Vec::new();
        };
        let reference = self.partition.replica(leader).log.records();
        let mut offsets = std::collections::BTreeSet::new();
        for id in self.partition.assignment().iter().copied().filter(|b| *b != leader && self.broker(*b).alive) {
            let log = self.partition.replica(id).log.records();
            for (offset, (a, b)) in reference.iter().zip(log.iter()).enumerate() {
                if a.record_id != b.record_id {
                    offsets.insert(offset as i64);
                }
            }
        }
        offsets.into_iter().collect()
    }

    /// What a consumer can read now: the leader's records below its high watermark.
    pub fn consumer_readable(&self) -> Vec<LogRecord> {
        match self.partition.leader() {
            Some(leader) => {
                let log = &self.partition.replica(leader).log;
                log.records().iter().take(log.high_watermark() as usize).collect()
            }
            None => Vec::new(),
        }
    }
}

/// Requests a leader holds in its purgatories (`DelayedFetch`, `DelayedProduce`), for drawing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PurgatoryView {
    pub broker: u32,
    /// Followers whose fetch is parked until data arrives or `replica.fetch.wait.max.ms` passes.
    pub parked_fetches: Vec<u32>,
    /// acks=all produce requests waiting for the ISR to reach their offset.
    pub waiting_produces: usize,
}

/// The producer as the lab shows it: requests on the wire and records held back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProducerView {
    pub in_flight: usize,
    pub waiting_for_leader: usize,
}

impl Replication {
    /// Each broker's purgatories (brokers with nothing parked are left out).
    pub fn purgatory_views(&self) -> Vec<PurgatoryView> {
        self.brokers
            .iter()
            .map(|b| PurgatoryView {
                broker: b.id,
                parked_fetches: self
                    .fetch_purgatory
                    .get(&b.id)
                    .map_or(Vec::new(), |f| f.iter().map(|d| d.follower).collect()),
                waiting_produces: self.produce_purgatory.get(&b.id).map_or(0, |p| p.parked.len()),
            })
            .filter(|p| !p.parked_fetches.is_empty() || p.waiting_produces > 0)
            .collect()
    }

    /// The steady load's rate in records per second (0: none runs).
    pub fn producer_load_rate(&self) -> u64 {
        self.producer.load_records_per_sec
    }

    pub fn producer_view(&self) -> ProducerView {
        ProducerView {
            in_flight: self.producer.in_flight.len(),
            waiting_for_leader: self.producer.waiting_for_leader.len(),
        }
    }
}
