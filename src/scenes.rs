//! The registry of scenes: link id, catalog key of the name, and presets.
//! Pure (no UI), so native tests can check every scene's presets and texts.

use crate::link::LinkState;
use crate::model::cluster::Cluster;
use crate::model::group::GroupLab;
use crate::model::log::LogLab;
use crate::model::partitioner::Partitioner;
use crate::model::replication::Replication;
use crate::model::scene::{LabScene, Preset, Run, RunError, DEFAULT_SEED};
use crate::model::timer::TimerLab;

/// One scene as the shell's navigation and the tests see it.
#[derive(Clone, Copy)]
pub struct SceneInfo {
    pub id: &'static str,
    pub title_key: &'static str,
    pub presets: fn() -> &'static [Preset],
    /// Builds the preset's run; `Err` says why it cannot be built.
    pub replay: fn(&Preset) -> Result<(), RunError>,
}

fn replay<S: LabScene>(preset: &Preset) -> Result<(), RunError> {
    Run::<S>::from_preset(preset).map(|_| ())
}

const fn info<S: LabScene>(title_key: &'static str) -> SceneInfo {
    SceneInfo { id: S::ID, title_key, presets: S::presets, replay: replay::<S> }
}

/// Every scene, in navigation order.
pub const SCENES: &[SceneInfo] = &[
    info::<Cluster>("scene.overview"),
    info::<LogLab>("scene.log"),
    info::<Replication>("scene.replication"),
    info::<GroupLab>("scene.groups"),
    info::<Partitioner>("scene.partitioner"),
    info::<TimerLab>("scene.timer"),
];

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
                if let Some(position) = link.position {
                    let len = run.history.tape().len();
                    if position > len {
                        return Err(RunError::PastEnd { position, len });
                    }
                    run.history.seek(position);
                }
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
