#![cfg_attr(target_arch = "wasm32", no_main)]
//! The replication scene's bundle: the shell and this scene only.

kafka_lab::bundle!(replication);
