//! Kafka's `ConstrainedAssignmentBuilder` (all members subscribe to the same topics): keep owned
//! partitions up to the min/max quota, then deal the rest round-robin to unfilled members.

use crate::model::kernel::sorted::SortedMap;

use super::{partitions_of, Assignment, Ownership, TopicPartition};

/// Quota bookkeeping of one constrained run.
struct Quotas {
    min: usize,
    max: usize,
    expected_over_min: usize,
    current_over_min: usize,
}

/// What the first pass leaves: owned partitions kept up to quota, the rest maybe revoked.
struct Kept {
    assignment: Assignment,
    maybe_revoked: SortedMap<TopicPartition, String>,
    under_min: Vec<String>,
    exactly_min: Vec<String>,
}

/// Kafka's first pass: every consumer keeps its owned partitions up to its quota.
fn keep_owned(ownership: &Ownership, q: &mut Quotas) -> Kept {
    let mut kept = Kept {
        assignment: ownership.order.iter().map(|m| (m.clone(), Vec::new())).collect(),
        maybe_revoked: SortedMap::new(),
        under_min: Vec::new(),
        exactly_min: Vec::new(),
    };
    for consumer in &ownership.order {
        let mut owned = ownership.owned[consumer].clone();
        crate::model::kernel::order::sort_by(&mut owned, |a, b| (a.partition, &a.topic).cmp(&(b.partition, &b.topic)));
        owned.retain(|tp| !ownership.claimed_twice.contains(tp));
        let keep = if owned.len() < q.min {
            kept.under_min.push(consumer.clone());
            owned.len()
        } else if owned.len() >= q.max && q.current_over_min < q.expected_over_min {
            q.current_over_min += 1;
            if q.current_over_min == q.expected_over_min {
                kept.exactly_min.clear();
            }
            q.max
        } else {
            if q.current_over_min < q.expected_over_min {
                kept.exactly_min.push(consumer.clone());
            }
            q.min
        };
        for tp in &owned[keep..] {
            kept.maybe_revoked.insert(tp.clone(), consumer.clone());
        }
        kept.assignment.get_mut(consumer).expect("entry").extend_from_slice(&owned[..keep]);
    }
    kept
}

/// Returns the assignment and the partitions transferring ownership (partition → new owner).
pub(super) fn constrained(
    partitions_per_topic: &SortedMap<String, u32>,
    ownership: &Ownership,
) -> (Assignment, SortedMap<TopicPartition, String>) {
    let total: usize = partitions_per_topic.values().map(|n| *n as usize).sum();
    let members = ownership.order.len();
    let mut q = Quotas {
        min: total / members,
        max: total.div_ceil(members),
        expected_over_min: total % members,
        current_over_min: 0,
    };
    let Kept { mut assignment, maybe_revoked, mut under_min, mut exactly_min } = keep_owned(ownership, &mut q);
    let assigned: crate::model::kernel::sorted::SortedSet<&TopicPartition> = assignment.values().flatten().collect();
    let unassigned: Vec<TopicPartition> = partitions_of(partitions_per_topic, partitions_per_topic.keys())
        .into_iter()
        .filter(|tp| !assigned.contains(tp))
        .collect();
    crate::model::kernel::order::sort(&mut under_min);
    crate::model::kernel::order::sort(&mut exactly_min);
    let mut transferring = SortedMap::new();
    let mut assign_new = |tp: &TopicPartition, consumer: &String, assignment: &mut Assignment| {
        let list = assignment.get_mut(consumer).expect("entry");
        list.push(tp.clone());
        let moved = maybe_revoked.get(tp).is_some_and(|owner| owner != consumer);
        if moved || ownership.claimed_twice.contains(tp) {
            transferring.insert(tp.clone(), consumer.clone());
        }
        list.len()
    };
    // Java's iterator over the under-min list: `next` is the index it returns next.
    let mut next = 0usize;
    for tp in &unassigned {
        let (consumer, from_under) = if next < under_min.len() {
            next += 1;
            (under_min[next - 1].clone(), true)
        } else if under_min.is_empty() && exactly_min.is_empty() {
            debug_assert!(false, "no unfilled consumer left for {tp}");
            break;
        } else if under_min.is_empty() {
            (exactly_min.remove(0), false)
        } else {
            next = 1;
            (under_min[0].clone(), true)
        };
        let count = assign_new(tp, &consumer, &mut assignment);
        if count == q.min && from_under {
            next -= 1;
            under_min.remove(next);
            exactly_min.push(consumer);
        } else if count == q.max {
            q.current_over_min += 1;
        }
    }
    debug_assert!(
        assignment.values().all(|l| l.len() >= q.min && l.len() <= q.max),
        "constrained sticky result is unbalanced"
    );
    (assignment, transferring)
}
