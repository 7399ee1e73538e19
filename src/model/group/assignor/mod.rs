//! Kafka's classic client-side partition assignors (`partition.assignment.strategy`):
//! `RangeAssignor`, `RoundRobinAssignor`, `StickyAssignor` and `CooperativeStickyAssignor`,
//! as plain functions over subscriptions, usable without the simulation kernel.

mod examples;
mod general;
mod java_order;
mod quota;
mod simple;
mod sticky;

use crate::model::kernel::sorted::{SortedMap, SortedSet};

pub use examples::{seed003_examples, AssignorExample};
pub use java_order::{java_map_order, java_string_hash};

/// Kafka's `DEFAULT_GENERATION`: a subscription that carries no generation.
const DEFAULT_GENERATION: i32 = -1;

/// Member id → its partitions, the shape every assignor returns.
type Assignment = SortedMap<String, Vec<TopicPartition>>;

/// What `allSubscriptionsEqual` learns: surviving ownership claims and doubly-claimed partitions.
struct Ownership {
    /// Members in the order Kafka iterates its subscription map (Java `HashMap` order).
    order: Vec<String>,
    owned: SortedMap<String, Vec<TopicPartition>>,
    claimed_twice: SortedSet<TopicPartition>,
    max_generation: i32,
    all_equal: bool,
}

/// Kafka's `TopicPartition` (org.apache.kafka.common.TopicPartition).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TopicPartition {
    pub topic: String,
    pub partition: u32,
}

impl TopicPartition {
    pub fn new(topic: &str, partition: u32) -> Self {
        Self { topic: topic.to_string(), partition }
    }
}

impl std::fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

/// Kafka's `ConsumerPartitionAssignor.Subscription`: topics, owned partitions and generation
/// (reads `group.instance.id`); `generation` < 0 means "none" (Kafka's DEFAULT_GENERATION, -1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscription {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub topics: Vec<String>,
    pub owned: Vec<TopicPartition>,
    pub generation: i32,
}

/// The value of `partition.assignment.strategy` (Kafka's four built-in classic assignors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AssignorKind {
    Range,
    RoundRobin,
    Sticky,
    CooperativeSticky,
}

impl AssignorKind {
    /// The assignor's `name()` as Kafka reports it in the group protocol.
    pub fn protocol_name(self) -> &'static str {
        match self {
            AssignorKind::Range => "range",
            AssignorKind::RoundRobin => "roundrobin",
            AssignorKind::Sticky => "sticky",
            AssignorKind::CooperativeSticky => "cooperative-sticky",
        }
    }

    /// The fully qualified class name used in `partition.assignment.strategy`.
    pub fn class_name(self) -> &'static str {
        match self {
            AssignorKind::Range => "org.apache.kafka.clients.consumer.RangeAssignor",
            AssignorKind::RoundRobin => "org.apache.kafka.clients.consumer.RoundRobinAssignor",
            AssignorKind::Sticky => "org.apache.kafka.clients.consumer.StickyAssignor",
            AssignorKind::CooperativeSticky => "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
        }
    }

    /// The class name without its package (`RangeAssignor`).
    pub fn simple_name(self) -> &'static str {
        match self {
            AssignorKind::Range => "RangeAssignor",
            AssignorKind::RoundRobin => "RoundRobinAssignor",
            AssignorKind::Sticky => "StickyAssignor",
            AssignorKind::CooperativeSticky => "CooperativeStickyAssignor",
        }
    }

    /// Reads a `partition.assignment.strategy` value (class name or short name).
    pub fn from_config(value: &str) -> Option<Self> {
        [Self::Range, Self::RoundRobin, Self::Sticky, Self::CooperativeSticky].into_iter().find(|k| {
            k.class_name() == value || k.protocol_name() == value || k.class_name().ends_with(&format!(".{value}"))
        })
    }

    /// COOPERATIVE rebalance protocol (KIP-429) instead of EAGER.
    pub fn is_cooperative(self) -> bool {
        self == AssignorKind::CooperativeSticky
    }
}

/// Runs `kind` over the group: every member gets an entry, each list sorted by (topic, partition).
/// Topics missing from `partitions_per_topic` (or with 0 partitions) are skipped, as Kafka skips
/// topics without metadata.
pub fn assign(
    kind: AssignorKind,
    partitions_per_topic: &SortedMap<String, u32>,
    members: &[Subscription],
) -> SortedMap<String, Vec<TopicPartition>> {
    let subscribed: SortedMap<String, u32> = partitions_per_topic
        .iter()
        .filter(|(topic, count)| **count > 0 && members.iter().any(|m| m.topics.contains(topic)))
        .map(|(topic, count)| (topic.clone(), *count))
        .collect();
    let mut result = match kind {
        AssignorKind::Range => simple::range(&subscribed, members),
        AssignorKind::RoundRobin => simple::round_robin(&subscribed, members),
        AssignorKind::Sticky => sticky::assign_sticky(&subscribed, members).assignment,
        AssignorKind::CooperativeSticky => sticky::assign_cooperative(&subscribed, members),
    };
    for member in members {
        result.entry(member.member_id.clone()).or_default();
    }
    for list in result.values_mut() {
        crate::model::kernel::order::sort(list);
    }
    debug_assert!(no_partition_twice(&result), "an assignor gave a partition to two members");
    result
}

fn no_partition_twice(result: &SortedMap<String, Vec<TopicPartition>>) -> bool {
    let mut seen = SortedSet::new();
    result.values().flatten().all(|tp| seen.insert(tp.clone()))
}

/// Kafka's `MemberInfo` order: static members (with `group.instance.id`) first by instance id,
/// then dynamic members by member id.
pub fn member_order(members: &[Subscription]) -> Vec<&Subscription> {
    let mut sorted: Vec<&Subscription> = members.iter().collect();
    crate::model::kernel::order::sort_by(&mut sorted, |a, b| match (&a.group_instance_id, &b.group_instance_id) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.member_id.cmp(&b.member_id),
    });
    sorted
}

/// All partitions of `topics` in (topic name, partition) order.
fn partitions_of<'a>(
    partitions_per_topic: &SortedMap<String, u32>,
    topics: impl Iterator<Item = &'a String>,
) -> Vec<TopicPartition> {
    topics.flat_map(|topic| (0..partitions_per_topic[topic]).map(move |p| TopicPartition::new(topic, p))).collect()
}
