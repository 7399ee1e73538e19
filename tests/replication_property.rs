//! Thousands of seeded random fault schedules under the safe configuration (RF=3,
//! min.insync.replicas=2, acks=all, unclean election off, leader epochs on): no
//! acknowledged record is ever lost, HW ≤ LEO everywhere, and what consumers read stays read.

use std::collections::BTreeMap;

use kafka_lab::model::config::Config;
use kafka_lab::model::kernel::{Fault, Node, Sim};
use kafka_lab::model::replication::{Command, Replication, Settings, REPLICATION_SCHEMA};

/// A tiny xorshift generator for the schedules themselves (the model has its own seeded RNG).
struct Schedule(u64);

impl Schedule {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn node(&mut self) -> Node {
        match self.below(5) {
            0 => Node::Controller,
            1 => Node::Producer,
            k => Node::Id(k as u32 - 1),
        }
    }

    fn command(&mut self) -> Command {
        let broker = self.below(3) as u32 + 1;
        match self.below(9) {
            0 | 1 => Command::Produce { records: self.below(5) as u32 + 1 },
            2 => Command::Fault(Fault::Crash(Node::Id(broker))),
            3 => Command::Fault(Fault::Restart(Node::Id(broker))),
            4 => Command::Fault(Fault::Pause { node: Node::Id(broker), duration_ms: Some(1_000 + self.below(20_000)) }),
            5 => {
                let delay_ms = [0, 0, 2_000, 40_000][self.below(4) as usize];
                Command::Fault(Fault::Slow { node: Node::Id(broker), delay_ms })
            }
            6 => Command::Fault(Fault::Cut(self.node(), self.node())),
            7 => Command::Fault(Fault::Heal(self.node(), self.node())),
            _ => Command::SetUncleanElection(false),
        }
    }
}

fn safe_config() -> Config {
    let mut config = Config::defaults(REPLICATION_SCHEMA);
    for (name, value) in [
        ("replication.factor", "3"),
        ("min.insync.replicas", "2"),
        ("acks", "all"),
        ("unclean.leader.election.enable", "false"),
    ] {
        config.set(name, value).unwrap();
    }
    config
}

/// Checks the invariants after one step; `read` remembers what consumers have seen, by offset.
fn check(sim: &Sim<Replication>, read: &mut BTreeMap<usize, u64>, seed: u64) {
    let world = sim.world();
    let partition = world.partition();
    for broker in partition.assignment() {
        assert!(partition.hw(*broker) <= partition.leo(*broker), "seed {seed}: HW passed LEO on broker {broker}");
    }
    let Some(leader) = partition.leader() else {
        return;
    };
    assert!(
        world.acked_lost().is_empty(),
        "seed {seed} at {} ms: acked records lost: {:?}",
        sim.now_ms(),
        world.acked_lost()
    );
    let leader_log = partition.replica(leader).log.records();
    let readable = world.consumer_readable();
    assert!(readable.len() as i64 <= partition.hw(leader), "seed {seed}: a consumer could read past the HW");
    for (offset, record) in readable.iter().enumerate() {
        read.insert(offset, record.record_id);
    }
    for (&offset, &record_id) in read.iter() {
        if let Some(now) = leader_log.get(offset) {
            assert_eq!(now.record_id, record_id, "seed {seed}: offset {offset} changed after a consumer read it");
        } else if partition.replica(leader).role == kafka_lab::model::replication::Role::Leader {
            panic!("seed {seed}: offset {offset}, read by a consumer, vanished from leader broker-{leader}");
        }
    }
}

fn run_schedule(seed: u64, settle: bool) {
    let mut schedule = Schedule(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut sim = Sim::new(seed, Replication::new(Settings::from_config(&safe_config()).unwrap()));
    let mut read = BTreeMap::new();
    for _ in 0..10 {
        let _ = sim.apply(&schedule.command());
        let until_ms = sim.now_ms() + 200 + schedule.below(6_000);
        while sim.queue().next_time_ms().is_some_and(|t| t <= until_ms) {
            sim.step();
            check(&sim, &mut read, seed);
        }
    }
    if !settle {
        return;
    }
    // Heal everything and let the cluster settle: still nothing acked is lost, nothing hangs.
    for broker in 1..=3 {
        let _ = sim.apply(&Command::Fault(Fault::Restart(Node::Id(broker))));
        let _ = sim.apply(&Command::Fault(Fault::Slow { node: Node::Id(broker), delay_ms: 0 }));
    }
    let nodes = [Node::Id(1), Node::Id(2), Node::Id(3), Node::Controller, Node::Producer];
    for a in nodes {
        for b in nodes {
            let _ = sim.apply(&Command::Fault(Fault::Heal(a, b)));
        }
    }
    let until_ms = sim.now_ms() + 150_000;
    while sim.queue().next_time_ms().is_some_and(|t| t <= until_ms) {
        sim.step();
        check(&sim, &mut read, seed);
    }
    let world = sim.world();
    assert!(world.partition().leader().is_some(), "seed {seed}: no leader after healing everything");
    let summary = world.ledger_summary();
    assert_eq!(summary.acked_lost, 0, "seed {seed}: {summary:?}");
    assert_eq!(summary.pending, 0, "seed {seed}: every send got an answer within delivery.timeout.ms: {summary:?}");
}

#[test]
fn no_acked_record_is_lost_under_thousands_of_random_fault_schedules() {
    let count: u64 = std::env::var("SCHEDULES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000);
    for seed in 0..count {
        run_schedule(seed, seed % 20 == 0);
    }
}
