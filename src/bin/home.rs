#![cfg_attr(target_arch = "wasm32", no_main)]
//! The front page's bundle: the shell's header and the scenes to pick, no scene.

kafka_lab::bundle!(home);
