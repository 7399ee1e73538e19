//! The topic overview as a lab scene: link codec for its commands and its presets.

use super::{Cluster, Command, Refusal, Settings, OVERVIEW_SCHEMA};
use crate::model::config::{Config, Property};
use crate::model::kernel::{Fault, Token, TokenError};
use crate::model::scene::{LabScene, Preset};

const PRESETS: &[Preset] = &[
    Preset {
        id: "leader-crash",
        title_key: crate::catalog_key!("overview.preset.leader_crash"),
        config: "",
        tape: "w1000x3.kill-1.w1000x12.restart-1.w5000x60",
        seed: 7,
    },
    Preset {
        id: "burst",
        title_key: crate::catalog_key!("overview.preset.burst"),
        config: "lab.producer.records.per.sec=0",
        tape: "produce-1.produce-599",
        seed: 42,
    },
];

/// What the overview's link tokens can be.
const GRAMMAR: &str = "produce-N, kill-B and restart-B";

impl LabScene for Cluster {
    const ID: &'static str = "overview";
    const FIGURE_LABELS: &'static [crate::model::notebook::labels::Label] = crate::model::notebook::labels::OVERVIEW;

    fn schema() -> &'static [Property] {
        OVERVIEW_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, Refusal> {
        Cluster::new(Settings::from_config(config))
    }

    fn encode_command(command: &Command) -> String {
        match command {
            Command::Produce { records } => format!("produce-{records}"),
            Command::Fault(fault) => fault.encode(),
        }
    }

    fn decode_command(text: &str) -> Result<Command, TokenError> {
        let token = Token::parse(text);
        match (token.verb(), Fault::decode(&token)) {
            ("kill" | "restart", Some(fault)) => fault.map(Command::Fault),
            ("produce", _) => token.number(0).map(|records| Command::Produce { records }),
            _ => Err(token.unknown(GRAMMAR)),
        }
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn story(preset: Option<&str>) -> crate::model::story::Story<Self> {
        super::story::story(preset)
    }
}
