#![cfg_attr(target_arch = "wasm32", no_main)]
//! The transactions scene's comparison bundle (`vs=` in a link): two runs side by side.

kafka_lab::bundle!(transactions, compare);
