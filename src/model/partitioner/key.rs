//! What a learner types as a record key, turned into the bytes a Java producer would send,
//! and the steps from those bytes to a partition.

use super::{murmur2, to_positive};

/// Lowercase hex of some bytes, two digits each (`[0, 255]` → `"00ff"`).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A key as the lab writes it: its text when it is UTF-8 (and does not look like hex), else `0x…`.
pub fn key_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.starts_with("0x") && !text.starts_with("0X") => text.to_string(),
        _ => format!("0x{}", hex(bytes)),
    }
}

/// The default partitioner's arithmetic for one key, step by step
/// (Kafka's `BuiltInPartitioner.partitionForKey`); reads the topic's partition count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashSteps {
    /// The serialized key bytes.
    pub key_bytes: Vec<u8>,
    /// `Utils.murmur2(keyBytes)` as Java's signed int.
    pub murmur2: i32,
    /// The same 32 bits as unsigned hex, as a debugger would show them.
    pub murmur2_hex: String,
    /// `Utils.toPositive(hash)`: the sign bit cleared.
    pub positive: u32,
    pub num_partitions: u32,
    /// `positive % numPartitions`.
    pub partition: u32,
}

impl HashSteps {
    pub fn new(key_bytes: &[u8], num_partitions: u32) -> Self {
        assert!(num_partitions > 0, "a topic has at least one partition");
        let hash = murmur2(key_bytes);
        let positive = to_positive(hash);
        Self {
            key_bytes: key_bytes.to_vec(),
            murmur2: hash,
            murmur2_hex: format!("{:08x}", hash as u32),
            positive,
            num_partitions,
            partition: positive % num_partitions,
        }
    }

    /// The key bytes as hex.
    pub fn bytes_hex(&self) -> String {
        hex(&self.key_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_show_the_sign_bit_being_cleared_before_the_modulo() {
        let steps = HashSteps::new(b"21", 12);
        assert_eq!(steps.murmur2, -973_932_308);
        assert_eq!(steps.murmur2_hex, "c5f2f8ec");
        assert_eq!(steps.positive, 1_173_551_340);
        assert_eq!(steps.partition, 1_173_551_340 % 12);
        assert_eq!(steps.bytes_hex(), "3231");
    }
}
