//! Driving the consumer-groups scene from a test: a run from a config, time, commands, and the
//! coordinator's states in order.

use kafka_lab::model::group::{Command, GroupLab, GroupState};
use kafka_lab::model::kernel::Input;
use kafka_lab::model::scene::Run;

/// Seed 3 and the given overrides (`name=value,...`).
pub fn run(config: &str) -> Run<GroupLab> {
    let overrides = kafka_lab::model::scene::parse_overrides(config).expect("valid overrides");
    Run::new(3, &overrides).expect("valid config")
}

pub fn wait(run: &mut Run<GroupLab>, ms: u64) {
    run.history.push(Input::Advance(ms)).unwrap();
}

pub fn command(run: &mut Run<GroupLab>, command: Command) {
    run.history.push(Input::Command(command)).unwrap();
}

/// Every state the group has been in, in order.
pub fn states(run: &Run<GroupLab>) -> Vec<GroupState> {
    run.world().coordinator().transitions.iter().map(|(_, s, _)| *s).collect()
}
