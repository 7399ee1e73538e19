//! The partitioner scene's stories: which facts are key moments, and what each preset shows.

use super::story_adaptive::{adaptive_answer, adaptive_intro, adaptive_progress, adaptive_question, adaptive_watch};
use super::story_says::{
    default_answer, mega_answer, mega_intro, mega_remapped, mega_round, reorder_answer, reorder_broken, reorder_hashed,
    reorder_intro, reorder_remapped, sticky_answer, sticky_intro, sticky_question, sticky_switch,
};
use super::{Fact, Partitioner};
use crate::model::kernel::{Message, Moment, Salience, Salient};
use crate::model::story::{Beat, Cue, Story};

impl Salient for Fact {
    fn salience(&self) -> Salience {
        match self {
            Fact::BatchCreated { .. } | Fact::BatchSent { .. } | Fact::KeyedRecordSent { .. } => Salience::Routine,
            Fact::TopicCreated { .. }
            | Fact::PartitionsAdded { .. }
            | Fact::DistributionSet { .. }
            | Fact::CompositeSet { .. }
            | Fact::KeyedSent { .. }
            | Fact::TrackedSent { .. }
            | Fact::Processed { .. }
            | Fact::StreamStarted { .. }
            | Fact::BrokerBusy { .. }
            | Fact::PartitionsAvailable { .. } => Salience::Notable,
            // The answers this scene exists to show: where a key goes, where keys go after
            // --alter, the per-partition counts, each sticky decision, and the order breaking.
            Fact::KeyHashed { .. }
            | Fact::KeysRemapped { .. }
            | Fact::EndOffsets { .. }
            | Fact::StickySwitched { .. }
            | Fact::PartitionsUnavailable { .. }
            | Fact::OrderBroken { .. } => Salience::Key(Moment::Answer),
        }
    }
}

crate::messages! {
    pub STORY_KEYS;
    DEFAULT_QUESTION = "partitioner.story.default.question" =>
        "Which partition does each keyed record go to, and how evenly do the partitions fill?";
    DEFAULT_WATCH = "partitioner.story.default.watch" =>
        "Press Play: a steady producer sends keyed records through Kafka's default partitioner. Type a key to follow it.";
    DEFAULT_EMPTY = "partitioner.story.default.empty" => "{partitions} partitions, no record yet";
    DEFAULT_ANSWER = "partitioner.story.default.answer" =>
        "{records, plural, one {# record} other {# records}} in {partitions} partitions; busiest {partition} with {percent} % (an even split is {even} %)";
    PENDING = "partitioner.story.pending" => "not yet";
    CLIENTE_QUESTION = "partitioner.story.cliente_42.question" =>
        "The topic grows from 12 to 24 partitions: where do cliente-42's new events go, and are they still processed in order?";
    ORDERID_QUESTION = "partitioner.story.orderid_6_12.question" =>
        "The topic grows from 6 to 12 partitions: where do order-1001's new events go, and are they still processed in order?";
    REORDER_WATCH = "partitioner.story.reorder.watch" =>
        "Watch the key's events: those sent before --alter wait behind a backlog in the old partition; the next one goes to a new, empty partition.";
    REORDER_INTRO = "partitioner.story.reorder.intro" =>
        "{partitions} partitions. First a backlog of keyed records, then one key's events; then --alter adds partitions.";
    REORDER_HASHED = "partitioner.story.reorder.hashed" =>
        "{key}: toPositive(murmur2) % {partitions} = {index}, so all its events go to {partition}, in order.";
    REORDER_REMAPPED = "partitioner.story.reorder.remapped" =>
        "{to} partitions now: {key}'s new events go to {after}, not {before}. No record moves: the earlier ones stay in {before}, whose consumer still has {lag} records to go.";
    REORDER_BROKEN = "partitioner.story.reorder.broken" =>
        "{event} was processed first: {after} had nothing before it, while {earlier} still wait in {before}.";
    REORDER_EVENT = "partitioner.story.reorder.event" => "{event}";
    REORDER_ANSWER = "partitioner.story.reorder.answer" =>
        "{key}: {before} with {from} partitions → {after} with {to}; {out, plural, one {# event} other {# events}} of {total} processed before an earlier one ({event} before {earlier})";
    REORDER_IN_ORDER = "partitioner.story.reorder.in_order" =>
        "{key}: {before} with {from} partitions → {after} with {to}; all {total} events processed in order";
    MEGA_QUESTION = "partitioner.story.megacorp.question" =>
        "One customer sends a large share of the records: does adding partitions spread its load, or does a composite key?";
    MEGA_WATCH = "partitioner.story.megacorp.watch" =>
        "Watch the end offsets after each burst of records: which partition gets the most, and by how much?";
    MEGA_INTRO = "partitioner.story.megacorp.intro" =>
        "{partitions} partitions; {percent} % of the records carry the key MEGACORP. A burst of records is about to go out.";
    MEGA_ROUND = "partitioner.story.megacorp.round" =>
        "{partitions} partitions: every MEGACORP record lands in {hot}, which takes {percent} % of the burst; its consumer falls behind while the others idle.";
    MEGA_COMPOSITE = "partitioner.story.megacorp.composite" =>
        "MEGACORP-<n % {buckets}>: the hot key now lands in {spread} partitions and the busiest, {busiest}, takes {percent} %. The price: MEGACORP's records are no longer in one order.";
    MEGA_BUSIEST = "partitioner.story.megacorp.busiest" =>
        "{partitions} partitions: the busiest, {busiest}, takes {percent} % of the burst.";
    MEGA_REMAPPED = "partitioner.story.megacorp.remapped" =>
        "{to} partitions: MEGACORP moves from {before} to {after}, still one partition. Adding partitions moves keys; it never splits one.";
    MEGA_ANSWER = "partitioner.story.megacorp.answer" => "busiest partition per burst: {shares}";
    MEGA_SHARE = "partitioner.story.megacorp.share" => "{percent} % on {partitions} partitions";
    MEGA_SHARE_COMPOSITE = "partitioner.story.megacorp.share_composite" => "{percent} % with the composite key";
    MEGA_CHAIN = "partitioner.story.megacorp.chain" => "{first} → {rest}";
    STICKY_QUESTION = "partitioner.story.sticky.question" =>
        "Records without a key: which partition do they go to, and how full are their batches?";
    STICKY_FULL_QUESTION = "partitioner.story.sticky_full_batches.question" =>
        "With linger.ms = {linger}, do the batches fill up before they leave?";
    STICKY_LINGER_0_QUESTION = "partitioner.story.sticky_linger_0.question" =>
        "With linger.ms = {linger}, how many records does each batch carry?";
    STICKY_WATCH = "partitioner.story.sticky.watch" =>
        "Watch the batches: each leaves when full or after linger.ms; the partition changes only after batch.size bytes went to it.";
    STICKY_INTRO = "partitioner.story.sticky.intro" =>
        "Records without a key, {value} B each, {rate} per second. The sticky partitioner stays on one partition until batch.size = {batch} B went there; a batch leaves when full or after linger.ms = {linger}.";
    STICKY_MOVED = "partitioner.story.sticky.moved" =>
        "{bytes} B went to {from} since it was drawn, at least batch.size: the producer draws the next partition and gets {to}.";
    STICKY_AGAIN = "partitioner.story.sticky.again" =>
        "{bytes} B went to {from}: the producer draws again and gets {from} once more. The draw is uniform over all {partitions} partitions.";
    STICKY_ANSWER = "partitioner.story.sticky.answer" =>
        "{batches, plural, one {# batch} other {# batches}} of {records} records on average, {fill} % of batch.size ({full} full, {lingered} sent after linger.ms); the partition changed {changes, plural, one {# time} other {# times}} in {draws} draws";
    ADAPTIVE_QUESTION = "partitioner.story.adaptive.question" =>
        "Broker {broker} answers a produce request only after {latency} ms: do its partitions still get an even share ({even} %) of the records without a key?";
    ADAPTIVE_TIMEOUT_QUESTION = "partitioner.story.adaptive_timeout.question" =>
        "Broker {broker} answers only after {latency} ms, and partitioner.availability.timeout.ms = {timeout}: how many records without a key still go to its partitions?";
    ADAPTIVE_WATCH = "partitioner.story.adaptive.watch" =>
        "Watch the rows of {led}: their batches wait for broker {broker}, their queues grow, and the sticky partitioner draws them less often.";
    ADAPTIVE_INTRO = "partitioner.story.adaptive.intro" =>
        "{partitions} partitions led round-robin by {brokers} brokers (a simplification of the lab): broker {broker} leads {led} and answers after {latency} ms, the others at once. The producer keeps at most max.in.flight.requests.per.connection = {max} requests unanswered per broker; then that broker's batches wait in the accumulator. {rate} records without a key per second. The lab batches only the records the sticky partitioner places: keyed records are written at once, so the slow broker does not hold them up (unless partitioner.ignore.keys=true).";
    ADAPTIVE_PROGRESS = "partitioner.story.adaptive.progress" =>
        "{seconds} s: {led} got {share} % of the records so far (an even share is {even} %); {waiting, plural, one {# batch waits} other {# batches wait}} for broker {broker}. Adaptive partitioning weighs each partition by how short its queue is.";
    ADAPTIVE_ANSWER = "partitioner.story.adaptive.answer" =>
        "broker {broker} ({led}, {latency} ms per request): {records} of {total} records ({share} %; an even share is {even} %)";
    ADAPTIVE_ANSWER_TIMEOUT = "partitioner.story.adaptive.answer_timeout" =>
        "broker {broker} ({led}, {latency} ms per request): {records} of {total} records ({share} %; an even share is {even} %); left out {times, plural, one {# time} other {# times}} after partitioner.availability.timeout.ms = {timeout}";
}

const REORDER_BEATS: &[Beat<Partitioner>] = &[
    Beat { cue: Cue::Start, say: reorder_intro },
    // The first answer is the backlog's end offsets; the second, the watched key's hash.
    Beat { cue: Cue::Nth(Moment::Answer, 2), say: reorder_hashed },
    Beat { cue: Cue::Nth(Moment::Answer, 3), say: reorder_remapped },
    Beat { cue: Cue::Last(Moment::Answer), say: reorder_broken },
];

const MEGA_BEATS: &[Beat<Partitioner>] = &[
    Beat { cue: Cue::Start, say: mega_intro },
    Beat { cue: Cue::Nth(Moment::Answer, 1), say: mega_round },
    Beat { cue: Cue::Nth(Moment::Answer, 2), say: mega_remapped },
    Beat { cue: Cue::Nth(Moment::Answer, 3), say: mega_round },
    Beat { cue: Cue::Last(Moment::Answer), say: mega_round },
];

const STICKY_BEATS: &[Beat<Partitioner>] = &[
    Beat { cue: Cue::Start, say: sticky_intro },
    Beat { cue: Cue::Nth(Moment::Answer, 1), say: sticky_switch },
    Beat { cue: Cue::Nth(Moment::Answer, 2), say: sticky_switch },
    Beat { cue: Cue::Last(Moment::Answer), say: sticky_switch },
];

const ADAPTIVE_BEATS: &[Beat<Partitioner>] = &[
    Beat { cue: Cue::Start, say: adaptive_intro },
    Beat { cue: Cue::At(2), say: adaptive_progress },
    Beat { cue: Cue::At(3), say: adaptive_progress },
    Beat { cue: Cue::At(4), say: adaptive_progress },
];

/// Records without a key while one broker is slow: adaptive partitioning at work.
fn adaptive(question: fn(&crate::model::kernel::Sim<Partitioner>) -> Message) -> Story<Partitioner> {
    Story {
        start: Cue::At(0),
        speed: 0.5,
        question,
        watch: adaptive_watch,
        outcome: Cue::End,
        answer: adaptive_answer,
        beats: ADAPTIVE_BEATS,
    }
}

/// A key's events across `--alter --partitions` (cliente-42, orderid-6-12).
fn reorder(question: fn(&crate::model::kernel::Sim<Partitioner>) -> Message) -> Story<Partitioner> {
    Story {
        start: Cue::At(0),
        speed: 1.0,
        question,
        watch: |_| Message::new(REORDER_WATCH),
        outcome: Cue::Last(Moment::Answer),
        answer: reorder_answer,
        beats: REORDER_BEATS,
    }
}

/// Records without a key through the sticky partitioner: slow motion, a batch every few ms.
fn sticky(question: fn(&crate::model::kernel::Sim<Partitioner>) -> Message) -> Story<Partitioner> {
    Story {
        start: Cue::At(0),
        speed: 0.1,
        question,
        watch: |_| Message::new(STICKY_WATCH),
        outcome: Cue::End,
        answer: sticky_answer,
        beats: STICKY_BEATS,
    }
}

/// The scene's story for `preset` (`None`: the scene's default).
pub fn story(preset: Option<&str>) -> Story<Partitioner> {
    match preset {
        Some("cliente-42") => reorder(|_| Message::new(CLIENTE_QUESTION)),
        Some("orderid-6-12") => reorder(|_| Message::new(ORDERID_QUESTION)),
        Some("megacorp") => Story {
            start: Cue::At(0),
            speed: 2.0,
            question: |_| Message::new(MEGA_QUESTION),
            watch: |_| Message::new(MEGA_WATCH),
            outcome: Cue::Last(Moment::Answer),
            answer: mega_answer,
            beats: MEGA_BEATS,
        },
        Some("sticky") => sticky(|_| Message::new(STICKY_QUESTION)),
        Some("sticky-full-batches") => sticky(|sim| sticky_question(STICKY_FULL_QUESTION, sim)),
        Some("sticky-linger-0") => sticky(|sim| sticky_question(STICKY_LINGER_0_QUESTION, sim)),
        Some("adaptive-slow-broker") => adaptive(|sim| adaptive_question(ADAPTIVE_QUESTION, sim)),
        Some("adaptive-availability-timeout") => adaptive(|sim| adaptive_question(ADAPTIVE_TIMEOUT_QUESTION, sim)),
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
