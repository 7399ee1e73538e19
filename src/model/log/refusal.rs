//! Why the log scene refuses a command: typed refusals whose Kafka messages travel as
//! [`Arg::Kafka`].

use super::{PARTITION, TOPIC};
use crate::model::config::ConfigError;
use crate::model::kernel::{Arg, Describe, Message};

/// Why `kafka-delete-records` refuses an offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeleteRecordsError {
    /// Neither an offset ≥ 0 nor -1 (the high watermark).
    InvalidOffset { before_offset: i64 },
    /// Kafka's `OffsetOutOfRangeException`: the log start offset cannot pass the high watermark.
    AboveHighWatermark { offset: i64, high_watermark: i64 },
}

/// Why the log scene refuses a command.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Produce takes 1 to `max` records.
    ProduceCount {
        records: u32,
        max: u32,
    },
    /// Kafka's `InvalidRecordException`: a keyless record on a compacted topic.
    NullKeyOnCompactedTopic,
    /// The producer's `RecordTooLargeException` (`KafkaProducer.ensureValidRecordSize`): the record's
    /// size estimate is above `max.request.size`; nothing is sent.
    RecordTooLarge {
        size_bytes: u32,
        max_request_size: u32,
    },
    /// The same check against `buffer.memory`.
    RecordTooLargeForBuffer {
        size_bytes: u32,
    },
    /// The broker's `MESSAGE_TOO_LARGE` (`UnifiedLog.analyzeAndValidateRecords`): a batch above
    /// the topic's `max.message.bytes`.
    MessageTooLarge {
        batch_bytes: u32,
        max_message_bytes: u32,
    },
    /// `kafka-configs` refused the value (Kafka's `ConfigException`).
    Config(ConfigError),
    /// `min.cleanable.dirty.ratio` is not a DOUBLE (Kafka's `ConfigException`).
    NotADouble {
        name: &'static str,
        raw: String,
    },
    /// Kafka's `InvalidConfigurationException` from `LogConfig.validateValues`.
    CompactionLagConflict {
        min_compaction_lag_ms: i64,
        max_compaction_lag_ms: i64,
    },
    DeleteRecords(DeleteRecordsError),
    /// The table reader needs a pace of at least one record per second.
    ReaderPace,
}

crate::messages! {
    pub REFUSAL_KEYS;
    PRODUCE_COUNT = "log.refusal.produce" => "Produce takes 1 to {max, plural, one {# record} other {# records}}, not {records}.";
    KAFKA_REFUSAL = "log.refusal.kafka" => "{kafka}";
    DELETE_INVALID = "log.refusal.delete_records.invalid" =>
        "The requested offset {offset} is not valid: use an offset ≥ 0, or -1 for the high watermark.";
    READER_PACE = "log.refusal.reader" => "The reader needs a pace of at least 1 record per second.";
    PRODUCER_TOO_LARGE = "log.refusal.producer_too_large" => "The producer refuses the record before sending it: {kafka}";
    MESSAGE_TOO_LARGE = "log.refusal.message_too_large" =>
        "The broker answers MESSAGE_TOO_LARGE: {kafka} The lab refuses the whole Produce up front; Kafka's producer \
         fails each record whose batch is refused (a refused batch of several records is first split and sent again).";
}

impl Describe for DeleteRecordsError {
    fn message(&self) -> Message {
        match *self {
            DeleteRecordsError::InvalidOffset { before_offset } => {
                Message::new(DELETE_INVALID).with("offset", Arg::int(before_offset))
            }
            DeleteRecordsError::AboveHighWatermark { offset, high_watermark } => Message::new(KAFKA_REFUSAL).with(
                "kafka",
                Arg::kafka(format!(
                    "Cannot increment the log start offset to {offset} of partition {TOPIC}-{PARTITION} since \
                         it is larger than the high watermark {high_watermark}"
                )),
            ),
        }
    }
}

impl Describe for Refusal {
    fn message(&self) -> Message {
        let kafka = |text: String| Message::new(KAFKA_REFUSAL).with("kafka", Arg::kafka(text));
        let producer = |text: String| Message::new(PRODUCER_TOO_LARGE).with("kafka", Arg::kafka(text));
        match self {
            Refusal::ProduceCount { records, max } => {
                Message::new(PRODUCE_COUNT).with("max", Arg::int(*max)).with("records", Arg::int(*records))
            }
            Refusal::NullKeyOnCompactedTopic => kafka(format!(
                "Compacted topic cannot accept message without key in topic partition {TOPIC}-{PARTITION}."
            )),
            Refusal::RecordTooLarge { size_bytes, max_request_size } => producer(format!(
                "The message is {size_bytes} bytes when serialized which is larger than {max_request_size}, which \
                 is the value of the max.request.size configuration."
            )),
            Refusal::RecordTooLargeForBuffer { size_bytes } => producer(format!(
                "The message is {size_bytes} bytes when serialized which is larger than the total memory buffer \
                 you have configured with the buffer.memory configuration."
            )),
            Refusal::MessageTooLarge { batch_bytes, max_message_bytes } => {
                let text = format!(
                    "The record batch size in the append to {TOPIC}-{PARTITION} is {batch_bytes} bytes which \
                     exceeds the maximum configured value of {max_message_bytes}."
                );
                Message::new(MESSAGE_TOO_LARGE).with("kafka", Arg::kafka(text))
            }
            Refusal::Config(error) => error.message(),
            Refusal::NotADouble { name, raw } => {
                kafka(format!("Invalid value {raw} for configuration {name}: Not a number of type DOUBLE"))
            }
            Refusal::CompactionLagConflict { min_compaction_lag_ms, max_compaction_lag_ms } => kafka(format!(
                "conflict topic config setting min.compaction.lag.ms ({min_compaction_lag_ms}) > \
                 max.compaction.lag.ms ({max_compaction_lag_ms})"
            )),
            Refusal::DeleteRecords(error) => error.message(),
            Refusal::ReaderPace => Message::new(READER_PACE),
        }
    }
}

crate::display_as_message!(Refusal);
