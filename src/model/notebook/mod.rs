//! The lab notebook's experiments: seed 000's six lab experiments, each one or more scene
//! presets, and which figures of each preset's result card fill the deliverable table.
//!
//! One source of truth: a figure is never typed here. [`measure`] runs the preset in its
//! scene's model, seeks to its story's outcome (the moment the result card answers) and
//! picks the named argument out of the card's answer, so the notebook shows exactly what
//! the scene shows at that moment.

use crate::model::group::GroupLab;
use crate::model::kernel::{Arg, Message};
use crate::model::log::LogLab;
use crate::model::partitioner::Partitioner;
use crate::model::replication::Replication;
use crate::model::scene::{LabScene, Preset, Run, RunError};

pub mod labels;
use labels::Label;

/// One figure of a result card's answer: the `nth` (from 0) argument named `arg`, searched
/// depth first through nested messages; `label` is its interface-text key (`notebook.*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    pub label: &'static str,
    pub arg: &'static str,
    pub nth: usize,
}

/// One preset an experiment runs, and the figures its answer gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSpec {
    /// The scene's link id (`LabScene::ID`).
    pub scene: &'static str,
    pub preset: &'static str,
    pub figures: &'static [Pick],
}

/// One of the lab's experiments: a title key and the runs that measure it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Experiment {
    /// Stable id (figure ids and exports use it).
    pub id: &'static str,
    pub title: &'static str,
    pub runs: &'static [RunSpec],
}

const fn pick(label: &'static str, arg: &'static str) -> Pick {
    Pick { label, arg, nth: 0 }
}

const LOG: &str = <LogLab as LabScene>::ID;
const REPLICATION: &str = <Replication as LabScene>::ID;
const GROUPS: &str = <GroupLab as LabScene>::ID;
const PARTITIONER: &str = <Partitioner as LabScene>::ID;

/// Seed 000's lab, in its order.
pub const EXPERIMENTS: &[Experiment] = &[
    Experiment {
        id: "segments",
        title: crate::catalog_key!("notebook.experiment.segments"),
        runs: &[RunSpec {
            scene: LOG,
            preset: "lab1-segments",
            figures: &[
                pick(crate::catalog_key!("record.figure.segments"), "segments"),
                pick(crate::catalog_key!("record.figure.first_segment"), "first"),
                pick(crate::catalog_key!("record.figure.per_segment"), "per"),
            ],
        }],
    },
    Experiment {
        id: "loss",
        title: crate::catalog_key!("notebook.experiment.loss"),
        runs: &[
            RunSpec {
                scene: REPLICATION,
                preset: "lab2-acks-1",
                figures: &[
                    pick(crate::catalog_key!("record.figure.lost"), "lost"),
                    pick(crate::catalog_key!("record.figure.acked"), "acked"),
                ],
            },
            RunSpec {
                scene: REPLICATION,
                preset: "lab2-acks-all",
                figures: &[
                    pick(crate::catalog_key!("record.figure.lost"), "lost"),
                    pick(crate::catalog_key!("record.figure.duplicates"), "dups"),
                ],
            },
        ],
    },
    Experiment {
        id: "unclean",
        title: crate::catalog_key!("notebook.experiment.unclean"),
        runs: &[RunSpec {
            scene: REPLICATION,
            preset: "lab3-unclean",
            figures: &[
                pick(crate::catalog_key!("record.figure.offline"), "offline"),
                pick(crate::catalog_key!("record.figure.lost"), "lost"),
            ],
        }],
    },
    Experiment {
        id: "lag",
        title: crate::catalog_key!("notebook.experiment.lag"),
        runs: &[
            RunSpec {
                scene: GROUPS,
                preset: "slow-consumer",
                figures: &[
                    pick(crate::catalog_key!("record.figure.lag"), "lag"),
                    pick(crate::catalog_key!("record.figure.lag_growth"), "per_minute"),
                ],
            },
            RunSpec {
                scene: GROUPS,
                preset: "rebalance-loop",
                figures: &[
                    pick(crate::catalog_key!("record.figure.rebalances"), "rebalances"),
                    pick(crate::catalog_key!("record.figure.processed_twice"), "duplicates"),
                ],
            },
            RunSpec {
                scene: GROUPS,
                preset: "fix-fewer-records",
                figures: &[
                    pick(crate::catalog_key!("record.figure.poll_timeouts"), "timeouts"),
                    pick(crate::catalog_key!("record.figure.lag"), "lag"),
                ],
            },
            RunSpec {
                scene: GROUPS,
                preset: "fix-longer-interval",
                figures: &[
                    pick(crate::catalog_key!("record.figure.poll_timeouts"), "timeouts"),
                    pick(crate::catalog_key!("record.figure.lag"), "lag"),
                ],
            },
        ],
    },
    Experiment {
        id: "restart",
        title: crate::catalog_key!("notebook.experiment.restart"),
        runs: &[
            RunSpec {
                scene: GROUPS,
                preset: "eager-restart",
                figures: &[
                    pick(crate::catalog_key!("record.figure.stop"), "per_member"),
                    pick(crate::catalog_key!("record.figure.orphaned"), "orphaned"),
                ],
            },
            RunSpec {
                scene: GROUPS,
                preset: "cooperative-restart",
                figures: &[
                    pick(crate::catalog_key!("record.figure.stop"), "per_member"),
                    pick(crate::catalog_key!("record.figure.orphaned"), "orphaned"),
                ],
            },
            RunSpec {
                scene: GROUPS,
                preset: "static-restart",
                figures: &[
                    pick(crate::catalog_key!("record.figure.rebalances"), "rebalances"),
                    pick(crate::catalog_key!("record.figure.stop"), "per_member"),
                ],
            },
        ],
    },
    Experiment {
        id: "hot",
        title: crate::catalog_key!("notebook.experiment.hot"),
        runs: &[RunSpec {
            scene: PARTITIONER,
            preset: "megacorp",
            figures: &[
                Pick { label: crate::catalog_key!("record.figure.busiest_6"), arg: "percent", nth: 0 },
                Pick { label: crate::catalog_key!("record.figure.busiest_12"), arg: "percent", nth: 1 },
                Pick { label: crate::catalog_key!("record.figure.busiest_composite"), arg: "percent", nth: 2 },
            ],
        }],
    },
];

/// What one run measured: where its story answers, the answer, and each picked figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub scene: &'static str,
    pub preset: &'static str,
    pub seed: u64,
    /// The preset's config overrides, as its link writes them.
    pub config: &'static str,
    /// The tape position of the story's outcome (the link's `t=`); `None`: never reached.
    pub outcome: Option<usize>,
    /// The result card's answer at the outcome.
    pub answer: Option<Message>,
    /// Each pick with the argument found in the answer (`None`: the answer has no such argument).
    pub figures: Vec<(Pick, Option<Arg>)>,
}

impl Measured {
    /// The link that opens the preset at the moment its figures show (a query, without `?`).
    pub fn link(&self) -> crate::link::LinkState {
        crate::link::LinkState {
            scene: Some(self.scene.to_string()),
            preset: Some(self.preset.to_string()),
            position: self.outcome,
            ..Default::default()
        }
    }
}

/// The `nth` argument named `name` in `message`, searched depth first through nested messages.
pub fn find_arg<'a>(message: &'a Message, name: &str, nth: usize) -> Option<&'a Arg> {
    fn walk<'a>(message: &'a Message, name: &str, found: &mut Vec<&'a Arg>) {
        for (arg_name, arg) in &message.args {
            if *arg_name == name {
                found.push(arg);
            }
            if let Arg::Message(inner) = arg {
                walk(inner, name, found);
            }
        }
    }
    let mut found = Vec::new();
    walk(message, name, &mut found);
    found.get(nth).copied()
}

/// A picked argument as the table shows it: a whole number is a count there (grouped, `1,000`),
/// as the card writes a number in a plural choice.
fn as_figure(arg: &Arg) -> Arg {
    match arg {
        Arg::Int(n) => Arg::Count(*n),
        other => other.clone(),
    }
}

/// Runs `spec`'s preset in its scene's model and reads its figures at the story's outcome.
pub fn measure(spec: &RunSpec) -> Result<Measured, RunError> {
    match spec.scene {
        LOG => measure_in::<LogLab>(spec),
        REPLICATION => measure_in::<Replication>(spec),
        GROUPS => measure_in::<GroupLab>(spec),
        PARTITIONER => measure_in::<Partitioner>(spec),
        other => Err(RunError::UnknownPreset { id: format!("{other}/{}", spec.preset), known: Vec::new() }),
    }
}

fn preset_of<S: LabScene>(id: &str) -> Result<&'static Preset, RunError> {
    S::presets().iter().find(|p| p.id == id).ok_or_else(|| RunError::UnknownPreset {
        id: id.to_string(),
        known: S::presets().iter().map(|p| p.id).collect(),
    })
}

fn measure_in<S: LabScene>(spec: &RunSpec) -> Result<Measured, RunError> {
    let preset = preset_of::<S>(spec.preset)?;
    let mut run = Run::<S>::from_preset(preset)?;
    let story = S::story(Some(preset.id));
    let outcome = story.outcome_position(&run.history);
    let answer = outcome.and_then(|position| {
        run.history.seek(position);
        story.verdict(&run.history).answer
    });
    let figures = spec
        .figures
        .iter()
        .map(|pick| (*pick, answer.as_ref().and_then(|a| find_arg(a, pick.arg, pick.nth)).map(as_figure)))
        .collect();
    Ok(Measured {
        scene: spec.scene,
        preset: preset.id,
        seed: preset.seed,
        config: preset.config,
        outcome,
        answer,
        figures,
    })
}

/// Every run of every experiment, in table order.
pub fn runs() -> impl Iterator<Item = (&'static Experiment, &'static RunSpec)> {
    EXPERIMENTS.iter().flat_map(|e| e.runs.iter().map(move |r| (e, r)))
}

/// One figure that differs between two runs' answers: its argument's name, the message that
/// holds it, and each side's value (`None`: that side's answer has no such figure).
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub name: &'static str,
    /// Which occurrence of `name` in the answer (from 0).
    pub nth: usize,
    /// The catalog key of the message the argument belongs to (the answer or a clause of it).
    pub within: &'static str,
    pub left: Option<Arg>,
    pub right: Option<Arg>,
}

/// The notebook's label (an interface-text key) for the `nth` figure named `name` of `scene`'s
/// answers, where the lab's table names that figure.
pub fn figure_label(scene: &str, name: &str, nth: usize) -> Option<&'static str> {
    EXPERIMENTS
        .iter()
        .flat_map(|experiment| experiment.runs.iter())
        .filter(|run| run.scene == scene)
        .flat_map(|run| run.figures.iter())
        .find(|pick| pick.arg == name && pick.nth == nth)
        .map(|pick| pick.label)
}

/// How a comparison's difference row in scene `S` names `d` (an interface-text key): the label
/// of its argument in its message, else the lab table's name for it.
pub fn difference_label<S: LabScene>(d: &Difference) -> Option<&'static str> {
    labels::label_of(S::FIGURE_LABELS, d.within, d.name)
        .or_else(|| labels::item_label(d.within))
        .or_else(|| figure_label(S::ID, d.name, d.nth))
}

/// A key's text with its holes (`{name}`), in any language: natively `|key| key.en`; the app's
/// catalog in the browser, whose build has no English templates.
pub type Template<'a> = &'a dyn Fn(&crate::model::kernel::Key) -> &'static str;

/// One figure of an answer: its argument's name, its occurrence, the message holding it, its value.
type Leaf = (&'static str, usize, &'static str, Arg);

/// The figures of a message, depth first: every argument that is not itself a message, and
/// every message labelled as one figure (a list, a name, a list's item); each with its name, its
/// occurrence among the arguments of that name and the key of the message it belongs to.
fn leaves(labels: &[Label], message: &Message, template: Template<'_>) -> Vec<Leaf> {
    fn walk(labels: &[Label], message: &Message, template: Template<'_>, out: &mut Vec<Leaf>) {
        // An argument the template does not write is not on the card (`{name}` or a plural's
        // `{name, plural, …}`; every locale writes English's holes).
        let text = template(&message.key);
        let shown = |name: &str| ["}", ","].iter().any(|end| text.contains(&format!("{{{name}{end}")));
        for (name, arg) in message.args.iter().filter(|(name, _)| shown(name)) {
            let nth = out.iter().filter(|(n, ..)| n == name).count();
            match arg {
                Arg::Message(inner) if labels::item_label(inner.key.id).is_some() => {
                    out.push((name, nth, inner.key.id, arg.clone()));
                }
                Arg::Message(inner) if !labels::is_whole(labels, message.key.id, name) => {
                    walk(labels, inner, template, out)
                }
                leaf => out.push((name, nth, message.key.id, as_figure(leaf))),
            }
        }
    }
    let mut out = Vec::new();
    walk(labels, message, template, &mut out);
    out
}

/// What differs between two result cards' answers (the same question under two configs),
/// figure by figure in the left answer's order, then the figures only the right one has (`S`:
/// the scene whose answers they are, whose labels say which figures are one). `template` is a
/// key's text in any language (each writes English's holes): only the figures it writes count.
pub fn differences<S: LabScene>(left: &Message, right: &Message, template: Template<'_>) -> Vec<Difference> {
    let (left, right) = (leaves(S::FIGURE_LABELS, left, template), leaves(S::FIGURE_LABELS, right, template));
    let find = |side: &[Leaf], name: &str, nth: usize| {
        side.iter().find(|(n, i, ..)| *n == name && *i == nth).map(|(.., a)| a.clone())
    };
    let difference = |(name, nth, within, _): &Leaf, left: Option<Arg>, right: Option<Arg>| Difference {
        name,
        nth: *nth,
        within,
        left,
        right,
    };
    let mut out: Vec<Difference> = left
        .iter()
        .filter_map(|leaf| {
            let other = find(&right, leaf.0, leaf.1);
            (other.as_ref() != Some(&leaf.3)).then(|| difference(leaf, Some(leaf.3.clone()), other))
        })
        .collect();
    out.extend(
        right
            .iter()
            .filter(|leaf| find(&left, leaf.0, leaf.1).is_none())
            .map(|leaf| difference(leaf, None, Some(leaf.3.clone()))),
    );
    out
}
