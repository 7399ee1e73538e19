#![cfg_attr(target_arch = "wasm32", no_main)]
//! The lab notebook's bundle (`?scene=notebook`): its page and the models of the scenes its
//! experiments run (log, replication, groups, partitioner), no scene views.

kafka_lab::bundle!(notebook);
