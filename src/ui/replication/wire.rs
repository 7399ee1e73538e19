//! The network strip: producer, brokers and controller as boxes in columns, messages in
//! flight drawn along arcs at the position their progress says, cut links drawn dashed.
//! Drawn as SVG markup from pure functions (read-only: the controls are in the cards).

use leptos::prelude::*;

use super::{broker_name, node_name};
use crate::html;
use crate::i18n::{key, render, t, tf};
use crate::markup::Html;
use crate::model::kernel::Describe;
use crate::model::replication::{in_flight, InFlightView, MessageKind, Node, Replication};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

/// Width of one node column in SVG units (the cards below use equal columns).
pub const COL_W: f64 = 200.0;
const HEIGHT: f64 = 180.0;
const MID_Y: f64 = 90.0;
const BOX_W: f64 = 150.0;
const BOX_H: f64 = 40.0;
/// The most messages drawn at once (the list below says how many there are).
const MAX_DRAWN: usize = 40;

/// Column of a node: producer first, then brokers 1..n, then the controller.
pub fn column(node: Node, brokers: usize) -> usize {
    match node {
        Node::Producer => 0,
        Node::Id(id) => id as usize,
        Node::Controller => brokers + 1,
    }
}

fn center_x(col: usize) -> f64 {
    (col as f64 + 0.5) * COL_W
}

/// A quadratic arc from one node to another: left-to-right arcs above the boxes,
/// right-to-left below, so a request and its response never share a lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arc {
    pub start: (f64, f64),
    pub control: (f64, f64),
    pub end: (f64, f64),
}

pub fn arc(from_col: usize, to_col: usize) -> Arc {
    let (x1, x2) = (center_x(from_col), center_x(to_col));
    let up = x1 < x2;
    // Ends clear of the boxes by half a message pill, so a message just sent does not hide a label.
    let clear = BOX_H / 2.0 + 11.0;
    let (edge, sign) = if up { (MID_Y - clear, -1.0) } else { (MID_Y + clear, 1.0) };
    let apex = (12.0 + 0.05 * (x2 - x1).abs()).min(42.0);
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
    format!("M{:.1} {:.1} Q{:.1} {:.1} {:.1} {:.1}", a.start.0, a.start.1, a.control.0, a.control.1, a.end.0, a.end.1)
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

/// A node box: column, label, second line, state class.
fn node_box(out: &mut Html, col: usize, label: &str, sub: &str, class: &str) {
    let (x, cx) = (center_x(col) - BOX_W / 2.0, center_x(col));
    html!(
        out,
        "<g class=\"node {}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"7\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"label\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"sub\">{}</text></g>",
        class,
        x,
        MID_Y - BOX_H / 2.0,
        BOX_W,
        BOX_H,
        cx,
        MID_Y - 4.0,
        label,
        cx,
        MID_Y + 12.0,
        sub
    );
}

fn node_boxes(out: &mut Html, w: &Replication) {
    let n = w.brokers().len();
    let p = w.partition();
    node_box(out, 0, &node_name(Node::Producer), "", "producer");
    for b in w.brokers() {
        let (sub, class) = if !b.alive {
            (t(key::REPLICATION_NODE_DOWN).to_string(), "down")
        } else if b.paused {
            (t(key::REPLICATION_NODE_PAUSED).to_string(), "paused")
        } else if p.leader() == Some(b.id) {
            (tf(key::REPLICATION_NODE_LEADER, &[("epoch", &p.leader_epoch().to_string())]), "leader")
        } else if p.isr().contains(&b.id) {
            (t(key::REPLICATION_NODE_IN_ISR).to_string(), "follower")
        } else {
            (t(key::REPLICATION_NODE_OUT_OF_ISR).to_string(), "out")
        };
        node_box(out, b.id as usize, &broker_name(b.id), &sub, class);
    }
    node_box(out, n + 1, &node_name(Node::Controller), "", "controller");
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

fn cut_link(out: &mut Html, a: Node, b: Node, n: usize) {
    let (ca, cb) = (column(a, n), column(b, n));
    let arc = arc(ca.min(cb), ca.max(cb));
    let (mx, my) = point_on(arc, 0.5);
    let title = tf(key::REPLICATION_LINK_CUT_TITLE, &[("a", &node_name(a)), ("b", &node_name(b))]);
    html!(
        out,
        "<g class=\"cut-link\"><title>{}</title><path d=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">✂</text></g>",
        title,
        arc_path(arc),
        mx,
        my + 5.0
    );
}

fn message(out: &mut Html, m: &InFlightView, n: usize) {
    let arc = arc(column(m.from, n), column(m.to, n));
    let (x, y) = point_on(arc, m.progress);
    let (label, class) = kind_style(m.kind);
    let width = 12.0 + 6.6 * label.chars().count() as f64;
    html!(
        out,
        "<path class=\"track {}\" d=\"{}\" marker-end=\"url(#rep-arrow)\"/><g class=\"msg {}\" transform=\"translate({:.1} {:.1})\"><title>{}</title><rect x=\"{:.1}\" y=\"-9\" width=\"{:.1}\" height=\"18\" rx=\"9\"/><text y=\"4\" text-anchor=\"middle\">{}</text></g>",
        class,
        arc_path(arc),
        class,
        x,
        y,
        message_text(m),
        -width / 2.0,
        width,
        label
    );
}

/// The whole drawing's markup for the run's current state.
fn markup(run: &crate::model::scene::Run<Replication>) -> Html {
    let w = run.world();
    let n = w.brokers().len();
    let mut out = html!("<defs><marker id=\"rep-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0 L10 5 L0 10 z\"/></marker></defs>");
    for (a, b) in link_pairs(n as u32).into_iter().filter(|(a, b)| !w.link_up(*a, *b)) {
        cut_link(&mut out, a, b, n);
    }
    node_boxes(&mut out, w);
    for m in in_flight(run.sim()).iter().take(MAX_DRAWN) {
        message(&mut out, m, n);
    }
    out
}

#[component]
pub fn Wire(session: Session<Replication>) -> impl IntoView {
    let cols = move || session.with(|run| run.world().brokers().len() + 2);
    let drawing = Signal::derive(move || session.with(markup));
    view! {
        <svg class="wire" role="img" aria-label=t(key::REPLICATION_WIRE_LABEL) style=move || format!("--cols: {}", cols())
            viewBox=move || format!("0 0 {} {HEIGHT}", cols() as f64 * COL_W)>
            <Markup host=Host::G html=drawing/>
        </svg>
    }
}

/// The messages on the wire as text (readable without the drawing).
fn list_markup(run: &crate::model::scene::Run<Replication>) -> Html {
    let messages = in_flight(run.sim());
    let mut out = html!("<strong>{}</strong> ", t(key::REPLICATION_WIRE_TITLE));
    if messages.is_empty() {
        html!(out, "<span class=\"muted\">{}</span>", t(key::REPLICATION_WIRE_NONE));
        return out;
    }
    let items: Html =
        messages.iter().take(6).map(|m| html!("<li>{} · {:.0}%</li>", message_text(m), m.progress * 100.0)).collect();
    html!(out, "<ul>{}</ul>", items);
    if messages.len() > 6 {
        let more = tf(key::REPLICATION_WIRE_MORE_COUNT, &[("count", &(messages.len() - 6).to_string())]);
        html!(out, " <span class=\"muted\">{}</span>", more);
    }
    out
}

#[component]
pub fn WireList(session: Session<Replication>) -> impl IntoView {
    let list = Signal::derive(move || session.with(list_markup));
    view! { <Markup class="wire-list" testid="in-flight" html=list/> }
}
