//! The wire: two lanes of arcs around the node cards (producer, brokers, controller in
//! columns). Messages going right travel in the lane above the cards, messages going left
//! in the lane below, so a request and its response never share a lane; cut links are drawn
//! dashed in both. A message is a keyed, focusable pill: focusing or tapping it shows its
//! details in the line under the cards (hovering shows them as a tooltip too).

use leptos::prelude::*;

use super::node_name;
use crate::html;
use crate::i18n::{key, render, t, tf};
use crate::markup::{fixed, Html};
use crate::model::kernel::Describe;
use crate::model::replication::{in_flight, InFlightView, MessageKind, Node, Replication};
use crate::ui::keyed::keyed_rows;
use crate::ui::markup::{Host, Markup, PatchedMarkup};
use crate::ui::session::Session;

/// Width of the producer's column in SVG units; the cards between the lanes use columns of
/// the same proportions (`.rep-columns` in replication.css).
pub const PRODUCER_W: f64 = 100.0;
/// Width of the controller's column.
pub const CONTROLLER_W: f64 = 120.0;
/// Width of a broker's column (wider: its card holds the fault buttons).
pub const BROKER_W: f64 = 150.0;
/// Height of one lane in SVG units.
pub const LANE_H: f64 = 38.0;
/// Distance of an arc's ends from the cards: half a pill and a gap, so a message just sent
/// or arriving stays inside its lane.
const EDGE: f64 = 11.0;
const PILL_H: f64 = 18.0;
/// Height of a message's touch target.
const HIT_H: f64 = 34.0;
/// The most messages drawn at once (the line under the cards says how many there are).
const MAX_DRAWN: usize = 40;
/// Messages whose details the line under the cards lists (the picked one first).
const LISTED: usize = 1;

/// Column of a node: producer first, then brokers 1..n, then the controller.
pub fn column(node: Node, brokers: usize) -> usize {
    match node {
        Node::Producer => 0,
        Node::Id(id) => id as usize,
        Node::Controller => brokers + 1,
    }
}

/// The lanes' width: both ends and every broker.
pub fn total_width(brokers: usize) -> f64 {
    PRODUCER_W + brokers as f64 * BROKER_W + CONTROLLER_W
}

fn center_x(col: usize, brokers: usize) -> f64 {
    match col {
        0 => PRODUCER_W / 2.0,
        c if c > brokers => PRODUCER_W + brokers as f64 * BROKER_W + CONTROLLER_W / 2.0,
        c => PRODUCER_W + (c as f64 - 0.5) * BROKER_W,
    }
}

/// The lane above the cards (messages going right) or below them (going left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    Above,
    Below,
}

impl Lane {
    pub fn of(from_col: usize, to_col: usize) -> Lane {
        if from_col < to_col {
            Lane::Above
        } else {
            Lane::Below
        }
    }

    fn class(self) -> &'static str {
        match self {
            Lane::Above => "wire lane-above",
            Lane::Below => "wire lane-below",
        }
    }

    fn marker(self) -> &'static str {
        match self {
            Lane::Above => "rep-arrow-above",
            Lane::Below => "rep-arrow-below",
        }
    }
}

/// A quadratic arc from one column to another, bulging away from the cards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arc {
    pub start: (f64, f64),
    pub control: (f64, f64),
    pub end: (f64, f64),
}

pub fn arc(lane: Lane, from_col: usize, to_col: usize, brokers: usize) -> Arc {
    let (x1, x2) = (center_x(from_col, brokers), center_x(to_col, brokers));
    // The highest apex keeps a pill at the top of the arc inside the lane.
    let apex = (10.0 + 0.05 * (x2 - x1).abs()).min(LANE_H - EDGE - PILL_H / 2.0 - 1.0);
    let (edge, sign) = match lane {
        Lane::Above => (LANE_H - EDGE, -1.0),
        Lane::Below => (EDGE, 1.0),
    };
    Arc { start: (x1, edge), control: ((x1 + x2) / 2.0, edge + sign * 2.0 * apex), end: (x2, edge) }
}

/// The point a fraction `t` (0…1) along the arc.
pub fn point_on(a: Arc, t: f64) -> (f64, f64) {
    let t = t.clamp(0.0, 1.0);
    let u = 1.0 - t;
    let x = u * u * a.start.0 + 2.0 * u * t * a.control.0 + t * t * a.end.0;
    let y = u * u * a.start.1 + 2.0 * u * t * a.control.1 + t * t * a.end.1;
    (x, y)
}

fn arc_path(a: Arc) -> String {
    let [x0, y0, x1, y1, x2, y2] =
        [a.start.0, a.start.1, a.control.0, a.control.1, a.end.0, a.end.1].map(|v| fixed(v, 1));
    format!("M{x0} {y0} Q{x1} {y1} {x2} {y2}")
}

/// Short label and css class of a message kind.
fn kind_style(kind: MessageKind) -> (&'static str, &'static str) {
    match kind {
        MessageKind::Fetch => (t(key::REPLICATION_MSG_FETCH), "fetch"),
        MessageKind::FetchResponse => (t(key::REPLICATION_MSG_FETCH_RESPONSE), "fetch-resp"),
        MessageKind::OffsetsForLeaderEpoch => (t(key::REPLICATION_MSG_EPOCH), "epoch"),
        MessageKind::OffsetsForLeaderEpochResponse => (t(key::REPLICATION_MSG_EPOCH_RESPONSE), "epoch-resp"),
        MessageKind::Produce => (t(key::REPLICATION_MSG_PRODUCE), "produce"),
        MessageKind::ProduceResponse => (t(key::REPLICATION_MSG_PRODUCE_RESPONSE), "produce-resp"),
    }
}

/// `Fetch broker-2 → broker-1 · fetchOffset=3`: a message as text.
fn message_text(m: &InFlightView) -> String {
    format!("{} {} → {} · {}", m.kind.api_name(), node_name(m.from), node_name(m.to), render(&m.detail.message()))
}

/// Who a message is across steps: kind, ends, send time, and its rank among equals
/// (a produce of three records sends three requests at once).
pub type MsgKey = (MessageKind, Node, Node, u64, usize);

/// The messages in flight with their keys, in the queue's order.
fn keyed(messages: Vec<InFlightView>) -> Vec<(MsgKey, InFlightView)> {
    let mut out: Vec<(MsgKey, InFlightView)> = Vec::with_capacity(messages.len());
    for m in messages {
        let rank = out.iter().filter(|(k, _)| (k.0, k.1, k.2, k.3) == (m.kind, m.from, m.to, m.sent_ms)).count();
        out.push(((m.kind, m.from, m.to, m.sent_ms, rank), m));
    }
    out
}

/// What the lanes and the line under the cards share: the messages and the one picked.
#[derive(Clone, Copy)]
pub struct WireState {
    messages: Memo<Vec<(MsgKey, InFlightView)>>,
    brokers: Memo<usize>,
    picked: RwSignal<Option<MsgKey>>,
}

impl WireState {
    pub fn new(session: Session<Replication>) -> Self {
        Self {
            messages: Memo::new(move |_| session.with(|run| keyed(in_flight(run.sim())))),
            brokers: Memo::new(move |_| session.with(|run| run.world().brokers().len())),
            picked: RwSignal::new(None),
        }
    }
}

fn cut_links_markup(w: &Replication, lane: Lane) -> Html {
    let n = w.brokers().len();
    let mut out = Html::new();
    for (a, b) in link_pairs(n as u32).into_iter().filter(|(a, b)| !w.link_up(*a, *b)) {
        let (ca, cb) = (column(a, n), column(b, n));
        let arc = arc(lane, ca.min(cb), ca.max(cb), n);
        let (mx, my) = point_on(arc, 0.5);
        let title = tf(key::REPLICATION_LINK_CUT_TITLE, &[("a", &node_name(a)), ("b", &node_name(b))]);
        html!(
            out,
            "<g class=\"cut-link\"><title>{}</title><path d=\"{}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">✂</text></g>",
            title,
            arc_path(arc),
            fixed(mx, 1),
            fixed(my + 5.0, 1)
        );
    }
    out
}

/// Every pair of endpoints that has a link a learner can cut.
pub fn link_pairs(brokers: u32) -> Vec<(Node, Node)> {
    let mut pairs = Vec::new();
    for a in 1..=brokers {
        for b in a + 1..=brokers {
            pairs.push((Node::Id(a), Node::Id(b)));
        }
    }
    pairs.extend((1..=brokers).map(|b| (Node::Producer, Node::Id(b))));
    pairs.extend((1..=brokers).map(|b| (Node::Id(b), Node::Controller)));
    pairs
}

/// Where a message is drawn in its lane, and whether it has room for its label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub x: f64,
    pub y: f64,
    /// false: it would cover a labelled pill, so it is drawn as a dot (its details are the same).
    pub labelled: bool,
}

fn pill_width(label: &str) -> f64 {
    12.0 + 7.4 * label.chars().count() as f64
}

/// The lane's messages placed along their arcs; the one nearest its destination keeps its label
/// first, and a pill that would cover a label already placed becomes a dot trailing behind
/// that label (left of it in the lane above, right of it below), so no two labels overlap and
/// no dot covers one.
pub fn place(lane: Lane, brokers: usize, messages: &[(MsgKey, InFlightView)]) -> Vec<(MsgKey, Placed)> {
    let mut mine: Vec<&(MsgKey, InFlightView)> = messages
        .iter()
        .take(MAX_DRAWN)
        .filter(|(_, m)| Lane::of(column(m.from, brokers), column(m.to, brokers)) == lane)
        .collect();
    crate::model::kernel::order::sort_by(&mut mine, |a, b| b.1.progress.total_cmp(&a.1.progress));
    let behind = if lane == Lane::Above { -1.0 } else { 1.0 };
    // Each label placed: centre, half width, dots trailing it so far.
    let mut labels: Vec<(f64, f64, f64, usize)> = Vec::new();
    let mut out = Vec::with_capacity(mine.len());
    for (k, m) in mine {
        let (x, y) = point_on(arc(lane, column(m.from, brokers), column(m.to, brokers), brokers), m.progress);
        let half = pill_width(kind_style(m.kind).0) / 2.0;
        let covered = labels
            .iter_mut()
            .find(|(lx, ly, lh, _)| (x - *lx).abs() <= half + *lh + 2.0 && (y - *ly).abs() <= PILL_H + 2.0);
        let placed = match covered {
            Some((lx, ly, lh, trail)) => {
                *trail += 1;
                let x = (*lx + behind * (*lh + 13.0 * *trail as f64 - 4.0)).clamp(7.0, total_width(brokers) - 7.0);
                Placed { x, y: *ly, labelled: false }
            }
            None => {
                labels.push((x, y, half, 0));
                Placed { x, y, labelled: true }
            }
        };
        out.push((*k, placed));
    }
    out
}

/// One lane: its cut links as markup, its messages as pills. A pill is keyed by its slot (its
/// rank in the queue's order among the lane's drawn messages), not by its message: a step
/// moves most messages and replaces a few, and a slot whose message changes updates a few
/// attributes in place instead of building its elements again (at 7 brokers, ~66 pills were
/// rebuilt on every step). Focus stays on a slot; the pick follows the message's key, so
/// the line under the cards keeps the picked message until it arrives.
#[component]
pub fn WireLane(session: Session<Replication>, state: WireState, lane: Lane) -> impl IntoView {
    let cuts = Signal::derive(move || session.with(|run| cut_links_markup(run.world(), lane)));
    let placed = Memo::new(move |_| {
        let n = state.brokers.get();
        state.messages.with(|all| place(lane, n, all))
    });
    // In the queue's order, so an older message keeps its slot while newer ones come and go.
    let drawn = Memo::new(move |_| {
        placed.with(|p| {
            state.messages.with(|all| {
                all.iter().filter_map(|(k, _)| p.iter().find(|(pk, _)| pk == k).copied()).collect::<Vec<_>>()
            })
        })
    });
    let count = Memo::new(move |_| drawn.with(Vec::len));
    let marker = lane.marker();
    view! {
        <svg class=lane.class() role="group"
            viewBox=move || format!("0 0 {} {}", fixed(total_width(state.brokers.get()), 0), fixed(LANE_H, 0))>
            <defs>
                <marker id=marker viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M0 0 L10 5 L0 10 z"/>
                </marker>
            </defs>
            <Markup host=Host::G html=cuts/>
            {keyed_rows(
                move || (0..count.get() as u64).collect(),
                move |slot| view! { <Pill rank=slot as usize state=state lane=lane drawn=drawn/> }.into_any(),
            )}
        </svg>
    }
}

/// The message in one slot of a lane: its track and its pill (or dot), where its progress
/// puts it. Every attribute follows the slot's message, which a step may replace.
#[component]
fn Pill(rank: usize, state: WireState, lane: Lane, drawn: Memo<Vec<(MsgKey, Placed)>>) -> impl IntoView {
    let at = Memo::new(move |_| drawn.with(|d| d.get(rank).copied()));
    let k = Memo::new(move |_| at.get().map(|(k, _)| k));
    let style = move || k.get().map_or(("", ""), |(kind, ..)| kind_style(kind));
    let text = Memo::new(move |_| k.get().map(|k| message_text_of(state, k)).unwrap_or_default());
    let geometry = move || {
        let n = state.brokers.get();
        k.get().map(|(_, from, to, ..)| arc_path(arc(lane, column(from, n), column(to, n), n))).unwrap_or_default()
    };
    let transform =
        move || at.get().map(|(_, p)| format!("translate({} {})", fixed(p.x, 1), fixed(p.y, 1))).unwrap_or_default();
    let width = move || pill_width(style().0);
    let picked = move || k.get().is_some() && state.picked.get() == k.get();
    let pick = move || state.picked.set(k.get_untracked());
    let classes = move || {
        let dot = at.get().is_some_and(|(_, p)| !p.labelled);
        format!("msg {}{}{}", style().1, if dot { " dot" } else { "" }, if picked() { " picked" } else { "" })
    };
    view! {
        <path class=move || format!("track {}", style().1) d=geometry marker-end=format!("url(#{})", lane.marker())/>
        <g class=classes transform=transform tabindex="0" role="button" aria-pressed=move || picked().to_string()
            aria-label=move || text.get() on:focus=move |_| pick() on:click=move |_| pick()
            on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Enter" { pick() }>
            <title>{move || text.get()}</title>
            // A larger, unseen target for a finger (most of the lane's height).
            <rect class="hit" x=move || fixed(-width() / 2.0 - 4.0, 1) y=fixed(-HIT_H / 2.0, 0)
                width=move || fixed(width() + 8.0, 1) height=fixed(HIT_H, 0)/>
            <circle r="6"/>
            <rect x=move || fixed(-width() / 2.0, 1) y=fixed(-PILL_H / 2.0, 0)
                width=move || fixed(width(), 1) height=fixed(PILL_H, 0) rx="9"/>
            <text y="4.5" text-anchor="middle">{move || style().0}</text>
        </g>
    }
}

/// A message's details (fixed for its life on the wire: only its progress changes).
fn message_text_of(state: WireState, k: MsgKey) -> String {
    state
        .messages
        .with_untracked(|all| all.iter().find(|(key, _)| *key == k).map(|(_, m)| message_text(m)))
        .unwrap_or_default()
}

/// The messages on the wire as text: the picked one first, then the others, a few at most.
fn list_markup(messages: &[(MsgKey, InFlightView)], picked: Option<MsgKey>) -> Html {
    let mut out = html!("<strong>{}</strong> ", t(key::REPLICATION_WIRE_TITLE));
    if messages.is_empty() {
        html!(out, "<span class=\"muted\">{}</span>", t(key::REPLICATION_WIRE_NONE));
        return out;
    }
    let first = messages.iter().filter(|(k, _)| Some(*k) == picked);
    let rest = messages.iter().filter(|(k, _)| Some(*k) != picked);
    let items: Html = first
        .chain(rest)
        .take(LISTED)
        .map(|(k, m)| {
            let class = if Some(*k) == picked { "picked" } else { "" };
            html!("<li class=\"{}\">{} · {}%</li>", class, message_text(m), fixed(m.progress * 100.0, 0))
        })
        .collect();
    html!(out, "<ul>{}</ul>", items);
    if messages.len() > LISTED {
        let more = tf(key::REPLICATION_WIRE_MORE_COUNT, &[("count", &(messages.len() - LISTED).to_string())]);
        html!(out, " <span class=\"muted\">{}</span>", more);
    }
    out
}

#[component]
pub fn WireList(state: WireState) -> impl IntoView {
    let list = Signal::derive(move || state.messages.with(|all| list_markup(all, state.picked.get())));
    view! { <PatchedMarkup class="wire-list" testid="in-flight" html=list/> }
}
