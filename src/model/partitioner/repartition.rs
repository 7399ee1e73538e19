//! What `kafka-topics --alter --partitions M` does to keyed data: the controller's check, and
//! which keys now hash to another partition.

use super::{murmur2, partition_for_key, to_positive};

/// Where one key's new records go before and after the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyMove {
    pub from: u32,
    pub to: u32,
}

impl KeyMove {
    pub fn moved(&self) -> bool {
        self.from != self.to
    }
}

/// The default partitioner over a key population before and after N → M partitions
/// (no Kafka counterpart: Kafka moves no data, only where new records of a key go).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepartitionAnalysis {
    pub from_partitions: u32,
    pub to_partitions: u32,
    /// One entry per key, in the order the keys were given.
    pub moves: Vec<KeyMove>,
    pub moved_keys: usize,
    /// `flows[from][to]`: how many keys go from partition `from` to partition `to`.
    pub flows: Vec<Vec<u32>>,
}

impl RepartitionAnalysis {
    /// Hashes every key once and reads its partition under both counts.
    pub fn new<'a>(keys: impl IntoIterator<Item = &'a [u8]>, from_partitions: u32, to_partitions: u32) -> Self {
        assert!(from_partitions > 0 && to_partitions > 0, "a topic has at least one partition");
        let mut flows = vec![vec![0u32; to_partitions as usize]; from_partitions as usize];
        let mut moved_keys = 0;
        let moves: Vec<KeyMove> = keys
            .into_iter()
            .map(|key| {
                let positive = to_positive(murmur2(key));
                let step = KeyMove { from: positive % from_partitions, to: positive % to_partitions };
                debug_assert_eq!(step.to, partition_for_key(key, to_partitions));
                flows[step.from as usize][step.to as usize] += 1;
                moved_keys += usize::from(step.moved());
                step
            })
            .collect();
        Self { from_partitions, to_partitions, moves, moved_keys, flows }
    }

    pub fn keys(&self) -> usize {
        self.moves.len()
    }

    pub fn stayed_keys(&self) -> usize {
        self.keys() - self.moved_keys
    }

    /// Fraction of keys whose partition did not change (0 for no keys).
    pub fn fraction_stayed(&self) -> f64 {
        if self.moves.is_empty() {
            return 0.0;
        }
        self.stayed_keys() as f64 / self.keys() as f64
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The share of uniformly spread hashes with `h % from == h % to`: the fraction of keys that
/// stay put on average (½ for N → 2N, 1/(N+1) for N → N+1).
pub fn expected_fraction_stayed(from_partitions: u32, to_partitions: u32) -> f64 {
    let (from, to) = (u64::from(from_partitions), u64::from(to_partitions));
    let lcm = from / gcd(from, to) * to;
    let stay = (0..lcm).filter(|h| h % from == h % to).count();
    stay as f64 / lcm as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_share_that_stays() {
        assert_eq!(expected_fraction_stayed(12, 24), 0.5);
        assert_eq!(expected_fraction_stayed(6, 12), 0.5);
        assert_eq!(expected_fraction_stayed(6, 7), 1.0 / 7.0);
        assert_eq!(expected_fraction_stayed(6, 9), 1.0 / 3.0);
    }

    #[test]
    fn doubling_keeps_a_key_in_p_or_moves_it_to_p_plus_n() {
        let keys: Vec<String> = (0..2000).map(|i| format!("order-{i}")).collect();
        let analysis = RepartitionAnalysis::new(keys.iter().map(|k| k.as_bytes()), 6, 12);
        for step in &analysis.moves {
            assert!(step.to == step.from || step.to == step.from + 6, "{step:?}");
        }
        let total: u32 = analysis.flows.iter().flatten().sum();
        assert_eq!(total as usize, keys.len());
    }
}
