//! The consumer-groups lab as a scene: link codec for its commands and its presets.

use super::{Command, GroupLab, Refusal, Settings, GROUP_SCHEMA};
use crate::model::config::{Config, Property};
use crate::model::kernel::{Fault, Token, TokenError};
use crate::model::scene::{LabScene, Preset};

const RANGE: &str = "partition.assignment.strategy=org.apache.kafka.clients.consumer.RangeAssignor";
const COOP: &str = "partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor";

/// Presets from the course notes (seeds 000, 003, 004).
pub const PRESETS: &[Preset] = &[
    Preset { id: "slow-consumer", title_key: crate::catalog_key!("groups.preset.slow_consumer"), config: "lab.members=1,lab.process.ms.per.record=100,lab.producer.records.per.sec=20,auto.offset.reset=earliest", tape: "w10000x12", seed: 4 },
    Preset { id: "rebalance-loop", title_key: crate::catalog_key!("groups.preset.rebalance_loop"), config: "lab.members=3,max.poll.interval.ms=10000,max.poll.records=500,lab.process.ms.per.record=30,lab.producer.records.per.sec=50,lab.backlog.records.per.partition=2000,auto.offset.reset=earliest", tape: "w10000x18", seed: 4 },
    Preset { id: "fix-fewer-records", title_key: crate::catalog_key!("groups.preset.fix_fewer_records"), config: "lab.members=3,max.poll.interval.ms=10000,max.poll.records=100,lab.process.ms.per.record=30,lab.producer.records.per.sec=50,lab.backlog.records.per.partition=2000,auto.offset.reset=earliest", tape: "w10000x18", seed: 4 },
    Preset { id: "fix-longer-interval", title_key: crate::catalog_key!("groups.preset.fix_longer_interval"), config: "lab.members=3,max.poll.interval.ms=60000,max.poll.records=500,lab.process.ms.per.record=30,lab.producer.records.per.sec=50,lab.backlog.records.per.partition=2000,auto.offset.reset=earliest", tape: "w10000x18", seed: 4 },
    Preset { id: "eager-restart", title_key: crate::catalog_key!("groups.preset.eager_restart"), config: RANGE, tape: "w10000.kill-3.w1000.restart-3.w10000x8", seed: 5 },
    Preset { id: "cooperative-restart", title_key: crate::catalog_key!("groups.preset.cooperative_restart"), config: COOP, tape: "w10000.kill-3.w1000.restart-3.w10000x8", seed: 5 },
    Preset { id: "static-restart", title_key: crate::catalog_key!("groups.preset.static_restart"), config: "lab.static.membership=true", tape: "w10000.kill-3.w5000.restart-3.w10000x8", seed: 5 },
    Preset { id: "twelve-on-six", title_key: crate::catalog_key!("groups.preset.twelve_on_six"), config: "lab.members=12,partitions=6", tape: "w10000x3", seed: 12 },
    Preset { id: "handoff-loss", title_key: crate::catalog_key!("groups.preset.handoff_loss"), config: "lab.handoff.to.worker.thread=true,lab.process.ms.per.record=80,lab.producer.records.per.sec=60,auto.offset.reset=earliest", tape: "w10000x2.kill-1.w10000x8", seed: 12 },
    Preset { id: "poison-pill", title_key: crate::catalog_key!("groups.preset.poison_pill"), config: "enable.auto.commit=false,auto.offset.reset=earliest", tape: "w10000.poison-2.w10000x6", seed: 6 },
];

/// What the scene's link tokens can be.
const GRAMMAR: &str = "kill-M, restart-M, pause-M-MS, slow-M-MS, poison-P, add-N, close-M and partitions-N";

impl LabScene for GroupLab {
    const ID: &'static str = "groups";
    const FIGURE_LABELS: &'static [crate::model::notebook::labels::Label] = crate::model::notebook::labels::GROUPS;

    fn schema() -> &'static [Property] {
        GROUP_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, Refusal> {
        GroupLab::new(Settings::from_config(config))
    }

    fn encode_command(command: &Command) -> String {
        match command {
            Command::Fault(fault) => fault.encode(),
            Command::Poison(p) => format!("poison-{p}"),
            Command::AddMembers(n) => format!("add-{n}"),
            Command::Close(m) => format!("close-{m}"),
            Command::GrowPartitions(n) => format!("partitions-{n}"),
        }
    }

    fn decode_command(text: &str) -> Result<Command, TokenError> {
        let token = Token::parse(text);
        let one = token.args().len() == 1;
        match (token.verb(), Fault::decode(&token)) {
            ("kill" | "restart" | "pause" | "slow", Some(fault)) => fault.map(Command::Fault),
            ("poison", _) if one => token.number(0).map(Command::Poison),
            ("add", _) if one => token.number(0).map(Command::AddMembers),
            ("close", _) if one => token.number(0).map(Command::Close),
            ("partitions", _) if one => token.number(0).map(Command::GrowPartitions),
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
