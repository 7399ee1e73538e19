//! Small read-only views of the replication scene for the UI and for tests.

use super::ledger::LedgerSummary;
use super::log::LogRecord;
use super::partition::Role;
use super::world::{join, Event, Node, Replication, TOPIC};
use crate::model::kernel::Sim;

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
    /// "leader", "follower" or "unknown" (just restarted, no metadata yet), as this broker believes.
    pub role: &'static str,
    pub leader_epoch: i32,
    pub log_end_offset: i64,
    pub high_watermark: i64,
    pub in_isr: bool,
    pub slow_fetch_delay_ms: u64,
    pub records: Vec<RecordView>,
    /// The leader-epoch-checkpoint: (epoch, start offset) pairs.
    pub epoch_cache: Vec<(i32, i64)>,
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
    /// e.g. `Topic: orders`, `Partition: 0`, `Leader: 1`, `Replicas: 1,2,3`, `Isr: 1,2`, tab-separated.
    pub line: String,
    pub under_replicated_partitions: u32,
    pub under_min_isr_partitions: u32,
    pub offline_partitions: u32,
}

/// A message on the wire, for drawing: what it is, from where to where, how far along.
#[derive(Clone, Debug, PartialEq)]
pub struct InFlightView {
    /// "Fetch", "FetchResponse", "OffsetsForLeaderEpoch", "OffsetsForLeaderEpochResponse",
    /// "Produce" or "ProduceResponse".
    pub kind: &'static str,
    pub from: Node,
    pub to: Node,
    pub sent_ms: u64,
    pub arrives_ms: u64,
    /// 0.0 just sent … 1.0 arriving.
    pub progress: f64,
    /// A one-line summary (fetch offset, record count, HW, error…).
    pub detail: String,
}

fn role_name(role: &Role) -> &'static str {
    match role {
        Role::Leader => "leader",
        Role::Follower { .. } => "follower",
        Role::Unknown => "unknown",
    }
}

impl Replication {
    pub fn replica_views(&self) -> Vec<ReplicaView> {
        let isr = self.partition.isr();
        self.partition
            .assignment()
            .iter()
            .map(|&id| {
                let replica = self.partition.replica(id);
                let broker = self.broker(id);
                let hw = replica.log.high_watermark();
                ReplicaView {
                    broker: id,
                    alive: broker.alive,
                    paused: broker.paused,
                    fenced: broker.fenced,
                    role: role_name(&replica.role),
                    leader_epoch: replica.leader_epoch,
                    log_end_offset: replica.log.log_end_offset(),
                    high_watermark: hw,
                    in_isr: isr.contains(&id),
                    slow_fetch_delay_ms: broker.slow_fetch_delay_ms,
                    records: replica
                        .log
                        .records()
                        .iter()
                        .enumerate()
                        .map(|(offset, r)| RecordView {
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
        let leader = self.partition.leader().map_or("none".to_string(), |l| l.to_string());
        let line = format!(
            "Topic: {TOPIC}\tPartition: 0\tLeader: {leader}\tReplicas: {}\tIsr: {}",
            join(self.partition.assignment()),
            join(&isr)
        );
        DescribeView {
            line,
            under_replicated_partitions: u32::from(isr.len() < self.partition.assignment().len()),
            under_min_isr_partitions: u32::from(isr.len() < self.settings.min_insync_replicas),
            offline_partitions: u32::from(self.partition.leader().is_none()),
        }
    }

    /// The log the ledger is read against: the current leader's, or the last leader's if offline.
    pub fn reference_log(&self) -> &[LogRecord] {
        let leader = self.partition.leader().unwrap_or(self.last_leader);
        self.partition.replica(leader).log.records()
    }

    /// The ledger's totals against the current leader's log.
    pub fn ledger_summary(&self) -> LedgerSummary {
        self.ledger.summarize(self.reference_log())
    }

    /// Record ids the producer was told are stored but the leader no longer has.
    pub fn acked_lost(&self) -> Vec<u64> {
        self.ledger.acked_lost(self.reference_log())
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
            for (offset, (a, b)) in reference.iter().zip(log).enumerate() {
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
                log.records()[..log.high_watermark() as usize].to_vec()
            }
            None => Vec::new(),
        }
    }
}

/// The messages in flight in a run, with their progress at the run's current time.
pub fn in_flight(sim: &Sim<Replication>) -> Vec<InFlightView> {
    let now_ms = sim.now_ms();
    sim.queue().iter().filter_map(|(arrives_ms, event)| describe_message(event, arrives_ms, now_ms)).collect()
}

fn describe_message(event: &Event, arrives_ms: u64, now_ms: u64) -> Option<InFlightView> {
    let (kind, from, to, sent_ms, detail) = match event {
        Event::FetchArrives { leader, request, sent_ms, .. } => (
            "Fetch",
            Node::Broker(request.follower),
            Node::Broker(*leader),
            *sent_ms,
            format!("fetchOffset={}", request.fetch_offset),
        ),
        Event::FetchResponseArrives { follower, leader, response, sent_ms, .. } => {
            ("FetchResponse", Node::Broker(*leader), Node::Broker(*follower), *sent_ms, fetch_detail(response))
        }
        Event::EpochRequestArrives { leader, follower, leader_epoch, sent_ms, .. } => (
            "OffsetsForLeaderEpoch",
            Node::Broker(*follower),
            Node::Broker(*leader),
            *sent_ms,
            format!("leaderEpoch={leader_epoch}"),
        ),
        Event::EpochResponseArrives { follower, leader, answer, sent_ms, .. } => {
            let detail = match answer {
                Ok(a) => format!("leaderEpoch={} endOffset={}", a.leader_epoch.unwrap_or(-1), a.end_offset),
                Err(e) => e.name().to_string(),
            };
            ("OffsetsForLeaderEpochResponse", Node::Broker(*leader), Node::Broker(*follower), *sent_ms, detail)
        }
        Event::ProduceArrives { leader, request, sent_ms } => {
            ("Produce", Node::Producer, Node::Broker(*leader), *sent_ms, format!("record #{}", request.record_id))
        }
        Event::ProduceResponseArrives { from, result, sent_ms, .. } => {
            let detail = match result {
                Ok(offset) => format!("offset={offset}"),
                Err(e) => e.name().to_string(),
            };
            ("ProduceResponse", Node::Broker(*from), Node::Producer, *sent_ms, detail)
        }
        _ => return None,
    };
    let span = arrives_ms.saturating_sub(sent_ms).max(1) as f64;
    let progress = (now_ms.saturating_sub(sent_ms) as f64 / span).clamp(0.0, 1.0);
    Some(InFlightView { kind, from, to, sent_ms, arrives_ms, progress, detail })
}

fn fetch_detail(response: &super::partition::FetchResponse) -> String {
    use super::partition::FetchResponse;
    match response {
        FetchResponse::Records { records, high_watermark, .. } => {
            format!("{} record(s), highWatermark={high_watermark}", records.len())
        }
        FetchResponse::OffsetOutOfRange { leader_log_end_offset } => {
            format!("OFFSET_OUT_OF_RANGE (leader LEO {leader_log_end_offset})")
        }
        FetchResponse::Error(e) => e.name().to_string(),
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
                waiting_produces: self.produce_purgatory.get(&b.id).map_or(0, Vec::len),
            })
            .filter(|p| !p.parked_fetches.is_empty() || p.waiting_produces > 0)
            .collect()
    }

    pub fn producer_view(&self) -> ProducerView {
        ProducerView {
            in_flight: self.producer.in_flight.len(),
            waiting_for_leader: self.producer.waiting_for_leader.len(),
        }
    }
}
