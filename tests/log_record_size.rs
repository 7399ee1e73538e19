//! Which limit refuses a big record: the producer's `max.request.size` (and `buffer.memory`)
//! before anything is sent, or the broker's `max.message.bytes` for the batch it receives.

use kafka_lab::model::kernel::Input;
use kafka_lab::model::log::{Command, LogLab, Refusal};
use kafka_lab::model::scene::Run;

fn run(overrides: &[(&str, &str)]) -> Run<LogLab> {
    let pairs: Vec<(String, String)> = overrides.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Run::new(4, &pairs).unwrap()
}

fn produce(run: &mut Run<LogLab>, records: u32, keys: u32, value_bytes: u32) -> Result<(), Refusal> {
    run.history.push(Input::Command(Command::Produce { records, keys, value_bytes })).map(|_| ())
}

/// Kafka: `KafkaProducer.ensureValidRecordSize` with `DefaultRecordBatch.estimateBatchSizeUpperBound`.
#[test]
fn with_default_limits_the_producers_max_request_size_refuses_first() {
    let mut run = run(&[]);
    // 61 + 21 + null key 1 + varint 3 + value + headers 1 = 1048576 for a value of 1048489 bytes.
    let err = produce(&mut run, 1, 0, 1_048_490).unwrap_err();
    assert_eq!(err, Refusal::RecordTooLarge { size_bytes: 1_048_577, max_request_size: 1_048_576 });
    assert_eq!(
        err.to_string(),
        "The producer refuses the record before sending it: The message is 1048577 bytes when serialized which is \
         larger than 1048576, which is the value of the max.request.size configuration."
    );
    assert!(run.history.tape().is_empty(), "nothing was sent");
    // One byte less passes the producer, and its 1048561-byte batch is within max.message.bytes = 1048588.
    produce(&mut run, 1, 0, 1_048_489).unwrap();
}

/// Kafka: `UnifiedLog.analyzeAndValidateRecords` (batch.sizeInBytes > max.message.bytes).
#[test]
fn a_batch_above_the_topics_max_message_bytes_gets_message_too_large_from_the_broker() {
    let mut run = run(&[("max.request.size", "2097152")]);
    let err = produce(&mut run, 1, 0, 1_500_000).unwrap_err();
    // 61 + varint 4 + body (1 + 1 + 1 + 1 + varint 4 + 1500000 + 1)
    assert_eq!(err, Refusal::MessageTooLarge { batch_bytes: 1_500_074, max_message_bytes: 1_048_588 });
    assert!(err.to_string().contains(
        "MESSAGE_TOO_LARGE: The record batch size in the append to orders-0 is 1500074 bytes which exceeds the \
         maximum configured value of 1048588."
    ));
    run.history
        .push(Input::Command(Command::SetConfig { name: "max.message.bytes".into(), value: "2000000".into() }))
        .unwrap();
    produce(&mut run, 1, 0, 1_500_000).unwrap();
}

/// Kafka: `UnifiedLog.analyzeAndValidateRecords` sees whole batches: many small records batched by
/// `batch.size` can pass a `max.message.bytes` that each record alone fits.
#[test]
fn small_records_batched_past_max_message_bytes_are_refused_by_the_broker() {
    let mut run = run(&[("max.message.bytes", "20000")]);
    produce(&mut run, 100, 0, 1024).unwrap();
    run.history.push(Input::Command(Command::SetConfig { name: "batch.size".into(), value: "65536".into() })).unwrap();
    let err = produce(&mut run, 100, 0, 1024).unwrap_err();
    assert!(matches!(err, Refusal::MessageTooLarge { max_message_bytes: 20_000, batch_bytes } if batch_bytes > 20_000));
}

/// Kafka: `KafkaProducer.ensureValidRecordSize`'s second check, against `buffer.memory`.
#[test]
fn a_record_bigger_than_buffer_memory_is_refused_by_the_producer() {
    let mut run = run(&[("max.request.size", "2147483647"), ("buffer.memory", "1000000")]);
    let err = produce(&mut run, 1, 10, 2_000_000).unwrap_err();
    // 61 + 21 + key "key-9" (1 + 5) + varint 4 (zig-zag 4000000 takes 22 bits) + value + headers 1
    assert_eq!(err, Refusal::RecordTooLargeForBuffer { size_bytes: 2_000_093 });
    assert!(err.to_string().ends_with(
        "The message is 2000093 bytes when serialized which is larger than the total memory buffer you have \
         configured with the buffer.memory configuration."
    ));
}

/// Kafka checks record size before the compacted topic's key rule (`LogValidator`).
#[test]
fn on_a_compacted_topic_the_size_check_comes_before_the_missing_key() {
    let mut run = run(&[("cleanup.policy", "compact")]);
    assert!(matches!(produce(&mut run, 1, 0, 2_000_000), Err(Refusal::RecordTooLarge { .. })));
    assert_eq!(produce(&mut run, 1, 0, 100), Err(Refusal::NullKeyOnCompactedTopic));
}
