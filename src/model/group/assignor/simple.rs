//! `RangeAssignor` and `RoundRobinAssignor`: stateless, ordered by Kafka's `MemberInfo` order.

use crate::model::kernel::sorted::SortedMap;

use super::{member_order, partitions_of, Assignment, Subscription, TopicPartition};

/// Kafka's `RangeAssignor` (without racks): per topic, contiguous ranges; the first
/// `partitions % consumers` members in `MemberInfo` order get one extra partition.
pub(super) fn range(partitions_per_topic: &SortedMap<String, u32>, members: &[Subscription]) -> Assignment {
    let mut assignment: Assignment = members.iter().map(|m| (m.member_id.clone(), Vec::new())).collect();
    let ordered = member_order(members);
    for (topic, &count) in partitions_per_topic {
        let consumers: Vec<&&Subscription> = ordered.iter().filter(|m| m.topics.contains(topic)).collect();
        if consumers.is_empty() {
            continue;
        }
        let per_consumer = count as usize / consumers.len();
        let with_extra = count as usize % consumers.len();
        for (i, consumer) in consumers.iter().enumerate() {
            let start = per_consumer * i + i.min(with_extra);
            let length = per_consumer + usize::from(i < with_extra);
            let list = assignment.get_mut(&consumer.member_id).expect("every member has an entry");
            list.extend((start..start + length).map(|p| TopicPartition::new(topic, p as u32)));
        }
    }
    assignment
}

/// Kafka's `RoundRobinAssignor`: all subscribed partitions in (topic, partition) order dealt
/// one by one over a circular list of members, skipping members not subscribed to the topic.
pub(super) fn round_robin(partitions_per_topic: &SortedMap<String, u32>, members: &[Subscription]) -> Assignment {
    let mut assignment: Assignment = members.iter().map(|m| (m.member_id.clone(), Vec::new())).collect();
    let ordered = member_order(members);
    if ordered.is_empty() {
        return assignment;
    }
    let mut cursor = 0usize;
    for tp in partitions_of(partitions_per_topic, partitions_per_topic.keys()) {
        while !ordered[cursor % ordered.len()].topics.contains(&tp.topic) {
            cursor += 1;
        }
        let member = &ordered[cursor % ordered.len()].member_id;
        assignment.get_mut(member).expect("every member has an entry").push(tp);
        cursor += 1;
    }
    assignment
}
