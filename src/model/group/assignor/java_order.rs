//! The iteration order of Java's `java.util.HashMap` / `HashSet`, which Kafka's sticky assignor
//! depends on where it walks a map; reproduced so tie-breaks match the JVM.

/// `String.hashCode()` over UTF-16 code units, with Java's wrapping `int` arithmetic.
pub fn java_string_hash(text: &str) -> i32 {
    text.encode_utf16().fold(0i32, |hash, unit| hash.wrapping_mul(31).wrapping_add(unit as i32))
}

/// `TopicPartition.hashCode()`: 31 × (31 + partition) + topic hash.
pub fn java_topic_partition_hash(topic: &str, partition: u32) -> i32 {
    31i32.wrapping_mul(31i32.wrapping_add(partition as i32)).wrapping_add(java_string_hash(topic))
}

/// The table size a default `new HashMap<>()` reaches after `len` puts (load factor 0.75).
fn default_capacity(len: usize) -> usize {
    let mut capacity = 16;
    while len * 4 > capacity * 3 {
        capacity *= 2;
    }
    capacity
}

/// Orders `items` (given in insertion order) as a default-sized Java `HashMap` iterates them:
/// by bucket `(h ^ (h >>> 16)) & (capacity - 1)`, insertion order within a bucket.
pub fn java_map_order<T: Clone>(items: &[T], hash: impl Fn(&T) -> i32) -> Vec<T> {
    let mask = default_capacity(items.len()) - 1;
    let mut keyed: Vec<(usize, usize, T)> = items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let h = hash(item) as u32;
            (((h ^ (h >> 16)) as usize) & mask, index, item.clone())
        })
        .collect();
    crate::model::kernel::order::sort_by_key(&mut keyed, |(bucket, index, _)| (*bucket, *index));
    keyed.into_iter().map(|(_, _, item)| item).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hash_matches_the_jvm() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("consumer1"), -421_004_549);
        assert_eq!(java_string_hash("hello world"), 1_794_106_052);
    }

    #[test]
    fn map_order_walks_buckets_then_insertion() {
        let keys = vec!["b".to_string(), "a".to_string(), "q".to_string()];
        // 'a' = 97 → bucket 1, 'b' = 98 → bucket 2, 'q' = 113 → bucket 1 (113 & 15).
        assert_eq!(java_map_order(&keys, |k| java_string_hash(k)), vec!["a", "q", "b"]);
    }
}
