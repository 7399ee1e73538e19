//! The registry of scenes: each scene is registered here once — link id, catalog
//! key of its name, its presets, and (on wasm) the view the shell mounts. The
//! shell, the tests and the link checks all find scenes here.

use crate::link::LinkState;
use crate::model::cluster::Cluster;
use crate::model::group::GroupLab;
#[cfg(not(target_arch = "wasm32"))]
use crate::model::kernel::Describe;
use crate::model::kernel::Moment;
use crate::model::log::LogLab;
use crate::model::partitioner::Partitioner;
use crate::model::replication::Replication;
#[cfg(not(target_arch = "wasm32"))]
use crate::model::scene::Preset;
use crate::model::scene::{LabScene, Run, RunError, DEFAULT_SEED};
use crate::model::timer::TimerLab;
use crate::model::transactions::TxnLab;

/// What a run shows, in English: for tests that check a link reopens the same state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    pub now_ms: u64,
    /// Every event-log line as `time|actor|fact`.
    pub lines: Vec<String>,
    pub position: usize,
    pub tape_len: usize,
    /// The tape as the app writes it back into a link.
    pub tape: String,
}

/// How a preset's story plays out, in English: for the story tests and the browser's checks.
#[derive(Clone, Debug, PartialEq)]
pub struct StoryReport {
    /// The position a link without `t=` opens at.
    pub start: usize,
    pub tape_len: usize,
    /// Where the answer is reached (`None`: the tape never reaches it).
    pub outcome: Option<usize>,
    /// Each authored beat that the tape reaches: position and caption.
    pub beats: Vec<(usize, String)>,
    /// Where each key moment is marked, and its kind.
    pub marks: Vec<(usize, Moment)>,
    pub question: String,
    pub watch: String,
    /// The result card's answer at the outcome and at the end of the tape.
    pub answer_at_outcome: Option<String>,
    pub answer_at_end: Option<String>,
    /// The caption at every position from the start to the end.
    pub captions: Vec<String>,
    /// Play's speed for the story and the real ms it needs from the start to the outcome.
    pub speed: f64,
    pub real_ms_to_outcome: Option<u64>,
}

/// One scene as the shell's navigation and the tests see it. On wasm only its link id and
/// name: a scene's bundle links its own model and views alone (see `mounts`, wasm only).
#[derive(Clone, Copy)]
pub struct SceneInfo {
    pub id: &'static str,
    pub title_key: &'static str,
    #[cfg(not(target_arch = "wasm32"))]
    pub presets: fn() -> &'static [Preset],
    /// Builds the preset's run; `Err` says why it cannot be built.
    #[cfg(not(target_arch = "wasm32"))]
    pub replay: fn(&Preset) -> Result<(), RunError>,
    /// Opens a link's run and writes down what it shows.
    #[cfg(not(target_arch = "wasm32"))]
    pub transcript: fn(&LinkState) -> Result<Transcript, RunError>,
    /// Every event-log line of a link's run (actor and fact) in the active locale.
    #[cfg(not(target_arch = "wasm32"))]
    pub rendered: fn(&LinkState) -> Vec<String>,
    /// How the link's preset (or the scene's default) story plays out (for native tests).
    #[cfg(not(target_arch = "wasm32"))]
    pub story: fn(&LinkState) -> Result<StoryReport, RunError>,
}

#[cfg(not(target_arch = "wasm32"))]
fn replay<S: LabScene>(preset: &Preset) -> Result<(), RunError> {
    Run::<S>::from_preset(preset).map(|_| ())
}

#[cfg(not(target_arch = "wasm32"))]
fn transcript<S: LabScene>(link: &LinkState) -> Result<Transcript, RunError> {
    let run = open_run::<S>(link)?;
    let sim = run.sim();
    let lines = sim.log().iter().map(|e| format!("{}|{}|{}", e.time_ms, e.actor, e.fact.message())).collect();
    Ok(Transcript {
        now_ms: sim.now_ms(),
        lines,
        position: run.history.position(),
        tape_len: run.history.tape().len(),
        tape: run.tape_text(),
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn rendered<S: LabScene>(link: &LinkState) -> Vec<String> {
    let Ok(run) = open_run::<S>(link) else {
        return Vec::new();
    };
    let render = crate::i18n::render;
    run.sim().log().iter().map(|e| format!("{}: {}", render(&e.actor.message()), render(&e.fact.message()))).collect()
}

#[cfg(not(target_arch = "wasm32"))]
fn story_report<S: LabScene>(link: &LinkState) -> Result<StoryReport, RunError> {
    let mut run = open_run::<S>(link)?;
    let story = S::story(link.preset.as_deref());
    let history = &mut run.history;
    let start = story.start_position(history);
    let tape_len = history.tape().len();
    let outcome = story.outcome_position(history);
    let beats = story.beat_positions(history);
    let stops = story.stops(history);
    let answer_at = |history: &mut crate::model::kernel::History<S>, position: usize| {
        history.seek(position);
        story.verdict(history).answer.map(|m| m.to_string())
    };
    let answer_at_outcome = outcome.and_then(|p| answer_at(history, p));
    let answer_at_end = answer_at(history, tape_len);
    let beats = beats
        .into_iter()
        .map(|(p, say)| {
            history.seek(p);
            (p, say(history.current()).to_string())
        })
        .collect();
    let captions = (start..=tape_len)
        .map(|p| {
            history.seek(p);
            caption_text(&story.caption(history))
        })
        .collect();
    history.seek(start);
    let real_ms_to_outcome =
        outcome.and_then(|target| crate::model::story::real_ms_to_reach(history, story.speed, &stops, target, 600_000));
    let sim = history.current();
    Ok(StoryReport {
        start,
        tape_len,
        outcome,
        beats,
        marks: history.marks().map(|(p, m)| (p, m.moment)).collect(),
        question: (story.question)(sim).to_string(),
        watch: (story.watch)(sim).to_string(),
        answer_at_outcome,
        answer_at_end,
        captions,
        speed: story.speed,
        real_ms_to_outcome,
    })
}

/// A caption in English, as the tests compare it.
#[cfg(not(target_arch = "wasm32"))]
pub fn caption_text(caption: &crate::model::story::Caption) -> String {
    match caption {
        crate::model::story::Caption::Authored(message) => message.to_string(),
        crate::model::story::Caption::Fact { actor, fact, .. } => format!("{actor}: {fact}"),
        crate::model::story::Caption::Idle => "(idle)".to_string(),
    }
}

/// The registry: each line names a scene's link id (also its folder in `ui/`, whose `views`
/// the shell mounts), model and name's catalog key.
/// It makes [`SCENES`] (navigation and tests) and, on wasm, one mount function per scene
/// in `mounts`: a scene's bundle calls only its own, so the linker leaves the others out.
macro_rules! registry {
    ($($scene:ident: $model:ty, $title_key:literal;)*) => {
        /// Every scene, in navigation order. Adding a scene: its model and UI folders, one line
        /// in this registry and its three bundles in `src/bin/` (`X.rs`, `X-embed.rs`, `X-compare.rs`).
        pub const SCENES: &[SceneInfo] = &[$(SceneInfo {
            id: <$model as LabScene>::ID,
            title_key: crate::catalog_key!($title_key),
            #[cfg(not(target_arch = "wasm32"))]
            presets: <$model as LabScene>::presets,
            #[cfg(not(target_arch = "wasm32"))]
            replay: replay::<$model>,
            #[cfg(not(target_arch = "wasm32"))]
            transcript: transcript::<$model>,
            #[cfg(not(target_arch = "wasm32"))]
            rendered: rendered::<$model>,
            #[cfg(not(target_arch = "wasm32"))]
            story: story_report::<$model>,
        }),*];

        /// Each scene's entry into the shell: opens the link's run and builds its views. Three
        /// bundles a scene, so each links only what its page shows: the scene's page (`mounts`),
        /// an embed (`mounts::stage`) and a comparison (`mounts::compared`, `vs=` in the link).
        #[cfg(target_arch = "wasm32")]
        pub mod mounts {
            use super::*;
            use crate::ui::{Full, Stage};
            $(
                #[doc = concat!("Opens the `", stringify!($scene), "` scene (its bundle's only scene).")]
                pub fn $scene(link: &LinkState) -> crate::ui::Mounted {
                    crate::ui::mount::<$model, Full>(link, crate::ui::$scene::views::<Full>)
                }
            )*
            /// An embed's bundle: the stage alone.
            pub mod stage {
                use super::*;
                $(
                    #[doc = concat!("Opens the `", stringify!($scene), "` scene, embedded.")]
                    pub fn $scene(link: &LinkState) -> crate::ui::Mounted {
                        crate::ui::mount::<$model, Stage>(link, crate::ui::$scene::views::<Stage>)
                    }
                )*
            }
            /// A comparison's bundle: two runs of the scene side by side.
            pub mod compared {
                use super::*;
                $(
                    #[doc = concat!("Opens the `", stringify!($scene), "` scene beside its run under `vs=`.")]
                    pub fn $scene(link: &LinkState) -> crate::ui::Mounted {
                        crate::ui::mount_compared::<$model>(link, crate::ui::$scene::views::<Full>)
                    }
                )*
            }
        }
    };
}

registry! {
    overview: Cluster, "scene.overview";
    log: LogLab, "scene.log";
    replication: Replication, "scene.replication";
    groups: GroupLab, "scene.groups";
    partitioner: Partitioner, "scene.partitioner";
    timer: TimerLab, "scene.timer";
    transactions: TxnLab, "scene.transactions";
}

/// The scene a link id names.
pub fn find(id: &str) -> Option<&'static SceneInfo> {
    SCENES.iter().find(|scene| scene.id == id)
}

pub fn ids() -> Vec<&'static str> {
    SCENES.iter().map(|s| s.id).collect()
}

/// The run a link names: a preset (optionally at `t=`), or seed + config + actions.
pub fn open_run<S: LabScene>(link: &LinkState) -> Result<Run<S>, RunError> {
    let seed = link.seed.unwrap_or(DEFAULT_SEED);
    let explicit = !link.actions.is_empty() || !link.config.is_empty() || link.seed.is_some();
    match (&link.preset, explicit) {
        (Some(id), false) => match S::presets().iter().find(|p| p.id == id) {
            Some(preset) => Run::<S>::from_preset(preset).and_then(|mut run| {
                let len = run.history.tape().len();
                let position = match link.position {
                    Some(position) if position > len => return Err(RunError::PastEnd { position, len }),
                    Some(position) => position,
                    None => S::story(Some(preset.id)).start_position(&run.history),
                };
                run.history.seek(position);
                Ok(run)
            }),
            None => {
                let known = S::presets().iter().map(|p| p.id).collect();
                Err(RunError::UnknownPreset { id: id.clone(), known })
            }
        },
        _ => Run::<S>::restore(seed, &link.config, &link.actions, link.position),
    }
}
