//! The exactly-once scene as a lab scene: link tokens for its commands, and its presets.

use super::{Command, Refusal, Settings, TxnLab, TXN_SCHEMA};
use crate::model::config::{Config, Property};
use crate::model::kernel::{Fault, Node, Sim, Token, TokenError};
use crate::model::scene::{LabScene, Preset};

/// The transactional presets' config.
macro_rules! txn {
    ($rest:literal) => {
        concat!("transactional.id=payments-processor-0", $rest)
    };
}

const PRESETS: &[Preset] = &[
    Preset {
        id: "zombie-fencing",
        title_key: crate::catalog_key!("transactions.preset.zombie_fencing"),
        config: txn!(""),
        tape: "w1000.produce-3.w1000.commit.w1000.produce-2.pause-p-10000.w2000.restart-p.w1000.produce-2.w1000.commit.w1000x10",
        seed: 1,
    },
    Preset {
        id: "hung-transaction",
        title_key: crate::catalog_key!("transactions.preset.hung_transaction"),
        config: txn!(",lab.other.producer.records.per.sec=1"),
        tape: "w1000.produce-2.w1000.stall-p.w1000x75",
        seed: 1,
    },
    Preset {
        id: "aborted-records",
        title_key: crate::catalog_key!("transactions.preset.aborted_records"),
        config: txn!(""),
        tape: "w1000.produce-3.w1000.commit.w1000.produce-4.w1000.abort.w1000.produce-2.w1000.commit.w1000x2",
        seed: 1,
    },
    Preset {
        id: "crash-no-txn",
        title_key: crate::catalog_key!("transactions.preset.crash_no_txn"),
        config: "lab.processor=true",
        tape: "w1000.process-5.w1000.commit.w1000.process-5.w1000.kill-p.w2000.restart-p.w1000.process-5.w1000.commit.w1000x2",
        seed: 1,
    },
    Preset {
        id: "crash-eos",
        title_key: crate::catalog_key!("transactions.preset.crash_eos"),
        config: txn!(",lab.processor=true"),
        tape: "w1000.process-5.w1000.commit.w1000.process-5.w1000.kill-p.w2000.restart-p.w1000.process-5.w1000.commit.w1000x2",
        seed: 1,
    },
    Preset {
        id: "eos-database",
        title_key: crate::catalog_key!("transactions.preset.eos_database"),
        config: txn!(",lab.processor=true,lab.db.sink=true"),
        tape: "w1000.process-5.w1000.commit.w1000.process-5.w1000.kill-p.w2000.restart-p.w1000.process-5.w1000.commit.w1000x2",
        seed: 1,
    },
    Preset {
        id: "retry-duplicate",
        title_key: crate::catalog_key!("transactions.preset.retry_duplicate"),
        config: "enable.idempotence=false",
        tape: "w1000.produce-1.w1000.lose-ack.produce-1.w20.w10.w100.w10.w400.w600.produce-1.w1000x2",
        seed: 1,
    },
    Preset {
        id: "retry-reorder",
        title_key: crate::catalog_key!("transactions.preset.retry_reorder"),
        config: "enable.idempotence=false,max.in.flight.requests.per.connection=5",
        tape: "w1000.produce-1.w1000.fail-next.produce-1.produce-1.w20.w10.w100.w10.w1000.produce-1.w1000x2",
        seed: 1,
    },
    Preset {
        id: "idempotent-retry",
        title_key: crate::catalog_key!("transactions.preset.idempotent_retry"),
        config: "",
        tape: "w1000.produce-1.w1000.lose-ack.produce-1.w20.w10.w100.w10.w1000.fail-next.produce-1.produce-1.w20.w10.w100.w10.w10.w10.w1000.produce-1.w1000x2",
        seed: 1,
    },
];

/// What the scene's link tokens can be.
const GRAMMAR: &str = "produce-N, commit, abort, process-N, lose-ack, fail-next, stream, kill-p, restart-p, \
                       pause-p-MS, stall-p, cut-p-c and heal-p-c";

/// The tokens of the commands without an argument.
const WORDS: &[(&str, Command)] = &[
    ("commit", Command::Commit),
    ("abort", Command::Abort),
    ("lose-ack", Command::LoseAck),
    ("fail-next", Command::FailNext),
    ("stream", Command::Stream),
];

impl LabScene for TxnLab {
    const ID: &'static str = "transactions";
    const FIGURE_LABELS: &'static [crate::model::notebook::labels::Label] =
        crate::model::notebook::labels::TRANSACTIONS;

    fn schema() -> &'static [Property] {
        TXN_SCHEMA
    }

    fn build(config: &Config) -> Result<Self, Refusal> {
        Settings::from_config(config).map(TxnLab::new)
    }

    fn encode_command(command: &Command) -> String {
        if let Some((word, _)) = WORDS.iter().find(|(_, c)| c == command) {
            return (*word).to_string();
        }
        match command {
            Command::Produce { records } => format!("produce-{records}"),
            Command::Process { records } => format!("process-{records}"),
            Command::Fault(fault) => fault.encode(),
            _ => unreachable!("a word command"),
        }
    }

    fn decode_command(text: &str) -> Result<Command, TokenError> {
        if let Some((_, command)) = WORDS.iter().find(|(word, _)| *word == text) {
            return Ok(command.clone());
        }
        let token = Token::parse(text);
        match (token.verb(), Fault::decode(&token)) {
            ("kill" | "restart" | "pause" | "stall" | "cut" | "heal", Some(fault)) => {
                let fault = fault?;
                app_fault(fault)
                    .then_some(Command::Fault(fault))
                    .ok_or_else(|| token.refused(&Refusal::FaultNotModelled))
            }
            ("produce", _) if token.args().len() == 1 => token.number(0).map(|records| Command::Produce { records }),
            ("process", _) if token.args().len() == 1 => token.number(0).map(|records| Command::Process { records }),
            _ => Err(token.unknown(GRAMMAR)),
        }
    }

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn story(preset: Option<&str>) -> crate::model::story::Story<Self> {
        super::story::story(preset)
    }

    /// A run where nothing sends yet gets the other producer's steady stream.
    fn workload(sim: &Sim<Self>) -> Option<Command> {
        (!sim.world().other_streaming).then_some(Command::Stream)
    }
}

/// The faults this scene models: on the app (`p`), and the app's link to the coordinator (`c`).
fn app_fault(fault: Fault) -> bool {
    match fault {
        Fault::Crash(node) | Fault::Restart(node) | Fault::Pause { node, .. } => node == Node::Producer,
        Fault::Cut(a, b) | Fault::Heal(a, b) => a == Node::Producer && b == Node::Controller,
        Fault::PowerFail(_) | Fault::Slow { .. } => false,
    }
}
