#![cfg_attr(target_arch = "wasm32", no_main)]
//! The exactly-once scene's bundle: the shell and this scene only.

kafka_lab::bundle!(transactions);
