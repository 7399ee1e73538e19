//! The overview's stories: which facts are key moments, and what each preset shows.

use super::{Cluster, Fact, LeaderChange};
use crate::model::kernel::{Arg, Message, Moment, Salience, Salient, Sim};
use crate::model::story::{Beat, Cue, Story};

impl Salient for Fact {
    fn salience(&self) -> Salience {
        match self {
            Fact::Appended { .. } | Fact::RecordWaiting { .. } => Salience::Routine,
            Fact::PartitionCreated { .. } => Salience::Notable,
            Fact::RecordExpired { .. } => Salience::Key(Moment::Loss),
            Fact::BrokerCrashed | Fact::BrokerRestarted { .. } => Salience::Key(Moment::Fault),
            Fact::BrokerFenced { .. } => Salience::Key(Moment::Fence),
            Fact::IsrShrunk { leader: LeaderChange::Moved { .. } | LeaderChange::Offline, .. } => {
                Salience::Key(Moment::Election)
            }
            Fact::IsrShrunk { .. } => Salience::Key(Moment::IsrShrink),
            Fact::IsrExpanded { .. } => Salience::Key(Moment::IsrExpand),
            Fact::PreferredLeaderElected { .. } => Salience::Key(Moment::Election),
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
    CRASH_WATCH = "overview.story.crash.watch" => "Watch broker-1: it crashes at 3 s. Count the seconds until the controller fences it.";
    CRASH_ANSWER = "overview.story.crash.answer" =>
        "fenced {fenced_after} after the crash (broker.session.timeout.ms); {moved, plural, one {# partition} other {# partitions}} changed leader; preferred leaders back at {preferred_at}";
    CRASH_ANSWER_PENDING = "overview.story.crash.pending" => "not yet";
    CRASH_INTRO = "overview.story.crash.intro" => "Three brokers, every partition led by its preferred replica. broker-1 is about to crash.";
    CRASH_DOWN = "overview.story.crash.down" =>
        "broker-1 crashed. The controller notices only when broker.session.timeout.ms = {timeout} passes without a heartbeat.";
    CRASH_FENCED = "overview.story.crash.fenced" =>
        "The controller fenced broker-1: it leaves every ISR, and its partitions get a new leader from the ISR.";
    CRASH_BACK = "overview.story.crash.back" => "broker-1 is back. It rejoins the ISR once caught up, but leads nothing yet.";
    CRASH_PREFERRED = "overview.story.crash.preferred" =>
        "auto.leader.rebalance.enable: after leader.imbalance.check.interval.seconds the preferred replica leads again.";
    BURST_QUESTION = "overview.story.burst.question" => "Where do 600 keyed records land?";
    BURST_WATCH = "overview.story.burst.watch" => "Press Play: one burst of 600 records, each key hashed to its partition.";
    BURST_ANSWER = "overview.story.burst.answer" => "log end offsets: {offsets}";
}

/// When the first fact matching `is` was logged.
fn first_ms(sim: &Sim<Cluster>, is: impl Fn(&Fact) -> bool) -> Option<u64> {
    sim.log().iter().find(|e| is(&e.fact)).map(|e| e.time_ms)
}

fn default_answer(sim: &Sim<Cluster>) -> Message {
    let views = sim.world().partition_views();
    let led = views.iter().filter(|p| p.leader.is_some()).count();
    let under = views.iter().filter(|p| p.isr.len() < p.replicas.len()).count();
    Message::new(DEFAULT_ANSWER)
        .with("led", Arg::int(led))
        .with("partitions", Arg::int(views.len()))
        .with("under", Arg::int(under))
        .with("acked", Arg::int(sim.world().producer_stats().acknowledged))
}

fn crash_answer(sim: &Sim<Cluster>) -> Message {
    let crashed = first_ms(sim, |f| matches!(f, Fact::BrokerCrashed));
    let fenced = first_ms(sim, |f| matches!(f, Fact::BrokerFenced { .. }));
    let moved = sim
        .log()
        .iter()
        .filter(|e| {
            matches!(e.fact, Fact::IsrShrunk { leader: LeaderChange::Moved { .. } | LeaderChange::Offline, .. })
        })
        .count();
    let preferred = first_ms(sim, |f| matches!(f, Fact::PreferredLeaderElected { .. }));
    let pending = || Arg::Message(Box::new(Message::new(CRASH_ANSWER_PENDING)));
    Message::new(CRASH_ANSWER)
        .with("fenced_after", crashed.zip(fenced).map_or_else(pending, |(c, f)| Arg::Duration(f - c)))
        .with("moved", Arg::int(moved))
        .with("preferred_at", preferred.map_or_else(pending, Arg::Duration))
}

fn offsets_answer(sim: &Sim<Cluster>) -> Message {
    let offsets: Vec<String> =
        sim.world().partition_views().iter().map(|p| format!("P{} {}", p.partition, p.log_end_offset)).collect();
    Message::new(BURST_ANSWER).with("offsets", Arg::text(offsets.join(" · ")))
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
    Beat { cue: Cue::Last(Moment::Election), say: |_| Message::new(CRASH_PREFERRED) },
];

/// The overview's story for `preset` (`None`: the scene's default).
pub fn story(preset: Option<&str>) -> Story<Cluster> {
    match preset {
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
            outcome: Cue::At(1),
            answer: offsets_answer,
            beats: &[],
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
