//! What the purgatory model's broker-1 (the leader), its followers, the controller and the
//! consumer report: typed facts with the lab's English wording.

use crate::model::kernel::{Arg, Describe, Key, Message};

/// One event-log line of the purgatory model (the actor says who: broker, controller, consumer).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PurgatoryFact {
    /// broker-1 leads orders-0; fetching starts.
    LeaderStarted { replicas: Vec<u32>, isr: Vec<u32> },
    /// The leader appended a produce request's records.
    Appended { request: u64, first_offset: u64, last_offset: u64, log_end_offset: u64 },
    /// acks=1: acknowledged without a `DelayedProduce`.
    AcknowledgedAtOnce { request: u64 },
    /// acks=all, and the HW already covers the records.
    AlreadySatisfied { request: u64, isr: Vec<u32> },
    /// acks=all: the request waits as a `DelayedProduce` until the HW reaches `required_offset`.
    ProduceParked { request: u64, required_offset: u64, timeout_ms: u64 },
    /// A `DelayedProduce` timed out (REQUEST_TIMED_OUT).
    ProduceExpired { request: u64, waited_ms: u64, high_watermark: u64, required_offset: u64 },
    /// The high watermark moved.
    HighWatermarkMoved { from: u64, to: u64, isr: Vec<u32> },
    /// A `DelayedProduce` completed: the HW passed its records.
    ProduceCompleted { request: u64, waited_ms: u64, high_watermark: u64 },
    /// A follower crashed (kill -9).
    FollowerCrashed,
    /// A follower's fetcher stalled while the broker heartbeats.
    FetcherStalled,
    /// A stalled fetcher runs again.
    FetcherResumed { from_offset: u64 },
    /// A crashed follower started again.
    FollowerRestarted { from_offset: u64 },
    /// A follower's parked fetch has enough bytes now.
    FollowerFetchCompletedEarly { replica: u32, available_bytes: u64, min_bytes: u64 },
    /// A follower's parked fetch waited replica.fetch.wait.max.ms.
    FollowerFetchExpired { replica: u32, wait_ms: u64 },
    /// A follower's fetch from before a restart expired.
    StaleFollowerFetchExpired { replica: u32 },
    /// A follower appended what the leader sent.
    FollowerFetched { first_offset: u64, last_offset: u64 },
    /// A follower caught up and joined the ISR.
    IsrExpanded { replica: u32, before: Vec<u32>, after: Vec<u32> },
    /// A follower lagged more than replica.lag.time.max.ms and left the ISR.
    IsrShrunk { replica: u32, before: Vec<u32>, after: Vec<u32>, caught_up_ms: u64, lag_max_ms: u64 },
    /// The controller fenced a crashed follower and dropped it from the ISR.
    BrokerFenced { replica: u32, timeout_ms: u64, before: Vec<u32>, after: Vec<u32> },
    /// The consumer's parked fetch has enough bytes now.
    ConsumerFetchCompletedEarly { available_bytes: u64, min_bytes: u64 },
    /// The consumer's parked fetch waited fetch.max.wait.ms.
    ConsumerFetchExpired { wait_ms: u64 },
    /// The consumer received records.
    ConsumerReceived { first_offset: u64, last_offset: u64 },
}

crate::messages! {
    pub PURGATORY_FACT_KEYS;
    LEADER = "timer.fact.leader" =>
        "leader of orders-0 (Replicas {replicas}, Isr {isr}); followers and the consumer start fetching";
    APPENDED = "timer.fact.appended" =>
        "produce request #{request}: appended offsets {first}..{last} to orders-0 (LEO {leo})";
    ACKS_1 = "timer.fact.acks_1" => "produce request #{request}: acks=1, acknowledged at once (no DelayedProduce)";
    SATISFIED = "timer.fact.satisfied" =>
        "produce request #{request}: acks=all already satisfied (Isr {isr}), acknowledged";
    PRODUCE_PARKED = "timer.fact.produce.parked" =>
        "produce request #{request}: acks=all waits in the produce purgatory until HW ≥ {required} (timeout {timeout} ms)";
    PRODUCE_EXPIRED = "timer.fact.produce.expired" =>
        "DelayedProduce #{request} expired after request.timeout.ms={waited} (HW {hw} < {required}): REQUEST_TIMED_OUT";
    HW_MOVED = "timer.fact.hw" => "high watermark {from} → {to} (Isr {isr})";
    PRODUCE_COMPLETED = "timer.fact.produce.completed" =>
        "DelayedProduce #{request} completed after {waited} ms (HW {hw}): acknowledged, its timer task is cancelled";
    CRASHED = "timer.fact.crashed" => "crashed: its fetches and its heartbeats to the controller stop";
    STALLED = "timer.fact.stalled" =>
        "replica fetcher stalled: no more fetches, but the broker still heartbeats to the controller";
    RESUMED = "timer.fact.resumed" => "replica fetcher resumed: fetching from offset {offset}";
    RESTARTED = "timer.fact.restarted" => "restarted and unfenced: fetching from offset {offset}";
    FOLLOWER_EARLY = "timer.fact.fetch.follower.early" =>
        "DelayedFetch of broker-{replica} completed early: {bytes} B ≥ replica.fetch.min.bytes={min}";
    FOLLOWER_EXPIRED = "timer.fact.fetch.follower.expired" =>
        "DelayedFetch of broker-{replica} expired after replica.fetch.wait.max.ms={wait}: answered with what there is";
    FOLLOWER_STALE = "timer.fact.fetch.follower.stale" =>
        "an earlier DelayedFetch of broker-{replica} expired: its answer goes nowhere";
    FOLLOWER_FETCHED = "timer.fact.fetched" => "fetched offsets {first}..{last} from the leader";
    ISR_EXPANDED = "timer.fact.isr.expanded" => "expanding ISR from {before} to {after}: broker-{replica} caught up";
    ISR_SHRUNK = "timer.fact.isr.shrunk" =>
        "shrinking ISR from {before} to {after}: broker-{replica} last caught up at {caught_up} ms, more than replica.lag.time.max.ms={lag} ago";
    FENCED = "timer.fact.fenced" =>
        "fenced broker-{replica}: no heartbeat for broker.session.timeout.ms={timeout}; orders-0 Isr {before} → {after}";
    CONSUMER_EARLY = "timer.fact.fetch.consumer.early" =>
        "DelayedFetch of the consumer completed early: {bytes} B ≥ fetch.min.bytes={min}";
    CONSUMER_EXPIRED = "timer.fact.fetch.consumer.expired" =>
        "DelayedFetch of the consumer expired after fetch.max.wait.ms={wait}: empty answer";
    RECEIVED = "timer.fact.received" => "received offsets {first}..{last} of orders-0";
}

/// `1,2,3`: a replica list as Kafka prints it.
fn ids(list: &[u32]) -> Arg {
    Arg::text(crate::model::join_ids(list))
}

fn range(key: Key, first: u64, last: u64) -> Message {
    Message::new(key).with("first", Arg::int(first)).with("last", Arg::int(last))
}

fn request(key: Key, request: u64) -> Message {
    Message::new(key).with("request", Arg::int(request))
}

impl PurgatoryFact {
    /// The produce purgatory's facts (requests, the HW).
    fn produce_message(&self) -> Option<Message> {
        let message = match self {
            PurgatoryFact::Appended { request: r, first_offset, last_offset, log_end_offset } => request(APPENDED, *r)
                .with("first", Arg::int(*first_offset))
                .with("last", Arg::int(*last_offset))
                .with("leo", Arg::int(*log_end_offset)),
            PurgatoryFact::AcknowledgedAtOnce { request: r } => request(ACKS_1, *r),
            PurgatoryFact::AlreadySatisfied { request: r, isr } => request(SATISFIED, *r).with("isr", ids(isr)),
            PurgatoryFact::ProduceParked { request: r, required_offset, timeout_ms } => request(PRODUCE_PARKED, *r)
                .with("required", Arg::int(*required_offset))
                .with("timeout", Arg::int(*timeout_ms)),
            PurgatoryFact::ProduceExpired { request: r, waited_ms, high_watermark, required_offset } => {
                request(PRODUCE_EXPIRED, *r)
                    .with("waited", Arg::int(*waited_ms))
                    .with("hw", Arg::int(*high_watermark))
                    .with("required", Arg::int(*required_offset))
            }
            PurgatoryFact::HighWatermarkMoved { from, to, isr } => {
                Message::new(HW_MOVED).with("from", Arg::int(*from)).with("to", Arg::int(*to)).with("isr", ids(isr))
            }
            PurgatoryFact::ProduceCompleted { request: r, waited_ms, high_watermark } => request(PRODUCE_COMPLETED, *r)
                .with("waited", Arg::int(*waited_ms))
                .with("hw", Arg::int(*high_watermark)),
            _ => return None,
        };
        Some(message)
    }

    /// The replicas' and the consumer's facts (fetches, the ISR, faults).
    fn replica_message(&self) -> Option<Message> {
        let message = match self {
            PurgatoryFact::LeaderStarted { replicas, isr } => {
                Message::new(LEADER).with("replicas", ids(replicas)).with("isr", ids(isr))
            }
            PurgatoryFact::FollowerCrashed => Message::new(CRASHED),
            PurgatoryFact::FetcherStalled => Message::new(STALLED),
            PurgatoryFact::FetcherResumed { from_offset } => {
                Message::new(RESUMED).with("offset", Arg::int(*from_offset))
            }
            PurgatoryFact::FollowerRestarted { from_offset } => {
                Message::new(RESTARTED).with("offset", Arg::int(*from_offset))
            }
            PurgatoryFact::FollowerFetchCompletedEarly { replica, available_bytes, min_bytes } => {
                Message::new(FOLLOWER_EARLY)
                    .with("replica", Arg::int(*replica))
                    .with("bytes", Arg::int(*available_bytes))
                    .with("min", Arg::int(*min_bytes))
            }
            PurgatoryFact::FollowerFetchExpired { replica, wait_ms } => {
                Message::new(FOLLOWER_EXPIRED).with("replica", Arg::int(*replica)).with("wait", Arg::int(*wait_ms))
            }
            PurgatoryFact::StaleFollowerFetchExpired { replica } => {
                Message::new(FOLLOWER_STALE).with("replica", Arg::int(*replica))
            }
            PurgatoryFact::FollowerFetched { first_offset, last_offset } => {
                range(FOLLOWER_FETCHED, *first_offset, *last_offset)
            }
            PurgatoryFact::IsrExpanded { replica, before, after } => Message::new(ISR_EXPANDED)
                .with("before", ids(before))
                .with("after", ids(after))
                .with("replica", Arg::int(*replica)),
            PurgatoryFact::IsrShrunk { replica, before, after, caught_up_ms, lag_max_ms } => Message::new(ISR_SHRUNK)
                .with("before", ids(before))
                .with("after", ids(after))
                .with("replica", Arg::int(*replica))
                .with("caught_up", Arg::int(*caught_up_ms))
                .with("lag", Arg::int(*lag_max_ms)),
            PurgatoryFact::BrokerFenced { replica, timeout_ms, before, after } => Message::new(FENCED)
                .with("replica", Arg::int(*replica))
                .with("timeout", Arg::int(*timeout_ms))
                .with("before", ids(before))
                .with("after", ids(after)),
            PurgatoryFact::ConsumerFetchCompletedEarly { available_bytes, min_bytes } => {
                Message::new(CONSUMER_EARLY).with("bytes", Arg::int(*available_bytes)).with("min", Arg::int(*min_bytes))
            }
            PurgatoryFact::ConsumerFetchExpired { wait_ms } => {
                Message::new(CONSUMER_EXPIRED).with("wait", Arg::int(*wait_ms))
            }
            PurgatoryFact::ConsumerReceived { first_offset, last_offset } => {
                range(RECEIVED, *first_offset, *last_offset)
            }
            _ => return None,
        };
        Some(message)
    }
}

impl Describe for PurgatoryFact {
    fn message(&self) -> Message {
        self.produce_message()
            .or_else(|| self.replica_message())
            .expect("every purgatory fact is a produce fact or a replica fact")
    }
}
