//! The overview's stories: which facts are key moments, and what each preset shows.

use super::{Cluster, Fact, LeaderChange};
use crate::model::kernel::{Arg, Message, Moment, Salience, Salient, Sim};
use crate::model::story::{Beat, Cue, Story};

impl Salient for Fact {
    fn salience(&self) -> Salience {
        match self {
            Fact::Appended { .. } | Fact::RecordWaiting { .. } => Salience::Routine,
            Fact::PartitionCreated { .. }
            | Fact::RegistrationRefused { .. }
            | Fact::BrokerRegistered { .. }
            | Fact::BrokerUnfenced { .. }
            | Fact::LogTruncated { .. } => Salience::Notable,
            // Never acknowledged: the send callback gets a TimeoutException (not a loss of acked data).
            Fact::RecordExpired { .. } => Salience::Key(Moment::Expiry),
            Fact::BrokerCrashed | Fact::BrokerRestarted { .. } => Salience::Key(Moment::Fault),
            Fact::BrokerFenced { .. } => Salience::Key(Moment::Fence),
            Fact::IsrShrunk { leader: LeaderChange::Moved { .. } | LeaderChange::Offline, .. } => {
                Salience::Key(Moment::Election)
            }
            Fact::IsrShrunk { .. } => Salience::Key(Moment::IsrShrink),
            Fact::IsrExpanded { leader: LeaderChange::Elected { .. }, .. } => Salience::Key(Moment::Election),
            Fact::IsrExpanded { .. } => Salience::Key(Moment::IsrExpand),
            Fact::PreferredLeaderElected { .. } | Fact::LeaderElected { .. } => Salience::Key(Moment::Election),
        }
    }
}

crate::messages! {
    pub STORY_KEYS;
    DEFAULT_QUESTION = "overview.story.default.question" => "Who leads each partition, and is every replica in sync?";
    DEFAULT_WATCH = "overview.story.default.watch" => "Press Play: the producer sends keyed records; crash a broker to see what changes.";
    DEFAULT_ANSWER = "overview.story.default.answer" =>
        "{led} of {partitions} partitions have a leader, {under} under-replicated; {acked, plural, =0 {no record acknowledged yet} one {# record acknowledged} other {# records acknowledged}}";
    CRASH_QUESTION = "overview.story.crash.question" => "When broker-1 dies, how long until its partitions lead elsewhere, and when does it lead again?";
    CRASH_WATCH = "overview.story.crash.watch" => "Watch broker-1 crash, then count the seconds until the controller fences it and until it leads again.";
    CRASH_ANSWER = "overview.story.crash.answer" =>
        "fenced {fenced_after} after the crash, broker.session.timeout.ms after its last heartbeat at {heartbeat_at}; {moved, plural, one {# partition} other {# partitions}} changed leader; preferred leaders back at {preferred_at}, {after_restart} after the restart";
    CRASH_ANSWER_PENDING = "overview.story.crash.pending" => "not yet";
    CRASH_INTRO = "overview.story.crash.intro" => "Three brokers, every partition led by its preferred replica. broker-1 is about to crash.";
    CRASH_DOWN = "overview.story.crash.down" =>
        "broker-1 crashed. The controller notices only when broker.session.timeout.ms = {timeout} passes without a heartbeat.";
    CRASH_FENCED = "overview.story.crash.fenced" =>
        "The controller fenced broker-1: it leaves every ISR, and its partitions get a new leader from the ISR.";
    CRASH_BACK = "overview.story.crash.back" => "broker-1 is back. It rejoins the ISR once caught up, but leads nothing yet.";
    CRASH_PREFERRED = "overview.story.crash.preferred" =>
        "auto.leader.rebalance.enable: leader.imbalance.check.interval.seconds = {interval} after the fence left partitions off their preferred leader, the controller checks, and the preferred replica, back in the ISR, leads again.";
    BURST_QUESTION = "overview.story.burst.question" => "Where do the keyed records of a burst land, partition by partition?";
    BURST_WATCH = "overview.story.burst.watch" =>
        "Watch the log end offsets: each partition grows by the records of the keys that hash to it.";
    BURST_ANSWER = "overview.story.burst.answer" =>
        "busiest {partition}: {records} of {total} records ({percent} %) from {keys} of the {distinct} keys; quietest {quiet}: {quiet_records}";
    BURST_INTRO = "overview.story.burst.intro" =>
        "One producer, {partitions} partitions, keys key-0 to key-{last}. It sends one record, then a burst: watch which partition each key picks.";
    BURST_FIRST = "overview.story.burst.first" =>
        "The first record: {key} goes to {partition}, murmur2 of its bytes modulo {partitions}. Every later {key} record lands there too.";
    BURST_DONE = "overview.story.burst.done" =>
        "{records, plural, one {# more record} other {# more records}}: a partition gets the records of the keys that hash to it, so uneven keys make uneven partitions.";
}

/// When the first fact matching `is` was logged.
fn first_ms(sim: &Sim<Cluster>, is: impl Fn(&Fact) -> bool) -> Option<u64> {
    sim.log().iter().find(|e| is(&e.fact)).map(|e| e.time_ms)
}

fn nested(message: Message) -> Arg {
    Arg::Message(Box::new(message))
}

/// `orders-3`, as the facts write a partition.
fn partition_arg(partition: u32) -> Arg {
    Arg::text(format!("{}-{partition}", super::TOPIC))
}

/// `part / total` as a percentage with one decimal, rounded half up, without floats.
fn percent_arg(part: u64, total: u64) -> Arg {
    let units = (part * 1000 + total / 2).checked_div(total).unwrap_or(0);
    Arg::Decimal { units: units as i64, places: 1 }
}

fn default_answer(sim: &Sim<Cluster>) -> Message {
    let views = sim.world().partition_views();
    let led = views.iter().filter(|p| p.leader.is_some()).count();
    let under = views.iter().filter(|p| p.isr.len() < p.replicas.len()).count();
    let acked = sim.world().producer_stats().acknowledged;
    Message::new(DEFAULT_ANSWER)
        .with("led", Arg::int(led))
        .with("partitions", Arg::int(views.len()))
        .with("under", Arg::int(under))
        .with("acked", Arg::int(acked))
}

fn crash_answer(sim: &Sim<Cluster>) -> Message {
    let crashed = first_ms(sim, |f| matches!(f, Fact::BrokerCrashed));
    let fenced = first_ms(sim, |f| matches!(f, Fact::BrokerFenced { .. }));
    let heartbeat = sim.log().iter().find_map(|e| match e.fact {
        Fact::BrokerFenced { last_heartbeat_ms, .. } => Some(last_heartbeat_ms),
        _ => None,
    });
    let moved = sim
        .log()
        .iter()
        .filter(|e| {
            matches!(e.fact, Fact::IsrShrunk { leader: LeaderChange::Moved { .. } | LeaderChange::Offline, .. })
        })
        .count();
    let restarted = first_ms(sim, |f| matches!(f, Fact::BrokerRestarted { .. }));
    let preferred = first_ms(sim, |f| matches!(f, Fact::PreferredLeaderElected { .. }));
    let pending = || nested(Message::new(CRASH_ANSWER_PENDING));
    let after = |from: Option<u64>, to: Option<u64>| {
        from.zip(to).filter(|(f, t)| f <= t).map_or_else(pending, |(f, t)| Arg::Duration(t - f))
    };
    Message::new(CRASH_ANSWER)
        .with("fenced_after", after(crashed, fenced))
        .with("heartbeat_at", heartbeat.map_or_else(pending, Arg::Duration))
        .with("moved", Arg::int(moved))
        .with("preferred_at", preferred.map_or_else(pending, Arg::Duration))
        .with("after_restart", after(restarted, preferred))
}

/// The busiest and the quietest partition after the burst, and how many keys hash to each.
fn burst_answer(sim: &Sim<Cluster>) -> Message {
    let world = sim.world();
    let views = world.partition_views();
    let total: i64 = views.iter().map(|p| p.log_end_offset).sum();
    // The first of equals, in partition order.
    let busiest = views.iter().rev().max_by_key(|p| p.log_end_offset);
    let quietest = views.iter().min_by_key(|p| p.log_end_offset);
    let (busiest, quietest) = busiest.zip(quietest).expect("a topic has at least one partition");
    let distinct = world.settings().distinct_keys as u32;
    let keys = (0..distinct).filter(|k| world.partition_of(*k) == busiest.partition).count();
    Message::new(BURST_ANSWER)
        .with("partition", partition_arg(busiest.partition))
        .with("records", Arg::int(busiest.log_end_offset))
        .with("total", Arg::Count(total))
        .with("percent", percent_arg(busiest.log_end_offset as u64, total as u64))
        .with("keys", Arg::int(keys))
        .with("distinct", Arg::int(distinct))
        .with("quiet", partition_arg(quietest.partition))
        .with("quiet_records", Arg::int(quietest.log_end_offset))
}

fn burst_intro(sim: &Sim<Cluster>) -> Message {
    let settings = sim.world().settings();
    Message::new(BURST_INTRO)
        .with("partitions", Arg::int(settings.partitions))
        .with("last", Arg::int(settings.distinct_keys.saturating_sub(1)))
}

/// The latest append in the log: which key went to which partition.
fn burst_first(sim: &Sim<Cluster>) -> Message {
    let last = sim.log().iter().rev().find_map(|e| match e.fact {
        Fact::Appended { key_id, partition, .. } => Some((key_id, partition)),
        _ => None,
    });
    let (key_id, partition) = last.unwrap_or_default();
    Message::new(BURST_FIRST)
        .with("key", Arg::text(Cluster::key_text(key_id)))
        .with("partition", partition_arg(partition))
        .with("partitions", Arg::int(sim.world().partitions().len()))
}

/// How many records came after the first one.
fn burst_done(sim: &Sim<Cluster>) -> Message {
    let more = sim.world().producer_stats().sent.saturating_sub(1);
    Message::new(BURST_DONE).with("records", Arg::int(more))
}

const CRASH_BEATS: &[Beat<Cluster>] = &[
    Beat { cue: Cue::Start, say: |_| Message::new(CRASH_INTRO) },
    Beat {
        cue: Cue::Nth(Moment::Fault, 1),
        say: |sim| {
            Message::new(CRASH_DOWN).with("timeout", Arg::Duration(sim.world().settings().broker_session_timeout_ms))
        },
    },
    Beat { cue: Cue::Nth(Moment::Fence, 1), say: |_| Message::new(CRASH_FENCED) },
    Beat { cue: Cue::Nth(Moment::Fault, 2), say: |_| Message::new(CRASH_BACK) },
    Beat {
        cue: Cue::Last(Moment::Election),
        say: |sim| {
            let interval_ms = sim.world().settings().leader_imbalance_check_interval_ms;
            Message::new(CRASH_PREFERRED).with("interval", Arg::Duration(interval_ms))
        },
    },
];

const BURST_BEATS: &[Beat<Cluster>] = &[
    Beat { cue: Cue::Start, say: burst_intro },
    Beat { cue: Cue::At(1), say: burst_first },
    Beat { cue: Cue::At(2), say: burst_done },
];

/// The overview's story for `preset` (`None`: the scene's default).
pub fn story(preset: Option<&str>) -> Story<Cluster> {
    match preset {
        // Opens one second before the crash (w1000x3 then kill-1); at 30× the five-minute wait for
        // the preferred-leader check (due 300 s after the fence at 11 s) takes about ten seconds.
        Some("leader-crash") => Story {
            start: Cue::At(3),
            speed: 30.0,
            question: |_| Message::new(CRASH_QUESTION),
            watch: |_| Message::new(CRASH_WATCH),
            outcome: Cue::Last(Moment::Election),
            answer: crash_answer,
            beats: CRASH_BEATS,
        },
        Some("burst") => Story {
            start: Cue::At(0),
            speed: 1.0,
            question: |_| Message::new(BURST_QUESTION),
            watch: |_| Message::new(BURST_WATCH),
            outcome: Cue::At(2),
            answer: burst_answer,
            beats: BURST_BEATS,
        },
        _ => Story {
            start: Cue::At(0),
            speed: 1.0,
            question: |_| Message::new(DEFAULT_QUESTION),
            watch: |_| Message::new(DEFAULT_WATCH),
            outcome: Cue::Start,
            answer: default_answer,
            beats: &[],
        },
    }
}
