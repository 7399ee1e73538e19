//! Every log-scene action survives a trip through a link, and every preset replays.

use kafka_lab::model::kernel::TokenError;
use kafka_lab::model::log::{Command, LogLab};
use kafka_lab::model::scene::{LabScene, Run};

#[test]
fn every_command_round_trips_through_its_link_token() {
    let commands = [
        Command::Produce { records: 100_000, keys: 0, value_bytes: 1024 },
        Command::Tombstone { key: 426 },
        Command::SetConfig { name: "min.cleanable.dirty.ratio".into(), value: "0.25".into() },
        Command::SetConfig { name: "cleanup.policy".into(), value: "compact,delete".into() },
        Command::SetConfig { name: "retention.ms".into(), value: "-1".into() },
        Command::DeleteRecords { before_offset: -1 },
        Command::LookupOffset { offset: 368_500 },
        Command::LookupTimestamp { timestamp_ms: 1_000 },
        Command::StartReader { records_per_sec: 5 },
    ];
    for command in commands {
        let token = LogLab::encode_command(&command);
        assert!(!token.contains('.'), "tape tokens are split on dots: {token}");
        assert_eq!(LogLab::decode_command(&token), Ok(command), "{token}");
    }
    assert!(matches!(LogLab::decode_command("explode-1"), Err(TokenError::UnknownAction { .. })));
    assert!(matches!(LogLab::decode_command("lookup"), Err(TokenError::UnknownAction { .. })), "a verb alone");
    assert_eq!(LogLab::decode_command("lookup-x"), Err(TokenError::NotANumber { text: "x".into() }));
    assert!(matches!(LogLab::decode_command("produce-1-0"), Err(TokenError::UnknownAction { .. })), "three numbers");
    assert_eq!(LogLab::decode_command("tombstone-"), Err(TokenError::NotANumber { text: String::new() }));
    assert_eq!(LogLab::decode_command("deleterecords--1"), Ok(Command::DeleteRecords { before_offset: -1 }));
}

#[test]
fn every_preset_replays_the_same_way_twice() {
    for preset in LogLab::presets() {
        let a = Run::<LogLab>::from_preset(preset).unwrap_or_else(|e| panic!("{}: {e}", preset.id));
        let b = Run::<LogLab>::from_preset(preset).unwrap();
        assert_eq!(a.sim().trace_hash(), b.sim().trace_hash(), "{}", preset.id);
        assert_eq!(a.world().log().segment_files(), b.world().log().segment_files(), "{}", preset.id);
        assert!(preset.title_key.starts_with("log.preset."));
    }
}
