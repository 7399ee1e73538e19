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
pub mod notebook;
pub mod partitioner;
pub mod replication;
pub mod scene;
pub mod story;
pub mod timer;
pub mod transactions;

/// The topic every scene's cluster hosts.
pub const TOPIC: &str = "orders";

/// A list of broker ids as Kafka's tools print it (`1,2,3`).
pub fn join_ids(ids: &[u32]) -> String {
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// Every table of message keys the model emits (facts, refusals, actors, link errors), for the
/// catalog: each locale file translates all of them.
pub const MESSAGE_TABLES: &[&[kernel::Key]] = &[
    kernel::ACTOR_KEYS,
    kernel::MOMENT_KEYS,
    kernel::TOKEN_KEYS,
    kernel::TAPE_KEYS,
    scene::RUN_KEYS,
    config::CONFIG_KEYS,
    cluster::FACT_KEYS,
    cluster::REFUSAL_KEYS,
    cluster::STORY_KEYS,
    log::FACT_KEYS,
    log::REFUSAL_KEYS,
    log::STORY_KEYS,
    replication::FACT_KEYS,
    replication::WIRE_KEYS,
    replication::REFUSAL_KEYS,
    replication::STORY_KEYS,
    group::FACT_KEYS,
    group::REFUSAL_KEYS,
    group::STORY_KEYS,
    partitioner::FACT_KEYS,
    partitioner::REFUSAL_KEYS,
    partitioner::STORY_KEYS,
    timer::FACT_KEYS,
    timer::ORIGIN_KEYS,
    timer::PURGATORY_FACT_KEYS,
    timer::REFUSAL_KEYS,
    timer::STORY_KEYS,
    transactions::FACT_KEYS,
    transactions::REFUSAL_KEYS,
    transactions::STORY_KEYS,
    transactions::TXN_STORY_KEYS,
    transactions::RETRY_STORY_KEYS,
];
