//! The key → partition arithmetic is Kafka's, bit for bit.

use kafka_lab::model::kernel::Describe;
use kafka_lab::model::kernel::{Actor, TokenError};
use kafka_lab::model::partitioner::{murmur2, parse_key, partition_for_key, Command, Fact, Partitioner, Refusal};
use kafka_lab::model::scene::{LabScene, Run};

#[test]
fn murmur2_matches_kafkas_published_vectors() {
    // apache/kafka clients/src/test/.../UtilsTest.java, testMurmur2.
    let cases: [(&[u8], i32); 6] = [
        (b"21", -973_932_308),
        (b"foobar", -790_332_482),
        (b"a-little-bit-long-string", -985_981_536),
        (b"a-little-bit-longer-string", -1_486_304_829),
        (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58_897_971),
        (b"abc", 479_470_107),
    ];
    for (key, expected) in cases {
        assert_eq!(murmur2(key), expected, "{}", String::from_utf8_lossy(key));
    }
}

/// Printed by a MurmurHash2 written from its public definition in Java 17 (not Kafka's code),
/// as (key input, signed hash).
#[test]
fn murmur2_matches_an_independent_java_implementation_for_every_tail_and_non_ascii_keys() {
    let cases: [(&str, i32); 18] = [
        ("", 275_646_681),
        ("k", -1_567_496_736),
        ("ka", -94_968_955),
        ("kaf", 576_643_159),
        ("kafk", 2_122_128_005),
        ("kafka", -798_503_068),
        ("kafka-", 1_609_072_488),
        ("kafka-l", -52_751_881),
        ("kafka-la", 1_366_450_597),
        ("0x00ff10", -2_069_360_273),
        ("0x80", 857_690_492),
        ("0xf8f9fa", -1_568_632_735),
        ("0xf8f9fafbfcfdfeff", -2_087_653_280),
        ("ñandú", -1_915_788_724),
        ("日本語キー", 1_445_825_182),
        ("🦀", 1_309_741_855),
        ("cliente-42", -2_000_531_535),
        ("MEGACORP", 2_112_658_892),
    ];
    for (input, expected) in cases {
        let bytes = parse_key(input).expect("valid key input");
        assert_eq!(murmur2(&bytes), expected, "{input}");
    }
}

#[test]
fn cliente_42_moves_from_partition_5_of_12_to_17_of_24() {
    // (146952113 % 12, % 24) from the same independent Java run.
    assert_eq!(partition_for_key(b"cliente-42", 12), 5);
    assert_eq!(partition_for_key(b"cliente-42", 24), 17);
}

#[test]
fn a_typed_key_shows_every_hash_step_and_its_partition() {
    let mut run = Run::<Partitioner>::new(1, &[("partitions".into(), "12".into())]).unwrap();
    run.history.push(kafka_lab::model::kernel::Input::Command(Command::set_key("cliente-42").unwrap())).unwrap();
    let steps = run.world().key_steps().expect("a key is set");
    assert_eq!(steps.bytes_hex(), "636c69656e74652d3432");
    assert_eq!((steps.murmur2, steps.positive, steps.partition), (-2_000_531_535, 146_952_113, 5));
    let last = &run.sim().log().last(1)[0];
    assert_eq!(last.actor, Actor::Producer);
    assert_eq!(last.fact, Fact::KeyHashed { key: b"cliente-42".to_vec(), partitions: 12 });
}

#[test]
fn raw_byte_keys_survive_a_link_and_bad_hex_is_refused() {
    let command = Command::set_key("0x00ff10").unwrap();
    let token = Partitioner::encode_command(&command);
    assert_eq!(token, "key-00ff10");
    assert_eq!(Partitioner::decode_command(&token).unwrap(), command);
    assert_eq!(Command::set_key("0xzz").unwrap_err(), Refusal::BadHex { input: "0xzz".into(), bad: 'z', position: 2 });
    assert_eq!(Command::set_key("0xabc").unwrap_err(), Refusal::OddHex { input: "0xabc".into() });
    let why = Refusal::OddHex { input: "0xabc".into() }.message();
    assert_eq!(Partitioner::decode_command("key-abc"), Err(TokenError::Refused { token: "key-abc".into(), why }));
}
