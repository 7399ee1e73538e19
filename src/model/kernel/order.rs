//! One small stable sort for the whole lab. `slice::sort*` is fast but each call site makes
//! its own copy of a large algorithm (several KB of wasm each, ~110 KB in the groups bundle).
//! This merge sort is compiled once: it orders the items' positions, asking a comparison of two
//! positions, and only moving the items into that order is compiled per element type. A page
//! sorts at most a few thousand items. Stable: equal items keep their order, as `sort_by`.

use std::cmp::Ordering;

/// Runs this short are sorted by insertion.
const SHORT_RUN: usize = 12;

/// Sorts `items` by `compare`, keeping equal items in their order.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = sorted_positions(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sorts `items` by the key `key` gives each, keeping equal keys in their order.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their natural order.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The positions `0..len` in the order `compare` (of two positions) sorts them, equal ones in
/// their order.
fn sorted_positions(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    merge_sort(&mut order, compare);
    order
}

fn merge_sort(items: &mut Vec<usize>, compare: &mut dyn FnMut(usize, usize) -> Ordering) {
    if items.len() <= SHORT_RUN {
        insertion_sort(items, compare);
        return;
    }
    let mut right = items.split_off(items.len() / 2);
    merge_sort(items, compare);
    merge_sort(&mut right, compare);
    let left = std::mem::take(items);
    items.reserve_exact(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(&a), Some(&b)) = (left.peek(), right.peek()) {
        // Only a strictly smaller right item goes first: that keeps the sort stable.
        let next = if compare(b, a) == Ordering::Less { right.next() } else { left.next() };
        items.extend(next);
    }
    items.extend(left);
    items.extend(right);
}

fn insertion_sort(items: &mut [usize], compare: &mut dyn FnMut(usize, usize) -> Ordering) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && compare(items[j], items[j - 1]) == Ordering::Less {
            items.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Moves `items` into `order` (position `k` gets the item that was at `order[k]`), one cycle
/// of the permutation at a time, with swaps only.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    debug_assert_eq!(items.len(), order.len());
    const PLACED: usize = usize::MAX;
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != PLACED {
            let from = std::mem::replace(&mut order[at], PLACED);
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_library_at_every_length_around_the_short_run() {
        for len in [0, 1, 2, 11, 12, 13, 24, 25, 100, 1000] {
            let mut items: Vec<u64> = (0..len).map(|i| (i * 7919 + 13) % 101).collect();
            let mut expected = items.clone();
            expected.sort();
            sort(&mut items);
            assert_eq!(items, expected, "length {len}");
        }
    }

    #[test]
    fn equal_keys_keep_their_order() {
        let mut items: Vec<(u8, usize)> = (0..200).map(|i| ((i % 5) as u8, i)).collect();
        sort_by_key(&mut items, |&(key, _)| key);
        for pair in items.windows(2) {
            assert!(pair[0].0 < pair[1].0 || (pair[0].0 == pair[1].0 && pair[0].1 < pair[1].1), "{pair:?}");
        }
    }

    #[test]
    fn matches_sort_by_on_scrambled_records_with_ties() {
        for len in [0, 1, 13, 64, 257] {
            let mut items: Vec<(u32, String)> =
                (0..len).map(|i| ((i * 37 % 11) as u32, format!("r{}", i * 7919 % 1009))).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|(key, _)| *key);
            sort_by_key(&mut items, |(key, _)| *key);
            assert_eq!(items, expected, "length {len}");
        }
    }

    #[test]
    fn a_comparison_can_reverse_the_order() {
        let mut items = vec![3.5_f64, -1.0, 9.25, 0.0];
        sort_by(&mut items, |a, b| b.total_cmp(a));
        assert_eq!(items, [9.25, 3.5, 0.0, -1.0]);
    }
}
