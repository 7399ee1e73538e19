//! Truncation by leader epoch against Kafka's follower: KIP-279's repeated rounds (a follower
//! that lacks the leader's epoch asks again), and the 4.x fetch (lastFetchedEpoch in the Fetch,
//! divergingEpoch in the response) against the 0.11–2.6 OffsetsForLeaderEpoch exchange.

use kafka_lab::model::kernel::{Actor, Input};
use kafka_lab::model::replication::{
    in_flight, Fact, FetchProtocol, MessageKind, ReplicatedPartition, Replication, Role, Truncation, TruncationCause,
    WireDetail,
};
use kafka_lab::model::scene::Run;

/// Record ids of a replica's log, with the epoch each was written in.
fn log_of(p: &ReplicatedPartition, broker: u32) -> Vec<(i32, u64)> {
    p.replica(broker).log.records().iter().map(|r| (r.leader_epoch, r.record_id)).collect()
}

/// Makes `broker` the controller's leader (the next epoch) and appends `records` there.
fn lead(p: &mut ReplicatedPartition, broker: u32, records: u32) {
    let election = p.elect_leader(&[broker], false).expect("a new leader");
    p.become_leader(broker, election.leader_epoch, p.isr(), 0);
    p.append_to_leader(records);
}

/// Two replicas whose logs went different ways over four leader changes: broker 1 holds
/// epochs 0, 2, 4 and broker 2 epochs 0, 1, 3; neither has the other's odd/even epochs.
fn interleaved_epochs(protocol: FetchProtocol) -> ReplicatedPartition {
    let mut p = ReplicatedPartition::new(&[1, 2], 1);
    p.set_fetch_protocol(protocol);
    p.append_to_leader(2);
    p.fetch(2);
    lead(&mut p, 2, 3); // epoch 1 at offsets 2–4, only on broker 2
    lead(&mut p, 1, 3); // epoch 2 at offsets 2–4, only on broker 1
    lead(&mut p, 2, 1); // epoch 3 at offset 5, only on broker 2
    lead(&mut p, 1, 0); // epoch 4 starts at offset 5 on broker 1
    p.become_follower(2, Some(1), p.leader_epoch());
    p
}

// Kafka: AbstractFetcherThread.getOffsetTruncationState (KIP-279). Broker 2 asks for epoch 3;
// the leader answers epoch 2 ends at 5, an epoch broker 2 never had, so it cuts to where its
// epoch 1 ends (5) and asks again for epoch 1: the leader's epoch 0 ends at 2, and so does its own.
#[test]
fn a_follower_that_never_had_the_leaders_epoch_asks_again_until_no_divergence_remains() {
    for protocol in [FetchProtocol::DivergingEpoch, FetchProtocol::OffsetsForLeaderEpoch] {
        let mut p = interleaved_epochs(protocol);
        assert_eq!(log_of(&p, 2)[2..], [(1, 3), (1, 4), (1, 5), (3, 9)], "{protocol:?}");
        p.fetch(2);
        assert_eq!(log_of(&p, 2), log_of(&p, 1), "{protocol:?}: the follower copies the leader from offset 2");
        assert_eq!(log_of(&p, 2)[2..], [(2, 6), (2, 7), (2, 8)], "{protocol:?}");
    }
}

const DIVERGENCE: &str =
    "produce-1.w31000.produce-1.w5000.kill-1.powerfail-2.restart-2.w10000.produce-1.w3000.restart-1.w3000";

/// kip101-divergence-epoch-on's run, with `lab.fetch.protocol` as given.
fn divergence(protocol: &str) -> Run<Replication> {
    let overrides: Vec<(String, String)> =
        [("lab.brokers", "2"), ("replication.factor", "2"), ("lab.fetch.protocol", protocol)]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
    Run::<Replication>::restore(101, &overrides, DIVERGENCE, None).expect("the tape replays")
}

fn truncations(run: &Run<Replication>, broker: u32) -> Vec<(TruncationCause, Option<Truncation>)> {
    let actor = Actor::Broker(broker);
    let facts = run.sim().log().iter().filter(|e| e.actor == actor);
    facts
        .filter_map(|e| match e.fact {
            Fact::Truncated { cause, truncation, .. } => Some((cause, truncation)),
            _ => None,
        })
        .collect()
}

// Kafka: ReplicaManager.initialFetchOffset (the LEO, not the HW) and Partition.readRecords:
// the returning broker-1 fetches at once with lastFetchedEpoch=0; broker-2's epoch 0 ends at 1,
// before its fetch offset 2, so the answer is divergingEpoch (0, 1) and it truncates from it
// (AbstractFetcherThread.truncateOnFetchResponse). No OffsetsForLeaderEpoch is ever sent.
#[test]
fn a_4x_follower_truncates_from_the_fetch_responses_diverging_epoch() {
    let mut run = divergence("diverging-epoch");
    let cut = Some(Truncation { from_leo: 2, to_offset: 1 });
    let diverging = TruncationCause::DivergingEpoch { leader: 2, epoch: 0, end_offset: 1 };
    assert_eq!(truncations(&run, 1), vec![(diverging, cut)]);
    assert!(run.world().divergent_offsets().is_empty(), "both replicas hold the same record at every offset");
    // What is on the wire, every 5 ms for the 200 ms after broker-1 comes back.
    let restarted = DIVERGENCE.split('.').position(|t| t == "restart-1").expect("broker-1 restarts");
    run.history.seek(restarted + 1);
    let mut kinds = Vec::new();
    for _ in 0..40 {
        run.history.push(Input::Advance(5)).expect("time passes");
        kinds.extend(in_flight(run.sim()).into_iter().map(|m| (m.kind, m.detail)));
    }
    assert!(kinds.iter().all(|(kind, _)| *kind != MessageKind::OffsetsForLeaderEpoch), "{kinds:?}");
    let first_fetch = (MessageKind::Fetch, WireDetail::FetchFrom { offset: 2, last_fetched_epoch: 0 });
    let answer = (MessageKind::FetchResponse, WireDetail::DivergingEpoch { epoch: 0, end_offset: 1 });
    assert!(kinds.contains(&first_fetch) && kinds.contains(&answer), "{kinds:?}");
}

// Kafka 0.11–2.6 (AbstractFetcherThread.maybeTruncate before fetching): the same cut, found by
// an OffsetsForLeaderEpoch round first.
#[test]
fn the_historical_protocol_asks_offsets_for_leader_epoch_before_fetching() {
    let run = divergence("offsets-for-leader-epoch");
    let cut = Some(Truncation { from_leo: 2, to_offset: 1 });
    let asked = TruncationCause::EpochEnds { leader: 2, epoch: 0, end_offset: 1 };
    assert_eq!(truncations(&run, 1), vec![(asked, cut)]);
    assert!(run.world().divergent_offsets().is_empty());
    assert_eq!(run.world().partition().replica(1).role, Role::Follower { leader: Some(2), truncating: false });
}
