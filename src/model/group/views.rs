//! Small read-only views of the consumer-groups lab for the UI and for tests.

use crate::model::kernel::sorted::SortedMap;

use super::{ClientPhase, GroupLab, GroupState, LagSample, LaneSpan, StopSpan, TOPIC};

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
    /// The member's index (`C1` is 1); its actor is `Actor::Member(index)`.
    pub index: u32,
    pub client_id: String,
    pub instance_id: Option<String>,
    pub member_id: Option<String>,
    pub alive: bool,
    pub paused: bool,
    pub is_leader: bool,
    pub generation: i32,
    pub phase: ClientPhase,
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
        matches!(self.coordinator.state, GroupState::PreparingRebalance | GroupState::CompletingRebalance)
    }

    pub fn member_views(&self, now_ms: u64) -> Vec<MemberView> {
        self.members
            .iter()
            .map(|m| MemberView {
                index: m.index,
                client_id: m.client_id.clone(),
                instance_id: m.instance_id.clone(),
                member_id: m.member_id.clone(),
                alive: m.alive,
                paused: now_ms < m.paused_until_ms,
                is_leader: m.is_leader && m.member_id.is_some(),
                generation: m.generation,
                phase: m.phase,
                assigned: m.assigned.clone(),
                ms_per_record: m.ms_per_record,
                lane: m.lane.clone(),
            })
            .collect()
    }

    /// How many member processes the lab has started (running or not).
    pub fn member_count(&self) -> usize {
        self.members.len()
    }

    /// The index of the member process a coordinator member id belongs to.
    pub fn member_index(&self, member_id: &str) -> Option<u32> {
        self.members.iter().find(|m| m.member_id.as_deref() == Some(member_id)).map(|m| m.index)
    }

    /// Lag samples per partition (one a second).
    pub fn lag_history(&self) -> &[Vec<LagSample>] {
        &self.lag_history
    }

    /// Every stop of processing caused by a rebalance, oldest first.
    pub fn stops(&self) -> &[StopSpan] {
        &self.stops
    }

    /// Total stopped time per member index, and the sum over members.
    pub fn stop_totals(&self) -> (Vec<(u32, u64)>, u64) {
        let mut per: SortedMap<u32, u64> = SortedMap::new();
        for s in &self.stops {
            *per.entry(s.member).or_default() += s.duration_ms();
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
