//! The conformance API (`TxnPartition`): one partition on its leader, Kafka's defaults,
//! virtual time from 0 ms — the rules of the idempotent producer and of transactions as a learner
//! would check them from the outside.

use kafka_lab::model::transactions::{TxnError, TxnPartition};

fn named(result: Result<impl std::fmt::Debug, TxnError>) -> String {
    result.expect_err("Kafka refuses this").to_string()
}

#[test]
fn a_retried_batch_is_answered_with_its_first_offset_and_not_written_twice() {
    let mut p = TxnPartition::new();
    p.append_plain(2);
    let (id, epoch) = p.init_idempotent();
    assert_eq!(p.produce_idempotent(id, epoch, 0, 3), Ok(2));
    assert_eq!(p.produce_idempotent(id, epoch, 3, 2), Ok(5));
    // The response to the first batch was lost: the producer sends it again.
    assert_eq!(p.produce_idempotent(id, epoch, 0, 3), Ok(2));
    assert_eq!(p.leo(), 7, "the retry took no offsets");
    assert_eq!(p.read_uncommitted(0), (0..7).collect::<Vec<_>>());
}

#[test]
fn a_sequence_gap_is_refused_as_out_of_order() {
    let mut p = TxnPartition::new();
    let (id, epoch) = p.init_idempotent();
    p.produce_idempotent(id, epoch, 0, 3).unwrap();
    let gap = p.produce_idempotent(id, epoch, 5, 1);
    assert!(named(gap).contains("OUT_OF_ORDER_SEQUENCE_NUMBER"));
    assert_eq!(p.leo(), 3);
    assert_eq!(p.produce_idempotent(id, epoch, 3, 1), Ok(3), "the next sequence is still accepted");
}

#[test]
fn only_the_last_five_batches_are_remembered() {
    let mut p = TxnPartition::new();
    let (id, epoch) = p.init_idempotent();
    for n in 0..6 {
        assert_eq!(p.produce_idempotent(id, epoch, n, 1), Ok(n as u64));
    }
    assert_eq!(p.produce_idempotent(id, epoch, 1, 1), Ok(1), "batch 2 of 6 is still in the window");
    let forgotten = p.produce_idempotent(id, epoch, 0, 1);
    assert!(named(forgotten).contains("OUT_OF_ORDER_SEQUENCE_NUMBER"), "batch 1 fell out of the window");
    assert_eq!(p.leo(), 6);
}

#[test]
fn two_idempotent_producers_get_their_own_ids_and_sequences() {
    let mut p = TxnPartition::new();
    let (a, epoch_a) = p.init_idempotent();
    let (b, epoch_b) = p.init_idempotent();
    assert_ne!(a, b);
    assert_eq!((epoch_a, epoch_b), (0, 0));
    assert_eq!(p.produce_idempotent(a, 0, 0, 2), Ok(0));
    assert_eq!(p.produce_idempotent(b, 0, 0, 2), Ok(2), "the same sequence from another producer is new");
}

#[test]
fn a_zombie_writing_after_its_successor_initialized_is_fenced() {
    let mut p = TxnPartition::new();
    let old = p.init_producer_id("payments-processor-0").unwrap();
    p.append_txn("payments-processor-0", old, 1).unwrap();
    p.end_txn("payments-processor-0", old, true).unwrap();
    let new = p.init_producer_id("payments-processor-0").unwrap();
    assert_eq!(new, old + 1);
    let zombie = p.append_txn("payments-processor-0", old, 1);
    let error = named(zombie);
    assert!(error.contains("PRODUCER_FENCED") || error.contains("INVALID_PRODUCER_EPOCH"), "{error}");
    assert!(named(p.end_txn("payments-processor-0", old, true)).contains("PRODUCER_FENCED"));
    assert_eq!(p.leo(), 2, "the zombie wrote nothing");
    assert_eq!(p.append_txn("payments-processor-0", new, 1), Ok(vec![2]));
}

#[test]
fn a_zombie_inside_its_transaction_is_refused_by_the_partition_leader() {
    let mut p = TxnPartition::new();
    let old = p.init_producer_id("t").unwrap();
    p.append_txn("t", old, 2).unwrap();
    let new = p.init_producer_id("t").unwrap();
    // The zombie already added the partition: it writes straight to the leader, which has seen
    // the fencing epoch on the abort marker.
    assert!(named(p.append_txn("t", old, 1)).contains("INVALID_PRODUCER_EPOCH"));
    assert!(new > old);
}

#[test]
fn init_producer_id_aborts_the_previous_incarnations_open_transaction() {
    let mut p = TxnPartition::new();
    let first = p.init_producer_id("t").unwrap();
    assert_eq!(p.append_txn("t", first, 3), Ok(vec![0, 1, 2]));
    assert_eq!(p.lso(), 0);
    let second = p.init_producer_id("t").unwrap();
    // Kafka fences the open transaction with epoch + 1, answers CONCURRENT_TRANSACTIONS, and the
    // client's retry bumps once more.
    assert_eq!(second, first + 2);
    assert_eq!(p.leo(), 4, "the abort marker took offset 3");
    assert_eq!(p.lso(), 4);
    assert_eq!(p.read_committed(0), Vec::<u64>::new());
    assert_eq!(p.read_uncommitted(0), vec![0, 1, 2], "the aborted records stay in the log");
}

#[test]
fn an_open_transaction_freezes_the_lso_until_it_ends() {
    let mut p = TxnPartition::new();
    p.append_plain(2);
    let epoch = p.init_producer_id("t").unwrap();
    p.append_txn("t", epoch, 2).unwrap();
    p.append_plain(3);
    assert_eq!((p.leo(), p.lso()), (7, 2));
    assert_eq!(p.read_committed(0), vec![0, 1], "read_committed stops at the LSO");
    assert_eq!(p.read_uncommitted(0), (0..7).collect::<Vec<_>>(), "read_uncommitted reads to the HW");
    assert_eq!(p.end_txn("t", epoch, true), Ok(7));
    assert_eq!((p.leo(), p.lso()), (8, 8));
    assert_eq!(p.read_committed(0), (0..7).collect::<Vec<_>>());
}

#[test]
fn read_committed_skips_aborted_records_and_markers() {
    let mut p = TxnPartition::new();
    let epoch = p.init_producer_id("t").unwrap();
    p.append_txn("t", epoch, 2).unwrap(); // 0, 1
    assert_eq!(p.end_txn("t", epoch, false), Ok(2));
    p.append_plain(1); // 3
    p.append_txn("t", epoch, 2).unwrap(); // 4, 5
    assert_eq!(p.end_txn("t", epoch, true), Ok(6));
    assert_eq!(p.read_committed(0), vec![3, 4, 5]);
    assert_eq!(p.read_committed(1), vec![3, 4, 5], "a fetch starting inside the aborted range");
    assert_eq!(p.read_uncommitted(0), vec![0, 1, 3, 4, 5]);
}

#[test]
fn markers_take_offsets_but_are_never_delivered() {
    let mut p = TxnPartition::new();
    let epoch = p.init_producer_id("t").unwrap();
    p.append_txn("t", epoch, 1).unwrap();
    let marker = p.end_txn("t", epoch, true).unwrap();
    assert_eq!((marker, p.leo()), (1, 2));
    assert!(!p.read_uncommitted(0).contains(&marker));
    assert!(!p.read_committed(0).contains(&marker));
    assert_eq!(p.read_uncommitted(marker), Vec::<u64>::new());
}

#[test]
fn an_expired_transaction_is_aborted_by_the_coordinator_check_and_its_epoch_fenced() {
    let mut p = TxnPartition::new();
    let epoch = p.init_producer_id("t").unwrap();
    p.append_txn("t", epoch, 2).unwrap();
    p.append_plain(1);
    p.advance_to(60_000);
    assert_eq!(p.lso(), 0, "start + transaction.timeout.ms is not yet past");
    p.advance_to(69_999);
    assert_eq!(p.lso(), 0, "the next check runs at 70000");
    p.advance_to(70_000);
    assert_eq!((p.leo(), p.lso()), (4, 4), "the abort marker took offset 3");
    assert_eq!(p.read_committed(0), vec![2]);
    assert!(named(p.append_txn("t", epoch, 1)).contains("INVALID_PRODUCER_EPOCH"));
    assert!(named(p.end_txn("t", epoch, true)).contains("PRODUCER_FENCED"));
    assert_eq!(p.init_producer_id("t"), Ok(epoch + 2), "fenced at epoch + 1, the next incarnation + 2");
}

#[test]
fn a_transaction_started_later_expires_at_a_later_check() {
    let mut p = TxnPartition::new();
    let epoch = p.init_producer_id("t").unwrap();
    p.advance_to(15_000);
    p.append_txn("t", epoch, 1).unwrap();
    p.advance_to(75_000);
    assert_eq!(p.lso(), 0, "15000 + 60000 is not before the check at 70000");
    p.advance_to(80_000);
    assert_eq!(p.lso(), p.leo());
}

#[test]
fn a_committed_transaction_is_not_touched_by_the_timeout_check() {
    let mut p = TxnPartition::new();
    let epoch = p.init_producer_id("t").unwrap();
    p.append_txn("t", epoch, 1).unwrap();
    p.end_txn("t", epoch, true).unwrap();
    p.advance_to(200_000);
    assert_eq!(p.leo(), 2);
    assert_eq!(p.append_txn("t", epoch, 1), Ok(vec![2]), "the same epoch runs its next transaction");
}

#[test]
fn ending_a_transaction_that_never_started_is_an_invalid_state() {
    let mut p = TxnPartition::new();
    let epoch = p.init_producer_id("t").unwrap();
    assert!(named(p.end_txn("t", epoch, true)).contains("INVALID_TXN_STATE"));
    assert_eq!(p.leo(), 0);
}

#[test]
fn a_fresh_transactional_id_starts_at_epoch_zero_and_each_init_bumps_it() {
    let mut p = TxnPartition::new();
    assert_eq!(p.init_producer_id("a"), Ok(0));
    assert_eq!(p.init_producer_id("a"), Ok(1));
    assert_eq!(p.init_producer_id("b"), Ok(0));
    assert_eq!(p.init_producer_id("a"), Ok(2));
}

#[test]
fn plain_records_are_always_visible_to_both_isolation_levels() {
    let mut p = TxnPartition::new();
    assert_eq!(p.append_plain(3), vec![0, 1, 2]);
    assert_eq!((p.leo(), p.lso()), (3, 3));
    assert_eq!(p.read_committed(1), vec![1, 2]);
    assert_eq!(p.read_uncommitted(1), vec![1, 2]);
}

#[test]
fn an_error_names_kafkas_error_code_in_display_and_debug() {
    let mut p = TxnPartition::new();
    let (id, epoch) = p.init_idempotent();
    p.produce_idempotent(id, epoch, 0, 1).unwrap();
    let error = p.produce_idempotent(id, epoch, 9, 1).unwrap_err();
    assert_eq!(error.to_string(), "OUT_OF_ORDER_SEQUENCE_NUMBER");
    assert!(format!("{error:?}").contains("OUT_OF_ORDER_SEQUENCE_NUMBER"));
}

#[test]
fn a_retried_commit_is_answered_with_the_marker_already_written() {
    let mut p = TxnPartition::new();
    let epoch = p.init_producer_id("t").unwrap();
    p.append_txn("t", epoch, 2).unwrap();
    assert_eq!(p.end_txn("t", epoch, true), Ok(2));
    assert_eq!(p.end_txn("t", epoch, true), Ok(2), "no second marker");
    assert_eq!(p.leo(), 3);
    assert!(named(p.end_txn("t", epoch, false)).contains("INVALID_TXN_STATE"), "abort after commit");
}

/// A fixed pseudo-random walk over every operation (a linear congruential generator, so the
/// test needs no RNG): after each step the two consumers' views must stay consistent.
#[test]
fn read_committed_never_sees_an_open_or_aborted_record_whatever_the_interleaving() {
    use kafka_lab::model::transactions::core::RecordStatus;
    let mut p = TxnPartition::new();
    let mut seed: u64 = 0x5eed;
    let mut next = |bound: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % bound
    };
    let ids = ["a", "b"];
    let mut epochs = [p.init_producer_id("a").unwrap(), p.init_producer_id("b").unwrap()];
    let (idem, idem_epoch) = p.init_idempotent();
    let (mut idem_sequence, mut now_ms) = (0, 0);
    for _ in 0..400 {
        let who = next(2) as usize;
        match next(7) {
            0 => drop(p.append_plain(1 + next(3) as u32)),
            1 | 2 => drop(p.append_txn(ids[who], epochs[who], 1 + next(3) as u32)),
            3 => drop(p.end_txn(ids[who], epochs[who], next(2) == 0)),
            4 => epochs[who] = p.init_producer_id(ids[who]).unwrap(),
            5 => {
                now_ms += next(40_000);
                p.advance_to(now_ms);
            }
            _ => {
                let records = 1 + next(2) as i32;
                if p.produce_idempotent(idem, idem_epoch, idem_sequence, records as u32).is_ok() {
                    idem_sequence += records;
                }
            }
        }
        let (committed, uncommitted) = (p.read_committed(0), p.read_uncommitted(0));
        assert!(p.lso() <= p.leo());
        assert!(committed.iter().all(|o| uncommitted.contains(o) && *o < p.lso()));
        for &offset in &committed {
            let status = p.log().status(offset);
            assert!(matches!(status, RecordStatus::Plain | RecordStatus::Committed), "{offset}: {status:?}");
        }
        for offset in 0..p.leo() {
            let status = p.log().status(offset);
            let delivered = uncommitted.contains(&offset);
            assert_eq!(delivered, !matches!(status, RecordStatus::Control { .. }), "{offset}: {status:?}");
            if status == RecordStatus::Open {
                assert!(offset >= p.lso(), "an open record below the LSO at {offset}");
            }
            if offset < p.lso() && matches!(status, RecordStatus::Plain | RecordStatus::Committed) {
                assert!(committed.contains(&offset), "a stable record missing at {offset}");
            }
        }
    }
    let statuses: Vec<_> = (0..p.leo()).map(|o| p.log().status(o)).collect();
    let count = |wanted: RecordStatus| statuses.iter().filter(|s| **s == wanted).count();
    let seen = [RecordStatus::Committed, RecordStatus::Aborted, RecordStatus::Plain].map(count);
    assert!(seen.iter().all(|n| *n > 10), "the walk covered commits, aborts and plain records: {seen:?}");
    assert!(!p.log().aborted_transactions().is_empty());
}
