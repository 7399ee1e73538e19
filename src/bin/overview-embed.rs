#![cfg_attr(target_arch = "wasm32", no_main)]
//! The overview scene's embed bundle: the shell's stage and this scene's picture only.

kafka_lab::bundle!(overview, embed);
