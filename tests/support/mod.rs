//! Helpers shared by several integration tests (`mod support;` in each).

pub mod groups;
