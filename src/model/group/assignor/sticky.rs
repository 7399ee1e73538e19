//! The front of Kafka's `AbstractStickyAssignor`: reading previous ownership (with generations),
//! picking the constrained or general algorithm, and `CooperativeStickyAssignor`'s adjustment.

use crate::model::kernel::sorted::{SortedMap, SortedSet};

use super::java_order::{java_map_order, java_string_hash};
use super::{general, quota, Assignment, Ownership, Subscription, TopicPartition, DEFAULT_GENERATION};

/// A sticky run's result; `transferring` is Kafka's `partitionsTransferringOwnership`
/// (known only on the constrained path, `None` on the general path as in Kafka).
pub(super) struct StickyOutcome {
    pub assignment: Assignment,
    pub transferring: Option<SortedMap<TopicPartition, String>>,
}

fn generation_of(member: &Subscription) -> i32 {
    member.generation.max(DEFAULT_GENERATION)
}

/// Kafka's `allSubscriptionsEqual`: keeps each partition's claim from the highest generation and
/// drops a claim made twice in the same generation.
pub(super) fn read_ownership(partitions_per_topic: &SortedMap<String, u32>, members: &[Subscription]) -> Ownership {
    let ids: Vec<String> = members.iter().map(|m| m.member_id.clone()).collect();
    let order = java_map_order(&ids, |id| java_string_hash(id));
    let by_id: SortedMap<&str, &Subscription> = members.iter().map(|m| (m.member_id.as_str(), m)).collect();
    let first_topics: Option<SortedSet<&String>> = order.first().map(|id| by_id[id.as_str()].topics.iter().collect());
    let mut ownership = Ownership {
        order: order.clone(),
        owned: SortedMap::new(),
        claimed_twice: SortedSet::new(),
        max_generation: DEFAULT_GENERATION,
        all_equal: true,
    };
    let mut previous_owner: SortedMap<TopicPartition, String> = SortedMap::new();
    for id in &order {
        let member = by_id[id.as_str()];
        let topics: SortedSet<&String> = member.topics.iter().collect();
        if Some(&topics) != first_topics.as_ref() {
            ownership.all_equal = false;
        }
        let generation = generation_of(member);
        ownership.max_generation = ownership.max_generation.max(generation);
        ownership.owned.insert(id.clone(), Vec::new());
        for tp in member.owned.iter().filter(|tp| partitions_per_topic.contains_key(&tp.topic)) {
            match previous_owner.get(tp).cloned() {
                None => {
                    ownership.owned.get_mut(id).expect("inserted").push(tp.clone());
                    previous_owner.insert(tp.clone(), id.clone());
                }
                Some(other) => {
                    let other_generation = generation_of(by_id[other.as_str()]);
                    if generation == other_generation {
                        ownership.claimed_twice.insert(tp.clone());
                        ownership.owned.get_mut(&other).expect("seen").retain(|x| x != tp);
                        previous_owner.insert(tp.clone(), id.clone());
                    } else if generation > other_generation {
                        ownership.owned.get_mut(id).expect("inserted").push(tp.clone());
                        ownership.owned.get_mut(&other).expect("seen").retain(|x| x != tp);
                        previous_owner.insert(tp.clone(), id.clone());
                    }
                }
            }
        }
    }
    ownership
}

/// Kafka's `StickyAssignor` (eager): balanced first, then as many previous owners kept as possible.
pub(super) fn assign_sticky(partitions_per_topic: &SortedMap<String, u32>, members: &[Subscription]) -> StickyOutcome {
    if members.is_empty() {
        return StickyOutcome { assignment: SortedMap::new(), transferring: Some(SortedMap::new()) };
    }
    let ownership = read_ownership(partitions_per_topic, members);
    if ownership.all_equal {
        let (assignment, transferring) = quota::constrained(partitions_per_topic, &ownership);
        StickyOutcome { assignment, transferring: Some(transferring) }
    } else {
        let assignment = general::general(partitions_per_topic, members, ownership);
        StickyOutcome { assignment, transferring: None }
    }
}

/// Kafka's `CooperativeStickyAssignor`: the sticky result minus every partition that changes
/// owner; those are revoked by their owner first and handed out in a follow-up rebalance.
pub(super) fn assign_cooperative(
    partitions_per_topic: &SortedMap<String, u32>,
    members: &[Subscription],
) -> Assignment {
    let outcome = assign_sticky(partitions_per_topic, members);
    let mut assignment = outcome.assignment;
    let transferring = outcome.transferring.unwrap_or_else(|| transferring_ownership(members, &assignment));
    for (tp, member) in transferring {
        if let Some(list) = assignment.get_mut(&member) {
            list.retain(|x| *x != tp);
        }
    }
    assignment
}

/// Kafka's `computePartitionsTransferringOwnership`: partitions newly given to a member that
/// some member owned and is not keeping.
fn transferring_ownership(members: &[Subscription], assignment: &Assignment) -> SortedMap<TopicPartition, String> {
    let mut added: SortedMap<TopicPartition, String> = SortedMap::new();
    let mut revoked: SortedSet<TopicPartition> = SortedSet::new();
    for member in members {
        let assigned = assignment.get(&member.member_id).cloned().unwrap_or_default();
        for tp in &assigned {
            if !member.owned.contains(tp) {
                added.insert(tp.clone(), member.member_id.clone());
            }
        }
        revoked.extend(member.owned.iter().filter(|tp| !assigned.contains(tp)).cloned());
    }
    added.retain(|tp, _| revoked.contains(tp));
    added
}
