//! The messages on the wire, as the lab draws them: which API, from where to where,
//! how far along, and what they carry.

use super::partition::{FetchResponse, PartitionError};
use super::{Event, Node, Replication};
use crate::model::kernel::{Arg, Describe, Message, Sim};

/// A message on the wire, for drawing: what it is, from where to where, how far along.
#[derive(Clone, Debug, PartialEq)]
pub struct InFlightView {
    pub kind: MessageKind,
    pub from: Node,
    pub to: Node,
    pub sent_ms: u64,
    pub arrives_ms: u64,
    /// 0.0 just sent … 1.0 arriving.
    pub progress: f64,
    /// What it carries (fetch offset, record count, HW, error…).
    pub detail: WireDetail,
}

/// A request or response on the wire, by Kafka's API name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageKind {
    Fetch,
    FetchResponse,
    OffsetsForLeaderEpoch,
    OffsetsForLeaderEpochResponse,
    Produce,
    ProduceResponse,
}

impl MessageKind {
    /// Kafka's name for the API (not translated).
    pub fn api_name(self) -> &'static str {
        match self {
            MessageKind::Fetch => "Fetch",
            MessageKind::FetchResponse => "FetchResponse",
            MessageKind::OffsetsForLeaderEpoch => "OffsetsForLeaderEpoch",
            MessageKind::OffsetsForLeaderEpochResponse => "OffsetsForLeaderEpochResponse",
            MessageKind::Produce => "Produce",
            MessageKind::ProduceResponse => "ProduceResponse",
        }
    }
}

/// What a message on the wire carries, as the lab summarises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireDetail {
    FetchOffset(i64),
    /// A 4.x follower fetch: offset and the epoch of its last record.
    FetchFrom {
        offset: i64,
        last_fetched_epoch: i32,
    },
    /// A fetch response's divergingEpoch (no records).
    DivergingEpoch {
        epoch: i32,
        end_offset: i64,
    },
    Records {
        count: u32,
        high_watermark: i64,
    },
    OffsetOutOfRange {
        leader_log_end_offset: i64,
    },
    Error(PartitionError),
    LeaderEpoch(i32),
    /// `leader_epoch` is -1 when the leader does not know the epoch.
    EpochEnd {
        leader_epoch: i32,
        end_offset: i64,
    },
    Record(u64),
    Offset(i64),
}

crate::messages! {
    pub WIRE_KEYS;
    WIRE_FETCH_OFFSET = "replication.wire.fetch_offset" => "fetchOffset={offset}";
    WIRE_FETCH_FROM = "replication.wire.fetch_from" => "fetchOffset={offset} lastFetchedEpoch={epoch}";
    WIRE_DIVERGING = "replication.wire.diverging" => "divergingEpoch: epoch={epoch} endOffset={offset}";
    WIRE_RECORDS = "replication.wire.records" => "{count, plural, one {# record} other {# records}}, highWatermark={hw}";
    WIRE_OUT_OF_RANGE = "replication.wire.out_of_range" => "OFFSET_OUT_OF_RANGE (leader LEO {leo})";
    WIRE_ERROR = "replication.wire.error" => "{error}";
    WIRE_EPOCH = "replication.wire.epoch" => "leaderEpoch={epoch}";
    WIRE_EPOCH_END = "replication.wire.epoch_end" => "leaderEpoch={epoch} endOffset={offset}";
    WIRE_RECORD = "replication.wire.record" => "record #{record}";
    WIRE_OFFSET = "replication.wire.offset" => "offset={offset}";
}

impl Describe for WireDetail {
    fn message(&self) -> Message {
        match *self {
            WireDetail::FetchOffset(offset) => Message::new(WIRE_FETCH_OFFSET).with("offset", Arg::int(offset)),
            WireDetail::FetchFrom { offset, last_fetched_epoch } => Message::new(WIRE_FETCH_FROM)
                .with("offset", Arg::int(offset))
                .with("epoch", Arg::int(last_fetched_epoch)),
            WireDetail::DivergingEpoch { epoch, end_offset } => {
                Message::new(WIRE_DIVERGING).with("epoch", Arg::int(epoch)).with("offset", Arg::int(end_offset))
            }
            WireDetail::Records { count, high_watermark } => {
                Message::new(WIRE_RECORDS).with("count", Arg::int(count)).with("hw", Arg::int(high_watermark))
            }
            WireDetail::OffsetOutOfRange { leader_log_end_offset } => {
                Message::new(WIRE_OUT_OF_RANGE).with("leo", Arg::int(leader_log_end_offset))
            }
            WireDetail::Error(error) => Message::new(WIRE_ERROR).with("error", Arg::kafka(error.name())),
            WireDetail::LeaderEpoch(epoch) => Message::new(WIRE_EPOCH).with("epoch", Arg::int(epoch)),
            WireDetail::EpochEnd { leader_epoch, end_offset } => {
                Message::new(WIRE_EPOCH_END).with("epoch", Arg::int(leader_epoch)).with("offset", Arg::int(end_offset))
            }
            WireDetail::Record(record) => Message::new(WIRE_RECORD).with("record", Arg::int(record)),
            WireDetail::Offset(offset) => Message::new(WIRE_OFFSET).with("offset", Arg::int(offset)),
        }
    }
}

/// The messages in flight in a run, with their progress at the run's current time. Read from
/// the queue's index of messages: the thousands of pending timers are never scanned.
pub fn in_flight(sim: &Sim<Replication>) -> Vec<InFlightView> {
    let now_ms = sim.now_ms();
    let messages: Vec<InFlightView> =
        sim.queue().watched().filter_map(|(arrives_ms, event)| describe_message(event, arrives_ms, now_ms)).collect();
    debug_assert_eq!(
        messages.len(),
        sim.queue().iter().filter(|(_, event)| crate::model::kernel::Watched::watched(*event)).count(),
        "every message on the wire is indexed"
    );
    messages
}

/// A message on the wire is what the wire view draws.
impl crate::model::kernel::Watched for Event {
    fn watched(&self) -> bool {
        matches!(
            self,
            Event::FetchArrives { .. }
                | Event::FetchResponseArrives { .. }
                | Event::EpochRequestArrives { .. }
                | Event::EpochResponseArrives { .. }
                | Event::ProduceArrives { .. }
                | Event::ProduceResponseArrives { .. }
        )
    }
}

fn describe_message(event: &Event, arrives_ms: u64, now_ms: u64) -> Option<InFlightView> {
    use MessageKind as K;
    let (kind, from, to, sent_ms, detail) = match event {
        Event::FetchArrives { leader, request, sent_ms, .. } => (
            K::Fetch,
            Node::Id(request.follower),
            Node::Id(*leader),
            *sent_ms,
            match request.last_fetched_epoch {
                Some(last_fetched_epoch) => WireDetail::FetchFrom { offset: request.fetch_offset, last_fetched_epoch },
                None => WireDetail::FetchOffset(request.fetch_offset),
            },
        ),
        Event::FetchResponseArrives { follower, leader, response, sent_ms, .. } => {
            (K::FetchResponse, Node::Id(*leader), Node::Id(*follower), *sent_ms, fetch_detail(response))
        }
        Event::EpochRequestArrives { leader, follower, leader_epoch, sent_ms, .. } => (
            K::OffsetsForLeaderEpoch,
            Node::Id(*follower),
            Node::Id(*leader),
            *sent_ms,
            WireDetail::LeaderEpoch(*leader_epoch),
        ),
        Event::EpochResponseArrives { follower, leader, answer, sent_ms, .. } => {
            let detail = match answer {
                Ok(a) => WireDetail::EpochEnd { leader_epoch: a.leader_epoch.unwrap_or(-1), end_offset: a.end_offset },
                Err(e) => WireDetail::Error(*e),
            };
            (K::OffsetsForLeaderEpochResponse, Node::Id(*leader), Node::Id(*follower), *sent_ms, detail)
        }
        Event::ProduceArrives { leader, request, sent_ms } => {
            (K::Produce, Node::Producer, Node::Id(*leader), *sent_ms, WireDetail::Record(request.record_id))
        }
        Event::ProduceResponseArrives { from, result, sent_ms, .. } => {
            let detail = result.map_or_else(WireDetail::Error, WireDetail::Offset);
            (K::ProduceResponse, Node::Id(*from), Node::Producer, *sent_ms, detail)
        }
        _ => return None,
    };
    let span = arrives_ms.saturating_sub(sent_ms).max(1) as f64;
    let progress = (now_ms.saturating_sub(sent_ms) as f64 / span).clamp(0.0, 1.0);
    Some(InFlightView { kind, from, to, sent_ms, arrives_ms, progress, detail })
}

fn fetch_detail(response: &FetchResponse) -> WireDetail {
    match response {
        FetchResponse::Records { records, high_watermark, .. } => WireDetail::Records {
            count: u32::try_from(records.len()).unwrap_or(u32::MAX),
            high_watermark: *high_watermark,
        },
        FetchResponse::OffsetOutOfRange { leader_log_end_offset } => {
            WireDetail::OffsetOutOfRange { leader_log_end_offset: *leader_log_end_offset }
        }
        FetchResponse::DivergingEpoch { epoch, end_offset } => {
            WireDetail::DivergingEpoch { epoch: *epoch, end_offset: *end_offset }
        }
        FetchResponse::Error(e) => WireDetail::Error(*e),
    }
}
