//! Small read-only views of the consumer-groups lab for the UI and for tests.

use super::client::ClientPhase;
use super::{GroupLab, TOPIC};

/// What a span on a member's lane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanKind {
    /// A heartbeat sent by the heartbeat thread (an instant).
    Heartbeat,
    /// The processing loop working on a polled batch.
    Process,
    /// JoinGroup sent, waiting for the response (the coordinator is in PreparingRebalance).
    Joining,
    /// JoinGroup answered, waiting for the SyncGroup response (CompletingRebalance).
    AwaitingSync,
    /// A stop-the-world pause: both threads frozen.
    Paused,
    /// The poll timeout expired (an instant).
    PollTimeout,
    /// The process is down.
    Dead,
}

/// One span of a member lane; `to_ms == u64::MAX` while still open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneSpan {
    pub kind: SpanKind,
    pub from_ms: u64,
    pub to_ms: u64,
}

/// A stretch during which a member processed nothing because a rebalance revoked its partitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StopSpan {
    pub member: String,
    pub from_ms: u64,
    pub to_ms: u64,
    /// The generation the rebalance ended in.
    pub generation: i32,
}

impl StopSpan {
    pub fn duration_ms(&self) -> u64 {
        self.to_ms - self.from_ms
    }
}

/// A lag chart point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagSample {
    pub time_ms: u64,
    pub lag: i64,
}

/// One row of `kafka-consumer-groups --describe`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribeRow {
    pub topic: &'static str,
    pub partition: u32,
    /// `None` prints as "-" (nothing committed yet).
    pub current_offset: Option<i64>,
    pub log_end_offset: i64,
    /// `None` prints as "-".
    pub lag: Option<i64>,
    /// `None` prints as "-".
    pub consumer_id: Option<String>,
}

/// A member lane header: who it is and what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberView {
    pub index: u32,
    pub name: String,
    pub client_id: String,
    pub instance_id: Option<String>,
    pub member_id: Option<String>,
    pub alive: bool,
    pub paused: bool,
    pub is_leader: bool,
    pub generation: i32,
    /// "Unjoined", "Joining", "AwaitingSync" or "Stable".
    pub phase: &'static str,
    pub assigned: Vec<u32>,
    pub ms_per_record: u64,
    pub lane: Vec<LaneSpan>,
}

impl GroupLab {
    /// The `--describe` table, as Kafka prints it from the coordinator's assignment and offsets.
    pub fn describe(&self) -> Vec<DescribeRow> {
        (0..self.log_end.len() as u32)
            .map(|p| {
                let committed = self.coordinator.committed(p);
                DescribeRow {
                    topic: TOPIC,
                    partition: p,
                    current_offset: committed,
                    log_end_offset: self.log_end[p as usize],
                    lag: committed.map(|c| self.log_end[p as usize] - c),
                    consumer_id: self.coordinator.owner_of(p).map(str::to_string),
                }
            })
            .collect()
    }

    /// True while `--describe` would warn that the group is rebalancing.
    pub fn rebalancing(&self) -> bool {
        matches!(self.coordinator.state, super::GroupState::PreparingRebalance | super::GroupState::CompletingRebalance)
    }

    pub fn member_views(&self, now_ms: u64) -> Vec<MemberView> {
        self.members
            .iter()
            .map(|m| MemberView {
                index: m.index,
                name: m.name(),
                client_id: m.client_id.clone(),
                instance_id: m.instance_id.clone(),
                member_id: m.member_id.clone(),
                alive: m.alive,
                paused: now_ms < m.paused_until_ms,
                is_leader: m.is_leader && m.member_id.is_some(),
                generation: m.generation,
                phase: match m.phase {
                    ClientPhase::Unjoined => "Unjoined",
                    ClientPhase::Joining => "Joining",
                    ClientPhase::AwaitingSync => "AwaitingSync",
                    ClientPhase::Stable => "Stable",
                },
                assigned: m.assigned.clone(),
                ms_per_record: m.ms_per_record,
                lane: m.lane.clone(),
            })
            .collect()
    }

    /// Lag samples per partition (one a second).
    pub fn lag_history(&self) -> &[Vec<LagSample>] {
        &self.lag_history
    }

    /// Every stop of processing caused by a rebalance, oldest first.
    pub fn stops(&self) -> &[StopSpan] {
        &self.stops
    }

    /// Total stopped time per member name, and the sum over members.
    pub fn stop_totals(&self) -> (Vec<(String, u64)>, u64) {
        let mut per: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
        for s in &self.stops {
            *per.entry(s.member.clone()).or_default() += s.duration_ms();
        }
        let total = per.values().sum();
        (per.into_iter().collect(), total)
    }

    /// Partitions holding a poison pill, with the pill's offset.
    pub fn poison_pills(&self) -> Vec<(u32, i64)> {
        self.poison.iter().map(|(p, o)| (*p, *o)).collect()
    }

    /// Member ids the stored assignment gives no partition (idle consumers), in id order.
    pub fn idle_members(&self) -> Vec<&str> {
        self.coordinator.assignment.iter().filter(|(_, list)| list.is_empty()).map(|(id, _)| id.as_str()).collect()
    }

    /// Partitions nobody currently works on (no live, stable member holds them).
    pub fn idle_member_count(&self) -> usize {
        self.coordinator.assignment.values().filter(|list| list.is_empty()).count()
    }
}
