//! Keyed workloads and the load they put on each partition: uniform keys, Zipf-skewed keys, one
//! hot customer ("MEGACORP"), and the composite-key fix that splits the hot key into buckets.

use super::partition_for_key;

/// The hot key of seed 000's lab 6.
pub const HOT_KEY: &str = "MEGACORP";

/// How a workload draws keys (`lab.key.distribution`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyDistribution {
    /// Every key of the population equally often.
    Uniform,
    /// Key i with weight 1/(i+1) (Zipf, s = 1): a few keys dominate.
    Zipf,
    /// `lab.megacorp.percent` of records carry the key MEGACORP, the rest are uniform.
    Megacorp,
}

impl KeyDistribution {
    /// The distribution `lab.key.distribution` names, if any.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "uniform" => Some(Self::Uniform),
            "zipf" => Some(Self::Zipf),
            "megacorp" => Some(Self::Megacorp),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Uniform => "uniform",
            Self::Zipf => "zipf",
            Self::Megacorp => "megacorp",
        }
    }
}

/// Which key one record carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyChoice {
    /// Key number i of the population (`<prefix>-<i>`).
    Population(u32),
    /// The hot key, plain or with its composite bucket (`MEGACORP-<bucket>`).
    Hot { bucket: Option<u32> },
}

/// A producer's keyed workload (no Kafka counterpart); reads lab.key.prefix, lab.distinct.keys,
/// lab.key.distribution, lab.megacorp.percent, lab.composite.key, lab.composite.buckets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    pub prefix: &'static str,
    pub distinct_keys: u32,
    pub distribution: KeyDistribution,
    pub hot_percent: u32,
    /// `Some(b)`: the hot key is sent as `MEGACORP-<n % b>` for the record's sequence number n.
    pub composite_buckets: Option<u32>,
    zipf_cumulative: Vec<u64>,
}

impl Workload {
    pub fn new(
        prefix: &'static str,
        distinct_keys: u32,
        distribution: KeyDistribution,
        hot_percent: u32,
        composite_buckets: Option<u32>,
    ) -> Self {
        assert!(distinct_keys > 0, "a workload needs at least one key");
        let mut running = 0u64;
        let zipf_cumulative = (0..u64::from(distinct_keys))
            .map(|i| {
                running += (1u64 << 32) / (i + 1);
                running
            })
            .collect();
        Self { prefix, distinct_keys, distribution, hot_percent, composite_buckets, zipf_cumulative }
    }

    /// The text of population key `index` (e.g. `cliente-42`).
    pub fn population_key(&self, index: u32) -> String {
        format!("{}-{index}", self.prefix)
    }

    /// Every key of the population, in index order.
    pub fn population(&self) -> Vec<String> {
        (0..self.distinct_keys).map(|i| self.population_key(i)).collect()
    }

    pub fn key_text(&self, choice: KeyChoice) -> String {
        match choice {
            KeyChoice::Population(index) => self.population_key(index),
            KeyChoice::Hot { bucket: None } => HOT_KEY.to_string(),
            KeyChoice::Hot { bucket: Some(bucket) } => format!("{HOT_KEY}-{bucket}"),
        }
    }

    /// Draws the key of record number `sequence`; `draw(low, high)` is a uniform integer in `[low, high]`.
    pub fn choose(&self, sequence: u64, draw: &mut impl FnMut(u64, u64) -> u64) -> KeyChoice {
        match self.distribution {
            KeyDistribution::Uniform => KeyChoice::Population(draw(0, u64::from(self.distinct_keys) - 1) as u32),
            KeyDistribution::Zipf => {
                let total = *self.zipf_cumulative.last().expect("at least one key");
                let point = draw(0, total - 1);
                KeyChoice::Population(self.zipf_cumulative.partition_point(|bound| *bound <= point) as u32)
            }
            KeyDistribution::Megacorp => {
                if draw(0, 99) < u64::from(self.hot_percent) {
                    let bucket = self.composite_buckets.map(|b| (sequence % u64::from(b)) as u32);
                    KeyChoice::Hot { bucket }
                } else {
                    KeyChoice::Population(draw(0, u64::from(self.distinct_keys) - 1) as u32)
                }
            }
        }
    }

    /// Partitions of every population key, the plain hot key and each hot bucket, for one partition count.
    pub fn partition_table(&self, num_partitions: u32) -> PartitionTable {
        let population = (0..self.distinct_keys)
            .map(|i| partition_for_key(self.population_key(i).as_bytes(), num_partitions))
            .collect();
        let hot = partition_for_key(HOT_KEY.as_bytes(), num_partitions);
        let buckets = self.composite_buckets.unwrap_or(0);
        let hot_buckets = (0..buckets)
            .map(|b| partition_for_key(self.key_text(KeyChoice::Hot { bucket: Some(b) }).as_bytes(), num_partitions))
            .collect();
        PartitionTable { num_partitions, population, hot, hot_buckets }
    }
}

/// Precomputed key → partition for a workload (hash each key once, not each record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionTable {
    pub num_partitions: u32,
    pub population: Vec<u32>,
    pub hot: u32,
    pub hot_buckets: Vec<u32>,
}

impl PartitionTable {
    pub fn partition(&self, choice: KeyChoice) -> u32 {
        match choice {
            KeyChoice::Population(index) => self.population[index as usize],
            KeyChoice::Hot { bucket: None } => self.hot,
            KeyChoice::Hot { bucket: Some(bucket) } => self.hot_buckets[bucket as usize],
        }
    }
}

/// Records per partition after a burst, like `kafka-get-offsets` (end offsets when the topic
/// started empty), and how many of them carry the hot key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadReport {
    pub records_per_partition: Vec<u64>,
    pub hot_records_per_partition: Vec<u64>,
}

impl LoadReport {
    /// The busiest partition's share of all records.
    pub fn hottest_share(&self) -> f64 {
        let total: u64 = self.records_per_partition.iter().sum();
        let max = self.records_per_partition.iter().copied().max().unwrap_or(0);
        if total == 0 {
            0.0
        } else {
            max as f64 / total as f64
        }
    }

    /// Partitions holding at least one hot-key record.
    pub fn partitions_with_hot_key(&self) -> Vec<u32> {
        (0..self.hot_records_per_partition.len() as u32)
            .filter(|p| self.hot_records_per_partition[*p as usize] > 0)
            .collect()
    }
}

/// Produces `records` keyed records (sequence numbers from `first_sequence`) and counts them per partition.
pub fn produce_load(
    workload: &Workload,
    table: &PartitionTable,
    first_sequence: u64,
    records: u64,
    draw: &mut impl FnMut(u64, u64) -> u64,
) -> LoadReport {
    let n = table.num_partitions as usize;
    let mut report = LoadReport { records_per_partition: vec![0; n], hot_records_per_partition: vec![0; n] };
    for sequence in first_sequence..first_sequence + records {
        let choice = workload.choose(sequence, draw);
        let partition = table.partition(choice) as usize;
        report.records_per_partition[partition] += 1;
        if matches!(choice, KeyChoice::Hot { .. }) {
            report.hot_records_per_partition[partition] += 1;
        }
    }
    report
}
