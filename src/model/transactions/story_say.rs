//! What the stories say: questions, captions and answers computed from the run.

use super::core::Isolation;
use super::TxnLab;
use crate::model::kernel::{Arg, Message, Sim};

crate::messages! {
    pub STORY_KEYS;
    DEFAULT_QUESTION = "transactions.story.default.question" =>
        "What does each consumer receive from payments-validated, and where are the high watermark and the last stable offset?";
    DEFAULT_WATCH = "transactions.story.default.watch" =>
        "Press Play: producer-2 writes a record a second. Produce, commit, abort, crash or pause the application to see what changes.";
    DEFAULT_ANSWER = "transactions.story.default.answer" =>
        "log end offset {leo}, high watermark {hw}, last stable offset {lso}; read_uncommitted received {uncommitted}, read_committed {committed}";
}

pub fn default_question(_: &Sim<TxnLab>) -> Message {
    Message::new(DEFAULT_QUESTION)
}

pub fn default_watch(_: &Sim<TxnLab>) -> Message {
    Message::new(DEFAULT_WATCH)
}

pub fn default_answer(sim: &Sim<TxnLab>) -> Message {
    let world = sim.world();
    let log = world.log();
    Message::new(DEFAULT_ANSWER)
        .with("leo", Arg::int(log.log_end_offset()))
        .with("hw", Arg::int(log.high_watermark()))
        .with("lso", Arg::int(log.last_stable_offset()))
        .with("uncommitted", Arg::Count(world.consumer(Isolation::ReadUncommitted).received.len() as i64))
        .with("committed", Arg::Count(world.consumer(Isolation::ReadCommitted).received.len() as i64))
}
