//! Kafka Lab: a deterministic model of Apache Kafka's internals (`model`) and,
//! on wasm32, the Leptos app that shows it (`ui`).

pub mod i18n;
pub mod link;
pub mod markup;
pub mod model;
pub mod scenes;

#[cfg(target_arch = "wasm32")]
pub mod ui;
