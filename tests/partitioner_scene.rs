//! The Partitioner scene as the shell drives it: link tokens, presets, determinism.

use kafka_lab::model::config::ConfigError;
use kafka_lab::model::kernel::{Describe, TokenError};
use kafka_lab::model::partitioner::{Command, KeyDistribution, Partitioner, Refusal};
use kafka_lab::model::scene::RunError;
use kafka_lab::model::scene::{LabScene, Run};

#[test]
fn every_command_survives_a_link() {
    let commands = [
        Command::set_key("cliente-42").unwrap(),
        Command::SetKey(vec![0x00, 0xff]),
        Command::Alter(24),
        Command::Distribution(KeyDistribution::Zipf),
        Command::Composite(true),
        Command::Composite(false),
        Command::Produce(100_000),
        Command::send("cancelled").unwrap(),
        Command::ProduceUnkeyed(50),
    ];
    for command in commands {
        let token = Partitioner::encode_command(&command);
        assert!(!token.starts_with('s') || !token[1..].chars().all(|c| c.is_ascii_digit()), "{token}");
        assert_eq!(Partitioner::decode_command(&token).unwrap(), command, "{token}");
    }
    assert!(matches!(Partitioner::decode_command("explode-3"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(Partitioner::decode_command("produce-x"), Err(TokenError::NotANumber { .. })));
    assert_eq!(Command::send("Cancelled!"), Err(Refusal::BadEventName { name: "Cancelled!".into() }));
}

#[test]
fn presets_replay_identically() {
    for preset in Partitioner::presets() {
        let a = Run::<Partitioner>::from_preset(preset).unwrap();
        let b = Run::<Partitioner>::from_preset(preset).unwrap();
        assert_eq!(a.sim().trace_hash(), b.sim().trace_hash(), "{}", preset.id);
        assert!(preset.title_key.starts_with("partitioner.preset."));
    }
}

#[test]
fn sending_an_event_without_a_key_is_refused() {
    let err = Run::<Partitioner>::restore(1, &[], "send-created", None).unwrap_err();
    assert!(matches!(&err, RunError::Action { index: 1, why, .. } if *why == Refusal::NoKey.message()), "{err}");
}

#[test]
fn bad_config_is_refused_with_kafkas_wording() {
    let err = Run::<Partitioner>::new(1, &[("linger.ms".into(), "-1".into())]).unwrap_err();
    assert!(matches!(err, RunError::Config(ConfigError::AtLeast { name: "linger.ms", min: 0, .. })), "{err}");
}

#[test]
fn tokens_read_as_they_always_did() {
    assert_eq!(Partitioner::decode_command("key-").unwrap(), Command::SetKey(Vec::new()));
    assert!(matches!(Partitioner::decode_command("key"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(Partitioner::decode_command("dist-pareto"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(Partitioner::decode_command("composite-maybe"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(
        Partitioner::decode_command("send-Bad!"),
        Err(TokenError::Refused { ref token, .. }) if token == "send-Bad!"
    ));
    assert!(matches!(Partitioner::decode_command("alter-x"), Err(TokenError::NotANumber { .. })));
    assert_eq!(Partitioner::decode_command("null-120").unwrap(), Command::ProduceUnkeyed(120));
}
