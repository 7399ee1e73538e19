//! Kafka's transaction components one by one: the leader's log with its producer state, and the
//! transaction coordinator's state machine.

use kafka_lab::model::transactions::core::{
    Appended, Batch, EntryKind, Isolation, KafkaError, PartitionLog, RecordStatus, TopicPartition,
    TransactionCoordinator, TxnState, DEFAULT_MAX_TIMEOUT_MS, DEFAULT_TXN_TIMEOUT_MS, EXHAUSTED_EPOCH,
};

const TP: TopicPartition = TopicPartition { topic: "payments-validated", partition: 0 };

fn batch(producer_id: u64, epoch: u16, base_sequence: i32, records: u32, transactional: bool) -> Batch {
    let record_ids = (0..u64::from(records)).map(|n| 100 + n).collect();
    Batch { producer_id: Some(producer_id), epoch, base_sequence, records, transactional, record_ids }
}

fn plain(records: u32) -> Batch {
    Batch {
        producer_id: None,
        epoch: 0,
        base_sequence: -1,
        records,
        transactional: false,
        record_ids: vec![7; records as usize],
    }
}

fn coordinator_with_open_txn(now_ms: u64) -> (TransactionCoordinator, u64, u16) {
    let mut c = TransactionCoordinator::new(DEFAULT_MAX_TIMEOUT_MS);
    let (id, epoch, _) = c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 0).unwrap();
    c.add_partitions("t", id, epoch, &[TP], now_ms).unwrap();
    (c, id, epoch)
}

#[test]
fn a_duplicate_is_answered_with_the_original_first_and_last_offsets() {
    let mut log = PartitionLog::new();
    assert_eq!(log.append(&batch(1000, 0, 0, 3, false)), Ok(Appended::Written { base_offset: 0, last_offset: 2 }));
    assert_eq!(log.append(&batch(1000, 0, 0, 3, false)), Ok(Appended::Duplicate { base_offset: 0, last_offset: 2 }));
    assert_eq!(log.log_end_offset(), 3);
    let state = log.producer_state(1000).unwrap();
    assert_eq!((state.epoch, state.last_sequence, state.batches.len()), (0, Some(2), 1));
}

#[test]
fn a_batch_overlapping_a_remembered_one_is_not_a_duplicate_but_out_of_order() {
    let mut log = PartitionLog::new();
    log.append(&batch(1000, 0, 0, 3, false)).unwrap();
    assert_eq!(log.append(&batch(1000, 0, 1, 2, false)), Err(KafkaError::OutOfOrderSequenceNumber));
}

#[test]
fn the_same_sequences_from_a_newer_epoch_are_new_records() {
    let mut log = PartitionLog::new();
    log.append(&batch(1000, 0, 0, 2, false)).unwrap();
    assert_eq!(log.append(&batch(1000, 1, 0, 2, false)), Ok(Appended::Written { base_offset: 2, last_offset: 3 }));
    assert_eq!(log.producer_state(1000).unwrap().batches.len(), 1, "the new epoch forgot the old batches");
}

#[test]
fn a_new_epoch_starting_past_sequence_zero_is_out_of_order() {
    let mut log = PartitionLog::new();
    log.append(&batch(1000, 0, 0, 2, false)).unwrap();
    assert_eq!(log.append(&batch(1000, 1, 2, 1, false)), Err(KafkaError::OutOfOrderSequenceNumber));
}

#[test]
fn an_older_epoch_is_refused_by_the_leader_as_invalid_producer_epoch() {
    let mut log = PartitionLog::new();
    log.append(&batch(1000, 5, 0, 1, false)).unwrap();
    assert_eq!(log.append(&batch(1000, 4, 1, 1, false)), Err(KafkaError::InvalidProducerEpoch));
    assert_eq!(log.append_marker(1000, 4, true), Err(KafkaError::InvalidProducerEpoch));
    assert_eq!(log.log_end_offset(), 1);
}

#[test]
fn a_batch_spanning_i32_max_wraps_its_sequences_and_the_next_starts_at_zero() {
    let mut log = PartitionLog::new();
    log.append(&batch(1000, 0, i32::MAX - 1, 3, false)).unwrap();
    let sequences: Vec<_> = log
        .entries()
        .iter()
        .map(|e| match e.kind {
            EntryKind::Data { sequence, .. } => sequence,
            EntryKind::Control { .. } => None,
        })
        .collect();
    assert_eq!(sequences, vec![Some(i32::MAX - 1), Some(i32::MAX), Some(0)]);
    assert_eq!(log.append(&batch(1000, 0, 1, 1, false)), Ok(Appended::Written { base_offset: 3, last_offset: 3 }));
}

#[test]
fn a_plain_write_inside_an_open_transaction_is_an_invalid_txn_state() {
    let mut log = PartitionLog::new();
    log.append(&batch(1000, 0, 0, 1, true)).unwrap();
    assert_eq!(log.append(&batch(1000, 0, 1, 1, false)), Err(KafkaError::InvalidTxnState));
}

#[test]
fn an_abort_marker_indexes_the_aborted_range_and_a_commit_marker_does_not() {
    let mut log = PartitionLog::new();
    log.append(&batch(1000, 0, 0, 2, true)).unwrap();
    log.append(&plain(1)).unwrap();
    assert_eq!(log.append_marker(1000, 0, false), Ok(3));
    log.append(&batch(1000, 0, 2, 1, true)).unwrap();
    assert_eq!(log.append_marker(1000, 0, true), Ok(5));
    let index: Vec<_> =
        log.aborted_transactions().iter().map(|a| (a.producer_id, a.first_offset, a.last_offset)).collect();
    assert_eq!(index, vec![(1000, 0, 3)]);
    let statuses: Vec<_> = (0..6).map(|o| log.status(o)).collect();
    use RecordStatus::*;
    assert_eq!(statuses, vec![Aborted, Aborted, Plain, Control { commit: false }, Committed, Control { commit: true }]);
}

#[test]
fn a_marker_for_a_producer_without_data_takes_an_offset_and_indexes_nothing() {
    let mut log = PartitionLog::new();
    assert_eq!(log.append_marker(1000, 0, false), Ok(0));
    assert!(log.aborted_transactions().is_empty());
    assert_eq!(log.last_stable_offset(), 1);
}

#[test]
fn the_lso_is_the_earliest_open_transactions_first_offset() {
    let mut log = PartitionLog::new();
    log.append(&plain(1)).unwrap();
    log.append(&batch(1000, 0, 0, 1, true)).unwrap(); // 1
    log.append(&batch(1001, 0, 0, 1, true)).unwrap(); // 2
    assert_eq!(log.status(2), RecordStatus::Open);
    assert_eq!((log.high_watermark(), log.last_stable_offset()), (3, 1));
    log.append_marker(1000, 0, true).unwrap(); // 3
    assert_eq!(log.last_stable_offset(), 2, "the other producer's transaction still holds it");
    log.append_marker(1001, 0, false).unwrap(); // 4
    assert_eq!(log.last_stable_offset(), 5);
    let offsets = |iso| log.read(0, iso).iter().map(|e| e.offset).collect::<Vec<_>>();
    assert_eq!(offsets(Isolation::ReadCommitted), vec![0, 1]);
    assert_eq!(offsets(Isolation::ReadUncommitted), vec![0, 1, 2]);
}

#[test]
fn an_aborted_transaction_interleaved_with_a_committed_one_is_filtered_per_producer() {
    let mut log = PartitionLog::new();
    log.append(&batch(1000, 0, 0, 1, true)).unwrap(); // 0 aborted
    log.append(&batch(1001, 0, 0, 1, true)).unwrap(); // 1 committed
    log.append(&batch(1000, 0, 1, 1, true)).unwrap(); // 2 aborted
    log.append_marker(1000, 0, false).unwrap(); // 3
    log.append(&batch(1000, 0, 2, 1, true)).unwrap(); // 4 committed later
    log.append_marker(1001, 0, true).unwrap(); // 5
    log.append_marker(1000, 0, true).unwrap(); // 6
    let offsets: Vec<_> = log.read(0, Isolation::ReadCommitted).iter().map(|e| e.offset).collect();
    assert_eq!(offsets, vec![1, 4]);
}

#[test]
fn the_coordinator_walks_ongoing_prepare_commit_complete_commit() {
    let (mut c, id, epoch) = coordinator_with_open_txn(5);
    let meta = c.metadata("t").unwrap();
    assert_eq!((meta.state, meta.txn_start_ms, meta.partitions.clone()), (TxnState::Ongoing, Some(5), vec![TP]));
    let markers = c.end_txn("t", id, epoch, true, 9).unwrap();
    assert_eq!((markers.producer_id, markers.epoch, markers.commit, markers.partitions), (id, epoch, true, vec![TP]));
    assert_eq!(c.metadata("t").unwrap().state, TxnState::PrepareCommit);
    assert_eq!(c.add_partitions("t", id, epoch, &[TP], 10), Err(KafkaError::ConcurrentTransactions));
    assert_eq!(c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 10), Err(KafkaError::ConcurrentTransactions));
    c.markers_written("t", 11);
    assert_eq!(c.metadata("t").unwrap().state, TxnState::CompleteCommit);
    assert_eq!(c.end_txn("t", id, epoch, false, 12), Err(KafkaError::InvalidTxnState));
    assert!(c.end_txn("t", id, epoch, true, 12).unwrap().partitions.is_empty(), "a retried commit is answered NONE");
    c.markers_written("t", 13);
    assert_eq!(c.metadata("t").unwrap().state, TxnState::CompleteCommit, "nothing left to complete");
}

#[test]
fn a_transaction_timeout_above_the_brokers_maximum_is_refused() {
    let mut c = TransactionCoordinator::new(DEFAULT_MAX_TIMEOUT_MS);
    assert_eq!(c.init_producer_id(Some("t"), 900_001, 0), Err(KafkaError::InvalidTransactionTimeout));
    assert!(c.init_producer_id(Some("t"), 900_000, 0).is_ok());
}

#[test]
fn requests_from_a_stale_epoch_or_another_producer_id_are_refused_by_the_coordinator() {
    let (mut c, id, epoch) = coordinator_with_open_txn(0);
    assert_eq!(c.end_txn("t", id + 1, epoch, true, 1), Err(KafkaError::InvalidProducerIdMapping));
    assert_eq!(c.end_txn("nobody", id, epoch, true, 1), Err(KafkaError::InvalidProducerIdMapping));
    let (fenced_id, fence, markers) = c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 2).unwrap();
    assert_eq!((fenced_id, fence), (id, epoch + 1));
    let markers = markers.expect("the open transaction is aborted first");
    assert_eq!((markers.epoch, markers.commit), (epoch + 1, false));
    assert_eq!(c.metadata("t").unwrap().state, TxnState::PrepareAbort);
    assert_eq!(c.end_txn("t", id, epoch, true, 3), Err(KafkaError::ProducerFenced));
    assert_eq!(c.add_partitions("t", id, epoch, &[TP], 3), Err(KafkaError::ProducerFenced));
    c.markers_written("t", 4);
    assert_eq!(c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 5).map(|r| r.1), Ok(epoch + 2));
}

#[test]
fn the_timeout_check_aborts_only_transactions_past_their_deadline() {
    let (mut c, id, epoch) = coordinator_with_open_txn(1_000);
    assert!(c.abort_timed_out(61_000).is_empty(), "start + timeout == now is not yet expired");
    let aborted = c.abort_timed_out(61_001);
    assert_eq!(aborted.len(), 1);
    let (transactional_id, markers) = &aborted[0];
    assert_eq!(
        (transactional_id.as_str(), markers.producer_id, markers.epoch, markers.commit),
        ("t", id, epoch + 1, false)
    );
    assert!(c.abort_timed_out(70_000).is_empty(), "already being aborted");
    c.markers_written("t", 70_000);
    assert_eq!(c.metadata("t").unwrap().state, TxnState::CompleteAbort);
}

#[test]
fn an_exhausted_epoch_rotates_to_a_new_producer_id() {
    let mut c = TransactionCoordinator::new(DEFAULT_MAX_TIMEOUT_MS);
    let (first_id, _, _) = c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 0).unwrap();
    let mut last = (first_id, 0);
    while last.1 < EXHAUSTED_EPOCH {
        let (id, epoch, _) = c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 0).unwrap();
        assert_eq!((id, epoch), (first_id, last.1 + 1));
        last = (id, epoch);
    }
    assert_eq!(last, (first_id, 32_766));
    let (id, epoch, _) = c.init_producer_id(Some("t"), DEFAULT_TXN_TIMEOUT_MS, 0).unwrap();
    assert_ne!(id, first_id);
    assert_eq!(epoch, 0);
}

#[test]
fn idempotent_producers_get_dense_new_ids_without_coordinator_state() {
    let mut c = TransactionCoordinator::new(DEFAULT_MAX_TIMEOUT_MS);
    let (a, _, _) = c.init_producer_id(None, DEFAULT_TXN_TIMEOUT_MS, 0).unwrap();
    let (b, epoch, markers) = c.init_producer_id(None, DEFAULT_TXN_TIMEOUT_MS, 0).unwrap();
    assert_eq!((b, epoch, markers), (a + 1, 0, None));
    assert_eq!(c.transactions().count(), 0);
}
