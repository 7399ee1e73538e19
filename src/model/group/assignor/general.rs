//! Kafka's `GeneralAssignmentBuilder` (members subscribe to different topics): keep owned
//! partitions, give unassigned ones to the least loaded subscriber, then move partitions until
//! balanced, preferring a partition's previous owner; with Kafka's `PartitionMovements` record.

use crate::model::kernel::sorted::{SortedMap, SortedSet};

use super::java_order::{java_map_order, java_topic_partition_hash};
use super::{Assignment, Ownership, Subscription, TopicPartition, DEFAULT_GENERATION};

/// Moves of one (src, dst) pair: partitions in insertion order and the largest size reached.
type PairMoves = SortedMap<(String, String), (Vec<TopicPartition>, usize)>;

/// Kafka's `PartitionMovements`: which partition moved from whom to whom, per topic.
#[derive(Default)]
struct Movements {
    by_partition: SortedMap<TopicPartition, (String, String)>,
    /// topic → (src, dst) → partitions in insertion order, plus the largest size the set reached.
    by_topic: SortedMap<String, PairMoves>,
}

impl Movements {
    fn remove(&mut self, tp: &TopicPartition) -> (String, String) {
        let pair = self.by_partition.remove(tp).expect("recorded movement");
        let topic = self.by_topic.get_mut(&tp.topic).expect("topic recorded");
        let set = topic.get_mut(&pair).expect("pair recorded");
        set.0.retain(|x| x != tp);
        if set.0.is_empty() {
            topic.remove(&pair);
        }
        if topic.is_empty() {
            self.by_topic.remove(&tp.topic);
        }
        pair
    }

    fn add(&mut self, tp: &TopicPartition, pair: (String, String)) {
        self.by_partition.insert(tp.clone(), pair.clone());
        let set = self.by_topic.entry(tp.topic.clone()).or_default().entry(pair).or_default();
        set.0.push(tp.clone());
        set.1 = set.1.max(set.0.len());
    }

    fn record_move(&mut self, tp: &TopicPartition, old: &str, new: &str) {
        if self.by_partition.contains_key(tp) {
            let (src, dst) = self.remove(tp);
            debug_assert_eq!(dst, old);
            if src != new {
                self.add(tp, (src, new.to_string()));
            }
        } else {
            self.add(tp, (old.to_string(), new.to_string()));
        }
    }

    /// Kafka's `getTheActualPartitionToBeMoved`: undo an opposite earlier move instead of adding one.
    fn actual_partition_to_move(&self, tp: &TopicPartition, old: &str, new: &str) -> TopicPartition {
        let Some(topic) = self.by_topic.get(&tp.topic) else { return tp.clone() };
        let old = self.by_partition.get(tp).map_or(old, |(src, _)| src.as_str());
        match topic.get(&(new.to_string(), old.to_string())) {
            None => tp.clone(),
            Some((set, max_len)) => {
                // A Java HashSet grows with its largest size; pad the order computation to it.
                let mut padded = set.clone();
                while padded.len() < *max_len {
                    padded.push(TopicPartition::new("", u32::MAX));
                }
                let ordered = java_map_order(&padded, |x| java_topic_partition_hash(&x.topic, x.partition));
                ordered.into_iter().find(|x| set.contains(x)).expect("non-empty set")
            }
        }
    }
}

/// The general builder's working state.
struct General<'a> {
    partitions_per_topic: &'a SortedMap<String, u32>,
    total: usize,
    topic_consumers: SortedMap<String, Vec<String>>,
    consumer_topics: SortedMap<String, Vec<String>>,
    current: Assignment,
    owner: SortedMap<TopicPartition, String>,
    /// Members of Kafka's `sortedCurrentSubscriptions` (ordered on demand by load, then id).
    sorted_members: SortedSet<String>,
    movements: Movements,
}

impl General<'_> {
    fn size(&self, member: &str) -> usize {
        self.current.get(member).map_or(0, Vec::len)
    }

    fn sorted(&self) -> Vec<String> {
        let mut members: Vec<String> = self.sorted_members.iter().cloned().collect();
        crate::model::kernel::order::sort_by(&mut members, |a, b| (self.size(a), a).cmp(&(self.size(b), b)));
        members
    }

    fn max_assignment_size(&self, topics: &[String]) -> usize {
        if topics.len() == self.partitions_per_topic.len() {
            self.total
        } else {
            topics.iter().map(|t| self.partitions_per_topic[t] as usize).sum()
        }
    }

    fn is_balanced(&self) -> bool {
        let sorted = self.sorted();
        let (Some(first), Some(last)) = (sorted.first(), sorted.last()) else { return true };
        if self.size(first) + 1 >= self.size(last) {
            return true;
        }
        for consumer in &sorted {
            let count = self.size(consumer);
            let topics = &self.consumer_topics[consumer];
            if count == self.max_assignment_size(topics) {
                continue;
            }
            for topic in topics {
                for p in 0..self.partitions_per_topic[topic] {
                    let tp = TopicPartition::new(topic, p);
                    if self.current[consumer].contains(&tp) {
                        continue;
                    }
                    let other = self.owner.get(&tp).filter(|o| self.current.contains_key(*o));
                    if other.is_some_and(|o| count + 1 < self.size(o)) {
                        return false;
                    }
                }
            }
        }
        true
    }

    fn can_consumer_participate(&self, consumer: &str) -> bool {
        let current = &self.current[consumer];
        if current.len() < self.max_assignment_size(&self.consumer_topics[consumer]) {
            return true;
        }
        current.iter().any(|tp| self.topic_consumers[&tp.topic].len() >= 2)
    }

    fn assign_to_least_loaded(&mut self, tp: &TopicPartition) {
        let chosen = self.sorted().into_iter().find(|c| self.consumer_topics[c].contains(&tp.topic));
        if let Some(consumer) = chosen {
            self.current.get_mut(&consumer).expect("member").push(tp.clone());
            self.owner.insert(tp.clone(), consumer);
        }
    }

    fn move_partition(&mut self, tp: &TopicPartition, new: &str) {
        let old = self.owner[tp].clone();
        let actual = self.movements.actual_partition_to_move(tp, &old, new);
        let old = self.owner[&actual].clone();
        self.movements.record_move(&actual, &old, new);
        self.current.get_mut(&old).expect("owner").retain(|x| *x != actual);
        self.current.get_mut(new).expect("target").push(actual.clone());
        self.owner.insert(actual, new.to_string());
    }

    fn perform_reassignments(
        &mut self,
        partitions: &[TopicPartition],
        previous: &SortedMap<TopicPartition, (String, i32)>,
    ) -> bool {
        let mut performed = false;
        loop {
            let mut modified = false;
            for tp in partitions {
                if self.is_balanced() {
                    break;
                }
                let consumer = self.owner[tp].clone();
                if let Some((prev, _)) = previous.get(tp).filter(|(p, _)| self.current.contains_key(p)) {
                    if self.size(&consumer) > self.size(prev) + 1 {
                        let prev = prev.clone();
                        self.move_partition(tp, &prev);
                        performed = true;
                        modified = true;
                        continue;
                    }
                }
                let heavier = self.topic_consumers[&tp.topic]
                    .iter()
                    .filter(|o| self.current.contains_key(*o))
                    .any(|other| self.size(&consumer) > self.size(other) + 1);
                if heavier {
                    let target = self.sorted().into_iter().find(|c| self.consumer_topics[c].contains(&tp.topic));
                    self.move_partition(tp, &target.expect("a subscriber exists"));
                    performed = true;
                    modified = true;
                }
            }
            if !modified {
                return performed;
            }
        }
    }
}

fn balance_score(assignment: &Assignment) -> usize {
    let sizes: Vec<usize> = assignment.values().map(Vec::len).collect();
    let mut score = 0;
    for i in 0..sizes.len() {
        for j in i + 1..sizes.len() {
            score += sizes[i].abs_diff(sizes[j]);
        }
    }
    score
}

/// Kafka's `prepopulateCurrentAssignments`: older-generation claims remembered per partition.
fn previous_claims(
    members: &[Subscription],
    order: &[String],
    max_generation: i32,
) -> SortedMap<TopicPartition, (String, i32)> {
    let mut previous: SortedMap<TopicPartition, (String, i32)> = SortedMap::new();
    for id in order {
        let member = members.iter().find(|m| &m.member_id == id).expect("member");
        let generation = member.generation.max(DEFAULT_GENERATION);
        if generation >= max_generation {
            continue;
        }
        for tp in &member.owned {
            match previous.get(tp) {
                Some((_, g)) if generation <= *g => {}
                _ => {
                    previous.insert(tp.clone(), (id.clone(), generation));
                }
            }
        }
    }
    previous
}

/// Topic → its subscribers and member → its topics (with metadata), in Kafka's member order.
type Subscribers = (SortedMap<String, Vec<String>>, SortedMap<String, Vec<String>>);

fn subscribers(
    partitions_per_topic: &SortedMap<String, u32>,
    members: &[Subscription],
    order: &[String],
) -> Subscribers {
    let mut topic_consumers: SortedMap<String, Vec<String>> =
        partitions_per_topic.keys().map(|t| (t.clone(), Vec::new())).collect();
    let mut consumer_topics: SortedMap<String, Vec<String>> = SortedMap::new();
    for id in order {
        let member = members.iter().find(|m| &m.member_id == id).expect("member");
        let topics: Vec<String> =
            member.topics.iter().filter(|t| partitions_per_topic.contains_key(*t)).cloned().collect();
        for topic in &topics {
            topic_consumers.get_mut(topic).expect("known topic").push(id.clone());
        }
        consumer_topics.insert(id.clone(), topics);
    }
    (topic_consumers, consumer_topics)
}

/// Runs the general sticky algorithm.
pub(super) fn general(
    partitions_per_topic: &SortedMap<String, u32>,
    members: &[Subscription],
    ownership: Ownership,
) -> Assignment {
    let (topic_consumers, consumer_topics) = subscribers(partitions_per_topic, members, &ownership.order);
    let mut sorted_topics: Vec<String> = topic_consumers.keys().cloned().collect();
    crate::model::kernel::order::sort_by(&mut sorted_topics, |a, b| {
        (topic_consumers[a].len(), a).cmp(&(topic_consumers[b].len(), b))
    });
    let mut all_partitions: Vec<TopicPartition> = sorted_topics
        .iter()
        .flat_map(|t| (0..partitions_per_topic[t]).map(move |p| TopicPartition::new(t, p)))
        .collect();
    let previous = previous_claims(members, &ownership.order, ownership.max_generation);
    let mut g = General {
        partitions_per_topic,
        total: partitions_per_topic.values().map(|n| *n as usize).sum(),
        topic_consumers,
        consumer_topics,
        current: ownership.owned.clone(),
        owner: SortedMap::new(),
        sorted_members: SortedSet::new(),
        movements: Movements::default(),
    };
    for (member, list) in &g.current {
        for tp in list {
            g.owner.insert(tp.clone(), member.clone());
        }
    }
    // Kafka's assignOwnedPartitions: drop partitions of topics the owner no longer subscribes to.
    let mut revocation_required = false;
    let mut assigned = SortedSet::new();
    for (member, list) in g.current.iter_mut() {
        let topics = &g.consumer_topics[member];
        let before = list.len();
        list.retain(|tp| topics.contains(&tp.topic));
        revocation_required |= list.len() != before;
        assigned.extend(list.iter().cloned());
    }
    let mut unassigned: Vec<TopicPartition> =
        all_partitions.iter().filter(|tp| !assigned.contains(*tp)).cloned().collect();
    g.sorted_members = g.current.keys().cloned().collect();
    let initializing = g.sorted().last().is_none_or(|m| g.size(m) == 0);
    for tp in &unassigned {
        g.assign_to_least_loaded(tp);
    }
    let fixed_topics: SortedSet<String> =
        g.topic_consumers.iter().filter(|(_, c)| c.len() < 2).map(|(t, _)| t.clone()).collect();
    all_partitions.retain(|tp| !fixed_topics.contains(&tp.topic));
    unassigned.retain(|tp| !fixed_topics.contains(&tp.topic));
    let mut fixed: Assignment = SortedMap::new();
    for consumer in g.consumer_topics.keys().cloned().collect::<Vec<_>>() {
        if !g.can_consumer_participate(&consumer) {
            g.sorted_members.remove(&consumer);
            fixed.insert(consumer.clone(), g.current.remove(&consumer).expect("member"));
        }
    }
    let before_balance = (g.current.clone(), g.owner.clone());
    if !revocation_required {
        g.perform_reassignments(&unassigned, &previous);
    }
    let performed = g.perform_reassignments(&all_partitions, &previous);
    if !initializing && performed && balance_score(&g.current) >= balance_score(&before_balance.0) {
        (g.current, g.owner) = before_balance;
    }
    g.current.extend(fixed);
    g.current
}
