//! How a comparison names the figures of a result card's answer: each argument of each answer
//! message (or of a clause nested in it) has an interface-text label, and a nested message that
//! is one figure as a whole (a list, a name) says so and is not walked. A label is the scene's
//! own (`<scene>.diff.*`) or one the notebook's table shares (`record.figure.*`). Each scene has
//! its own table, named by its `LabScene::FIGURE_LABELS`: a comparison is drawn by code generic
//! in the scene, so a scene's bundle links its own table and no other scene's.

/// One label: the message's catalog key, its argument, the label's key, and whether a nested
/// message in that argument is one figure (a list of owners, a broker's name, a task's path).
pub struct Label {
    within: &'static str,
    arg: &'static str,
    key: &'static str,
    whole: bool,
}

/// A label: `label!(message key, argument, label key)`, both keys as the build knows them
/// (`catalog_key!`: the site's wasm compares short ids).
macro_rules! label {
    ($within:literal, $arg:literal, $key:literal) => {
        Label { within: crate::catalog_key!($within), arg: $arg, key: crate::catalog_key!($key), whole: false }
    };
}

/// A label whose nested message is one figure: `whole!(message key, argument, label key)`.
macro_rules! whole {
    ($within:literal, $arg:literal, $key:literal) => {
        Label { within: crate::catalog_key!($within), arg: $arg, key: crate::catalog_key!($key), whole: true }
    };
}

/// The figures of the overview scene's answers.
pub const OVERVIEW: &[Label] = &[
    label!("overview.story.default.answer", "led", "overview.diff.partitions_led"),
    label!("overview.story.default.answer", "partitions", "overview.diff.partitions"),
    label!("overview.story.default.answer", "under", "overview.diff.under_replicated"),
    label!("overview.story.default.answer", "acked", "record.figure.acked"),
    label!("overview.story.crash.answer", "fenced_after", "overview.diff.fenced_after"),
    label!("overview.story.crash.answer", "heartbeat_at", "overview.diff.last_heartbeat"),
    label!("overview.story.crash.answer", "moved", "overview.diff.leaders_moved"),
    label!("overview.story.crash.answer", "preferred_at", "overview.diff.preferred_at"),
    label!("overview.story.crash.answer", "after_restart", "overview.diff.preferred_after_restart"),
    label!("overview.story.burst.answer", "partition", "overview.diff.busiest_partition"),
    label!("overview.story.burst.answer", "records", "overview.diff.busiest_records"),
    label!("overview.story.burst.answer", "total", "overview.diff.records_sent"),
    label!("overview.story.burst.answer", "percent", "overview.diff.busiest_share"),
    label!("overview.story.burst.answer", "keys", "overview.diff.busiest_keys"),
    label!("overview.story.burst.answer", "distinct", "overview.diff.distinct_keys"),
    label!("overview.story.burst.answer", "quiet", "overview.diff.quietest_partition"),
    label!("overview.story.burst.answer", "quiet_records", "overview.diff.quietest_records"),
];

/// The figures of the log scene's answers.
pub const LOG: &[Label] = &[
    label!("log.story.default.answer", "segments", "log.diff.segments"),
    label!("log.story.default.answer", "records", "log.diff.records"),
    label!("log.story.default.answer", "bytes", "log.diff.log_bytes"),
    label!("log.story.default.answer", "start", "log.diff.log_start"),
    label!("log.story.default.answer", "leo", "log.diff.leo"),
    label!("log.story.default.answer", "active", "log.diff.active_bytes"),
    label!("log.story.default.answer", "limit", "log.diff.segment_bytes"),
    label!("log.story.find.answer", "file", "log.diff.segment_file"),
    label!("log.story.find.answer", "slot", "log.diff.index_slot"),
    label!("log.story.find.answer", "entries", "log.diff.index_entries"),
    label!("log.story.find.answer", "entry_offset", "log.diff.entry_offset"),
    label!("log.story.find.answer", "entry_position", "log.diff.entry_position"),
    label!("log.story.find.answer", "probes", "log.diff.probes"),
    label!("log.story.find.answer", "batches", "log.diff.batch_headers"),
    label!("log.story.find.answer", "scanned", "log.diff.scanned_bytes"),
    label!("log.story.find.answer", "position", "log.diff.batch_position"),
    label!("log.story.find.answer", "first", "log.diff.batch_first"),
    label!("log.story.find.answer", "last", "log.diff.batch_last"),
    label!("log.story.fixed.answer", "first", "log.diff.first_deletion"),
    label!("log.story.fixed.answer", "deleted", "log.diff.segments_deleted"),
    label!("log.story.fixed.answer", "bytes", "log.diff.bytes_deleted"),
    label!("log.story.fixed.answer", "elapsed", "log.diff.elapsed"),
    label!("log.story.fixed.answer", "oldest", "log.diff.oldest_record"),
    label!("log.story.fixed.answer", "retention", "log.diff.retention"),
    label!("log.story.lab1.answer", "segments", "log.diff.segments"),
    label!("log.story.lab1.answer", "first", "record.figure.first_segment"),
    label!("log.story.lab1.answer", "default_bytes", "log.diff.default_segment_bytes"),
    label!("log.story.lab1.answer", "segment_bytes", "log.diff.segment_bytes"),
    label!("log.story.lab1.answer", "rolls", "log.diff.rolls"),
    label!("log.story.lab1.answer", "per", "log.diff.records_per_segment"),
    label!("log.story.tombstone.answer", "keys", "log.diff.resurrected_key"),
    label!("log.story.tombstone.answer", "offset", "log.diff.tombstone_offset"),
    label!("log.story.tombstone.answer", "delete_retention", "log.diff.delete_retention"),
    label!("log.story.tombstone.answer", "removed", "log.diff.tombstone_removed"),
    label!("log.story.tombstone.answer", "pace", "log.diff.reader_pace"),
    label!("log.story.trap.answer", "deleted", "log.diff.segments_deleted"),
    label!("log.story.trap.answer", "elapsed", "log.diff.elapsed"),
    label!("log.story.trap.answer", "retention", "log.diff.retention"),
    label!("log.story.trap.answer", "records", "log.diff.records"),
    label!("log.story.trap.answer", "segments", "log.diff.segments"),
    label!("log.story.trap.answer", "oldest", "log.diff.oldest_record"),
];

/// The figures of the replication scene's answers.
pub const REPLICATION: &[Label] = &[
    whole!("replication.story.default.answer", "leader", "replication.diff.leader"),
    label!("replication.story.default.answer", "leo", "replication.diff.leo"),
    label!("replication.story.default.answer", "hw", "replication.diff.hw"),
    label!("replication.story.default.answer", "isr", "replication.diff.isr"),
    label!("replication.story.ledger", "acked", "record.figure.acked"),
    label!("replication.story.ledger", "lost", "record.figure.lost"),
    label!("replication.story.ledger.ids", "ids", "replication.diff.lost_ids"),
    label!("replication.story.divergence.split", "count", "replication.diff.diverging_count"),
    label!("replication.story.divergence.split", "offsets", "replication.diff.diverging_offsets"),
    whole!("replication.story.hw_leo.answer", "follower", "replication.diff.follower"),
    label!("replication.story.hw_leo.answer", "had_at", "replication.diff.had_at"),
    label!("replication.story.hw_leo.answer", "hw_at", "replication.diff.hw_at"),
    label!("replication.story.hw_leo.answer", "leader_hw", "replication.diff.leader_hw"),
    label!("replication.story.hw_leo.answer", "follower_hw", "replication.diff.follower_hw"),
    label!("replication.story.kip101_loss.on_answer", "leo", "replication.diff.follower_leo"),
    label!("replication.story.lab2.all_answer", "dups", "record.figure.duplicates"),
    label!("replication.story.lab2.all_answer", "idempotence", "replication.diff.idempotence"),
    label!("replication.story.lab3.answer", "offline", "record.figure.offline"),
    label!("replication.story.min_isr_2.answer", "isr", "replication.diff.isr"),
    label!("replication.story.min_isr_2.answer", "min", "replication.diff.min_isr"),
    label!("replication.story.min_isr_2.answer", "acked", "record.figure.acked"),
    label!("replication.story.min_isr_2.answer", "sent", "replication.diff.records_sent"),
    label!("replication.story.min_isr_2.answer", "pending", "replication.diff.refused"),
    label!("replication.story.safe.answer", "pending", "replication.diff.never_acked"),
];

/// The figures of the groups scene's answers.
pub const GROUPS: &[Label] = &[
    label!("groups.story.default.answer", "state", "groups.diff.group_state"),
    label!("groups.story.default.answer", "generation", "groups.diff.generation"),
    whole!("groups.story.default.answer", "owners", "groups.diff.owners"),
    label!("groups.story.default.answer", "lag", "record.figure.lag"),
    label!("groups.story.fix.answer", "generation", "groups.diff.generation"),
    label!("groups.story.fix.answer", "timeouts", "record.figure.poll_timeouts"),
    label!("groups.story.fix.answer", "batch", "groups.diff.batch_time"),
    label!("groups.story.fix.answer", "interval", "groups.diff.max_poll_interval"),
    label!("groups.story.fix.answer", "lag", "record.figure.lag"),
    label!("groups.story.handoff.answer", "lost", "groups.diff.committed_unprocessed"),
    whole!("groups.story.handoff.answer", "ranges", "groups.diff.unprocessed_ranges"),
    label!("groups.story.handoff.answer", "duplicates", "record.figure.processed_twice"),
    label!("groups.story.loop.answer", "committed", "groups.diff.committed_moved"),
    label!("groups.story.loop.answer", "duplicates", "record.figure.processed_twice"),
    label!("groups.story.loop_figures", "rebalances", "record.figure.rebalances"),
    label!("groups.story.loop_figures", "elapsed", "groups.diff.elapsed"),
    label!("groups.story.loop_figures", "per_minute", "groups.diff.generations_per_minute"),
    label!("groups.story.loop_figures", "unstable", "groups.diff.unstable"),
    whole!("groups.story.poison.answer", "member", "groups.diff.stuck_member"),
    label!("groups.story.poison.answer", "partition", "groups.diff.stuck_partition"),
    label!("groups.story.poison.answer", "offset", "groups.diff.stuck_offset"),
    label!("groups.story.poison.answer", "attempts", "groups.diff.failed_attempts"),
    label!("groups.story.poison.answer", "lag", "groups.diff.stuck_lag"),
    label!("groups.story.poison.answer", "others", "groups.diff.other_lag"),
    whole!("groups.story.restart.answer", "per_member", "record.figure.stop"),
    label!("groups.story.restart.answer", "sum", "groups.diff.stop_sum"),
    label!("groups.story.restart.answer", "partitions", "groups.diff.orphaned_partitions"),
    label!("groups.story.restart.answer", "orphaned", "record.figure.orphaned"),
    whole!("groups.story.restart.answer_none", "per_member", "record.figure.stop"),
    label!("groups.story.restart.answer_none", "partitions", "groups.diff.orphaned_partitions"),
    label!("groups.story.restart.answer_none", "orphaned", "record.figure.orphaned"),
    label!("groups.story.slow.answer", "lag", "record.figure.lag"),
    label!("groups.story.slow.answer", "per_minute", "record.figure.lag_growth"),
    label!("groups.story.slow.answer", "capacity", "groups.diff.capacity"),
    label!("groups.story.slow.answer", "rate", "groups.diff.arrival_rate"),
    label!("groups.story.static.answer", "rebalances", "record.figure.rebalances"),
    label!("groups.story.static.answer", "generation", "groups.diff.generation"),
    label!("groups.story.static.answer", "back", "groups.diff.back_after"),
    whole!("groups.story.static.answer", "partitions", "groups.diff.c3_partitions"),
    whole!("groups.story.static.answer", "per_member", "record.figure.stop"),
    whole!("groups.story.twelve.answer", "owners", "groups.diff.owners"),
    label!("groups.story.twelve.answer", "idle", "groups.diff.idle"),
    whole!("groups.story.twelve.answer", "idle_members", "groups.diff.idle_members"),
];

/// The figures of the partitioner scene's answers.
pub const PARTITIONER: &[Label] = &[
    label!("partitioner.story.default.empty", "partitions", "partitioner.diff.partitions"),
    label!("partitioner.story.default.answer", "records", "partitioner.diff.records"),
    label!("partitioner.story.default.answer", "partitions", "partitioner.diff.partitions"),
    label!("partitioner.story.default.answer", "partition", "partitioner.diff.busiest_partition"),
    label!("partitioner.story.default.answer", "percent", "partitioner.diff.busiest_share"),
    label!("partitioner.story.default.answer", "even", "partitioner.diff.even_share"),
    label!("partitioner.story.reorder.answer", "key", "partitioner.diff.key"),
    label!("partitioner.story.reorder.answer", "before", "partitioner.diff.partition_before"),
    label!("partitioner.story.reorder.answer", "from", "partitioner.diff.partitions_before"),
    label!("partitioner.story.reorder.answer", "after", "partitioner.diff.partition_after"),
    label!("partitioner.story.reorder.answer", "to", "partitioner.diff.partitions_after"),
    label!("partitioner.story.reorder.answer", "out", "partitioner.diff.out_of_order"),
    label!("partitioner.story.reorder.answer", "total", "partitioner.diff.events"),
    label!("partitioner.story.reorder.answer", "event", "partitioner.diff.early_event"),
    whole!("partitioner.story.reorder.answer", "earlier", "partitioner.diff.earlier_events"),
    label!("partitioner.story.sticky.answer", "batches", "partitioner.diff.batches"),
    label!("partitioner.story.sticky.answer", "records", "partitioner.diff.records_per_batch"),
    label!("partitioner.story.sticky.answer", "fill", "partitioner.diff.batch_fill"),
    label!("partitioner.story.sticky.answer", "full", "partitioner.diff.full_batches"),
    label!("partitioner.story.sticky.answer", "lingered", "partitioner.diff.lingered"),
    label!("partitioner.story.sticky.answer", "changes", "partitioner.diff.partition_changes"),
    label!("partitioner.story.sticky.answer", "draws", "partitioner.diff.draws"),
    label!("partitioner.story.adaptive.answer", "broker", "partitioner.diff.slow_broker"),
    whole!("partitioner.story.adaptive.answer", "led", "partitioner.diff.slow_broker_partitions"),
    label!("partitioner.story.adaptive.answer", "latency", "partitioner.diff.latency"),
    label!("partitioner.story.adaptive.answer", "records", "partitioner.diff.slow_records"),
    label!("partitioner.story.adaptive.answer", "total", "partitioner.diff.records_sent"),
    label!("partitioner.story.adaptive.answer", "share", "partitioner.diff.slow_share"),
    label!("partitioner.story.adaptive.answer", "even", "partitioner.diff.even_share"),
    label!("partitioner.story.adaptive.answer_timeout", "broker", "partitioner.diff.slow_broker"),
    whole!("partitioner.story.adaptive.answer_timeout", "led", "partitioner.diff.slow_broker_partitions"),
    label!("partitioner.story.adaptive.answer_timeout", "latency", "partitioner.diff.latency"),
    label!("partitioner.story.adaptive.answer_timeout", "records", "partitioner.diff.slow_records"),
    label!("partitioner.story.adaptive.answer_timeout", "total", "partitioner.diff.records_sent"),
    label!("partitioner.story.adaptive.answer_timeout", "share", "partitioner.diff.slow_share"),
    label!("partitioner.story.adaptive.answer_timeout", "even", "partitioner.diff.even_share"),
    label!("partitioner.story.adaptive.answer_timeout", "times", "partitioner.diff.left_out"),
    label!("partitioner.story.adaptive.answer_timeout", "timeout", "partitioner.diff.availability_timeout"),
];

/// The figures of the timer scene's answers.
pub const TIMER: &[Label] = &[
    label!("timer.story.crash.answer", "request", "timer.diff.request"),
    label!("timer.story.crash.answer", "at", "timer.diff.completed_at"),
    label!("timer.story.crash.answer", "waited", "timer.diff.waited"),
    label!("timer.story.crash.answer", "replica", "timer.diff.replica"),
    label!("timer.story.crash.answer", "session", "timer.diff.session_timeout"),
    label!("timer.story.crash.answer", "isr", "timer.diff.isr"),
    label!("timer.story.crash.answer", "hw", "timer.diff.hw"),
    label!("timer.story.crash.answer", "timeout", "timer.diff.request_timeout"),
    label!("timer.story.produce.completed", "request", "timer.diff.request"),
    label!("timer.story.produce.completed", "at", "timer.diff.completed_at"),
    label!("timer.story.produce.completed", "waited", "timer.diff.waited"),
    label!("timer.story.produce.completed", "isr", "timer.diff.isr"),
    label!("timer.story.produce.completed", "hw", "timer.diff.hw"),
    label!("timer.story.produce.completed", "timeout", "timer.diff.request_timeout"),
    label!("timer.story.stall.answer", "request", "timer.diff.request"),
    label!("timer.story.stall.answer", "at", "timer.diff.completed_at"),
    label!("timer.story.stall.answer", "replica", "timer.diff.replica"),
    label!("timer.story.stall.answer", "hw", "timer.diff.hw"),
    label!("timer.story.stall.answer", "timeout", "timer.diff.request_timeout"),
    label!("timer.story.stall.answer", "required", "timer.diff.required"),
    label!("timer.story.stall.left", "at", "timer.diff.left_isr_at"),
    label!("timer.story.stall.left", "lag", "timer.diff.replica_lag_max"),
    label!("timer.story.stall.still", "lag", "timer.diff.replica_lag_max"),
    label!("timer.story.default.answer", "pending", "timer.diff.pending_tasks"),
    label!("timer.story.default.answer", "levels", "timer.diff.wheels"),
    label!("timer.story.default.answer", "fired", "timer.diff.fired"),
    label!("timer.story.default.answer", "fell", "timer.diff.fell"),
    label!("timer.story.default.answer", "wheel", "timer.diff.wheel_work"),
    label!("timer.story.default.answer", "heap", "timer.diff.heap_work"),
    label!("timer.story.path.ran", "label", "timer.diff.task"),
    whole!("timer.story.path.ran", "path", "timer.diff.path"),
    label!("timer.story.path.ran", "at", "timer.diff.fired_at"),
    label!("timer.story.path.waiting", "label", "timer.diff.task"),
    whole!("timer.story.path.waiting", "path", "timer.diff.path"),
];

/// The figures of the transactions scene's answers.
pub const TRANSACTIONS: &[Label] = &[
    label!("transactions.story.aborted.answer", "leo", "transactions.diff.leo"),
    label!("transactions.story.aborted.answer", "aborted", "transactions.diff.aborted"),
    label!("transactions.story.aborted.answer", "markers", "transactions.diff.markers"),
    label!("transactions.story.aborted.answer", "uncommitted", "transactions.diff.received_uncommitted"),
    label!("transactions.story.aborted.answer", "committed", "transactions.diff.received_committed"),
    label!("transactions.story.crash.eos.answer", "duplicates", "transactions.diff.duplicates_committed"),
    label!("transactions.story.crash.eos.answer", "received", "transactions.diff.received_committed"),
    label!("transactions.story.crash.eos.answer", "distinct", "transactions.diff.distinct_payments"),
    label!("transactions.story.crash.eos.answer", "aborted", "transactions.diff.aborted"),
    label!("transactions.story.crash.eos.answer", "old", "transactions.diff.old_epoch"),
    label!("transactions.story.crash.eos.answer", "new", "transactions.diff.new_epoch"),
    label!("transactions.story.crash.eos.answer", "uncommitted", "transactions.diff.duplicates_uncommitted"),
    label!("transactions.story.crash.plain.answer", "duplicates", "transactions.diff.duplicates"),
    label!("transactions.story.crash.plain.answer", "received", "transactions.diff.received_committed"),
    label!("transactions.story.crash.plain.answer", "distinct", "transactions.diff.distinct_payments"),
    label!("transactions.story.crash.plain.answer", "committed", "transactions.diff.resumed_from"),
    label!("transactions.story.db.answer", "duplicates", "transactions.diff.duplicates_committed"),
    label!("transactions.story.db.answer", "rows", "transactions.diff.rows"),
    label!("transactions.story.db.answer", "again", "transactions.diff.rows_twice"),
    label!("transactions.story.default.answer", "leo", "transactions.diff.leo"),
    label!("transactions.story.default.answer", "hw", "transactions.diff.hw"),
    label!("transactions.story.default.answer", "lso", "transactions.diff.lso"),
    label!("transactions.story.default.answer", "uncommitted", "transactions.diff.received_uncommitted"),
    label!("transactions.story.default.answer", "committed", "transactions.diff.received_committed"),
    label!("transactions.story.dup.answer", "record", "transactions.diff.duplicated_record"),
    label!("transactions.story.dup.answer", "first", "transactions.diff.first_offset"),
    label!("transactions.story.dup.answer", "second", "transactions.diff.second_offset"),
    label!("transactions.story.dup.answer", "count", "transactions.diff.duplicates"),
    label!("transactions.story.dup.answer", "times", "transactions.diff.times_received"),
    label!("transactions.story.hung.answer", "lso", "transactions.diff.lso"),
    label!("transactions.story.hung.answer", "frozen", "transactions.diff.lso_frozen"),
    label!("transactions.story.hung.answer", "hw", "transactions.diff.hw"),
    label!("transactions.story.hung.answer", "peak", "transactions.diff.lag_peak"),
    label!("transactions.story.hung.answer", "aborted", "transactions.diff.aborted_at"),
    label!("transactions.story.hung.answer", "timeout", "transactions.diff.txn_timeout"),
    label!("transactions.story.hung.answer", "interval", "transactions.diff.check_interval"),
    label!("transactions.story.idem.answer", "records", "transactions.diff.records"),
    label!("transactions.story.idem.answer", "distinct", "transactions.diff.distinct_records"),
    label!("transactions.story.idem.answer", "order", "transactions.diff.order"),
    label!("transactions.story.idem.answer", "offset", "transactions.diff.dedup_offset"),
    label!("transactions.story.reorder.answer", "order", "transactions.diff.order"),
    label!("transactions.story.reorder.answer", "late", "transactions.diff.late_record"),
    label!("transactions.story.reorder.answer", "early", "transactions.diff.early_record"),
    label!("transactions.story.reorder.answer", "in_flight", "transactions.diff.max_in_flight"),
    label!("transactions.story.zombie.answer", "old", "transactions.diff.old_epoch"),
    label!("transactions.story.zombie.answer", "new", "transactions.diff.new_epoch"),
    label!("transactions.story.zombie.answer", "asleep", "transactions.diff.asleep"),
    label!("transactions.story.zombie.answer", "request", "transactions.diff.refused_request"),
    label!("transactions.story.zombie.answer", "error", "transactions.diff.error"),
    label!("transactions.story.zombie.answer", "writes", "transactions.diff.writes_after_fence"),
];

/// Every scene's table, in navigation order (the catalog tests read them all).
pub const ALL: &[&[Label]] = &[OVERVIEW, LOG, REPLICATION, GROUPS, PARTITIONER, TIMER, TRANSACTIONS];

/// The label of argument `arg` of the message keyed `within`, in a scene's `labels`.
pub(super) fn label_of(labels: &[Label], within: &str, arg: &str) -> Option<&'static str> {
    labels.iter().find(|l| l.within == within && l.arg == arg).map(|l| l.key)
}

/// Whether the nested message in argument `arg` of the message keyed `within` is one figure.
pub(super) fn is_whole(labels: &[Label], within: &str, arg: &str) -> bool {
    labels.iter().any(|l| l.within == within && l.arg == arg && l.whole)
}

/// Messages that are one figure wherever they appear (an item of a list that reads well alone),
/// with their label: each burst's busiest share is its own row, not the whole chain of them.
const ITEMS: &[(&str, &str)] = &[
    (crate::catalog_key!("partitioner.story.megacorp.share"), crate::catalog_key!("partitioner.diff.busiest_burst")),
    (
        crate::catalog_key!("partitioner.story.megacorp.share_composite"),
        crate::catalog_key!("partitioner.diff.busiest_burst"),
    ),
];

/// The label of a message that is one figure wherever it appears.
pub(super) fn item_label(key: &str) -> Option<&'static str> {
    ITEMS.iter().find(|(item, _)| *item == key).map(|(_, label)| *label)
}

/// Every label the table uses, with the key of the message it labels (the catalog tests check
/// each has a text, in the bundle of the message's scene).
pub fn keys() -> impl Iterator<Item = (&'static str, &'static str)> {
    ALL.iter().flat_map(|table| table.iter()).map(|l| (l.within, l.key)).chain(ITEMS.iter().copied())
}
