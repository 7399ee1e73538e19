//! A scene's run held for the UI: the big model lives in one `StoredValue`, and a
//! `Trigger` tells views that it changed (no signal per record).

use leptos::prelude::*;

use crate::link::LinkState;
use crate::model::kernel::{Describe, Input, Message};
use crate::model::scene::{LabScene, Run};

/// A scene the UI can hold in reactive storage (its model types cross no threads
/// on wasm, but Leptos' storage asks for `Send + Sync`).
pub trait UiScene:
    LabScene<Command: Send + Sync, Event: Send + Sync, Fact: Send + Sync, Refusal: Send + Sync> + Send + Sync
{
}

impl<S> UiScene for S where
    S: LabScene<Command: Send + Sync, Event: Send + Sync, Fact: Send + Sync, Refusal: Send + Sync> + Send + Sync
{
}

/// One event-log line rendered through the catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    pub time_ms: u64,
    pub actor: String,
    /// What happened, as markup: Kafka's own words marked `translate="no"`.
    pub html: crate::markup::Html,
    /// Recorded by the step that led to the current position.
    pub now: bool,
    /// Routine lines folded into this row (0 for an ordinary line).
    pub folded: usize,
}

/// What the shell (transport, log, URL) needs from any scene, without its types.
pub trait Transport {
    fn step(&self);
    fn back(&self);
    fn seek(&self, position: usize);
    /// Replays the next recorded input, or (at the tape's end) lets `duration_ms` pass.
    fn advance(&self, duration_ms: u64);
    fn reset(&self, seed: u64);
    /// (position, tape length, virtual ms, trace hash); tracks changes.
    fn status(&self) -> (usize, usize, u64, u64);
    /// Events the run has handled (what Play's stop at the budget reports).
    fn events_handled(&self) -> u64;
    /// The newest `count` log rows whose actor or text contains `filter` (case-insensitive).
    /// Unless `all`, runs of routine lines fold into one counted row.
    fn log_tail(&self, count: usize, filter: &str, all: bool) -> Vec<LogRow>;
    /// The story at the current step: result card and caption; tracks changes.
    fn story(&self) -> super::story::StoryView;
    /// The timeline's markers (recomputed when the tape changes).
    fn markers(&self) -> Vec<super::story::MarkerView>;
    /// Play's speed for the current story.
    fn story_speed(&self) -> f64;
    /// Play starts: past the tape's end a scene with nothing running starts its workload.
    fn play_begin(&self);
    /// One tick of Play at `speed`, handling at most about `max_events` events; also says how
    /// many it handled.
    fn play_tick(&self, speed: f64, max_events: u64) -> (crate::model::story::Tick, u64);
    /// Home, End, or the previous/next key moment.
    fn jump(&self, to: super::story::Jump);
    fn link(&self, embed: bool) -> LinkState;
    fn error(&self) -> RwSignal<Option<Message>>;
    /// Every property of the scene: (name, value in force, default, scope); tracks changes.
    fn config_rows(&self) -> Vec<ConfigRow>;
    /// Starts again (same seed, empty history) with `overrides`; on error nothing changes.
    fn reconfigure(&self, overrides: Vec<(String, String)>);
}

/// One property as the config panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigRow {
    pub name: &'static str,
    pub value: String,
    pub default: &'static str,
    pub scope: &'static str,
}

/// A typed scene run for views, plus the type-erased `Transport` for the shell.
pub struct Session<S: LabScene> {
    run: StoredValue<Run<S>>,
    changed: Trigger,
    error: RwSignal<Option<Message>>,
    preset: StoredValue<Option<String>>,
    player: StoredValue<crate::model::story::Player>,
    /// The event log's lines as last rendered (see [`super::story::RenderedLines`]).
    rendered: StoredValue<super::story::RenderedLines>,
}

impl<S: LabScene> Clone for Session<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: LabScene> Copy for Session<S> {}

impl<S: UiScene> Session<S> {
    pub fn new(run: Run<S>, preset: Option<String>) -> Self {
        Self {
            run: StoredValue::new(run),
            changed: Trigger::new(),
            error: RwSignal::new(None),
            preset: StoredValue::new(preset),
            player: StoredValue::new(crate::model::story::Player::default()),
            rendered: StoredValue::new(super::story::RenderedLines::default()),
        }
    }

    /// The story of the current preset (or the scene's default).
    pub fn story_of(&self) -> crate::model::story::Story<S> {
        S::story(self.preset.with_value(|p| p.clone()).as_deref())
    }

    /// Reads the run, and re-runs the caller when it changes.
    pub fn with<T>(&self, read: impl FnOnce(&Run<S>) -> T) -> T {
        self.changed.track();
        self.run.with_value(read)
    }

    /// Applies a user action or fault; a refusal is shown, and nothing changes.
    pub fn command(&self, command: S::Command) {
        let result = self.run.try_update_value(|run| run.history.push(Input::Command(command)));
        match result {
            Some(Err(why)) => self.error.set(Some(why.message())),
            _ => {
                self.error.set(None);
                self.changed.notify();
            }
        }
    }

    /// Replaces the run with a preset's, opened where its story starts.
    pub fn load_preset(&self, preset: &crate::model::scene::Preset) {
        match Run::<S>::preset_at_start(preset) {
            Ok(run) => {
                self.run.set_value(run);
                self.preset.set_value(Some(preset.id.to_string()));
                self.error.set(None);
                self.changed.notify();
            }
            Err(why) => self.error.set(Some(why.message())),
        }
    }

    pub fn preset_id(&self) -> Option<String> {
        self.changed.track();
        self.preset.get_value()
    }

    fn mutate(&self, change: impl FnOnce(&mut Run<S>)) {
        self.run.update_value(change);
        self.changed.notify();
    }
}

impl<S: UiScene> Transport for Session<S> {
    fn step(&self) {
        self.mutate(|run| run.history.step_visible());
    }

    fn back(&self) {
        self.mutate(|run| run.history.back_visible());
    }

    fn seek(&self, position: usize) {
        self.mutate(|run| run.history.seek(position));
    }

    fn advance(&self, duration_ms: u64) {
        self.mutate(|run| {
            if run.history.position() < run.history.tape().len() {
                run.history.step_forward();
            } else {
                let _ = run.history.push(Input::Advance(duration_ms));
            }
        });
    }

    fn reset(&self, seed: u64) {
        let overrides = self.run.with_value(|run| run.config.overrides());
        let pairs: Vec<(String, String)> = overrides.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
        match Run::<S>::new(seed, &pairs) {
            Ok(run) => {
                self.run.set_value(run);
                self.preset.set_value(None);
                self.changed.notify();
            }
            Err(why) => self.error.set(Some(why.message())),
        }
    }

    fn status(&self) -> (usize, usize, u64, u64) {
        self.with(|run| {
            let sim = run.sim();
            (run.history.position(), run.history.tape().len(), sim.now_ms(), sim.trace_hash())
        })
    }

    fn events_handled(&self) -> u64 {
        self.with(|run| run.sim().events_handled())
    }

    fn log_tail(&self, count: usize, filter: &str, all: bool) -> Vec<LogRow> {
        self.with(|run| {
            let mut rendered = self.rendered.write_value();
            super::story::log_rows(&run.history, count, filter, all, &mut rendered)
        })
    }

    fn story(&self) -> super::story::StoryView {
        let story = self.story_of();
        self.with(|run| super::story::story_view(&story, &run.history))
    }

    fn markers(&self) -> Vec<super::story::MarkerView> {
        let story = self.story_of();
        self.run.with_value(|run| super::story::marker_views(&story, &run.history))
    }

    fn story_speed(&self) -> f64 {
        self.changed.track();
        self.story_of().speed
    }

    fn play_begin(&self) {
        self.mutate(|run| {
            let history = &mut run.history;
            if history.position() == history.tape().len() {
                if let Some(command) = S::workload(history.current()) {
                    let _ = history.push(Input::Command(command));
                }
            }
        });
        let player = self.run.with_value(|run| crate::model::story::Player::new(&run.history));
        self.player.set_value(player);
    }

    fn play_tick(&self, speed: f64, max_events: u64) -> (crate::model::story::Tick, u64) {
        let story = self.story_of();
        let mut player = self.player.get_value();
        let mut tick = crate::model::story::Tick::Held;
        let mut handled = 0;
        self.run.update_value(|run| {
            let stops = story.stops(&run.history);
            let before = run.sim().events_handled();
            tick = player.tick_within(&mut run.history, speed, &stops, max_events);
            handled = run.sim().events_handled().saturating_sub(before);
        });
        self.player.set_value(player);
        if tick != crate::model::story::Tick::Held {
            self.changed.notify();
        }
        (tick, handled)
    }

    fn jump(&self, to: super::story::Jump) {
        let story = self.story_of();
        self.mutate(|run| {
            let target = super::story::jump_target(&story, &run.history, to);
            run.history.seek(target);
        });
    }

    fn link(&self, embed: bool) -> LinkState {
        self.with(|run| {
            let config = run.config.overrides().into_iter().map(|(n, v)| (n.to_string(), v)).collect();
            let position = run.history.position();
            LinkState {
                scene: Some(S::ID.to_string()),
                seed: Some(run.seed),
                config,
                actions: run.tape_text(),
                position: (position < run.history.tape().len()).then_some(position),
                preset: self.preset.get_value(),
                embed,
                lang: super::language::chosen_in_link(),
                theme: super::theme::in_link(),
                present: super::present::in_link(),
            }
        })
    }

    fn error(&self) -> RwSignal<Option<Message>> {
        self.error
    }

    fn config_rows(&self) -> Vec<ConfigRow> {
        self.with(|run| {
            run.config
                .schema()
                .iter()
                .map(|p| ConfigRow {
                    name: p.name,
                    value: run.config.display(p.name),
                    default: p.default,
                    scope: p.scope,
                })
                .collect()
        })
    }

    fn reconfigure(&self, overrides: Vec<(String, String)>) {
        let seed = self.run.with_value(|run| run.seed);
        match Run::<S>::new(seed, &overrides) {
            Ok(run) => {
                self.run.set_value(run);
                self.preset.set_value(None);
                self.error.set(None);
                self.changed.notify();
            }
            Err(why) => self.error.set(Some(why.message())),
        }
    }
}
