#![cfg_attr(target_arch = "wasm32", no_main)]
//! The timer scene's comparison bundle (`vs=` in a link): two runs side by side.

kafka_lab::bundle!(timer, compare);
