//! The seed notes' (003) worked assignor examples as plain inputs, shown read-only by the UI and
//! pinned by tests: the UI computes every result with [`assign`](super::assign) at render time.

use crate::model::kernel::sorted::SortedMap;

use super::{assign, AssignorKind, Subscription, TopicPartition};

/// One worked example: a group's subscriptions (with previous owners when a member left) and
/// the assignors to compare on it.
#[derive(Clone, Debug)]
pub struct AssignorExample {
    /// Short id (used in the UI's test ids).
    pub id: &'static str,
    pub title_key: &'static str,
    /// One line: what to notice.
    pub note_key: &'static str,
    pub kinds: Vec<AssignorKind>,
    pub partitions_per_topic: SortedMap<String, u32>,
    pub members: Vec<Subscription>,
    /// The previous generation's assignment (incl. members that left), if any.
    pub before: Option<SortedMap<String, Vec<TopicPartition>>>,
}

fn member(id: &str, topics: &[String]) -> Subscription {
    Subscription {
        member_id: id.into(),
        group_instance_id: None,
        topics: topics.to_vec(),
        owned: vec![],
        generation: -1,
    }
}

/// Seed 003: Range on 2 consumers × t0/t1 with 3 partitions each; then C0, C1, C2 (assigned by
/// Sticky, generation 1) lose C1: RoundRobin vs Sticky on the survivors with their owned partitions.
pub fn seed003_examples() -> Vec<AssignorExample> {
    let parts: SortedMap<String, u32> = [("t0".to_string(), 3), ("t1".to_string(), 3)].into();
    let topics: Vec<String> = parts.keys().cloned().collect();
    let range = AssignorExample {
        id: "range",
        title_key: crate::catalog_key!("groups.assignors.range.title"),
        note_key: crate::catalog_key!("groups.assignors.range.note"),
        kinds: vec![AssignorKind::Range],
        partitions_per_topic: parts.clone(),
        members: vec![member("C0", &topics), member("C1", &topics)],
        before: None,
    };
    let three: Vec<Subscription> = ["C0", "C1", "C2"].iter().map(|id| member(id, &topics)).collect();
    let first = assign(AssignorKind::Sticky, &parts, &three);
    let survivors = ["C0", "C2"]
        .iter()
        .map(|id| Subscription { owned: first[*id].clone(), generation: 1, ..member(id, &topics) })
        .collect();
    let leave = AssignorExample {
        id: "leave",
        title_key: crate::catalog_key!("groups.assignors.leave.title"),
        note_key: crate::catalog_key!("groups.assignors.leave.note"),
        kinds: vec![AssignorKind::RoundRobin, AssignorKind::Sticky],
        partitions_per_topic: parts,
        members: survivors,
        before: Some(first),
    };
    vec![range, leave]
}
