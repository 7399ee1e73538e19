//! The "Exactly once" scene: what a learner notices in each preset, and the producer config
//! checks Kafka makes (ProducerConfig's idempotence rules).

use kafka_lab::model::kernel::{Describe, Input};
use kafka_lab::model::scene::{LabScene, Run, RunError};
use kafka_lab::model::transactions::core::{EntryKind, Isolation, KafkaError, RecordStatus, TxnState};
use kafka_lab::model::transactions::{ClientState, Command, Fact, TxnLab};

fn preset_run(id: &str) -> Run<TxnLab> {
    let preset = TxnLab::presets().iter().find(|p| p.id == id).expect("a preset");
    Run::from_preset(preset).expect("the preset replays")
}

/// A run from link parts (config pairs and tape).
fn run(config: &[(&str, &str)], tape: &str) -> Run<TxnLab> {
    let pairs: Vec<(String, String)> = config.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Run::restore(1, &pairs, tape, None).expect("the run replays")
}

/// The record ids of the log's data records, in offset order.
fn log_records(run: &Run<TxnLab>) -> Vec<u64> {
    run.world()
        .log()
        .entries()
        .iter()
        .filter_map(|e| match e.kind {
            EntryKind::Data { record_id, .. } => Some(record_id),
            EntryKind::Control { .. } => None,
        })
        .collect()
}

fn facts(run: &Run<TxnLab>) -> Vec<(u64, Fact)> {
    run.sim().log().iter().map(|e| (e.time_ms, e.fact.clone())).collect()
}

fn consumer_duplicates(run: &Run<TxnLab>, isolation: Isolation) -> u64 {
    run.world().view().consumers.iter().find(|c| c.isolation == isolation).map(|c| c.duplicates).unwrap()
}

#[test]
fn a_zombie_producer_is_fenced_when_its_successor_initializes() {
    let run = preset_run("zombie-fencing");
    let view = run.world().view();
    let epochs: Vec<(u16, ClientState)> = view.producers.iter().map(|p| (p.epoch, p.state)).collect();
    assert_eq!(epochs, vec![(4, ClientState::Fenced), (5, ClientState::Running)], "epoch 4 → 5");
    assert_eq!(view.transactions[0].epoch, 5);
    let refused = facts(&run).into_iter().find_map(|(t, f)| match f {
        Fact::CoordinatorRefused { request, epoch, error } => Some((t, request, epoch, error)),
        _ => None,
    });
    assert_eq!(refused, Some((13_000, "AddPartitionsToTxn", 4, KafkaError::ProducerFenced)), "the zombie's write");
    // Nothing of epoch 4 reached the log after epoch 5 began: its two held records never landed.
    let zombie_records: Vec<u64> =
        view.entries.iter().filter(|e| e.epoch == Some(4)).filter_map(|e| e.record_id).collect();
    assert_eq!(zombie_records, vec![1, 2, 3], "only its first, committed transaction");
    assert!(log_records(&run).iter().all(|id| ![4, 5].contains(id)), "records 4 and 5 were held by the zombie");
}

#[test]
fn a_zombie_with_its_transaction_open_is_refused_by_the_leader_with_invalid_producer_epoch() {
    // The zombie wrote into its transaction, then froze with one more batch in its accumulator.
    let tape = "w1000.produce-2.w100.produce-1.pause-p-5000.restart-p.w1000x7";
    let run = run(&[("transactional.id", "payments-processor-0")], tape);
    let log = facts(&run);
    let fenced = log.iter().find_map(|(_, f)| match f {
        Fact::OpenTransactionFenced { old_epoch, new_epoch, .. } => Some((*old_epoch, *new_epoch)),
        _ => None,
    });
    assert_eq!(fenced, Some((4, 5)), "the coordinator fences epoch 4 and aborts its transaction");
    let refused = log.iter().find_map(|(_, f)| match f {
        Fact::ProduceRefused { epoch, error, .. } => Some((*epoch, *error)),
        _ => None,
    });
    assert_eq!(refused, Some((4, KafkaError::InvalidProducerEpoch)));
    let view = run.world().view();
    assert_eq!(view.producers[0].state, ClientState::Fenced);
    // initTransactions retried after the abort: the successor's epoch is the fencing epoch + 1.
    assert_eq!(view.producers[1].epoch, 6);
    let aborted = view.entries.iter().filter(|e| e.status == RecordStatus::Aborted).count();
    assert_eq!(aborted, 2, "the zombie's open transaction is aborted, not lost in limbo");
}

#[test]
fn a_hung_transaction_freezes_the_lso_until_the_coordinator_aborts_it() {
    let mut run = preset_run("hung-transaction");
    let expiry = run.history.marks().find(|(_, m)| m.moment == kafka_lab::model::kernel::Moment::Expiry);
    let (expiry_at, mark) = expiry.map(|(p, m)| (p, m.clone())).expect("the coordinator aborts it");
    assert_eq!(mark.time_ms, 70_000, "transaction.timeout.ms = 60 s from 1 s, seen by the check every 10 s");
    let mut lags = Vec::new();
    for position in [20, 40, expiry_at - 1] {
        run.history.seek(position);
        let view = run.world().view();
        assert_eq!(view.last_stable_offset, 1, "the LSO stays at the open transaction's first offset");
        assert!(view.high_watermark > 15, "producer-2 keeps writing");
        lags.push(view.consumers[1].lag);
        assert!(view.consumers[0].lag <= 1, "read_uncommitted keeps up");
    }
    assert!(lags.windows(2).all(|w| w[0] < w[1]), "read_committed lag grows: {lags:?}");
    assert!(lags[2] >= 65, "{lags:?}");
    run.history.seek(expiry_at + 1);
    let view = run.world().view();
    assert_eq!(view.last_stable_offset, view.high_watermark, "the abort marker frees the LSO");
    assert_eq!(view.consumers[1].lag, 0, "read_committed catches up");
    assert_eq!((view.transactions[0].state, view.transactions[0].epoch), (TxnState::CompleteAbort, 5));
}

#[test]
fn aborted_records_stay_in_the_log_and_only_read_uncommitted_delivers_them() {
    let run = preset_run("aborted-records");
    let view = run.world().view();
    let aborted: Vec<u64> =
        view.entries.iter().filter(|e| e.status == RecordStatus::Aborted).map(|e| e.offset).collect();
    assert_eq!(aborted, vec![4, 5, 6, 7]);
    let markers = view.entries.iter().filter(|e| matches!(e.status, RecordStatus::Control { .. })).count();
    assert_eq!(markers, 3, "commit, abort, commit: each marker takes an offset");
    let received = |i: usize| view.consumers[i].received.clone();
    assert_eq!(received(0), vec![0, 1, 2, 4, 5, 6, 7, 9, 10], "read_uncommitted");
    assert_eq!(received(1), vec![0, 1, 2, 9, 10], "read_committed");
}

#[test]
fn a_crash_between_produce_and_offset_commit_duplicates_downstream_without_transactions_only() {
    let plain = preset_run("crash-no-txn");
    assert_eq!(consumer_duplicates(&plain, Isolation::ReadCommitted), 5);
    assert_eq!(log_records(&plain), vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 6, 7, 8, 9, 10]);
    let eos = preset_run("crash-eos");
    assert_eq!(consumer_duplicates(&eos, Isolation::ReadCommitted), 0, "read_committed: each payment once");
    assert_eq!(consumer_duplicates(&eos, Isolation::ReadUncommitted), 5, "read_uncommitted reads the aborted copies");
    let processor = eos.world().view().processor.expect("a processor");
    assert_eq!((processor.committed_offset, processor.processed), (10, 15));
}

#[test]
fn exactly_once_does_not_cover_the_database_insert() {
    let run = preset_run("eos-database");
    let view = run.world().view();
    assert_eq!(consumer_duplicates(&run, Isolation::ReadCommitted), 0);
    let sink = view.sink.expect("the database sink");
    assert_eq!(sink.duplicates, 5, "payments 6–10 inserted twice");
    let twice: Vec<u64> = sink.rows.iter().filter(|(_, n)| *n == 2).map(|(id, _)| *id).collect();
    assert_eq!(twice, vec![6, 7, 8, 9, 10]);
}

#[test]
fn without_idempotence_a_lost_response_duplicates_and_a_failed_batch_reorders() {
    let duplicate = preset_run("retry-duplicate");
    assert_eq!(log_records(&duplicate), vec![1, 2, 2, 3], "the retry of record 2 is written again");
    assert_eq!(consumer_duplicates(&duplicate, Isolation::ReadCommitted), 1);
    let reorder = preset_run("retry-reorder");
    assert_eq!(log_records(&reorder), vec![1, 3, 2, 4], "record 2's retry lands behind record 3");
}

#[test]
fn with_idempotence_the_same_failures_give_no_duplicate_and_no_reordering() {
    let run = preset_run("idempotent-retry");
    assert_eq!(log_records(&run), vec![1, 2, 3, 4, 5]);
    let log = facts(&run);
    assert!(log.iter().any(|(_, f)| matches!(f, Fact::DuplicateAnswered { sequence: 1, base: 1, .. })));
    let out_of_order = log.iter().any(|(_, f)| {
        matches!(f, Fact::ProduceRefused { sequence: 3, error: KafkaError::OutOfOrderSequenceNumber, .. })
    });
    assert!(out_of_order, "the batch behind the failed one is refused, then resent after it");
    let sequences: Vec<Option<i32>> = run.world().view().entries.iter().map(|e| e.sequence).collect();
    assert_eq!(sequences, (0..5).map(Some).collect::<Vec<_>>());
}

fn refusal(config: &[(&str, &str)]) -> String {
    let pairs: Vec<(String, String)> = config.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    match Run::<TxnLab>::new(1, &pairs) {
        Err(RunError::Build(message)) => message.to_string(),
        Err(other) => panic!("{other}"),
        Ok(_) => String::new(),
    }
}

#[test]
fn conflicting_producer_configs_are_refused_with_kafkas_config_exception() {
    assert_eq!(
        refusal(&[("enable.idempotence", "true"), ("acks", "1")]),
        "Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."
    );
    assert_eq!(
        refusal(&[("max.in.flight.requests.per.connection", "6")]),
        "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. \
         Current value is 6."
    );
    assert_eq!(
        refusal(&[("enable.idempotence", "true"), ("retries", "0")]),
        "Must set retries to non-zero when using the idempotent producer."
    );
    let txn = ("transactional.id", "payments-processor-0");
    assert_eq!(
        refusal(&[txn, ("enable.idempotence", "false")]),
        "Cannot set a transactional.id without also enabling idempotence."
    );
    // An implicit idempotence that conflicts is turned off, and then transactions are refused too.
    assert_eq!(refusal(&[txn, ("acks", "1")]), "Cannot set a transactional.id without also enabling idempotence.");
    assert!(refusal(&[txn, ("transaction.timeout.ms", "900001")]).contains("transaction.max.timeout.ms"));
}

#[test]
fn an_implicit_idempotence_is_turned_off_by_acks_1_and_the_producer_has_no_producer_id() {
    let run = run(&[("acks", "1")], "produce-1.w100");
    assert!(matches!(facts(&run)[0].1, Fact::PlainProducer { .. }));
    assert!(!run.world().view().producers[0].has_producer_id);
    assert_eq!(run.world().view().entries[0].sequence, None);
}

#[test]
fn commands_round_trip_through_link_tokens_and_refusals_change_nothing() {
    for token in [
        "produce-3",
        "process-5",
        "commit",
        "abort",
        "lose-ack",
        "fail-next",
        "stream",
        "kill-p",
        "restart-p",
        "pause-p-10000",
        "stall-p",
        "cut-p-c",
        "heal-p-c",
    ] {
        let command = TxnLab::decode_command(token).unwrap_or_else(|e| panic!("{token}: {e}"));
        assert_eq!(TxnLab::encode_command(&command), token);
    }
    assert!(TxnLab::decode_command("kill-1").is_err(), "only the application takes faults");
    assert!(TxnLab::decode_command("explode").is_err());
    let mut run = run(&[("transactional.id", "payments-processor-0")], "w100");
    let before = run.sim().trace_hash();
    let why = run.history.push(Input::Command(Command::Commit)).unwrap_err();
    assert_eq!(why.message().to_string(), "No transaction is open: produce or process first.");
    assert_eq!(run.sim().trace_hash(), before);
    assert!(run.history.push(Input::Command(Command::Process { records: 1 })).is_err(), "no processor here");
}

#[test]
fn a_retry_due_after_delivery_timeout_expires_the_batch_instead() {
    assert_eq!(
        refusal(&[("delivery.timeout.ms", "1000")]),
        "delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms"
    );
    let config = [("delivery.timeout.ms", "30005"), ("retry.backoff.ms", "40000")];
    let run = run(&config, "fail-next.produce-1.w1000");
    let gave_up = facts(&run).into_iter().find_map(|(_, f)| match f {
        Fact::GaveUp { first, error, .. } => Some((first, error)),
        _ => None,
    });
    assert_eq!(gave_up, Some((1, "TimeoutException")), "the retry would come after delivery.timeout.ms");
    assert!(log_records(&run).is_empty());
}

#[test]
fn a_cut_link_to_the_coordinator_holds_the_commit_until_it_heals() {
    let txn = [("transactional.id", "payments-processor-0")];
    let mut run = run(&txn, "produce-2.w100.cut-p-c.commit.w5000");
    let open = |run: &Run<TxnLab>| run.world().view().transactions[0].state;
    assert_eq!(open(&run), TxnState::Ongoing, "EndTxn cannot reach the coordinator");
    assert_eq!(run.world().view().last_stable_offset, 0, "the LSO waits with it");
    for input in [Input::Command(TxnLab::decode_command("heal-p-c").unwrap()), Input::Advance(100)] {
        run.history.push(input).unwrap();
    }
    assert_eq!(open(&run), TxnState::CompleteCommit);
    let view = run.world().view();
    assert_eq!(view.last_stable_offset, 3, "two records and the COMMIT marker");
}

#[test]
fn an_aborted_processor_transaction_sends_it_back_to_its_committed_offset() {
    let config = [("transactional.id", "payments-processor-0"), ("lab.processor", "true")];
    let run = run(&config, "process-3.w100.commit.w100.process-4.w100.abort.w100.process-4.w100.commit.w1000");
    let processor = run.world().view().processor.expect("a processor");
    assert_eq!((processor.committed_offset, processor.input_position), (7, 7));
    assert_eq!(consumer_duplicates(&run, Isolation::ReadCommitted), 0);
    let committed: Vec<u64> = run.world().consumer(Isolation::ReadCommitted).record_ids.clone();
    assert_eq!(committed, vec![1, 2, 3, 4, 5, 6, 7], "the aborted payments 4–7 come again, once");
}

/// Invariants any run keeps: the LSO never above the HW, no consumer past the HW, and
/// read_committed never delivering a record of an open or aborted transaction.
fn check_invariants(run: &Run<TxnLab>) {
    let view = run.world().view();
    assert!(view.last_stable_offset <= view.high_watermark);
    assert!(view.consumers.iter().all(|c| c.position <= view.high_watermark));
    for offset in &view.consumers[1].received {
        let status = run.world().log().status(*offset);
        assert!(
            matches!(status, RecordStatus::Plain | RecordStatus::Committed),
            "read_committed got {offset}: {status:?}"
        );
    }
}

#[test]
fn random_command_sequences_keep_kafkas_invariants() {
    let tokens = [
        "produce-1",
        "produce-3",
        "process-2",
        "commit",
        "abort",
        "lose-ack",
        "fail-next",
        "stream",
        "kill-p",
        "restart-p",
        "pause-p-3000",
        "stall-p",
        "cut-p-c",
        "heal-p-c",
    ];
    let txn = ("transactional.id", "payments-processor-0");
    let configs: [&[(&str, &str)]; 5] = [
        &[],
        &[txn, ("lab.processor", "true"), ("lab.db.sink", "true")],
        &[("lab.processor", "true"), ("enable.idempotence", "false")],
        &[("acks", "0")],
        &[txn, ("transaction.timeout.ms", "3000"), ("lab.other.producer.records.per.sec", "5")],
    ];
    let mut seed: u64 = 12_345;
    let mut next = move |below: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % below
    };
    for round in 0..200 {
        let mut run = run(configs[round % configs.len()], "");
        for _ in 0..40 {
            let input = match next(3) {
                0 => Input::Advance([10, 100, 1000, 20_000][next(4)]),
                _ => Input::Command(TxnLab::decode_command(tokens[next(tokens.len())]).unwrap()),
            };
            let _refused_or_applied = run.history.push(input);
            check_invariants(&run);
        }
    }
}

#[test]
fn a_dropped_connection_fails_every_request_in_flight_on_it() {
    // Two requests in flight: the first is written, then the connection drops under both.
    let tape = "lose-ack.produce-1.produce-1.w1000";
    let plain = run(&[("enable.idempotence", "false")], tape);
    assert_eq!(log_records(&plain), vec![1, 2, 1], "record 1 again, after record 2 (both re-queued first)");
    let idempotent = run(&[], tape);
    assert_eq!(log_records(&idempotent), vec![1, 2], "sequence 0 is recognised, sequence 1 written once");
    let retried = facts(&idempotent).iter().filter(|(_, f)| matches!(f, Fact::Retrying { .. })).count();
    assert_eq!(retried, 2);
}

#[test]
fn the_other_producers_stream_says_record_or_records_as_its_rate_asks() {
    let said = |rate: &str| {
        // A rate above 0 starts producer-2 with the run.
        let run = run(&[("lab.other.producer.records.per.sec", rate)], "w100");
        let line =
            run.sim().log().iter().find(|e| matches!(e.fact, Fact::StreamStarted { .. })).map(|e| e.fact.message());
        line.expect("the stream starts").to_string()
    };
    assert_eq!(said("1"), "producer-2 sends 1 record a second");
    assert_eq!(said("4"), "producer-2 sends 4 records a second");
}
