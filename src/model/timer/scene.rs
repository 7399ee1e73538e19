//! The timing wheel as a lab scene: link tokens for its commands, and its presets.
//!
//! "Advance by one tick" and "advance to the next bucket expiration" are the shell's own
//! inputs: a wait of tickMs (`w1`) and a wait until `TimerLab::next_bucket_expiration_ms`.

use super::{Command, TimerLab, TIMER_SCHEMA};
use crate::model::config::{Config, Property};
use crate::model::scene::{LabScene, Preset};

const PRESETS: &[Preset] = &[
    Preset {
        id: "single-wheel",
        title_key: "timer.preset.single_wheel",
        config: "",
        tape: "add-2-task1.w2.add-8-task2.add-19-task3",
        seed: 3,
    },
    Preset {
        id: "hierarchy-350",
        title_key: "timer.preset.hierarchy_350",
        config: "",
        tape: "add-350-task350",
        seed: 3,
    },
    Preset {
        id: "third-wheel",
        title_key: "timer.preset.third_wheel",
        config: "",
        tape: "add-7999-task7999.add-8000-task8000",
        seed: 3,
    },
    Preset {
        id: "purgatory-isr",
        title_key: "timer.preset.purgatory_isr",
        config: "lab.purgatory=true",
        tape: "w1000.produce-1",
        seed: 3,
    },
    Preset {
        id: "purgatory-stalled-follower",
        title_key: "timer.preset.purgatory_stalled_follower",
        config: "lab.purgatory=true",
        tape: "w1000.stall-3.produce-1",
        seed: 3,
    },
    Preset {
        id: "purgatory-crashed-follower",
        title_key: "timer.preset.purgatory_crashed_follower",
        config: "lab.purgatory=true",
        tape: "w1000.kill-3.produce-1",
        seed: 3,
    },
];

impl LabScene for TimerLab {
    const ID: &'static str = "timer";

    fn schema() -> &'static [Property] {
        TIMER_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, crate::model::kernel::Prose> {
        let legacy = || -> Result<Self, String> { TimerLab::new(config.clone()) };
        legacy().map_err(crate::model::kernel::Prose)
    }

    fn encode_command(command: &Command) -> String {
        match command {
            Command::AddTask { delay_ms, label } => format!("add-{delay_ms}-{label}"),
            Command::CancelTask(id) => format!("cancel-{id}"),
            Command::Produce { records } => format!("produce-{records}"),
            Command::KillFollower(id) => format!("kill-{id}"),
            Command::StallFollower(id) => format!("stall-{id}"),
            Command::RestartFollower(id) => format!("restart-{id}"),
        }
    }

    fn decode_command(token: &str) -> Result<Command, crate::model::kernel::TokenError> {
        let legacy = || -> Result<Command, String> {
            let mut parts = token.splitn(3, '-');
            let verb = parts.next().unwrap_or_default();
            let arg = parts.next().ok_or_else(|| unknown(token))?;
            let rest = parts.next();
            let number: u64 = arg.parse().map_err(|_| format!("\"{arg}\" is not a whole number"))?;
            let small = || u32::try_from(number).map_err(|_| format!("{number} is too large"));
            let command = match (verb, rest) {
                ("add", label) => Command::AddTask { delay_ms: number, label: label.unwrap_or("task").to_string() },
                ("cancel", None) => Command::CancelTask(number),
                ("produce", None) => Command::Produce { records: small()? },
                ("kill", None) => Command::KillFollower(small()?),
                ("stall", None) => Command::StallFollower(small()?),
                ("restart", None) => Command::RestartFollower(small()?),
                _ => return Err(unknown(token)),
            };
            Ok(command)
        };
        legacy().map_err(crate::model::kernel::TokenError::Legacy)
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    /// Slow motion: at 1× Play lets 10 ms of virtual time pass per 100 ms, so with tickMs 1
    /// the 350 ms task's fall from level 1 into level 0 (at 340 ms) can be watched.
    fn play_scale() -> f64 {
        0.1
    }
}

fn unknown(token: &str) -> String {
    format!(
        "unknown action \"{token}\"; this scene knows add-DELAY[-LABEL], cancel-ID, produce-N, kill-B, stall-B and restart-B"
    )
}
