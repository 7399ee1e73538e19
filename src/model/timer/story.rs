//! The timer scene's stories: which facts are key moments, and what each preset shows.
//!
//! A task that fires is a key moment (Fire), and so is a sandbox task falling into a finer
//! wheel: the fall is its coarse bucket expiring (`SystemTimer.advanceClock` moves the wheels'
//! clocks, then flushes the bucket's `TimerTaskList` through `addTimerTaskEntry`, which re-adds
//! the task one level down), the moment the hierarchy exists for.
//! The purgatory's own long polls and the steady stream's tasks are routine: they come and
//! go every few hundred ms. A `DelayedProduce` is what the purgatory presets are about: its
//! completion is a Fire, its timeout an Expiry.

mod purgatory;
#[cfg(test)]
mod tests;
mod wheel;

use super::{Fact, PurgatoryFact, TaskOrigin, TimerLab, PRODUCE_EVERY, STREAM_EVERY_MS};
use crate::model::kernel::{Arg, Message, Moment, Salience, Salient, Sim};
use crate::model::story::{Cue, Story};

/// A sandbox task's, a `DelayedProduce`'s, and a background task's (fetches, the stream) salience.
fn by_origin(origin: &TaskOrigin, user: Salience, produce: Salience) -> Salience {
    match origin {
        TaskOrigin::User { .. } => user,
        TaskOrigin::DelayedProduce { .. } => produce,
        TaskOrigin::DelayedFetch { .. } | TaskOrigin::Stream { .. } => Salience::Routine,
    }
}

impl Salient for Fact {
    fn salience(&self) -> Salience {
        let (notable, fire) = (Salience::Notable, Salience::Key(Moment::Fire));
        match self {
            Fact::TaskParked { origin, .. } | Fact::TaskCancelled { origin, .. } => by_origin(origin, notable, notable),
            Fact::TaskAlreadyExpired { origin, .. } | Fact::TaskRan { origin, .. } => by_origin(origin, fire, notable),
            // The fall is its coarse bucket expiring (`SystemTimer.advanceClock` re-adds it).
            Fact::TaskFell { origin, .. } => by_origin(origin, Salience::Key(Moment::Fall), notable),
            Fact::Purgatory(fact) => fact.salience(),
        }
    }
}

impl Salient for PurgatoryFact {
    fn salience(&self) -> Salience {
        match self {
            PurgatoryFact::Appended { .. }
            | PurgatoryFact::FollowerFetchCompletedEarly { .. }
            | PurgatoryFact::FollowerFetchExpired { .. }
            | PurgatoryFact::StaleFollowerFetchExpired { .. }
            | PurgatoryFact::FollowerFetched { .. }
            | PurgatoryFact::ConsumerFetchCompletedEarly { .. }
            | PurgatoryFact::ConsumerFetchExpired { .. }
            | PurgatoryFact::ConsumerReceived { .. } => Salience::Routine,
            PurgatoryFact::LeaderStarted { .. }
            | PurgatoryFact::AcknowledgedAtOnce { .. }
            | PurgatoryFact::AlreadySatisfied { .. }
            | PurgatoryFact::ProduceParked { .. }
            | PurgatoryFact::HighWatermarkMoved { .. } => Salience::Notable,
            PurgatoryFact::ProduceCompleted { .. } => Salience::Key(Moment::Fire),
            PurgatoryFact::ProduceExpired { .. } => Salience::Key(Moment::Expiry),
            PurgatoryFact::FollowerCrashed
            | PurgatoryFact::FetcherStalled
            | PurgatoryFact::FetcherResumed { .. }
            | PurgatoryFact::FollowerRestarted { .. } => Salience::Key(Moment::Fault),
            PurgatoryFact::IsrExpanded { .. } => Salience::Key(Moment::IsrExpand),
            PurgatoryFact::IsrShrunk { .. } => Salience::Key(Moment::IsrShrink),
            PurgatoryFact::BrokerFenced { .. } => Salience::Key(Moment::Fence),
        }
    }
}

crate::messages! {
    pub STORY_KEYS;
    DEFAULT_QUESTION = "timer.story.default.question" =>
        "How much work does the wheel do for a steady stream of timeouts, next to a heap?";
    DEFAULT_WATCH = "timer.story.default.watch" =>
        "Press Play: every {every} a task is added, most waiting {fetch_config} = {fetch}, one in {n} waiting {produce_config} = {produce}. Watch them fall ring by ring and fire.";
    DEFAULT_ANSWER = "timer.story.default.answer" =>
        "{pending, plural, =0 {no task pending} one {# task pending} other {# tasks pending}} on {levels, plural, one {# wheel} other {# wheels}}; {fired, plural, =0 {none fired} one {# fired} other {# fired}}, {fell, plural, =0 {none fell} one {# fell} other {# fell}} into a finer wheel; work: wheel {wheel}, heap {heap}";
    LIST = "timer.story.list" => "{first}; {rest}";
    PATH_PARKED = "timer.story.path.parked" => "level {level} bucket {bucket}";
    PATH_FELL = "timer.story.path.fell" => "{path} → level {level} bucket {bucket} at {at}";
    JOURNEY_RAN = "timer.story.path.ran" => "{label}: {path} → fired at {at}";
    JOURNEY_WAITING = "timer.story.path.waiting" => "{label}: {path} → not fired yet";
    NO_TASK = "timer.story.path.none" => "no task added yet";
    FIRED = "timer.story.fired" => "{label} fired at {at}, from level {level} bucket {bucket}: currentTime is now {now}.";
    FELL = "timer.story.fell" =>
        "At {at} level {from_level} bucket {from_bucket} expired: {label} is re-added and falls into level {level} bucket {bucket}.";
    SINGLE_QUESTION = "timer.story.single.question" =>
        "On one wheel of {size} buckets of {tick} (interval {interval}), where do tasks of 2, 8 and 19 ms wait, and when does each fire?";
    SINGLE_WATCH = "timer.story.single.watch" =>
        "Watch the pointer (currentTime): task3 expires past the ring's end, so it reuses a bucket whose first round already expired.";
    SINGLE_INTRO = "timer.story.single.intro" =>
        "One wheel: tickMs {tick} × wheelSize {size} = interval {interval}. task1 (2 ms) goes in now; task2 (8 ms) and task3 (19 ms) once currentTime is 2 ms.";
    SINGLE_WRAP = "timer.story.single.wrap" =>
        "currentTime {now}: {a} expires at {a_at} → bucket {a_bucket}. {b} expires at {b_at}, beyond the ring's {interval}: it wraps round to bucket {b_bucket}, whose first round already expired.";
    HIER_QUESTION = "timer.story.hierarchy.question" =>
        "A 350 ms task does not fit level 0 (interval {interval0}): where does it wait, and how does it still fire on time?";
    HIER_WATCH = "timer.story.hierarchy.watch" =>
        "Watch the level 1 ring: when its bucket expires the task falls into level 0, then the pointer reaches it.";
    HIER_INTRO = "timer.story.hierarchy.intro" =>
        "Level 0 spans only {interval0} (tickMs {tick} × wheelSize {size}). Further tasks go up to level 1, whose buckets are {tick1} wide and span {interval1}.";
    HIER_PARKED = "timer.story.hierarchy.parked" =>
        "{label} expires at {expiration}: under {interval1}, so it waits in level {level} bucket {bucket}, which expires at {bucket_at}. Nobody looks at it before then.";
    HIER_FELL = "timer.story.hierarchy.fell" =>
        "At {at} level 1's bucket expired. {label} is re-added: {left} to go fits level 0's {interval0}, so it falls into level {level} bucket {bucket}.";
    THIRD_QUESTION = "timer.story.third.question" =>
        "Why does a 7999 ms task fit three wheels while 8000 ms needs a fourth, and how does each come down?";
    THIRD_WATCH = "timer.story.third.watch" =>
        "Watch the outer rings: the third wheel's bucket expires shortly before 8 s and its task falls twice; the fourth wheel's task fires straight from level 3.";
    THIRD_INTRO = "timer.story.third.intro" =>
        "Level 2 (tickMs {tick2}) spans {interval2}: a task due before that fits it; one due at {interval2} or later needs level 3 (tickMs {interval2}).";
    THIRD_PARKED = "timer.story.third.parked" => "{a} waits in level {a_level} bucket {a_bucket}; {b} in level {b_level} bucket {b_bucket}.";
    PRODUCE_PARKED = "timer.story.produce.parked" =>
        "The record is appended (LEO {leo}) but the HW is {hw}: DelayedProduce #{request} waits in level {level} bucket {bucket}, due at {due} (request.timeout.ms = {timeout}).";
    ISR_QUESTION = "timer.story.isr.question" =>
        "An acks=all produce with every follower healthy: how long does its DelayedProduce wait, and does its timer task ever fire?";
    ISR_WATCH = "timer.story.isr.watch" =>
        "Watch the fourth ring (level 3): the DelayedProduce's square, and the HW as the followers fetch.";
    ISR_INTRO = "timer.story.isr.intro" =>
        "broker-1 leads orders-0, ISR {isr}, acks=all. One record is about to be produced: it waits until the HW passes it, at most request.timeout.ms = {timeout}.";
    ISR_DONE = "timer.story.isr.done" =>
        "Both followers fetched the record: the HW moved to {hw} and DelayedProduce #{request} completed after {waited}. Its timer task is cancelled, never fired.";
    COMPLETED_ANSWER = "timer.story.produce.completed" =>
        "DelayedProduce #{request} completed at {at}, after {waited} (HW {hw}, ISR {isr}), long before request.timeout.ms = {timeout}: its timer task was cancelled, not fired";
    STALL_QUESTION = "timer.story.stall.question" =>
        "A follower's fetcher stalls but its broker keeps heartbeating: what happens to an acks=all produce?";
    STALL_WATCH = "timer.story.stall.watch" =>
        "Watch the DelayedProduce on the outer ring and the ISR: which comes first, request.timeout.ms or replica.lag.time.max.ms?";
    STALL_INTRO = "timer.story.stall.intro" =>
        "A follower's fetcher is about to stall while its broker keeps heartbeating, so the controller will not fence it. Then one record is produced with acks=all.";
    STALL_DOWN = "timer.story.stall.down" =>
        "broker-{replica}'s fetcher stalled. Only the leader's ISR check can drop it, once it is behind for more than replica.lag.time.max.ms = {lag} (checked every {every}).";
    STALL_EXPIRED = "timer.story.stall.expired" =>
        "request.timeout.ms = {timeout} passed: the wheel fired DelayedProduce #{request}, the producer gets REQUEST_TIMED_OUT, and broker-{replica} is still in the ISR.";
    STALL_SHRUNK = "timer.story.stall.shrunk" =>
        "At {at} the ISR check drops broker-{replica}: ISR {isr}, HW {hw}. Too late for request #{request}.";
    STALL_ANSWER = "timer.story.stall.answer" =>
        "DelayedProduce #{request} expired at {at} after request.timeout.ms = {timeout} with HW {hw} < {required}: the stalled broker-{replica} still held the HW back from inside the ISR; {shrink}";
    STALL_LEFT = "timer.story.stall.left" => "it left the ISR only at {at} (replica.lag.time.max.ms = {lag})";
    STALL_STILL = "timer.story.stall.still" => "it is still in the ISR (replica.lag.time.max.ms = {lag})";
    CRASH_QUESTION = "timer.story.crash.question" =>
        "A follower crashes just before an acks=all produce: does the produce time out, or complete, and when?";
    CRASH_WATCH = "timer.story.crash.watch" =>
        "Watch the DelayedProduce on the outer ring: broker.session.timeout.ms is shorter than request.timeout.ms.";
    CRASH_INTRO = "timer.story.crash.intro" =>
        "A follower is about to crash (kill -9) just before one record is produced with acks=all: its fetches and its heartbeats stop.";
    CRASH_DOWN = "timer.story.crash.down" =>
        "broker-{replica} crashed, but the ISR still lists it, so the HW cannot move. The controller fences it only after broker.session.timeout.ms = {session}.";
    CRASH_DONE = "timer.story.crash.done" =>
        "At {at} the controller fenced broker-{replica}: ISR {isr}, HW {hw}, and DelayedProduce #{request} completed after {waited}.";
    CRASH_ANSWER = "timer.story.crash.answer" =>
        "DelayedProduce #{request} completed at {at}, after {waited}: the controller fenced broker-{replica} after broker.session.timeout.ms = {session}, the ISR shrank to {isr} and the HW reached {hw}, before request.timeout.ms = {timeout}";
}

/// A nested message argument.
fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

/// The live figures of the default story: pending tasks, fires, falls, and both queues' work.
fn default_answer(sim: &Sim<TimerLab>) -> Message {
    let world = sim.world();
    let ops = world.ops();
    Message::new(DEFAULT_ANSWER)
        .with("pending", Arg::int(world.pending_tasks().len()))
        .with("levels", Arg::int(ops.wheel_levels))
        .with("fired", Arg::int(ops.wheel.fired))
        .with("fell", Arg::int(ops.wheel.reinserts))
        .with("wheel", Arg::int(ops.wheel.work))
        .with("heap", Arg::int(ops.heap.work))
}

fn default_watch(sim: &Sim<TimerLab>) -> Message {
    let settings = sim.world().settings();
    Message::new(DEFAULT_WATCH)
        .with("every", Arg::Duration(STREAM_EVERY_MS))
        .with("fetch_config", Arg::kafka("fetch.max.wait.ms"))
        .with("fetch", Arg::Duration(settings.fetch_max_wait_ms))
        .with("n", Arg::int(PRODUCE_EVERY))
        .with("produce_config", Arg::kafka("request.timeout.ms"))
        .with("produce", Arg::Duration(settings.request_timeout_ms))
}

/// The scene's story for `preset` (`None`: the scene's default, fed by the steady stream).
pub fn story(preset: Option<&str>) -> Story<TimerLab> {
    match preset {
        Some("single-wheel") => wheel::single_wheel(),
        Some("hierarchy-350") => wheel::hierarchy(),
        Some("third-wheel") => wheel::third_wheel(),
        Some("purgatory-isr") => purgatory::healthy_isr(),
        Some("purgatory-stalled-follower") => purgatory::stalled_follower(),
        Some("purgatory-crashed-follower") => purgatory::crashed_follower(),
        _ => Story {
            start: Cue::At(0),
            speed: 0.1,
            question: |_| Message::new(DEFAULT_QUESTION),
            watch: default_watch,
            outcome: Cue::Start,
            answer: default_answer,
            beats: &[],
        },
    }
}
