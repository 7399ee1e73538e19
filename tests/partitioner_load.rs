//! Hot keys, the composite-key fix, and per-partition load and lag.

use kafka_lab::model::partitioner::{
    partition_for_key, produce_load, KeyDistribution, Partitioner, ProduceRound, Workload, HOT_KEY,
};
use kafka_lab::model::scene::{LabScene, Run};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn megacorp_preset() -> Run<Partitioner> {
    let preset = Partitioner::presets().iter().find(|p| p.id == "megacorp").expect("preset exists");
    Run::from_preset(preset).expect("preset runs")
}

fn hot_partitions(round: &ProduceRound) -> Vec<u32> {
    round.report.partitions_with_hot_key()
}

#[test]
fn hot_key_stays_on_one_partition_whatever_the_partition_count() {
    let run = megacorp_preset();
    let rounds = run.world().rounds();
    assert_eq!((rounds[0].partitions, rounds[1].partitions), (6, 12));
    assert_eq!(hot_partitions(&rounds[0]), vec![partition_for_key(HOT_KEY.as_bytes(), 6)]);
    assert_eq!(hot_partitions(&rounds[1]), vec![partition_for_key(HOT_KEY.as_bytes(), 12)]);
    // 40 % of the records on one partition before and after the alter: 6 → 12 fixes nothing.
    assert!(rounds[0].report.hottest_share() > 0.45, "{}", rounds[0].report.hottest_share());
    assert!(rounds[1].report.hottest_share() > 0.40, "{}", rounds[1].report.hottest_share());
    for partitions in [3, 24, 48, 100] {
        let workload = Workload::new("cliente", 1000, KeyDistribution::Megacorp, 40, None);
        let table = workload.partition_table(partitions);
        let mut rng = ChaCha8Rng::seed_from_u64(partitions as u64);
        let report = produce_load(&workload, &table, 0, 20_000, &mut |lo, hi| rng.random_range(lo..=hi));
        assert_eq!(report.partitions_with_hot_key().len(), 1, "{partitions} partitions");
    }
}

#[test]
fn adding_partitions_moves_the_other_keys_but_the_hot_key_moves_whole() {
    let run = megacorp_preset();
    let alter = &run.world().alters()[0];
    assert!((0.45..=0.55).contains(&alter.fraction_stayed), "{}", alter.fraction_stayed);
    assert_eq!(alter.hot_key.from, partition_for_key(b"MEGACORP", 6));
    assert_eq!(alter.hot_key.to, partition_for_key(b"MEGACORP", 12));
}

#[test]
fn composite_key_spreads_megacorp_over_eight_keys() {
    let run = megacorp_preset();
    let rounds = run.world().rounds();
    let (plain, composite) = (&rounds[1], &rounds[2]);
    assert!(composite.composite && !plain.composite);
    let spread = hot_partitions(composite);
    assert!(spread.len() > 1, "{spread:?}");
    assert!(
        composite.report.hottest_share() < plain.report.hottest_share() * 0.6,
        "{} vs {}",
        composite.report.hottest_share(),
        plain.report.hottest_share()
    );
    // Eight keys are not eight partitions: murmur2 % 6 puts MEGACORP-0..7 on only three.
    let on_six: std::collections::BTreeSet<u32> =
        (0..8).map(|n| partition_for_key(format!("MEGACORP-{n}").as_bytes(), 6)).collect();
    assert_eq!(on_six.len(), 3, "{on_six:?}");
}

#[test]
fn the_hot_partition_dominates_consumer_lag() {
    let run = megacorp_preset();
    let loads = run.world().partition_loads();
    let worst = loads.iter().max_by_key(|l| l.lag).unwrap();
    assert_eq!(worst.partition, partition_for_key(HOT_KEY.as_bytes(), 6));
    let idle = loads.iter().filter(|l| l.lag == 0).count();
    assert!(idle >= 6, "most consumers are idle while one lags: {loads:?}");
}

#[test]
fn zipf_keys_load_partitions_less_evenly_than_uniform_keys() {
    let share = |distribution| {
        let workload = Workload::new("cliente", 1000, distribution, 40, None);
        let table = workload.partition_table(12);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        produce_load(&workload, &table, 0, 50_000, &mut |lo, hi| rng.random_range(lo..=hi)).hottest_share()
    };
    let (uniform, zipf) = (share(KeyDistribution::Uniform), share(KeyDistribution::Zipf));
    assert!(uniform < 0.11, "{uniform}");
    assert!(zipf > uniform * 1.5, "zipf {zipf} vs uniform {uniform}");
}
