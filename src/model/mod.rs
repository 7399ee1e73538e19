//! The pure, deterministic model of Kafka's internals.
//!
//! Rules every module here keeps: no UI or web crates, no wall clock (time is
//! virtual milliseconds passed in), all randomness from the kernel's one seeded
//! RNG, and no iteration order that depends on hashing.

pub mod cluster;
pub mod config;
pub mod group;
pub mod java_random;
pub mod kernel;
pub mod log;
pub mod partitioner;
pub mod replication;
pub mod scene;
pub mod timer;
