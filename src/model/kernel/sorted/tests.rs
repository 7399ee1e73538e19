//! [`SortedMap`] and [`SortedSet`] against `BTreeMap` and `BTreeSet`.

use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// A fixed pseudo-random sequence of operations, run on both maps.
fn operations() -> impl Iterator<Item = (u8, u16, u32)> {
    (0u32..4000).map(|i| ((i.wrapping_mul(2_654_435_761) >> 29) as u8, ((i * 7919 + 13) % 211) as u16, i))
}

#[test]
fn a_map_behaves_as_a_btree_map_through_inserts_removes_and_entries() {
    let (mut sorted, mut btree) = (SortedMap::new(), BTreeMap::new());
    for (op, key, value) in operations() {
        match op {
            0..=2 => assert_eq!(sorted.insert(key, value), btree.insert(key, value)),
            3 => assert_eq!(sorted.remove(&key), btree.remove(&key)),
            4 => *sorted.entry(key).or_insert(value) += 1,
            5 => assert_eq!(sorted.get(&key), btree.get(&key)),
            6 => assert_eq!(sorted.pop_first(), btree.pop_first()),
            _ => sorted.retain(|k, _| k % 7 != value as u16 % 7),
        }
        match op {
            4 => *btree.entry(key).or_insert(value) += 1,
            7 => btree.retain(|k, _| k % 7 != value as u16 % 7),
            _ => {}
        }
        assert!(sorted.iter().eq(btree.iter()), "after {op} {key} {value}");
    }
    assert_eq!(sorted.first_key_value(), btree.first_key_value());
    assert_eq!(sorted.last_key_value(), btree.last_key_value());
    assert_eq!(format!("{sorted:?}"), format!("{btree:?}"));
}

#[test]
fn collecting_keeps_the_last_value_of_a_repeated_key() {
    let pairs: Vec<(u8, usize)> = (0..300).map(|i| (((i * 37) % 23) as u8, i)).collect();
    let sorted: SortedMap<_, _> = pairs.iter().copied().collect();
    let btree: BTreeMap<_, _> = pairs.iter().copied().collect();
    assert!(sorted.into_iter().eq(btree));
}

#[test]
fn a_set_behaves_as_a_btree_set() {
    let (mut sorted, mut btree) = (SortedSet::new(), BTreeSet::new());
    for (op, item, _) in operations() {
        match op {
            0..=4 => assert_eq!(sorted.insert(item), btree.insert(item)),
            5 | 6 => assert_eq!(sorted.remove(&item), btree.remove(&item)),
            _ => assert_eq!(sorted.contains(&item), btree.contains(&item)),
        }
        assert!(sorted.iter().eq(btree.iter()));
    }
    assert_eq!(format!("{sorted:?}"), format!("{btree:?}"));
}

#[test]
fn looking_up_a_string_key_by_str() {
    let mut members = SortedMap::new();
    members.insert("consumer-2".to_string(), 2);
    members.insert("consumer-1".to_string(), 1);
    assert_eq!(members.get("consumer-1"), Some(&1));
    assert_eq!(members["consumer-2"], 2);
    assert!(members.keys().eq(["consumer-1", "consumer-2"]));
}
