//! The transaction presets' stories: zombie fencing, a hung transaction freezing the LSO, and
//! aborted records that stay in the log.

use super::core::{Isolation, RecordStatus};
use super::facts::Fact;
use super::story_say::{first_at, ids_with, pending, records_arg};
use super::TxnLab;
use crate::model::kernel::{Arg, Message, Sim};

crate::messages! {
    pub TXN_STORY_KEYS;
    ZOMBIE_QUESTION = "transactions.story.zombie.question" =>
        "payments-processor-0 (epoch 4) freezes in a GC pause and the orchestrator starts another instance. What happens when the old one wakes up?";
    ZOMBIE_WATCH = "transactions.story.zombie.watch" =>
        "Watch the epochs: the new incarnation's initTransactions, then the zombie's first request after its pause.";
    ZOMBIE_ANSWER = "transactions.story.zombie.answer" =>
        "epoch {old} → {new}: the new incarnation's InitProducerId fenced epoch {old}; the zombie woke up {asleep} after its pause began and its {request} was refused with {error}; {writes, plural, =0 {it wrote nothing after the fence} one {# record of epoch {old} was written after the fence} other {# records of epoch {old} were written after the fence}}";
    ZOMBIE_INTRO = "transactions.story.zombie.intro" =>
        "payments-processor-0 runs with epoch {epoch}: its first transaction is committed. It is about to send two more records.";
    ZOMBIE_PAUSED = "transactions.story.zombie.paused" =>
        "A GC pause freezes it with {records, plural, one {# record} other {# records}} still in its accumulator (linger.ms = {linger}): nothing has reached the coordinator or the partition yet.";
    ZOMBIE_RESTARTED = "transactions.story.zombie.restarted" =>
        "The orchestrator gives it up for dead and starts a new instance with the same transactional.id: initTransactions gets epoch {epoch}, and the coordinator now refuses every older epoch.";
    ZOMBIE_FENCED = "transactions.story.zombie.fenced" =>
        "The zombie wakes up and carries on with epoch {epoch}: its {request} is refused with {error}. It can only close; the transactional.id belongs to epoch {new}.";
    HUNG_QUESTION = "transactions.story.hung.question" =>
        "A transactional producer stalls with its transaction open. How long do read_committed consumers wait, and what ends it?";
    HUNG_WATCH = "transactions.story.hung.watch" =>
        "Watch the LSO line stay put while producer-2 keeps writing and the high watermark moves on.";
    HUNG_ANSWER = "transactions.story.hung.answer" =>
        "the LSO stayed at offset {lso} for {frozen} while the high watermark rose to {hw}; read_committed lag peaked at {peak} records while read_uncommitted kept up; the coordinator aborted the transaction at {aborted}: transaction.timeout.ms = {timeout} after it began, at its next check (every {interval})";
    HUNG_INTRO = "transactions.story.hung.intro" =>
        "payments-processor-0 has written {records} in an open transaction; producer-2 writes a plain record every second.";
    HUNG_STALLED = "transactions.story.hung.stalled" =>
        "The application stalls before commitTransaction. Its transaction stays open, so the last stable offset cannot pass offset {lso}.";
    HUNG_GROWING = "transactions.story.hung.growing" =>
        "The group looks healthy, yet read_committed has received nothing new: its lag is {lag} records, the LSO is still {lso} and the high watermark {hw}.";
    HUNG_ABORTED = "transactions.story.hung.aborted" =>
        "The coordinator's check finds the transaction older than transaction.timeout.ms: it bumps the epoch to {epoch}, writes an ABORT marker, and the LSO jumps to the high watermark.";
    ABORTED_QUESTION = "transactions.story.aborted.question" =>
        "Three transactions, the middle one aborted. What does the log keep, and what does each consumer receive?";
    ABORTED_WATCH = "transactions.story.aborted.watch" =>
        "Watch records 4–7 after the abort: still in the log, hatched and struck through, and only one consumer shows them.";
    ABORTED_ANSWER = "transactions.story.aborted.answer" =>
        "the log has {leo} offsets: {aborted} aborted records and {markers} control markers among them; read_uncommitted received {uncommitted} records, the {aborted} aborted included; read_committed received {committed}, none aborted";
    ABORTED_INTRO = "transactions.story.aborted.intro" =>
        "The first transaction ({records}) is committed: a COMMIT marker follows it. The next one will be aborted.";
    ABORTED_ABORT = "transactions.story.aborted.abort" =>
        "abortTransaction: an ABORT marker at offset {offset}. The aborted records stay in the log; read_uncommitted has already delivered them.";
    ABORTED_COMMIT = "transactions.story.aborted.commit" =>
        "The third transaction commits. read_committed skips the aborted records using the aborted-transactions index; markers take offsets but are never delivered.";
}

/// The epochs InitProducerId gave the app, in order.
fn epochs(sim: &Sim<TxnLab>) -> Vec<u16> {
    sim.log()
        .iter()
        .filter_map(|e| match e.fact {
            Fact::ProducerIdAssigned { epoch, transactional: true, .. } => Some(epoch),
            _ => None,
        })
        .collect()
}

pub fn zombie_intro(sim: &Sim<TxnLab>) -> Message {
    Message::new(ZOMBIE_INTRO).with("epoch", Arg::int(epochs(sim).first().copied().unwrap_or(0)))
}

pub fn zombie_paused(sim: &Sim<TxnLab>) -> Message {
    let held: usize = sim.world().clients().first().map_or(0, |c| c.queue.iter().map(|b| b.record_ids.len()).sum());
    Message::new(ZOMBIE_PAUSED)
        .with("records", Arg::int(held))
        .with("linger", Arg::Duration(sim.world().settings().linger_ms))
}

pub fn zombie_restarted(sim: &Sim<TxnLab>) -> Message {
    Message::new(ZOMBIE_RESTARTED).with("epoch", Arg::int(epochs(sim).last().copied().unwrap_or(0)))
}

/// The zombie's refused request and the error, as the coordinator or the leader answered it.
fn zombie_refusal(sim: &Sim<TxnLab>) -> Option<(&'static str, &'static str)> {
    sim.log().iter().find_map(|e| match e.fact {
        Fact::CoordinatorRefused { request, error, .. } => Some((request, error.name())),
        Fact::ProduceRefused { error, .. } => Some(("Produce", error.name())),
        _ => None,
    })
}

pub fn zombie_fenced(sim: &Sim<TxnLab>) -> Message {
    let (request, error) = zombie_refusal(sim).unwrap_or(("", ""));
    let epochs = epochs(sim);
    Message::new(ZOMBIE_FENCED)
        .with("epoch", Arg::int(epochs.first().copied().unwrap_or(0)))
        .with("request", Arg::kafka(request))
        .with("error", Arg::kafka(error))
        .with("new", Arg::int(epochs.last().copied().unwrap_or(0)))
}

pub fn zombie_answer(sim: &Sim<TxnLab>) -> Message {
    let epochs = epochs(sim);
    let (old, new) = (epochs.first().copied().unwrap_or(0), epochs.last().copied().unwrap_or(0));
    let paused = first_at(sim, |f| matches!(f, Fact::Paused { .. }));
    let woke = first_at(sim, |f| matches!(f, Fact::Resumed { .. }));
    let fenced_at =
        sim.log().iter().rev().find(|e| matches!(e.fact, Fact::ProducerIdAssigned { .. })).map(|e| e.time_ms);
    let writes = sim
        .log()
        .iter()
        .filter(|e| fenced_at.is_some_and(|t| e.time_ms > t))
        .filter_map(|e| match e.fact {
            Fact::Written { epoch, base, last, .. } if epoch == old => Some(last - base + 1),
            _ => None,
        })
        .sum::<u64>();
    let (request, error) = zombie_refusal(sim).map_or((pending(), pending()), |(r, e)| (Arg::kafka(r), Arg::kafka(e)));
    let asleep = paused.zip(woke).map_or_else(pending, |(p, w)| Arg::Duration(w.saturating_sub(p)));
    Message::new(ZOMBIE_ANSWER)
        .with("old", Arg::int(old))
        .with("new", Arg::int(new))
        .with("asleep", asleep)
        .with("request", request)
        .with("error", error)
        .with("writes", Arg::int(writes))
}

/// The first offset of the hung (or aborted) transaction: the LSO while it is open.
fn hung_lso(sim: &Sim<TxnLab>) -> u64 {
    let statuses = sim.world().statuses();
    let first = statuses.iter().position(|s| matches!(s, RecordStatus::Open | RecordStatus::Aborted));
    first.map_or_else(|| sim.world().log().last_stable_offset(), |offset| offset as u64)
}

pub fn hung_intro(sim: &Sim<TxnLab>) -> Message {
    let open = ids_with(sim, |s| matches!(s, RecordStatus::Open | RecordStatus::Aborted));
    Message::new(HUNG_INTRO).with("records", records_arg(open))
}

pub fn aborted_intro(sim: &Sim<TxnLab>) -> Message {
    Message::new(ABORTED_INTRO).with("records", records_arg(ids_with(sim, |s| s == RecordStatus::Committed)))
}

pub fn hung_stalled(sim: &Sim<TxnLab>) -> Message {
    Message::new(HUNG_STALLED).with("lso", Arg::int(hung_lso(sim)))
}

pub fn hung_growing(sim: &Sim<TxnLab>) -> Message {
    let world = sim.world();
    let hw = world.log().high_watermark();
    let lag = hw.saturating_sub(world.consumer(Isolation::ReadCommitted).position);
    Message::new(HUNG_GROWING)
        .with("lag", Arg::int(lag))
        .with("lso", Arg::int(world.log().last_stable_offset()))
        .with("hw", Arg::int(hw))
}

pub fn hung_aborted(sim: &Sim<TxnLab>) -> Message {
    let epoch = sim.log().iter().find_map(|e| match e.fact {
        Fact::TransactionTimedOut { new_epoch, .. } => Some(new_epoch),
        _ => None,
    });
    Message::new(HUNG_ABORTED).with("epoch", Arg::int(epoch.unwrap_or(0)))
}

pub fn hung_answer(sim: &Sim<TxnLab>) -> Message {
    let world = sim.world();
    let timed_out = sim.log().iter().find_map(|e| match e.fact {
        Fact::TransactionTimedOut { started_ms, timeout_ms, .. } => Some((e.time_ms, started_ms, timeout_ms)),
        _ => None,
    });
    let settings = world.settings();
    let (frozen, aborted) = timed_out.map_or((pending(), pending()), |(at, started, _)| {
        (Arg::Duration(at.saturating_sub(started)), Arg::Duration(at))
    });
    Message::new(HUNG_ANSWER)
        .with("lso", Arg::int(hung_lso(sim)))
        .with("frozen", frozen)
        .with("hw", Arg::int(world.log().high_watermark()))
        .with("peak", Arg::int(world.consumer(Isolation::ReadCommitted).peak_lag))
        .with("aborted", aborted)
        .with("timeout", Arg::Duration(settings.transaction_timeout_ms))
        .with("interval", Arg::Duration(settings.abort_check_interval_ms))
}

pub fn aborted_abort(sim: &Sim<TxnLab>) -> Message {
    let offset = sim.log().iter().rev().find_map(|e| match e.fact {
        Fact::MarkerWritten { commit: false, offset, .. } => Some(offset),
        _ => None,
    });
    Message::new(ABORTED_ABORT).with("offset", offset.map_or_else(pending, Arg::int))
}

pub fn aborted_answer(sim: &Sim<TxnLab>) -> Message {
    let world = sim.world();
    let log = world.log();
    let statuses = world.statuses();
    let count = |want: fn(RecordStatus) -> bool| statuses.iter().filter(|s| want(**s)).count();
    let aborted = count(|s| s == RecordStatus::Aborted);
    let markers = count(|s| matches!(s, RecordStatus::Control { .. }));
    Message::new(ABORTED_ANSWER)
        .with("leo", Arg::int(log.log_end_offset()))
        .with("aborted", Arg::int(aborted))
        .with("markers", Arg::int(markers))
        .with("uncommitted", Arg::int(world.consumer(Isolation::ReadUncommitted).received.len()))
        .with("committed", Arg::int(world.consumer(Isolation::ReadCommitted).received.len()))
}
