//! `java.util.Random` (48-bit LCG) and `Collections.shuffle`, bit-exact, so that
//! placements Kafka randomises with them come out as Kafka would draw them.

const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const ADDEND: u64 = 0xB;
const MASK: u64 = (1 << 48) - 1;

/// Counterpart of `java.util.Random`; reads no config.
#[derive(Clone, Debug)]
pub struct JavaRandom {
    seed: u64,
}

impl JavaRandom {
    /// Like `new Random(seed)`.
    pub fn new(seed: i64) -> Self {
        Self { seed: (seed as u64 ^ MULTIPLIER) & MASK }
    }

    fn next(&mut self, bits: u32) -> i32 {
        self.seed = (self.seed.wrapping_mul(MULTIPLIER).wrapping_add(ADDEND)) & MASK;
        (self.seed >> (48 - bits)) as i64 as i32
    }

    /// Like `Random.nextInt(bound)`: uniform in `[0, bound)`.
    pub fn next_int(&mut self, bound: i32) -> i32 {
        assert!(bound > 0, "bound must be positive");
        let mut r = self.next(31);
        let m = bound - 1;
        if bound & m == 0 {
            return ((i64::from(bound) * i64::from(r)) >> 31) as i32;
        }
        let mut u = r;
        loop {
            r = u % bound;
            if u.wrapping_sub(r).wrapping_add(m) >= 0 {
                return r;
            }
            u = self.next(31);
        }
    }

    /// Like `Collections.shuffle(list, random)`.
    pub fn shuffle<T>(&mut self, list: &mut [T]) {
        for i in (2..=list.len()).rev() {
            let j = self.next_int(i as i32) as usize;
            list.swap(i - 1, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_java_for_seed_42() {
        // new Random(42): nextInt(10) x5 gives 0, 3, 8, 4, 0 on every JVM.
        let mut random = JavaRandom::new(42);
        let draws: Vec<i32> = (0..5).map(|_| random.next_int(10)).collect();
        assert_eq!(draws, vec![0, 3, 8, 4, 0]);
    }

    #[test]
    fn power_of_two_bound_uses_the_high_bits() {
        // Values printed by OpenJDK 17: new Random(0).nextInt(16), new Random(1).nextInt(8).
        assert_eq!(JavaRandom::new(0).next_int(16), 11);
        assert_eq!(JavaRandom::new(1).next_int(8), 5);
    }

    #[test]
    fn negative_seed_and_large_bound_match_java() {
        let mut random = JavaRandom::new(-5);
        assert_eq!(random.next_int(3), 0);
        assert_eq!(random.next_int(1_000_000_007), 780_466_721);
    }

    #[test]
    fn shuffle_matches_collections_shuffle() {
        // Collections.shuffle([0..5], new Random(7)) on OpenJDK 17.
        let mut list = [0, 1, 2, 3, 4, 5];
        JavaRandom::new(7).shuffle(&mut list);
        assert_eq!(list, [3, 0, 1, 2, 5, 4]);
    }
}
