//! Adaptive partitioning against a slow broker, partitioner.availability.timeout.ms,
//! partitioner.ignore.keys, and the sender's per-node readiness and drain.

use std::collections::BTreeSet;

use kafka_lab::model::kernel::sorted::SortedSet;
use kafka_lab::model::partitioner::{Accumulator, Brokers, Fact, Partitioner, SendReason, HOT_KEY};
use kafka_lab::model::scene::Run;

/// Broker 3 of 3 leads orders-2 and orders-5 and answers a produce request after 1 s.
const SLOW: [(&str, &str); 3] = [("partitions", "6"), ("lab.slow.broker", "3"), ("lab.slow.broker.latency.ms", "1000")];

fn run(seed: u64, extra: &[(&str, &str)], tape: &str) -> Run<Partitioner> {
    let overrides: Vec<(String, String)> =
        SLOW.iter().chain(extra).map(|(n, v)| (n.to_string(), v.to_string())).collect();
    Run::restore(seed, &overrides, tape, None).expect("valid run")
}

/// Records that went to orders-2 and orders-5, as a share of all.
fn slow_share(run: &Run<Partitioner>) -> f64 {
    let ends: Vec<u64> = run.world().logs().iter().map(|log| log.end_offset).collect();
    (ends[2] + ends[5]) as f64 / ends.iter().sum::<u64>() as f64
}

#[test]
fn adaptive_partitioning_sends_fewer_records_without_key_to_a_slow_brokers_partitions() {
    // Kafka: RecordAccumulator.partitionReady collects queue sizes; BuiltInPartitioner
    // .updatePartitionLoadStats weighs short queues more, so the slow broker's partitions are drawn less.
    for seed in 1..=3 {
        let adaptive = slow_share(&run(seed, &[], "null-3000.w1000x4"));
        let uniform =
            slow_share(&run(seed, &[("partitioner.adaptive.partitioning.enable", "false")], "null-3000.w1000x4"));
        assert!(adaptive < 0.25, "seed {seed}: adaptive gave the slow broker {adaptive:.3}");
        assert!(uniform > 0.30, "seed {seed}: uniform gave the slow broker {uniform:.3}");
    }
}

#[test]
fn an_availability_timeout_leaves_the_slow_brokers_partitions_out_of_every_draw() {
    // Kafka: RecordAccumulator.partitionReady drops a partition from the load stats when its leader's
    // readyTimeMs - drainTimeMs exceeds partitioner.availability.timeout.ms (updateNodeLatencyStats).
    let with_timeout = run(3, &[("partitioner.availability.timeout.ms", "100")], "null-3000.w1000x4");
    let mut left_out: BTreeSet<u32> = BTreeSet::new();
    let mut times = 0;
    for entry in with_timeout.sim().log().iter() {
        match &entry.fact {
            Fact::PartitionsUnavailable { broker, partitions, timeout_ms } => {
                assert_eq!((*broker, *timeout_ms), (3, 100));
                assert!(partitions.iter().all(|p| [2, 5].contains(p)), "{partitions:?}");
                left_out.extend(partitions);
                times += 1;
            }
            Fact::PartitionsAvailable { partitions, .. } => partitions.iter().for_each(|p| {
                left_out.remove(p);
            }),
            Fact::StickySwitched { to, .. } => assert!(!left_out.contains(to), "drew {to} while it was left out"),
            _ => {}
        }
    }
    assert!(times >= 2, "left out {times} times");
    let without = run(3, &[], "null-3000.w1000x4");
    assert!(slow_share(&with_timeout) < slow_share(&without) * 0.6);
    // Off by default: no partition is ever left out.
    assert!(!without.sim().log().iter().any(|e| matches!(e.fact, Fact::PartitionsUnavailable { .. })));
}

#[test]
fn a_busy_broker_is_not_drained_until_it_answers() {
    // Kafka: Sender.sendProducerData skips a ready node that NetworkClient.ready refuses
    // (max.in.flight.requests.per.connection unanswered requests); with 1, the drained partitions
    // are muted until the answer (guaranteeMessageOrder), so one request per second leaves.
    let one = run(3, &[("max.in.flight.requests.per.connection", "1")], "null-3000.w1000x4");
    let mut request_times: Vec<u64> = one
        .sim()
        .log()
        .iter()
        .filter(|e| matches!(e.fact, Fact::BatchSent { broker: 3, .. }))
        .map(|e| e.time_ms)
        .collect();
    request_times.dedup();
    assert!(request_times.len() >= 3, "{request_times:?}");
    assert!(request_times.windows(2).all(|w| w[1] - w[0] >= 1000), "{request_times:?}");
    // With the default 5, the sender stops at 5 unanswered requests, again after each answer.
    let five = run(3, &[], "null-3000.w1000x4");
    let busy =
        five.sim().log().iter().filter(|e| matches!(e.fact, Fact::BrokerBusy { broker: 3, in_flight: 5, max: 5 }));
    assert!(busy.count() >= 2);
    assert!(!five.sim().log().iter().any(|e| matches!(e.fact, Fact::BrokerBusy { broker: 1 | 2, .. })));
}

#[test]
fn a_ready_leader_takes_its_other_partitions_not_yet_full_batches_along() {
    // Kafka: RecordAccumulator.ready marks the node ready; drainBatchesForOneNode then takes the
    // first batch of every partition it leads, ready or not.
    let brokers = Brokers::new(3, None, 5);
    let mut accumulator = Accumulator::new(16_384, 1000, false, 0);
    let mut no_draw = || 0;
    for _ in 0..16 {
        accumulator.append(Some(4), Some(0), 1024, 0, 6, &mut no_draw);
    }
    accumulator.append(Some(4), Some(3), 1024, 0, 6, &mut no_draw);
    accumulator.append(Some(4), Some(1), 1024, 0, 6, &mut no_draw);
    let check = accumulator.ready(1, 6, &brokers);
    assert_eq!(check.ready_nodes, SortedSet::from([1]), "orders-0 is full; orders-1 (broker 2) waits for linger.ms");
    let drained = accumulator.drain(&check.ready_nodes, 1, 6, &brokers);
    let sent: Vec<(u32, u32, Option<SendReason>)> =
        drained[0].batches.iter().map(|b| (b.partition, b.records, b.send_reason)).collect();
    assert_eq!(sent, vec![(0, 15, Some(SendReason::Full)), (3, 1, Some(SendReason::Carried))]);
    assert!(accumulator.batches().iter().any(|b| b.partition == 1 && b.sent_ms.is_none()));
}

#[test]
fn ignore_keys_spreads_a_hot_key_over_every_partition() {
    // Kafka: KafkaProducer.partition hashes the key only when partitioner.ignore.keys is false;
    // otherwise the record goes to the sticky partitioner like a record without key.
    let hot_partitions = |ignore: &str| {
        let overrides: Vec<(String, String)> =
            [("lab.key.distribution", "megacorp"), ("partitioner.ignore.keys", ignore)]
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
        let run = Run::<Partitioner>::restore(7, &overrides, "produce-20000", None).expect("valid run");
        let round = run.world().rounds().last().expect("one burst").clone();
        round.report.partitions_with_hot_key().len()
    };
    assert_eq!(hot_partitions("false"), 1, "{HOT_KEY} hashes to one partition");
    assert_eq!(hot_partitions("true"), 6);
}

#[test]
fn ignore_keys_sends_a_watched_keys_events_wherever_the_sticky_partition_is() {
    // Kafka: KafkaProducer.partition returns UNKNOWN_PARTITION with partitioner.ignore.keys, so the
    // key no longer picks the partition: its events go where the sticky partitioner is.
    let overrides = vec![("partitioner.ignore.keys".to_string(), "true".to_string())];
    let tape = "key-636c69656e74652d3432.send-created.null-40.w100.send-updated";
    let run = Run::<Partitioner>::restore(5, &overrides, tape, None).expect("valid run");
    let partitions: Vec<u32> = run.world().tracked_records().iter().map(|r| r.partition).collect();
    let sticky: Vec<u32> = run.world().sticky_timeline().batches.iter().map(|b| b.partition).collect();
    assert!(partitions.iter().all(|p| sticky.contains(p)), "{partitions:?} not among {sticky:?}");
    assert_ne!(partitions[0], partitions[1], "40 records of 1 KiB in between moved the sticky partition");
}

#[test]
fn a_slow_broker_the_cluster_does_not_have_is_refused() {
    let overrides = vec![("lab.slow.broker".to_string(), "4".to_string())];
    let refused = Run::<Partitioner>::restore(1, &overrides, "", None).unwrap_err();
    assert!(refused.to_string().contains("lab.slow.broker=4: the cluster has brokers 1 to 3"), "{refused}");
}

#[test]
fn a_keyed_burst_through_the_sticky_partitioner_is_capped_like_records_without_key() {
    // Every record of such a burst is batched (the lab's cost cap, not Kafka's).
    let overrides = vec![("partitioner.ignore.keys".to_string(), "true".to_string())];
    let refused = Run::<Partitioner>::restore(1, &overrides, "produce-200000", None).unwrap_err();
    assert!(refused.to_string().contains("produce 1 to 100,000 records at a time"), "{refused}");
    assert!(Run::<Partitioner>::restore(1, &[], "produce-200000", None).is_ok());
}
