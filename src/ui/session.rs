//! A scene's run held for the UI: the big model lives in one `StoredValue`, and a
//! `Trigger` tells views that it changed (no signal per record).

use leptos::prelude::*;

use crate::link::LinkState;
use crate::model::kernel::{Input, LogEntry};
use crate::model::scene::{LabScene, Run};

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
    fn log_tail(&self, count: usize, filter: &str) -> Vec<(usize, LogEntry)>;
    fn link(&self, embed: bool) -> LinkState;
    fn error(&self) -> RwSignal<Option<String>>;
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
    error: RwSignal<Option<String>>,
    preset: StoredValue<Option<String>>,
}

impl<S: LabScene> Clone for Session<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: LabScene> Copy for Session<S> {}

impl<S: LabScene + Send + Sync> Session<S>
where
    S::Command: Send + Sync,
    S::Event: Send + Sync,
{
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
            Some(Err(why)) => self.error.set(Some(why)),
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
            Err(why) => self.error.set(Some(why)),
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

impl<S: LabScene + Send + Sync> Transport for Session<S>
where
    S::Command: Send + Sync,
    S::Event: Send + Sync,
{
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
            Err(why) => self.error.set(Some(why)),
        }
    }

    fn status(&self) -> (usize, usize, u64, u64) {
        self.with(|run| {
            let sim = run.sim();
            (run.history.position(), run.history.tape().len(), sim.now_ms(), sim.trace_hash())
        })
    }

    fn log_tail(&self, count: usize, filter: &str) -> Vec<(usize, LogEntry)> {
        let filter = filter.trim().to_lowercase();
        let matches = |e: &LogEntry| {
            filter.is_empty() || e.actor.to_lowercase().contains(&filter) || e.text.to_lowercase().contains(&filter)
        };
        self.with(|run| {
            let log = run.sim().log();
            let mut found: Vec<(usize, LogEntry)> = (0..log.len())
                .rev()
                .filter_map(|i| log.get(i).map(|e| (i, e)))
                .filter(|(_, e)| matches(e))
                .take(count)
                .map(|(i, e)| (i, e.clone()))
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
            }
        })
    }

    fn error(&self) -> RwSignal<Option<String>> {
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
            Err(why) => self.error.set(Some(why)),
        }
    }
}
