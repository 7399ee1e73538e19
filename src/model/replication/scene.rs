//! The replication scene for the shell: command validation, link tokens, presets.

use super::world::{Command, Node, Replication};
use super::REPLICATION_SCHEMA;
use crate::model::config::{Config, Property};
use crate::model::scene::{LabScene, Preset};

impl Replication {
    fn check_broker(&self, id: u32) -> Result<(), String> {
        if id == 0 || id > self.settings.brokers {
            return Err(format!("There is no broker {id}: this cluster has brokers 1 to {}.", self.settings.brokers));
        }
        Ok(())
    }

    fn check_node(&self, node: Node) -> Result<(), String> {
        match node {
            Node::Broker(id) => self.check_broker(id),
            _ => Ok(()),
        }
    }

    /// Refuses a command that cannot apply now, saying why; nothing changes.
    pub(super) fn validate(&self, command: &Command) -> Result<(), String> {
        match *command {
            Command::Produce { records } if records == 0 || records > 10_000 => {
                Err(format!("Produce takes 1 to 10000 records, not {records}."))
            }
            Command::Produce { .. } | Command::SetUncleanElection(_) => Ok(()),
            Command::Kill(id) | Command::PowerFail(id) => {
                self.check_broker(id)?;
                if !self.broker(id).alive {
                    return Err(format!("broker-{id} is already down."));
                }
                Ok(())
            }
            Command::Restart(id) => {
                self.check_broker(id)?;
                if self.broker(id).alive {
                    return Err(format!("broker-{id} is already running."));
                }
                Ok(())
            }
            Command::Pause { broker, duration_ms } => {
                self.check_broker(broker)?;
                if !self.broker(broker).alive || self.broker(broker).paused {
                    return Err(format!("broker-{broker} is not running, so it cannot be paused."));
                }
                if duration_ms == 0 || duration_ms > 600_000 {
                    return Err(format!("A pause lasts 1 to 600000 ms, not {duration_ms}."));
                }
                Ok(())
            }
            Command::Slow { broker, delay_ms } => {
                self.check_broker(broker)?;
                if delay_ms > 600_000 {
                    return Err(format!("A fetch delay is 0 to 600000 ms, not {delay_ms}."));
                }
                Ok(())
            }
            Command::Cut(a, b) | Command::Heal(a, b) => {
                self.check_node(a)?;
                self.check_node(b)?;
                if a == b {
                    return Err("A link joins two different endpoints.".into());
                }
                let cut = matches!(command, Command::Cut(..));
                if cut != self.link_up(a, b) {
                    let state = if cut { "already cut" } else { "not cut" };
                    return Err(format!("The link {} ↔ {} is {state}.", a.name(), b.name()));
                }
                Ok(())
            }
        }
    }
}

/// Presets from the course notes (seed 000's loss scenarios and labs 2 and 3, seed 003's
/// HW/LEO table and KIP-101 scenarios); their outcomes come from running the model.
const PRESETS: &[Preset] = &[
    Preset {
        id: "hw-leo-steps",
        title_key: "replication.preset.hw_leo_steps",
        config: "lab.brokers=2,replication.factor=2,lab.network.delay.ms=200,replica.fetch.wait.max.ms=300",
        tape: "produce-1.s12",
        seed: 3,
    },
    Preset {
        id: "loss-acks-1",
        title_key: "replication.preset.loss_acks_1",
        config: "acks=1",
        tape: "slow-2-5000.slow-3-5000.w7000.produce-3.w100.kill-1.w15000",
        seed: 1,
    },
    Preset {
        id: "loss-min-isr-1",
        title_key: "replication.preset.loss_min_isr_1",
        config: "min.insync.replicas=1",
        tape: "slow-2-60000.slow-3-60000.w1000.produce-1.w45000.produce-3.w1000.powerfail-1.restart-1.w12000",
        seed: 1,
    },
    Preset {
        id: "safe-min-isr-2",
        title_key: "replication.preset.safe_min_isr_2",
        config: "min.insync.replicas=2",
        tape: "slow-2-60000.slow-3-60000.w1000.produce-1.w45000.produce-3.w1000.powerfail-1.restart-1.w12000",
        seed: 1,
    },
    Preset {
        id: "loss-unclean",
        title_key: "replication.preset.loss_unclean",
        config: "unclean.leader.election.enable=true,min.insync.replicas=1",
        tape: "kill-2.kill-3.w10000.produce-5.w6000.kill-1.w10000.restart-2.w10000.produce-2.w2000.restart-1.w3000",
        seed: 1,
    },
    Preset {
        id: "lab2-acks-1",
        title_key: "replication.preset.lab2_acks_1",
        config: "acks=1,enable.idempotence=false,lab.producer.records.per.sec=200,lab.producer.max.records=1000",
        tape: "w2500.kill-1.w60000.restart-1.w10000",
        seed: 2,
    },
    Preset {
        id: "lab2-acks-all",
        title_key: "replication.preset.lab2_acks_all",
        config: "acks=all,min.insync.replicas=2,enable.idempotence=false,lab.producer.records.per.sec=200,lab.producer.max.records=1000",
        tape: "w2500.kill-1.w60000.restart-1.w10000",
        seed: 2,
    },
    Preset {
        id: "lab3-unclean",
        title_key: "replication.preset.lab3_unclean",
        config: "min.insync.replicas=1",
        tape: "kill-2.kill-3.w10000.produce-1000.w6000.kill-1.w10000.restart-2.w10000.unclean-1.w5000.unclean-0.w1000",
        seed: 3,
    },
    Preset {
        id: "kip101-loss-epoch-off",
        title_key: "replication.preset.kip101_loss_epoch_off",
        config: "lab.brokers=2,replication.factor=2,lab.leader.epoch.enabled=false",
        tape: "produce-3.w6000.produce-1.w100.kill-2.restart-2.kill-1.w10000.restart-1.w3000",
        seed: 101,
    },
    Preset {
        id: "kip101-loss-epoch-on",
        title_key: "replication.preset.kip101_loss_epoch_on",
        config: "lab.brokers=2,replication.factor=2,lab.leader.epoch.enabled=true",
        tape: "produce-3.w6000.produce-1.w100.kill-2.restart-2.kill-1.w10000.restart-1.w3000",
        seed: 101,
    },
    Preset {
        id: "kip101-divergence-epoch-off",
        title_key: "replication.preset.kip101_divergence_epoch_off",
        config: "lab.brokers=2,replication.factor=2,lab.leader.epoch.enabled=false",
        tape: "produce-1.w31000.produce-1.w5000.kill-1.powerfail-2.restart-2.w10000.produce-1.w3000.restart-1.w3000",
        seed: 101,
    },
    Preset {
        id: "kip101-divergence-epoch-on",
        title_key: "replication.preset.kip101_divergence_epoch_on",
        config: "lab.brokers=2,replication.factor=2,lab.leader.epoch.enabled=true",
        tape: "produce-1.w31000.produce-1.w5000.kill-1.powerfail-2.restart-2.w10000.produce-1.w3000.restart-1.w3000",
        seed: 101,
    },
    Preset {
        id: "min-isr-2-one-down",
        title_key: "replication.preset.min_isr_2_one_down",
        config: "min.insync.replicas=2",
        tape: "produce-5.w1000.kill-3.w10000.produce-5.w2000",
        seed: 4,
    },
    Preset {
        id: "min-isr-2-two-down",
        title_key: "replication.preset.min_isr_2_two_down",
        config: "min.insync.replicas=2",
        tape: "produce-5.w1000.kill-3.kill-2.w10000.produce-5.w5000",
        seed: 4,
    },
];

fn node_token(node: Node) -> String {
    match node {
        Node::Broker(id) => id.to_string(),
        Node::Controller => "c".into(),
        Node::Producer => "p".into(),
    }
}

fn parse_node(text: &str) -> Result<Node, String> {
    match text {
        "c" => Ok(Node::Controller),
        "p" => Ok(Node::Producer),
        _ => text
            .parse()
            .map(Node::Broker)
            .map_err(|_| format!("\"{text}\" is not a broker id, c (controller) or p (producer)")),
    }
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("\"{text}\" is not a whole number"))
}

impl LabScene for Replication {
    const ID: &'static str = "replication";

    fn schema() -> &'static [Property] {
        REPLICATION_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, crate::model::kernel::Prose> {
        let legacy = || -> Result<Self, String> { Replication::new(config) };
        legacy().map_err(crate::model::kernel::Prose)
    }

    fn encode_command(command: &Command) -> String {
        match *command {
            Command::Produce { records } => format!("produce-{records}"),
            Command::Kill(id) => format!("kill-{id}"),
            Command::PowerFail(id) => format!("powerfail-{id}"),
            Command::Restart(id) => format!("restart-{id}"),
            Command::Pause { broker, duration_ms } => format!("pause-{broker}-{duration_ms}"),
            Command::Slow { broker, delay_ms } => format!("slow-{broker}-{delay_ms}"),
            Command::Cut(a, b) => format!("cut-{}-{}", node_token(a), node_token(b)),
            Command::Heal(a, b) => format!("heal-{}-{}", node_token(a), node_token(b)),
            Command::SetUncleanElection(on) => format!("unclean-{}", u8::from(on)),
        }
    }

    fn decode_command(token: &str) -> Result<Command, crate::model::kernel::TokenError> {
        let legacy = || -> Result<Command, String> {
            let parts: Vec<&str> = token.split('-').collect();
            match parts.as_slice() {
            ["produce", n] => Ok(Command::Produce { records: number(n)? }),
            ["kill", b] => Ok(Command::Kill(number(b)?)),
            ["powerfail", b] => Ok(Command::PowerFail(number(b)?)),
            ["restart", b] => Ok(Command::Restart(number(b)?)),
            ["pause", b, ms] => Ok(Command::Pause { broker: number(b)?, duration_ms: number(ms)? }),
            ["slow", b, ms] => Ok(Command::Slow { broker: number(b)?, delay_ms: number(ms)? }),
            ["cut", a, b] => Ok(Command::Cut(parse_node(a)?, parse_node(b)?)),
            ["heal", a, b] => Ok(Command::Heal(parse_node(a)?, parse_node(b)?)),
            ["unclean", "1"] => Ok(Command::SetUncleanElection(true)),
            ["unclean", "0"] => Ok(Command::SetUncleanElection(false)),
            _ => Err(format!(
                "unknown action \"{token}\"; this scene knows produce-N, kill-B, powerfail-B, restart-B, pause-B-MS, slow-B-MS, cut-X-Y, heal-X-Y (X, Y: a broker id, c or p) and unclean-0/1"
            )),
        }
        };
        legacy().map_err(crate::model::kernel::TokenError::Legacy)
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    /// Slow motion: a 20 ms network hop spans two Play ticks at 1×, so messages can be followed.
    fn play_scale() -> f64 {
        0.1
    }
}
