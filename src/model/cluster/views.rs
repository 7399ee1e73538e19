//! Small read-only views of the overview cluster for the UI and for tests.

use super::{Cluster, TOPIC};

/// One row of `kafka-topics --describe` plus the log end offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionView {
    pub topic: &'static str,
    pub partition: u32,
    pub leader: Option<u32>,
    pub leader_epoch: i32,
    pub replicas: Vec<u32>,
    pub isr: Vec<u32>,
    pub log_end_offset: i64,
    /// Each replica's own log end offset, in `replicas` order (a restarted follower's lags).
    pub replica_log_end_offsets: Vec<i64>,
    pub high_watermark: i64,
}

impl PartitionView {
    /// `broker`'s replica's log end offset (0 if it holds no replica).
    pub fn log_end_offset_of(&self, broker: u32) -> i64 {
        self.replicas.iter().position(|r| *r == broker).map_or(0, |i| self.replica_log_end_offsets[i])
    }
}

/// A broker box: is it up, and what it hosts and leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerView {
    pub id: u32,
    pub alive: bool,
    pub fenced: bool,
    /// Running, registered and unfenced (a restarted broker is not, until it catches up).
    pub serving: bool,
    pub leader_of: Vec<u32>,
    pub follower_of: Vec<u32>,
}

impl Cluster {
    pub fn partition_views(&self) -> Vec<PartitionView> {
        self.partitions
            .iter()
            .map(|p| PartitionView {
                topic: TOPIC,
                partition: p.id,
                leader: p.leader,
                leader_epoch: p.leader_epoch,
                replicas: p.replicas.clone(),
                isr: p.isr.clone(),
                log_end_offset: p.log_end_offset(),
                replica_log_end_offsets: p.log_end_offsets.clone(),
                high_watermark: p.high_watermark(),
            })
            .collect()
    }

    pub fn broker_views(&self) -> Vec<BrokerView> {
        self.brokers
            .iter()
            .map(|b| BrokerView {
                id: b.id,
                alive: b.alive,
                fenced: b.fenced,
                serving: b.serving(),
                leader_of: self.partitions.iter().filter(|p| p.leader == Some(b.id)).map(|p| p.id).collect(),
                follower_of: self
                    .partitions
                    .iter()
                    .filter(|p| p.leader != Some(b.id) && p.replicas.contains(&b.id))
                    .map(|p| p.id)
                    .collect(),
            })
            .collect()
    }
}
