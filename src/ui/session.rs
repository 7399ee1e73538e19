//! A scene's run held for the UI: the big model lives in one `StoredValue`, and a
//! `Trigger` tells views that it changed (no signal per record).

use leptos::prelude::*;

use crate::i18n::render;
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
    /// Its index in the whole log (a stable key).
    pub index: usize,
    pub time_ms: u64,
    pub actor: String,
    pub text: String,
    /// The same text as markup, Kafka's own words marked `translate="no"`.
    pub html: crate::markup::Html,
}

/// What the shell (transport, log, URL) needs from any scene, without its types.
pub trait Transport {
    fn step(&self);
    fn back(&self);
    fn seek(&self, position: usize);
    /// One tick of Play: replays the next recorded input, or lets `duration_ms` pass.
    fn play_tick(&self, duration_ms: u64);
    fn reset(&self, seed: u64);
    /// (position, tape length, virtual ms, trace hash); tracks changes.
    fn status(&self) -> (usize, usize, u64, u64);
    /// The newest `count` log lines whose actor or text contains `filter` (case-insensitive).
    /// Each with its index in the log.
    fn log_tail(&self, count: usize, filter: &str) -> Vec<LogRow>;
    fn link(&self, embed: bool) -> LinkState;
    fn error(&self) -> RwSignal<Option<Message>>;
    /// The scene's `LabScene::play_scale`.
    fn play_scale(&self) -> f64;
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
        }
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

    /// Replaces the run with a preset's.
    pub fn load_preset(&self, preset: &crate::model::scene::Preset) {
        match Run::<S>::from_preset(preset) {
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
        self.mutate(|run| run.history.step_forward());
    }

    fn back(&self) {
        self.mutate(|run| run.history.step_back());
    }

    fn seek(&self, position: usize) {
        self.mutate(|run| run.history.seek(position));
    }

    fn play_tick(&self, duration_ms: u64) {
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

    fn log_tail(&self, count: usize, filter: &str) -> Vec<LogRow> {
        let filter = filter.trim().to_lowercase();
        self.with(|run| {
            let log = run.sim().log();
            let mut found: Vec<LogRow> = (0..log.len())
                .rev()
                .filter_map(|index| log.get(index).map(|e| (index, e)))
                .map(|(index, e)| {
                    (
                        e,
                        LogRow {
                            index,
                            time_ms: e.time_ms,
                            actor: render(&e.actor.message()),
                            text: render(&e.fact.message()),
                            html: crate::markup::Html::new(),
                        },
                    )
                })
                .filter(|(_, row)| {
                    filter.is_empty()
                        || row.actor.to_lowercase().contains(&filter)
                        || row.text.to_lowercase().contains(&filter)
                })
                .take(count)
                .map(|(e, row)| LogRow { html: crate::i18n::render_html(&e.fact.message()), ..row })
                .collect();
            found.reverse();
            found
        })
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
            }
        })
    }

    fn error(&self) -> RwSignal<Option<Message>> {
        self.error
    }

    fn play_scale(&self) -> f64 {
        S::play_scale()
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
