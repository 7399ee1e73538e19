//! The front page's bundle: the shell's header and the scenes to pick, no scene.

kafka_lab::bundle!(home);
