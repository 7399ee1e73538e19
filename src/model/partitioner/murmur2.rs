//! Kafka's `Utils.murmur2`: 32-bit MurmurHash2 with Kafka's seed, bit-exact.

const SEED: u32 = 0x9747_b28c;
const M: u32 = 0x5bd1_e995;
const R: u32 = 24;

/// Counterpart of `org.apache.kafka.common.utils.Utils.murmur2(byte[])`.
pub fn murmur2(data: &[u8]) -> i32 {
    let length = data.len() as u32;
    let mut h = SEED ^ length;
    let mut blocks = data.chunks_exact(4);
    for block in &mut blocks {
        let mut k = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        if tail.len() == 3 {
            h ^= u32::from(tail[2]) << 16;
        }
        if tail.len() >= 2 {
            h ^= u32::from(tail[1]) << 8;
        }
        h ^= u32::from(tail[0]);
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    h as i32
}

/// Counterpart of `Utils.toPositive`: clears the sign bit (not `abs`).
pub fn to_positive(number: i32) -> u32 {
    (number & 0x7fff_ffff) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    // Kafka's own UtilsTest vectors are pinned in tests/partitioner_hashing.rs.

    /// Every tail length (0..=3 leftover bytes) over 0..=8 bytes, with bytes ≥ 0x80 that a
    /// signed-byte bug would get wrong; printed by an independent Java 17 MurmurHash2.
    #[test]
    fn every_tail_length_with_high_bytes_matches_an_independent_java_run() {
        let expected = [
            275_646_681,
            -590_710_528,
            344_659_154,
            -1_568_632_735,
            1_552_984_088,
            990_788_458,
            1_186_793_074,
            875_108_816,
            -2_087_653_280,
        ];
        let bytes: Vec<u8> = (0xf8..=0xff).collect();
        for (length, hash) in expected.into_iter().enumerate() {
            assert_eq!(murmur2(&bytes[..length]), hash, "length {length}");
        }
    }

    #[test]
    fn to_positive_clears_the_sign_bit_instead_of_negating() {
        assert_eq!(to_positive(-1), 0x7fff_ffff);
        assert_eq!(to_positive(i32::MIN), 0);
        assert_eq!(to_positive(-973_932_308), 1_173_551_340);
        assert_eq!(to_positive(42), 42);
    }
}
