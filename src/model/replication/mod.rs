//! The "Replication" scene: a partition's leader and followers, the fetch protocol
//! with LEO and high watermark, the ISR, producer acks against `min.insync.replicas`,
//! the controller's (un)clean elections, leader epochs (KIP-101), and a durability ledger.
//!
//! [`ReplicatedPartition`] is the plain, kernel-free model of one partition (usable on
//! its own); [`Replication`] wraps it in a world with a network, faults and a producer.

mod controller;
mod fetcher;
pub mod ledger;
pub mod log;
mod partition;
mod producer;
mod roles;
mod scene;
pub mod schema;
mod views;
mod world;

pub use ledger::{Ledger, LedgerEntry, LedgerSummary, Outcome};
pub use log::{EpochEndOffset, LeaderEpochCache, LogRecord, ReplicaLog};
pub use partition::{
    FetchRequest, FetchResponse, FollowerProgress, PartitionError, Replica, ReplicatedPartition, Role,
};
pub use producer::ProducerState;
pub use roles::{Election, FollowerRequest, Truncation};
pub use schema::{Acks, Settings, REPLICATION_SCHEMA};
pub use views::{
    in_flight, ControllerView, DescribeView, InFlightView, ProducerView, PurgatoryView, RecordView, ReplicaView,
};
pub use world::{BrokerState, Command, Event, Node, ProduceRequest, Replication, TOPIC};
