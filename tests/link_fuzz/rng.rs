//! A small seeded generator (xorshift64*), so a failing case is reproduced by its seed alone.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        // Any seed, 0 included, gives a non-zero state.
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x2545_F491_4F6C_DD1D)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True `percent` times out of 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A number spread evenly over its digits: 0–9 as often as 10 000–99 999.
    pub fn spread(&mut self, max_digits: u32) -> u64 {
        let digits = 1 + self.below(max_digits as usize) as u32;
        self.next_u64() % 10u64.pow(digits)
    }
}
