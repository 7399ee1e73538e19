//! The topic overview as a lab scene: link codec for its commands and its presets.

use super::{Cluster, Command, OVERVIEW_SCHEMA};
use crate::model::config::{Config, Property};
use crate::model::scene::{LabScene, Preset};

const PRESETS: &[Preset] = &[
    Preset {
        id: "leader-crash",
        title_key: "overview.preset.leader_crash",
        config: "",
        tape: "w1000x3.kill-1.w1000x12.restart-1.w5000x58",
        seed: 7,
    },
    Preset {
        id: "burst",
        title_key: "overview.preset.burst",
        config: "lab.producer.records.per.sec=0",
        tape: "produce-600",
        seed: 42,
    },
];

impl LabScene for Cluster {
    const ID: &'static str = "overview";

    fn schema() -> &'static [Property] {
        OVERVIEW_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, crate::model::kernel::Prose> {
        let legacy = || -> Result<Self, String> { Cluster::new(config.clone()) };
        legacy().map_err(crate::model::kernel::Prose)
    }

    fn encode_command(command: &Command) -> String {
        match command {
            Command::Produce { records } => format!("produce-{records}"),
            Command::KillBroker(id) => format!("kill-{id}"),
            Command::RestartBroker(id) => format!("restart-{id}"),
        }
    }

    fn decode_command(token: &str) -> Result<Command, crate::model::kernel::TokenError> {
        let legacy = || -> Result<Command, String> {
            let (verb, arg) = token.split_once('-').ok_or_else(|| unknown(token))?;
            let number: u32 = arg.parse().map_err(|_| format!("\"{arg}\" is not a whole number"))?;
            match verb {
                "produce" => Ok(Command::Produce { records: number }),
                "kill" => Ok(Command::KillBroker(number)),
                "restart" => Ok(Command::RestartBroker(number)),
                _ => Err(unknown(token)),
            }
        };
        legacy().map_err(crate::model::kernel::TokenError::Legacy)
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }
}

fn unknown(token: &str) -> String {
    format!("unknown action \"{token}\"; this scene knows produce-N, kill-B and restart-B")
}
