//! The timing wheel as a lab scene: link tokens for its commands, and its presets.
//!
//! "Advance by one tick" and "advance to the next bucket expiration" are the shell's own
//! inputs: a wait of tickMs (`w1`) and a wait until `TimerLab::next_bucket_expiration_ms`.

use super::{Command, Refusal, Settings, TimerLab, TIMER_SCHEMA};
use crate::model::config::{Config, Property};
use crate::model::kernel::{Fault, Sim, Token, TokenError};
use crate::model::scene::{LabScene, Preset};

const PRESETS: &[Preset] = &[
    Preset {
        id: "single-wheel",
        title_key: crate::catalog_key!("timer.preset.single_wheel"),
        config: "",
        tape: "add-2-task1.w2.add-8-task2.add-19-task3.s2",
        seed: 3,
    },
    Preset {
        id: "hierarchy-350",
        title_key: crate::catalog_key!("timer.preset.hierarchy_350"),
        config: "",
        tape: "add-350-task350.s2",
        seed: 3,
    },
    Preset {
        id: "third-wheel",
        title_key: crate::catalog_key!("timer.preset.third_wheel"),
        config: "",
        tape: "add-7999-task7999.add-8000-task8000.s4",
        seed: 3,
    },
    Preset {
        id: "purgatory-isr",
        title_key: crate::catalog_key!("timer.preset.purgatory_isr"),
        config: "lab.purgatory=true",
        tape: "w1000.produce-1.s6",
        seed: 3,
    },
    Preset {
        id: "purgatory-stalled-follower",
        title_key: crate::catalog_key!("timer.preset.purgatory_stalled_follower"),
        config: "lab.purgatory=true",
        tape: "w1000.stall-3.produce-1.w1000x45",
        seed: 3,
    },
    Preset {
        id: "purgatory-crashed-follower",
        title_key: crate::catalog_key!("timer.preset.purgatory_crashed_follower"),
        config: "lab.purgatory=true",
        tape: "w1000.kill-3.produce-1.w1000x9.s2",
        seed: 3,
    },
];

/// What the scene's link tokens can be.
const GRAMMAR: &str = "add-DELAY[-LABEL], cancel-ID, stream-tasks, produce-N, kill-B, stall-B and restart-B";

/// The token of [`Command::StartStream`].
const STREAM_TOKEN: &str = "stream-tasks";

/// The label of `add-DELAY` without one.
const DEFAULT_LABEL: &str = "task";

impl LabScene for TimerLab {
    const ID: &'static str = "timer";
    const FIGURE_LABELS: &'static [crate::model::notebook::labels::Label] = crate::model::notebook::labels::TIMER;

    fn schema() -> &'static [Property] {
        TIMER_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, Refusal> {
        TimerLab::new(Settings::from_config(config))
    }

    fn encode_command(command: &Command) -> String {
        match command {
            Command::AddTask { delay_ms, label } => format!("add-{delay_ms}-{label}"),
            Command::CancelTask(id) => format!("cancel-{id}"),
            Command::Produce { records } => format!("produce-{records}"),
            Command::Fault(fault) => fault.encode(),
            Command::StartStream => STREAM_TOKEN.to_string(),
        }
    }

    fn decode_command(text: &str) -> Result<Command, TokenError> {
        if text == STREAM_TOKEN {
            return Ok(Command::StartStream);
        }
        let token = Token::parse(text);
        if !text.contains('-') {
            return Err(token.unknown(GRAMMAR));
        }
        match (token.verb(), Fault::decode(&token)) {
            ("kill" | "stall" | "restart", Some(fault)) => fault.map(Command::Fault),
            ("add", _) => {
                // The label is free text after the delay: `add-350-my_task`, or `add-350`.
                let (delay, label) = token.rest().split_once('-').unwrap_or((token.rest(), DEFAULT_LABEL));
                let delay_ms = crate::model::kernel::parse_number(delay)?;
                Ok(Command::AddTask { delay_ms, label: label.to_string() })
            }
            ("cancel", _) if token.args().len() == 1 => token.number(0).map(Command::CancelTask),
            ("produce", _) if token.args().len() == 1 => token.number(0).map(|records| Command::Produce { records }),
            _ => Err(token.unknown(GRAMMAR)),
        }
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn story(preset: Option<&str>) -> crate::model::story::Story<Self> {
        super::story::story(preset)
    }

    /// A run with no broker and no stream yet gets the stream of broker-like timeouts; the
    /// purgatory keeps its own fetches on the wheel, and a running stream needs nothing more.
    fn workload(sim: &Sim<Self>) -> Option<Command> {
        let world = sim.world();
        (world.purgatory().is_none() && world.stream_added().is_none()).then_some(Command::StartStream)
    }
}
