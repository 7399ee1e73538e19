//! One small stable sort for the whole lab. `slice::sort*` is fast but each call site makes
//! its own copy of a large algorithm (several KB of wasm each, ~110 KB in the groups bundle);
//! this merge sort is compiled once per element type, whatever the comparison, and a page
//! sorts at most a few thousand items. Stable: equal items keep their order, as `sort_by`.

use std::cmp::Ordering;

/// Runs this short are sorted by insertion.
const SHORT_RUN: usize = 12;

/// Sorts `items` by `compare`, keeping equal items in their order.
pub fn sort_by<T>(items: &mut Vec<T>, mut compare: impl FnMut(&T, &T) -> Ordering) {
    merge_sort(items, &mut compare);
}

/// Sorts `items` by the key `key` gives each, keeping equal keys in their order.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    merge_sort(items, &mut |a: &T, b: &T| key(a).cmp(&key(b)));
}

/// Sorts `items` in their natural order.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    merge_sort(items, &mut |a: &T, b: &T| a.cmp(b));
}

fn merge_sort<T>(items: &mut Vec<T>, compare: &mut dyn FnMut(&T, &T) -> Ordering) {
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
    while let (Some(a), Some(b)) = (left.peek(), right.peek()) {
        // Only a strictly smaller right item goes first: that keeps the sort stable.
        let next = if compare(b, a) == Ordering::Less { right.next() } else { left.next() };
        items.extend(next);
    }
    items.extend(left);
    items.extend(right);
}

fn insertion_sort<T>(items: &mut [T], compare: &mut dyn FnMut(&T, &T) -> Ordering) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && compare(&items[j], &items[j - 1]) == Ordering::Less {
            items.swap(j, j - 1);
            j -= 1;
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
    fn a_comparison_can_reverse_the_order() {
        let mut items = vec![3.5_f64, -1.0, 9.25, 0.0];
        sort_by(&mut items, |a, b| b.total_cmp(a));
        assert_eq!(items, [9.25, 3.5, 0.0, -1.0]);
    }
}
