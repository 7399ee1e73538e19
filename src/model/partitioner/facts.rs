//! What the Partitioner scene reports: typed facts for the event log and typed refusals.
//! English templates keep the lab's wording; the UI translates by key.

use super::accumulator::SendReason;
use super::key::key_text;
use super::load::KeyDistribution;
use super::murmur2::{murmur2, to_positive};
use super::repartition::KeyMove;
use super::{HOT_KEY, TOPIC};
use crate::model::kernel::{Arg, Describe, Key, Message};

/// An earlier event of the same key that a processed record overtook.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Overtaken {
    pub event: String,
    /// The partition it is still waiting in.
    pub partition: u32,
}

/// One line of the Partitioner's event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The controller created the topic.
    TopicCreated { partitions: u32 },
    /// The default partitioner's steps for the watched key (its serialized bytes).
    KeyHashed { key: Vec<u8>, partitions: u32 },
    /// `kafka-topics --alter --partitions`: the controller added partitions; no record moved.
    PartitionsAdded { from: u32, to: u32 },
    /// Where new records of the population's keys go now (`watched`: the typed key; `hot`: MEGACORP
    /// when the workload has it); the share moved is computed from the counts.
    KeysRemapped { moved_keys: u64, keys: u64, watched: Option<(Vec<u8>, KeyMove)>, hot: Option<KeyMove> },
    /// The producer's key distribution changed.
    DistributionSet { distribution: KeyDistribution },
    /// The hot key is sent as `MEGACORP-<n % buckets>` (`Some`) or plain (`None`).
    CompositeSet { buckets: Option<u32> },
    /// A burst of keyed records was sent.
    KeyedSent { records: u64, distribution: KeyDistribution },
    /// `kafka-get-offsets`: every partition's log end offset, in partition order.
    EndOffsets { offsets: Vec<u64> },
    /// One record of the watched key's stream was appended.
    TrackedSent { key: Vec<u8>, event: String, partition: u32, offset: u64 },
    /// The sticky partitioner drew its next partition after `produced_bytes` (maybe the same one).
    StickySwitched { produced_bytes: u32, from: u32, to: u32 },
    /// The accumulator opened a batch.
    BatchCreated { batch: u32, partition: u32 },
    /// The sender sent a batch (full, or after `linger.ms`).
    BatchSent {
        batch: u32,
        partition: u32,
        /// The partition's leader, which the produce request went to.
        broker: u32,
        records: u32,
        size_bytes: u32,
        limit_bytes: u32,
        reason: SendReason,
        linger_ms: u64,
    },
    /// A leader has a sendable batch but already `max` produce requests unanswered: its batches wait.
    BrokerBusy { broker: u32, in_flight: u32, max: u32 },
    /// Adaptive partitioning leaves these partitions out: their leader has taken no data for longer
    /// than `partitioner.availability.timeout.ms`.
    PartitionsUnavailable { broker: u32, partitions: Vec<u32>, timeout_ms: u64 },
    /// Their leader took data again: the sticky partitioner may draw them again.
    PartitionsAvailable { broker: u32, partitions: Vec<u32> },
    /// A partition's consumer processed a record of the watched key.
    Processed { key: String, event: String, partition: u32, offset: u64 },
    /// It did so before earlier events of the same key: the order broke.
    OrderBroken { key: String, event: String, overtaken: Vec<Overtaken> },
    /// A steady producer of keyed records started (or changed its rate).
    StreamStarted { records_per_sec: u32 },
    /// The steady producer sent one keyed record.
    KeyedRecordSent { key: String, partition: u32, offset: u64 },
}

crate::messages! {
    pub FACT_KEYS;
    TOPIC_CREATED = "partitioner.fact.created" => "created topic {topic} with {partitions, plural, one {# partition} other {# partitions}}";
    KEY_HASHED = "partitioner.fact.key" =>
        "key {key}: murmur2 = {murmur2} (0x{hex}), toPositive = {positive}, % {partitions} = partition {partition}";
    PARTITIONS_ADDED = "partitioner.fact.alter" =>
        "{topic}: partitions {from} → {to}; the existing records stay where they are";
    KEYS_REMAPPED = "partitioner.fact.remapped" =>
        "new records of {moved} of {keys, plural, one {# key} other {# keys}} ({percent} %) now go to another partition{watched}{hot}";
    REMAPPED_WATCHED = "partitioner.fact.remapped.watched" => "; {key}: {from} → {to}";
    REMAPPED_HOT = "partitioner.fact.remapped.hot" => "; {key}: {from} → {to}, still all in one partition";
    NOTHING = "partitioner.fact.nothing" => "";
    DISTRIBUTION = "partitioner.fact.distribution" => "key distribution: {distribution}";
    COMPOSITE_ON = "partitioner.fact.composite.on" =>
        "hot key sent as {hot}-<n % {buckets}>: {hot}'s records are no longer in one order";
    COMPOSITE_OFF = "partitioner.fact.composite.off" => "hot key sent as {hot}: all its records in one partition, in order";
    KEYED_SENT = "partitioner.fact.produced" => "sent {records, plural, one {# keyed record} other {# keyed records}} ({distribution})";
    END_OFFSETS = "partitioner.fact.offsets" => "{offsets}";
    TRACKED_SENT = "partitioner.fact.sent" => "{key} {event} → {partition} at offset {offset}";
    STICKY_AGAIN = "partitioner.fact.sticky.again" =>
        "sticky partitioner: {bytes} B produced to {from}, drew {to} again (the draw is uniform over all partitions)";
    STICKY_SWITCH = "partitioner.fact.sticky.switch" => "sticky partitioner: {bytes} B produced to {from}, switching to {to}";
    BATCH_CREATED = "partitioner.fact.batch.new" => "new batch #{batch} for {partition}";
    BATCH_SENT = "partitioner.fact.batch.sent" =>
        "batch #{batch} → {partition}: {records, plural, one {# record} other {# records}}, {size} of {limit} B ({why})";
    SENT_FULL = "partitioner.fact.batch.full" => "full";
    SENT_LINGER = "partitioner.fact.batch.linger" => "linger.ms={linger} elapsed";
    SENT_CARRIED = "partitioner.fact.batch.carried" =>
        "not full, linger.ms not over: broker {broker} was ready for another partition's batch and took this one along";
    BROKER_BUSY = "partitioner.fact.broker.busy" =>
        "broker {broker}: {in_flight, plural, one {# produce request} other {# produce requests}} unanswered (max.in.flight.requests.per.connection={max}), so its partitions' batches wait in the accumulator";
    UNAVAILABLE = "partitioner.fact.unavailable" =>
        "{partitions}: broker {broker} has taken no data for more than partitioner.availability.timeout.ms={timeout}, so the sticky partitioner leaves them out";
    AVAILABLE = "partitioner.fact.available" =>
        "{partitions}: broker {broker} takes data again, so the sticky partitioner may draw them again";
    PARTITION_ITEM = "partitioner.fact.partition" => "{partition}";
    PROCESSED = "partitioner.fact.processed" => "processed {key} {event} ({partition} offset {offset})";
    ORDER_BROKEN = "partitioner.fact.order.broken" => "order broken for {key}: {event} processed before {overtaken}";
    OVERTAKEN = "partitioner.fact.order.overtaken" => "{event} (still in {partition})";
    LIST_MORE = "partitioner.fact.list.more" => "{first}, {rest}";
    STREAM_STARTED = "partitioner.fact.stream" =>
        "steady producer: {rate, plural, one {# keyed record} other {# keyed records}} per second, each to the partition of its key";
    KEYED_RECORD_SENT = "partitioner.fact.stream.sent" => "{key} → {partition} at offset {offset}";
}

/// `orders-3`: a topic-partition as Kafka writes it.
pub(super) fn partition_arg(partition: u32) -> Arg {
    Arg::text(format!("{TOPIC}-{partition}"))
}

/// `orders-2, orders-5`: partitions as a list in the reader's language.
pub(super) fn partitions_arg(partitions: &[u32]) -> Arg {
    list_arg(partitions.iter().map(|p| Message::new(PARTITION_ITEM).with("partition", partition_arg(*p))).collect())
}

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

/// `a, b, c` from messages, each rendered in the same language.
pub(super) fn list_arg(mut items: Vec<Message>) -> Arg {
    let Some(last) = items.pop() else { return nested(Message::new(NOTHING)) };
    let joined = items
        .into_iter()
        .rev()
        .fold(last, |rest, first| Message::new(LIST_MORE).with("first", nested(first)).with("rest", nested(rest)));
    nested(joined)
}

/// A share in tenths of a percent, rounded exactly as `{:.1}` rounds the float.
fn percent_tenths(share: f64) -> Arg {
    Arg::Decimal { units: crate::model::kernel::decimal_units(share * 100.0, 1), places: 1 }
}

fn key_move(key: Key, name: &str, step: KeyMove) -> Message {
    Message::new(key)
        .with("key", Arg::text(name))
        .with("from", partition_arg(step.from))
        .with("to", partition_arg(step.to))
}

impl Fact {
    fn remapped(moved_keys: u64, keys: u64, watched: &Option<(Vec<u8>, KeyMove)>, hot: Option<KeyMove>) -> Message {
        let stayed = if keys == 0 { 0.0 } else { (keys - moved_keys) as f64 / keys as f64 };
        let watched = match watched {
            Some((key, step)) => key_move(REMAPPED_WATCHED, &key_text(key), *step),
            None => Message::new(NOTHING),
        };
        let hot = hot.map_or(Message::new(NOTHING), |step| key_move(REMAPPED_HOT, HOT_KEY, step));
        Message::new(KEYS_REMAPPED)
            .with("moved", Arg::int(moved_keys))
            .with("keys", Arg::int(keys))
            .with("percent", percent_tenths(1.0 - stayed))
            .with("watched", nested(watched))
            .with("hot", nested(hot))
    }

    fn key_hashed(key: &[u8], partitions: u32) -> Message {
        let hash = murmur2(key);
        let positive = to_positive(hash);
        Message::new(KEY_HASHED)
            .with("key", Arg::text(key_text(key)))
            .with("murmur2", Arg::int(hash))
            .with("hex", Arg::text(format!("{:08x}", hash as u32)))
            .with("positive", Arg::int(positive))
            .with("partitions", Arg::int(partitions))
            .with("partition", Arg::int(positive % partitions.max(1)))
    }

    fn batch_sent(&self) -> Message {
        let Fact::BatchSent { batch, partition, broker, records, size_bytes, limit_bytes, reason, linger_ms } = self
        else {
            unreachable!("only for BatchSent")
        };
        let why = match reason {
            SendReason::Linger => Message::new(SENT_LINGER).with("linger", Arg::int(*linger_ms)),
            SendReason::Full => Message::new(SENT_FULL),
            SendReason::Carried => Message::new(SENT_CARRIED).with("broker", Arg::int(*broker)),
        };
        Message::new(BATCH_SENT)
            .with("batch", Arg::int(*batch))
            .with("partition", partition_arg(*partition))
            .with("records", Arg::int(*records))
            .with("size", Arg::int(*size_bytes))
            .with("limit", Arg::int(*limit_bytes))
            .with("why", nested(why))
    }

    fn order_broken(key: &str, event: &str, overtaken: &[Overtaken]) -> Message {
        let items = overtaken
            .iter()
            .map(|o| {
                Message::new(OVERTAKEN)
                    .with("event", Arg::text(o.event.clone()))
                    .with("partition", partition_arg(o.partition))
            })
            .collect();
        Message::new(ORDER_BROKEN)
            .with("key", Arg::text(key))
            .with("event", Arg::text(event))
            .with("overtaken", list_arg(items))
    }
}

impl Describe for Fact {
    fn message(&self) -> Message {
        match self {
            Fact::TopicCreated { partitions } => {
                Message::new(TOPIC_CREATED).with("topic", Arg::text(TOPIC)).with("partitions", Arg::int(*partitions))
            }
            Fact::KeyHashed { key, partitions } => Fact::key_hashed(key, *partitions),
            Fact::PartitionsAdded { from, to } => Message::new(PARTITIONS_ADDED)
                .with("topic", Arg::text(TOPIC))
                .with("from", Arg::int(*from))
                .with("to", Arg::int(*to)),
            Fact::KeysRemapped { moved_keys, keys, watched, hot } => Fact::remapped(*moved_keys, *keys, watched, *hot),
            Fact::DistributionSet { distribution } => {
                Message::new(DISTRIBUTION).with("distribution", Arg::text(distribution.name()))
            }
            Fact::CompositeSet { buckets: Some(buckets) } => {
                Message::new(COMPOSITE_ON).with("hot", Arg::text(HOT_KEY)).with("buckets", Arg::int(*buckets))
            }
            Fact::CompositeSet { buckets: None } => Message::new(COMPOSITE_OFF).with("hot", Arg::text(HOT_KEY)),
            Fact::KeyedSent { records, distribution } => Message::new(KEYED_SENT)
                .with("records", Arg::int(*records))
                .with("distribution", Arg::text(distribution.name())),
            Fact::EndOffsets { offsets } => {
                let lines: Vec<String> =
                    offsets.iter().enumerate().map(|(p, end)| format!("{TOPIC}:{p}:{end}")).collect();
                Message::new(END_OFFSETS).with("offsets", Arg::kafka(lines.join(" ")))
            }
            Fact::TrackedSent { key, event, partition, offset } => Message::new(TRACKED_SENT)
                .with("key", Arg::text(key_text(key)))
                .with("event", Arg::text(event.clone()))
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            Fact::StickySwitched { produced_bytes, from, to } => {
                Message::new(if from == to { STICKY_AGAIN } else { STICKY_SWITCH })
                    .with("bytes", Arg::int(*produced_bytes))
                    .with("from", partition_arg(*from))
                    .with("to", partition_arg(*to))
            }
            Fact::BatchCreated { batch, partition } => {
                Message::new(BATCH_CREATED).with("batch", Arg::int(*batch)).with("partition", partition_arg(*partition))
            }
            Fact::BatchSent { .. } => self.batch_sent(),
            Fact::BrokerBusy { broker, in_flight, max } => Message::new(BROKER_BUSY)
                .with("broker", Arg::int(*broker))
                .with("in_flight", Arg::int(*in_flight))
                .with("max", Arg::int(*max)),
            Fact::PartitionsUnavailable { broker, partitions, timeout_ms } => Message::new(UNAVAILABLE)
                .with("partitions", partitions_arg(partitions))
                .with("broker", Arg::int(*broker))
                .with("timeout", Arg::int(*timeout_ms)),
            Fact::PartitionsAvailable { broker, partitions } => {
                Message::new(AVAILABLE).with("partitions", partitions_arg(partitions)).with("broker", Arg::int(*broker))
            }
            Fact::Processed { key, event, partition, offset } => Message::new(PROCESSED)
                .with("key", Arg::text(key.clone()))
                .with("event", Arg::text(event.clone()))
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
            Fact::OrderBroken { key, event, overtaken } => Fact::order_broken(key, event, overtaken),
            Fact::StreamStarted { records_per_sec } => {
                Message::new(STREAM_STARTED).with("rate", Arg::int(*records_per_sec))
            }
            Fact::KeyedRecordSent { key, partition, offset } => Message::new(KEYED_RECORD_SENT)
                .with("key", Arg::text(key.clone()))
                .with("partition", partition_arg(*partition))
                .with("offset", Arg::int(*offset)),
        }
    }
}

/// Why the Partitioner refuses a command, a typed key or a config.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Kafka's InvalidPartitionsException: the count asked for is the current one.
    AlreadyHasPartitions { partitions: u32 },
    /// Kafka's InvalidPartitionsException: partitions can only be added.
    NotAnIncrease { current: u32, requested: u32 },
    /// The lab draws at most `max` partitions.
    TooManyPartitions { requested: u32, max: u32 },
    /// A keyed burst outside 1..=`max` records.
    ProduceCount { records: u64, max: u64 },
    /// A burst of records without key outside 1..=`max`.
    UnkeyedCount { records: u32, max: u32 },
    /// A tracked event needs the watched key.
    NoKey,
    /// An event name that is not 1 to 32 of a-z, 0-9 and _.
    BadEventName { name: String },
    /// A `0x…` key with a character that is not a hex digit (`position` counts from the `0`).
    BadHex { input: String, bad: char, position: usize },
    /// A `0x…` key with an odd number of hex digits.
    OddHex { input: String },
    /// `lab.key.distribution` names no distribution.
    UnknownDistribution { name: String },
    /// The partition count typed is not a whole number.
    NotAPartitionCount { text: String },
    /// A steady producer's rate outside 1..=`max` records per second.
    StreamRate { records_per_sec: u32, max: u32 },
    /// `lab.slow.broker` names a broker the cluster does not have.
    NoSuchBroker { broker: u32, brokers: u32 },
}

crate::messages! {
    pub REFUSAL_KEYS;
    ALREADY_HAS = "partitioner.refusal.same" => "{kafka}";
    NOT_AN_INCREASE = "partitioner.refusal.shrink" => "{kafka}";
    TOO_MANY = "partitioner.refusal.too_many" => "This lab draws at most {max, plural, one {# partition} other {# partitions}}.";
    PRODUCE_COUNT = "partitioner.refusal.produce" => "produce 1 to {max, plural, one {# record} other {# records}} at a time";
    UNKEYED_COUNT = "partitioner.refusal.unkeyed" => "send 1 to {max, plural, one {# record} other {# records}} without key at a time";
    NO_KEY = "partitioner.refusal.no_key" => "Set a key first: the event is sent with the watched key.";
    BAD_EVENT = "partitioner.refusal.event" => "event name \"{name}\": use 1 to 32 of a-z, 0-9 and _ (e.g. created)";
    BAD_HEX = "partitioner.refusal.hex" =>
        "\"{input}\" is not valid hex: '{bad}' at position {position} is not a hex digit (0-9, a-f)";
    ODD_HEX = "partitioner.refusal.odd_hex" =>
        "\"{input}\" has an odd number of hex digits: write every byte as two digits (e.g. 0x0f, not 0xf)";
    UNKNOWN_DISTRIBUTION = "partitioner.refusal.distribution" =>
        "unknown key distribution \"{name}\": use uniform, zipf or megacorp";
    PARTITION_COUNT = "partitioner.refusal.partition_count" =>
        "\"{text}\" is not a partition count: type a whole number";
    STREAM_RATE = "partitioner.refusal.stream" =>
        "a steady producer sends 1 to {max, plural, one {# record} other {# records}} per second";
    NO_SUCH_BROKER = "partitioner.refusal.broker" =>
        "lab.slow.broker={broker}: the cluster has {brokers, plural, one {only broker 1} other {brokers 1 to #}} (lab.brokers)";
}

impl Describe for Refusal {
    fn message(&self) -> Message {
        match self {
            Refusal::AlreadyHasPartitions { partitions } => Message::new(ALREADY_HAS)
                .with("kafka", Arg::kafka(format!("Topic already has {partitions} partition(s)."))),
            Refusal::NotAnIncrease { current, requested } => Message::new(NOT_AN_INCREASE).with(
                "kafka",
                Arg::kafka(format!(
                    "The topic {TOPIC} currently has {current} partition(s); {requested} would not be an increase."
                )),
            ),
            Refusal::TooManyPartitions { max, .. } => Message::new(TOO_MANY).with("max", Arg::int(*max)),
            Refusal::ProduceCount { max, .. } => Message::new(PRODUCE_COUNT).with("max", Arg::int(*max)),
            Refusal::UnkeyedCount { max, .. } => Message::new(UNKEYED_COUNT).with("max", Arg::int(*max)),
            Refusal::NoKey => Message::new(NO_KEY),
            Refusal::BadEventName { name } => Message::new(BAD_EVENT).with("name", Arg::text(name.clone())),
            Refusal::BadHex { input, bad, position } => Message::new(BAD_HEX)
                .with("input", Arg::text(input.clone()))
                .with("bad", Arg::text(bad.to_string()))
                .with("position", Arg::int(*position)),
            Refusal::OddHex { input } => Message::new(ODD_HEX).with("input", Arg::text(input.clone())),
            Refusal::UnknownDistribution { name } => {
                Message::new(UNKNOWN_DISTRIBUTION).with("name", Arg::text(name.clone()))
            }
            Refusal::NotAPartitionCount { text } => Message::new(PARTITION_COUNT).with("text", Arg::text(text.clone())),
            Refusal::StreamRate { max, .. } => Message::new(STREAM_RATE).with("max", Arg::int(*max)),
            Refusal::NoSuchBroker { broker, brokers } => {
                Message::new(NO_SUCH_BROKER).with("broker", Arg::int(*broker)).with("brokers", Arg::int(*brokers))
            }
        }
    }
}

crate::display_as_message!(Fact, Refusal);
