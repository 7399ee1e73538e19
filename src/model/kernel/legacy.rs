//! Transitional: lets a scene not yet converted to typed facts and `check`/`apply`
//! run on the kernel. Deleted once every scene speaks in facts.

use super::actor::Actor;
use super::message::{Arg, Describe, Message};
use super::Ctx;

/// A log line or refusal still written as English prose.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prose(pub String);

crate::messages! {
    pub PROSE_KEYS;
    PROSE = "legacy.prose" => "{text}";
}

impl Describe for Prose {
    fn message(&self) -> Message {
        Message::new(PROSE).with("text", Arg::text(self.0.clone()))
    }
}

impl std::fmt::Display for Prose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E> Ctx<E, Prose> {
    /// Appends a prose line (transitional).
    pub fn log(&mut self, actor: impl Into<Actor>, text: impl Into<String>) {
        self.record(actor.into(), Prose(text.into()));
    }
}

/// The old contract: `apply` may refuse, promising to change nothing.
pub trait LegacyWorld: Clone {
    type Event: Clone + std::fmt::Debug;
    type Command: Clone + std::fmt::Debug + PartialEq;
    fn start(&mut self, ctx: &mut Ctx<Self::Event, Prose>);
    fn handle(&mut self, event: Self::Event, ctx: &mut Ctx<Self::Event, Prose>);
    fn apply(&mut self, command: &Self::Command, ctx: &mut Ctx<Self::Event, Prose>) -> Result<(), String>;
}

/// Implements [`super::World`] for a [`LegacyWorld`]: `check` tries the command on a copy.
#[macro_export]
macro_rules! legacy_world {
    ($world:ty) => {
        impl $crate::model::kernel::World for $world {
            type Event = <$world as $crate::model::kernel::LegacyWorld>::Event;
            type Command = <$world as $crate::model::kernel::LegacyWorld>::Command;
            type Fact = $crate::model::kernel::Prose;
            type Refusal = $crate::model::kernel::Prose;
            fn start(&mut self, ctx: &mut $crate::model::kernel::Ctx<Self::Event, Self::Fact>) {
                $crate::model::kernel::LegacyWorld::start(self, ctx)
            }
            fn handle(&mut self, event: Self::Event, ctx: &mut $crate::model::kernel::Ctx<Self::Event, Self::Fact>) {
                $crate::model::kernel::LegacyWorld::handle(self, event, ctx)
            }
            fn check(
                &self,
                command: &Self::Command,
                ctx: &$crate::model::kernel::Ctx<Self::Event, Self::Fact>,
            ) -> Result<(), Self::Refusal> {
                let mut world = self.clone();
                let mut ctx = ctx.clone();
                $crate::model::kernel::LegacyWorld::apply(&mut world, command, &mut ctx)
                    .map_err($crate::model::kernel::Prose)
            }
            fn apply(
                &mut self,
                command: &Self::Command,
                ctx: &mut $crate::model::kernel::Ctx<Self::Event, Self::Fact>,
            ) {
                let applied = $crate::model::kernel::LegacyWorld::apply(self, command, ctx);
                debug_assert!(applied.is_ok(), "check accepted a command that apply refused");
            }
        }
    };
}
