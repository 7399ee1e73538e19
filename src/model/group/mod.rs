//! The "Consumer groups" scene (classic protocol): Kafka's client-side assignors, the group
//! coordinator's state machine, members with a heartbeat thread and a poll loop, commits and lag.

pub mod assignor;
