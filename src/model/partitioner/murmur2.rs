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
