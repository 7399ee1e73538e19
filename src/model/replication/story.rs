//! The replication scene's stories: which facts are key moments, and what each preset shows.

use super::{Fact, Replication};
use crate::model::kernel::{Message, Salience, Salient};
use crate::model::story::{Cue, Story};

impl Salient for Fact {
    fn salience(&self) -> Salience {
        Salience::Notable
    }
}

crate::messages! {
    pub STORY_KEYS;
    DEFAULT_QUESTION = "replication.story.default.question" => "What happens?";
    DEFAULT_WATCH = "replication.story.default.watch" => "Press Play.";
}

/// The scene's story for `preset` (`None`: the scene's default).
pub fn story(_preset: Option<&str>) -> Story<Replication> {
    Story {
        start: Cue::At(0),
        speed: 1.0,
        question: |_| Message::new(DEFAULT_QUESTION),
        watch: |_| Message::new(DEFAULT_WATCH),
        outcome: Cue::End,
        answer: |_| Message::new(DEFAULT_WATCH),
        beats: &[],
    }
}
