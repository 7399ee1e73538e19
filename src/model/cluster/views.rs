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
}

/// A broker box: is it up, and what it hosts and leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerView {
    pub id: u32,
    pub alive: bool,
    pub fenced: bool,
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
