//! The timer scene's bundle: the shell and this scene only.

kafka_lab::bundle!(timer);
