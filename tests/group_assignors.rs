//! Kafka's four classic assignors: the examples from Kafka's javadoc and assignor tests, the
//! seed notes' worked examples, and balance/stickiness properties on random groups.

use kafka_lab::model::kernel::sorted::SortedMap;

use kafka_lab::model::group::assignor::{assign, AssignorKind, Subscription, TopicPartition};

fn tp(topic: &str, partition: u32) -> TopicPartition {
    TopicPartition { topic: topic.into(), partition }
}

fn member(id: &str, topics: &[&str]) -> Subscription {
    Subscription {
        member_id: id.into(),
        group_instance_id: None,
        topics: topics.iter().map(|t| t.to_string()).collect(),
        owned: vec![],
        generation: -1,
    }
}

fn owning(id: &str, topics: &[&str], owned: Vec<TopicPartition>, generation: i32) -> Subscription {
    Subscription { owned, generation, ..member(id, topics) }
}

fn topics(list: &[(&str, u32)]) -> SortedMap<String, u32> {
    list.iter().map(|(t, n)| (t.to_string(), *n)).collect()
}

#[test]
fn range_gives_the_first_members_one_extra_partition() {
    // Kafka's RangeAssignor javadoc and seed 003: 2 consumers, t0 and t1 with 3 partitions each.
    let out = assign(
        AssignorKind::Range,
        &topics(&[("t0", 3), ("t1", 3)]),
        &[member("C0", &["t0", "t1"]), member("C1", &["t0", "t1"])],
    );
    assert_eq!(out["C0"], vec![tp("t0", 0), tp("t0", 1), tp("t1", 0), tp("t1", 1)]);
    assert_eq!(out["C1"], vec![tp("t0", 2), tp("t1", 2)]);
}

#[test]
fn range_orders_static_members_by_instance_id_before_dynamic_ones() {
    // Kafka's testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions.
    let mut c1 = member("consumer1", &["topic1", "topic2"]);
    c1.group_instance_id = Some("instance1".into());
    let c2 = member("consumer2", &["topic1", "topic2"]);
    let out = assign(AssignorKind::Range, &topics(&[("topic1", 3), ("topic2", 3)]), &[c2.clone(), c1.clone()]);
    assert_eq!(out["consumer1"], vec![tp("topic1", 0), tp("topic1", 1), tp("topic2", 0), tp("topic2", 1)]);
    assert_eq!(out["consumer2"], vec![tp("topic1", 2), tp("topic2", 2)]);
    // A static member keeps its range even when its member id changes (it sorts by instance id).
    let mut a = member("zzz-new-id", &["topic1"]);
    a.group_instance_id = Some("a".into());
    let mut b = member("aaa", &["topic1"]);
    b.group_instance_id = Some("b".into());
    let out = assign(AssignorKind::Range, &topics(&[("topic1", 3)]), &[a, b]);
    assert_eq!(out["zzz-new-id"], vec![tp("topic1", 0), tp("topic1", 1)]);
}

#[test]
fn range_and_round_robin_assign_only_subscribed_topics_and_list_idle_members() {
    let out = assign(
        AssignorKind::Range,
        &topics(&[("topic", 3), ("other", 3)]),
        &[member("c1", &["topic"]), member("c2", &["missing"])],
    );
    assert_eq!(out["c1"], vec![tp("topic", 0), tp("topic", 1), tp("topic", 2)]);
    assert_eq!(out["c2"], vec![]);
    let out = assign(
        AssignorKind::RoundRobin,
        &topics(&[("topic", 3), ("other", 3)]),
        &[member("c1", &["topic"]), member("c2", &["missing"])],
    );
    assert_eq!(out["c1"].len(), 3);
    assert_eq!(out["c2"], vec![]);
}

#[test]
fn round_robin_skips_members_not_subscribed_to_a_topic() {
    // Kafka's RoundRobinAssignorTest.testMultipleConsumersMixedTopics.
    let out = assign(
        AssignorKind::RoundRobin,
        &topics(&[("topic1", 3), ("topic2", 2)]),
        &[
            member("consumer1", &["topic1"]),
            member("consumer2", &["topic1", "topic2"]),
            member("consumer3", &["topic1"]),
        ],
    );
    assert_eq!(out["consumer1"], vec![tp("topic1", 0)]);
    assert_eq!(out["consumer2"], vec![tp("topic1", 1), tp("topic2", 0), tp("topic2", 1)]);
    assert_eq!(out["consumer3"], vec![tp("topic1", 2)]);
}

#[test]
fn round_robin_reshuffles_but_sticky_only_moves_the_leavers_partitions_when_c1_leaves() {
    // The StickyAssignor javadoc example and seed 003: C0, C1, C2 on t0/t1 × 3; C1 leaves.
    let parts = topics(&[("t0", 3), ("t1", 3)]);
    let three = [member("C0", &["t0", "t1"]), member("C1", &["t0", "t1"]), member("C2", &["t0", "t1"])];
    let first = assign(AssignorKind::Sticky, &parts, &three);
    assert_eq!(first, assign(AssignorKind::RoundRobin, &parts, &three));
    assert_eq!(first["C0"], vec![tp("t0", 0), tp("t1", 0)]);
    assert_eq!(first["C1"], vec![tp("t0", 1), tp("t1", 1)]);
    let rr = assign(AssignorKind::RoundRobin, &parts, &[member("C0", &["t0", "t1"]), member("C2", &["t0", "t1"])]);
    assert_eq!(rr["C0"], vec![tp("t0", 0), tp("t0", 2), tp("t1", 1)]);
    assert_eq!(rr["C2"], vec![tp("t0", 1), tp("t1", 0), tp("t1", 2)]);
    let survivors =
        [owning("C0", &["t0", "t1"], first["C0"].clone(), 1), owning("C2", &["t0", "t1"], first["C2"].clone(), 1)];
    let sticky = assign(AssignorKind::Sticky, &parts, &survivors);
    assert_eq!(sticky["C0"], vec![tp("t0", 0), tp("t0", 1), tp("t1", 0)]);
    assert_eq!(sticky["C2"], vec![tp("t0", 2), tp("t1", 1), tp("t1", 2)]);
}

#[test]
fn sticky_gives_max_quota_only_to_as_many_owners_as_needed() {
    // Kafka's testMaxQuotaConsumerMoreThanNumExpectedMaxCapacityMembers.
    let parts = topics(&[("topic1", 2), ("topic2", 2)]);
    let both = &["topic1", "topic2"];
    let members = [
        owning("consumer1", both, vec![tp("topic1", 0), tp("topic2", 0)], 1),
        owning("consumer2", both, vec![tp("topic1", 1), tp("topic2", 1)], 1),
        owning("consumer3", both, vec![], 1),
    ];
    let out = assign(AssignorKind::Sticky, &parts, &members);
    assert_eq!(out["consumer1"], vec![tp("topic1", 0)]);
    assert_eq!(out["consumer2"], vec![tp("topic1", 1), tp("topic2", 1)]);
    assert_eq!(out["consumer3"], vec![tp("topic2", 0)]);
    // Cooperative: topic2-0 changes owner, so it is revoked first and nobody gets it yet.
    let coop = assign(AssignorKind::CooperativeSticky, &parts, &members);
    assert_eq!(coop["consumer3"], vec![]);
    assert_eq!(coop["consumer1"], vec![tp("topic1", 0)]);
}

#[test]
fn sticky_fills_members_under_min_quota_round_robin() {
    // Kafka's testAllConsumersAreUnderMinQuota and testConsumerOwningMinQuotaExpectedMaxQuota.
    let parts = topics(&[("topic1", 2), ("topic2", 3)]);
    let both = &["topic1", "topic2"];
    let out = assign(
        AssignorKind::Sticky,
        &parts,
        &[
            owning("consumer1", both, vec![tp("topic1", 0)], 1),
            owning("consumer2", both, vec![tp("topic1", 1)], 1),
            owning("consumer3", both, vec![], 1),
        ],
    );
    assert_eq!(out["consumer1"], vec![tp("topic1", 0), tp("topic2", 1)]);
    assert_eq!(out["consumer2"], vec![tp("topic1", 1), tp("topic2", 2)]);
    assert_eq!(out["consumer3"], vec![tp("topic2", 0)]);
    let out = assign(
        AssignorKind::Sticky,
        &parts,
        &[
            owning("consumer1", both, vec![tp("topic1", 0), tp("topic2", 1)], 1),
            owning("consumer2", both, vec![tp("topic1", 1), tp("topic2", 2)], 1),
        ],
    );
    assert_eq!(out["consumer1"], vec![tp("topic1", 0), tp("topic2", 0), tp("topic2", 1)]);
    assert_eq!(out["consumer2"], vec![tp("topic1", 1), tp("topic2", 2)]);
}

#[test]
fn sticky_drops_a_claim_made_twice_in_one_generation_and_prefers_the_newer_generation() {
    // Kafka's ...ClaimedByMultipleConsumersInSameGenerationWithUnequalPartitionsPerConsumer.
    let parts = topics(&[("topic", 4)]);
    let out = assign(
        AssignorKind::Sticky,
        &parts,
        &[
            owning("consumer1", &["topic"], vec![tp("topic", 0), tp("topic", 1)], 1),
            owning("consumer2", &["topic"], vec![tp("topic", 0), tp("topic", 2)], 1),
            owning("consumer3", &["topic"], vec![], 1),
        ],
    );
    assert_eq!(out["consumer1"], vec![tp("topic", 1), tp("topic", 3)]);
    assert_eq!(out["consumer2"], vec![tp("topic", 2)]);
    assert_eq!(out["consumer3"], vec![tp("topic", 0)]);
    // testOwnedPartitionsAreInvalidatedForConsumerWithStaleGeneration.
    let parts = topics(&[("topic", 3), ("topic2", 3)]);
    let claims = vec![tp("topic", 0), tp("topic", 2), tp("topic2", 1)];
    let both = &["topic", "topic2"];
    let out = assign(
        AssignorKind::Sticky,
        &parts,
        &[owning("consumer1", both, claims.clone(), 10), owning("consumer2", both, claims, 9)],
    );
    assert_eq!(out["consumer1"], vec![tp("topic", 0), tp("topic", 2), tp("topic2", 1)]);
    assert_eq!(out["consumer2"], vec![tp("topic", 1), tp("topic2", 0), tp("topic2", 2)]);
}

#[test]
fn sticky_with_unequal_subscriptions_balances_by_handing_back_to_the_previous_owner() {
    // General path: consumer2 (older generation) loses its claim on topic-0 to consumer1, but
    // balancing then moves topic-0 back to its previous owner rather than to anyone else.
    let parts = topics(&[("topic", 3), ("topic2", 3)]);
    let out = assign(
        AssignorKind::Sticky,
        &parts,
        &[
            owning("consumer1", &["topic", "topic2"], vec![tp("topic", 0), tp("topic2", 0), tp("topic2", 1)], 5),
            owning("consumer2", &["topic"], vec![tp("topic", 0), tp("topic", 1)], 4),
        ],
    );
    assert_eq!(out["consumer1"], vec![tp("topic2", 0), tp("topic2", 1), tp("topic2", 2)]);
    assert_eq!(out["consumer2"], vec![tp("topic", 0), tp("topic", 1), tp("topic", 2)]);
}

/// A small deterministic generator (64-bit LCG) so property runs need no external crates.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn random_group(rng: &mut Lcg, equal: bool) -> (SortedMap<String, u32>, Vec<Subscription>) {
    let topic_count = 1 + rng.below(4) as usize;
    let parts: SortedMap<String, u32> = (0..topic_count).map(|t| (format!("t{t}"), 1 + rng.below(8) as u32)).collect();
    let names: Vec<String> = parts.keys().cloned().collect();
    let members = (0..1 + rng.below(7))
        .map(|m| {
            let mut topics: Vec<String> = names.iter().filter(|_| equal || rng.below(2) == 0).cloned().collect();
            if topics.is_empty() {
                topics.push(names[0].clone());
            }
            Subscription {
                member_id: format!("consumer-{m}-{:x}", rng.below(1 << 20)),
                group_instance_id: None,
                topics,
                owned: vec![],
                generation: -1,
            }
        })
        .collect();
    (parts, members)
}

fn every_subscribed_partition_once(
    parts: &SortedMap<String, u32>,
    members: &[Subscription],
    out: &SortedMap<String, Vec<TopicPartition>>,
) {
    let mut seen = std::collections::BTreeSet::new();
    for m in members {
        for p in &out[&m.member_id] {
            assert!(m.topics.contains(&p.topic), "{} got unsubscribed {p}", m.member_id);
            assert!(seen.insert(p.clone()), "{p} assigned twice");
        }
    }
    let expected: usize =
        parts.iter().filter(|(t, _)| members.iter().any(|m| m.topics.contains(t))).map(|(_, n)| *n as usize).sum();
    assert_eq!(seen.len(), expected);
}

#[test]
fn sticky_assignments_stay_balanced_and_keep_owners_across_random_membership_changes() {
    let mut rng = Lcg(2024);
    for round in 0..300 {
        let (parts, mut members) = random_group(&mut rng, round % 2 == 0);
        let mut out = assign(AssignorKind::Sticky, &parts, &members);
        every_subscribed_partition_once(&parts, &members, &out);
        if round % 2 == 0 {
            let sizes: Vec<usize> = out.values().map(Vec::len).collect();
            assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1, "unbalanced {out:?}");
        }
        // One member leaves: every survivor keeps what it had as long as it stays within quota.
        if members.len() > 1 {
            let gone = members.remove(rng.below(members.len() as u64) as usize);
            for m in &mut members {
                m.owned = out[&m.member_id].clone();
                m.generation = 3;
            }
            let before = out.clone();
            out = assign(AssignorKind::Sticky, &parts, &members);
            every_subscribed_partition_once(&parts, &members, &out);
            if round % 2 == 0 {
                for m in &members {
                    let kept = before[&m.member_id].iter().filter(|p| out[&m.member_id].contains(p)).count();
                    assert_eq!(
                        kept,
                        before[&m.member_id].len().min(out[&m.member_id].len()),
                        "{} lost partitions needlessly after {} left",
                        m.member_id,
                        gone.member_id
                    );
                }
            }
        }
    }
}

#[test]
fn every_assignor_covers_each_partition_once_on_random_groups() {
    let mut rng = Lcg(7);
    for round in 0..200 {
        let (parts, members) = random_group(&mut rng, round % 3 == 0);
        for kind in [AssignorKind::Range, AssignorKind::RoundRobin, AssignorKind::Sticky] {
            let out = assign(kind, &parts, &members);
            assert_eq!(out.len(), members.len());
            every_subscribed_partition_once(&parts, &members, &out);
            for list in out.values() {
                assert!(list.windows(2).all(|w| w[0] < w[1]), "list not sorted");
            }
        }
    }
}

#[test]
fn cooperative_sticky_never_hands_out_a_partition_its_owner_still_holds() {
    let mut rng = Lcg(99);
    for _ in 0..200 {
        let (parts, mut members) = random_group(&mut rng, true);
        let first = assign(AssignorKind::CooperativeSticky, &parts, &members);
        members.push(Subscription {
            member_id: "new-member".into(),
            group_instance_id: None,
            topics: members[0].topics.clone(),
            owned: vec![],
            generation: -1,
        });
        for m in &mut members {
            m.owned = first.get(&m.member_id).cloned().unwrap_or_default();
            m.generation = 1;
        }
        let second = assign(AssignorKind::CooperativeSticky, &parts, &members);
        for m in &members {
            for p in &second[&m.member_id] {
                let holder = members.iter().find(|o| o.owned.contains(p));
                assert!(holder.is_none_or(|h| h.member_id == m.member_id), "{p} moved without revocation");
            }
        }
        // The follow-up rebalance (owners revoked) completes the balanced sticky result.
        for m in &mut members {
            m.owned = second[&m.member_id].clone();
            m.generation = 2;
        }
        let third = assign(AssignorKind::CooperativeSticky, &parts, &members);
        assert_eq!(third, assign(AssignorKind::Sticky, &parts, &members));
        every_subscribed_partition_once(&parts, &members, &third);
    }
}

#[test]
fn the_seed_003_examples_the_ui_shows_give_the_pinned_results() {
    use kafka_lab::i18n::lookup_english as lookup;
    use kafka_lab::model::group::assignor::seed003_examples;
    let examples = seed003_examples();
    assert_eq!(examples.len(), 2);
    for ex in &examples {
        assert!(lookup(ex.title_key).is_some() && lookup(ex.note_key).is_some(), "{}", ex.id);
    }
    let range = &examples[0];
    assert_eq!(range.kinds, vec![AssignorKind::Range]);
    let out = assign(AssignorKind::Range, &range.partitions_per_topic, &range.members);
    assert_eq!(out["C0"], vec![tp("t0", 0), tp("t0", 1), tp("t1", 0), tp("t1", 1)]);
    assert_eq!(out["C1"], vec![tp("t0", 2), tp("t1", 2)]);
    let leave = &examples[1];
    assert_eq!(leave.kinds, vec![AssignorKind::RoundRobin, AssignorKind::Sticky]);
    let before = leave.before.as_ref().expect("previous owners");
    assert_eq!(before["C0"], vec![tp("t0", 0), tp("t1", 0)]);
    assert_eq!(before["C1"], vec![tp("t0", 1), tp("t1", 1)]);
    let rr = assign(AssignorKind::RoundRobin, &leave.partitions_per_topic, &leave.members);
    assert_eq!(rr["C0"], vec![tp("t0", 0), tp("t0", 2), tp("t1", 1)]);
    assert_eq!(rr["C2"], vec![tp("t0", 1), tp("t1", 0), tp("t1", 2)]);
    let sticky = assign(AssignorKind::Sticky, &leave.partitions_per_topic, &leave.members);
    assert_eq!(sticky["C0"], vec![tp("t0", 0), tp("t0", 1), tp("t1", 0)]);
    assert_eq!(sticky["C2"], vec![tp("t0", 2), tp("t1", 1), tp("t1", 2)]);
}
