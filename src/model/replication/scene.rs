//! The replication scene for the shell: link tokens and presets.

use super::{Command, Fault, Refusal, Replication, Settings, REPLICATION_SCHEMA};
use crate::model::config::{Config, Property};
use crate::model::kernel::{Sim, Token, TokenError};
use crate::model::scene::{LabScene, Preset};

/// Presets from the course notes (seed 000's loss scenarios and labs 2 and 3, seed 003's
/// HW/LEO table and KIP-101 scenarios); their outcomes come from running the model.
const PRESETS: &[Preset] = &[
    Preset {
        id: "hw-leo-steps",
        title_key: crate::catalog_key!("replication.preset.hw_leo_steps"),
        config: "lab.brokers=2,replication.factor=2,lab.network.delay.ms=200,replica.fetch.wait.max.ms=300",
        tape: "produce-1.s12",
        seed: 3,
    },
    Preset {
        id: "loss-acks-1",
        title_key: crate::catalog_key!("replication.preset.loss_acks_1"),
        config: "acks=1",
        tape: "slow-2-5000.slow-3-5000.w7000.produce-3.w100.kill-1.w15000",
        seed: 1,
    },
    Preset {
        id: "loss-min-isr-1",
        title_key: crate::catalog_key!("replication.preset.loss_min_isr_1"),
        config: "min.insync.replicas=1",
        tape: "slow-2-60000.slow-3-60000.w1000.produce-1.w45000.produce-3.w1000.powerfail-1.restart-1.w12000",
        seed: 1,
    },
    Preset {
        id: "safe-min-isr-2",
        title_key: crate::catalog_key!("replication.preset.safe_min_isr_2"),
        config: "min.insync.replicas=2",
        tape: "slow-2-60000.slow-3-60000.w1000.produce-1.w45000.produce-3.w1000.powerfail-1.restart-1.w12000",
        seed: 1,
    },
    Preset {
        id: "loss-unclean",
        title_key: crate::catalog_key!("replication.preset.loss_unclean"),
        config: "unclean.leader.election.enable=true,min.insync.replicas=1",
        tape: "kill-2.kill-3.w10000.produce-5.w6000.kill-1.w10000.restart-2.w10000.produce-2.w2000.restart-1.w3000",
        seed: 1,
    },
    Preset {
        id: "lab2-acks-1",
        title_key: crate::catalog_key!("replication.preset.lab2_acks_1"),
        config: "acks=1,enable.idempotence=false,lab.producer.records.per.sec=200,lab.producer.max.records=1000",
        tape: "w2500.kill-1.w60000.restart-1.w10000",
        seed: 2,
    },
    Preset {
        id: "lab2-acks-all",
        title_key: crate::catalog_key!("replication.preset.lab2_acks_all"),
        config: "acks=all,min.insync.replicas=2,enable.idempotence=false,lab.producer.records.per.sec=200,lab.producer.max.records=1000",
        tape: "w2500.kill-1.w60000.restart-1.w10000",
        seed: 2,
    },
    Preset {
        id: "lab3-unclean",
        title_key: crate::catalog_key!("replication.preset.lab3_unclean"),
        config: "min.insync.replicas=1",
        tape: "kill-2.kill-3.w10000.produce-1000.w6000.kill-1.w10000.restart-2.w10000.unclean-1.w5000.elect-unclean.w5000.unclean-0.w1000",
        seed: 3,
    },
    Preset {
        id: "kip101-loss-epoch-off",
        title_key: crate::catalog_key!("replication.preset.kip101_loss_epoch_off"),
        config: "lab.brokers=2,replication.factor=2,lab.leader.epoch.enabled=false",
        tape: "produce-3.w6000.produce-1.w100.kill-2.restart-2.kill-1.w10000.restart-1.w3000",
        seed: 101,
    },
    Preset {
        id: "kip101-loss-epoch-on",
        title_key: crate::catalog_key!("replication.preset.kip101_loss_epoch_on"),
        config: "lab.brokers=2,replication.factor=2,lab.leader.epoch.enabled=true",
        tape: "produce-3.w6000.produce-1.w100.kill-2.restart-2.kill-1.w10000.restart-1.w3000",
        seed: 101,
    },
    Preset {
        id: "kip101-divergence-epoch-off",
        title_key: crate::catalog_key!("replication.preset.kip101_divergence_epoch_off"),
        config: "lab.brokers=2,replication.factor=2,lab.leader.epoch.enabled=false",
        tape: "produce-1.w31000.produce-1.w5000.kill-1.powerfail-2.restart-2.w10000.produce-1.w3000.restart-1.w3000",
        seed: 101,
    },
    Preset {
        id: "kip101-divergence-epoch-on",
        title_key: crate::catalog_key!("replication.preset.kip101_divergence_epoch_on"),
        config: "lab.brokers=2,replication.factor=2,lab.leader.epoch.enabled=true",
        tape: "produce-1.w31000.produce-1.w5000.kill-1.powerfail-2.restart-2.w10000.produce-1.w3000.restart-1.w3000",
        seed: 101,
    },
    Preset {
        id: "min-isr-2-one-down",
        title_key: crate::catalog_key!("replication.preset.min_isr_2_one_down"),
        config: "min.insync.replicas=2",
        tape: "produce-5.w1000.kill-3.w10000.produce-5.w2000",
        seed: 4,
    },
    Preset {
        id: "min-isr-2-two-down",
        title_key: crate::catalog_key!("replication.preset.min_isr_2_two_down"),
        config: "min.insync.replicas=2",
        tape: "produce-5.w1000.kill-3.kill-2.w10000.produce-5.w5000",
        seed: 4,
    },
];

/// The steady producer Play starts on a fresh scene: slow enough to follow each record from
/// the leader's append to the follower's fetch and the HW's move at 1×.
pub const WORKLOAD_RECORDS_PER_SEC: u32 = 5;

/// What the replication scene's link tokens can be.
const GRAMMAR: &str = "produce-N, kill-B, powerfail-B, restart-B, pause-B-MS, slow-B-MS, cut-X-Y, heal-X-Y \
                       (X, Y: a broker id, c or p), load-R (R records per second), unclean-0/1 and elect-unclean";

impl LabScene for Replication {
    const ID: &'static str = "replication";
    const FIGURE_LABELS: &'static [crate::model::notebook::labels::Label] = crate::model::notebook::labels::REPLICATION;

    fn schema() -> &'static [Property] {
        REPLICATION_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, Refusal> {
        Settings::from_config(config).map(Replication::new)
    }

    fn encode_command(command: &Command) -> String {
        match command {
            Command::Produce { records } => format!("produce-{records}"),
            Command::Fault(fault) => fault.encode(),
            Command::SetUncleanElection(on) => format!("unclean-{}", u8::from(*on)),
            Command::ElectUncleanLeader => "elect-unclean".to_string(),
            Command::SteadyLoad { records_per_sec } => format!("load-{records_per_sec}"),
        }
    }

    fn decode_command(text: &str) -> Result<Command, TokenError> {
        let token = Token::parse(text);
        match (token.verb(), Fault::decode(&token)) {
            ("kill" | "powerfail" | "restart" | "pause" | "slow" | "cut" | "heal", Some(fault)) => {
                fault.map(Command::Fault)
            }
            ("produce", _) if token.args().len() == 1 => token.number(0).map(|records| Command::Produce { records }),
            ("load", _) if token.args().len() == 1 => {
                token.number(0).map(|records_per_sec| Command::SteadyLoad { records_per_sec })
            }
            ("unclean", _) if token.rest() == "1" => Ok(Command::SetUncleanElection(true)),
            ("unclean", _) if token.rest() == "0" => Ok(Command::SetUncleanElection(false)),
            ("elect", _) if token.rest() == "unclean" => Ok(Command::ElectUncleanLeader),
            _ => Err(token.unknown(GRAMMAR)),
        }
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn story(preset: Option<&str>) -> crate::model::story::Story<Self> {
        super::story::story(preset)
    }

    /// A steady producer with the scene's producer config, unless records are already sent
    /// or a load already runs.
    fn workload(sim: &Sim<Self>) -> Option<Command> {
        let world = sim.world();
        let idle = world.ledger().entries().next().is_none() && world.producer_load_rate() == 0;
        idle.then_some(Command::SteadyLoad { records_per_sec: WORKLOAD_RECORDS_PER_SEC })
    }
}
