//! Who did something, as the event log names them (like the logger of a Kafka log line).

use super::message::{Arg, Describe, Message};

/// The process or tool an event-log line is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Actor {
    /// The KRaft controller (active quorum member).
    Controller,
    /// A broker, by `node.id`.
    Broker(u32),
    /// The scene's producer client.
    Producer,
    /// The producer's sender thread (drains the accumulator's batches).
    Sender,
    /// A consumer client reading one partition (`consumer-N`), or the scene's only consumer (`None`).
    Consumer(Option<u32>),
    /// A consumer-group member, by its index (`C1`, `C2`, …).
    Member(u32),
    /// The group coordinator.
    Coordinator,
    /// The network between nodes.
    Network,
    /// A timer (the timing wheel).
    Timer,
    /// The log's reader walking the index.
    Lookup,
    /// A partition's log itself (segments rolling and being deleted), by partition number.
    PartitionLog(u32),
    /// The log cleaner thread (compaction).
    Cleaner,
    /// A consumer reading the log in the log scene.
    Reader,
    /// A Kafka command-line tool, by its own name (`kafka-configs`).
    Tool(&'static str),
}

crate::messages! {
    pub ACTOR_KEYS;
    CONTROLLER = "actor.controller" => "controller";
    BROKER = "actor.broker" => "broker-{id}";
    PRODUCER = "actor.producer" => "producer";
    SENDER = "actor.sender" => "sender";
    CONSUMER = "actor.consumer" => "consumer";
    CONSUMER_OF = "actor.consumer.of" => "consumer-{partition}";
    MEMBER = "actor.member" => "C{index}";
    COORDINATOR = "actor.coordinator" => "coordinator";
    NETWORK = "actor.network" => "network";
    TIMER = "actor.timer" => "timer";
    LOOKUP = "actor.lookup" => "lookup";
    PARTITION_LOG = "actor.partition.log" => "orders-{partition}";
    CLEANER = "actor.cleaner" => "log-cleaner";
    READER = "actor.reader" => "reader";
    TOOL = "actor.tool" => "{tool}";
}

impl Describe for Actor {
    /// The actor's name as a catalog message (tool names stay Kafka's).
    fn message(&self) -> Message {
        match self {
            Actor::Controller => Message::new(CONTROLLER),
            Actor::Broker(id) => Message::new(BROKER).with("id", Arg::int(*id)),
            Actor::Producer => Message::new(PRODUCER),
            Actor::Sender => Message::new(SENDER),
            Actor::Consumer(None) => Message::new(CONSUMER),
            Actor::Consumer(Some(partition)) => Message::new(CONSUMER_OF).with("partition", Arg::int(*partition)),
            Actor::Member(index) => Message::new(MEMBER).with("index", Arg::int(*index)),
            Actor::Coordinator => Message::new(COORDINATOR),
            Actor::Network => Message::new(NETWORK),
            Actor::Timer => Message::new(TIMER),
            Actor::Lookup => Message::new(LOOKUP),
            Actor::PartitionLog(partition) => Message::new(PARTITION_LOG).with("partition", Arg::int(*partition)),
            Actor::Cleaner => Message::new(CLEANER),
            Actor::Reader => Message::new(READER),
            Actor::Tool(name) => Message::new(TOOL).with("tool", Arg::kafka(*name)),
        }
    }
}

crate::display_as_message!(Actor);
