//! The network strip: producer, brokers and controller as boxes in columns, messages in
//! flight drawn along arcs at the position their progress says, cut links drawn dashed.
//! Drawn as SVG markup from pure functions (read-only: the controls are in the cards).

use std::fmt::Write;

use leptos::prelude::*;

use super::{broker_name, esc};
use crate::i18n::{t, tf};
use crate::model::replication::{in_flight, InFlightView, Node, Replication};
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
        Node::Broker(id) => id as usize,
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

/// Short label and css class of a message kind (Kafka's API names).
fn kind_style(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "Fetch" => (t("replication.msg.fetch"), "fetch"),
        "FetchResponse" => (t("replication.msg.fetch_response"), "fetch-resp"),
        "OffsetsForLeaderEpoch" => (t("replication.msg.epoch"), "epoch"),
        "OffsetsForLeaderEpochResponse" => (t("replication.msg.epoch_response"), "epoch-resp"),
        "Produce" => (t("replication.msg.produce"), "produce"),
        _ => (t("replication.msg.produce_response"), "produce-resp"),
    }
}

/// A node box: column, label, second line, state class.
fn node_box(out: &mut String, col: usize, label: &str, sub: &str, class: &str) {
    let (x, cx) = (center_x(col) - BOX_W / 2.0, center_x(col));
    let _ = write!(
        out,
        r#"<g class="node {class}"><rect x="{x}" y="{}" width="{BOX_W}" height="{BOX_H}" rx="7"/><text x="{cx}" y="{}" text-anchor="middle" class="label">{}</text><text x="{cx}" y="{}" text-anchor="middle" class="sub">{}</text></g>"#,
        MID_Y - BOX_H / 2.0,
        MID_Y - 4.0,
        esc(label),
        MID_Y + 12.0,
        esc(sub)
    );
}

fn node_boxes(out: &mut String, w: &Replication) {
    let n = w.brokers().len();
    let p = w.partition();
    node_box(out, 0, "producer", "", "producer");
    for b in w.brokers() {
        let (sub, class) = if !b.alive {
            (t("replication.node.down").to_string(), "down")
        } else if b.paused {
            (t("replication.node.paused").to_string(), "paused")
        } else if p.leader() == Some(b.id) {
            (tf("replication.node.leader", &[("epoch", &p.leader_epoch().to_string())]), "leader")
        } else if p.isr().contains(&b.id) {
            (t("replication.node.in_isr").to_string(), "follower")
        } else {
            (t("replication.node.out_of_isr").to_string(), "out")
        };
        node_box(out, b.id as usize, &broker_name(b.id), &sub, class);
    }
    node_box(out, n + 1, "controller", "", "controller");
}

/// Every pair of endpoints that has a link a learner can cut.
pub fn link_pairs(brokers: u32) -> Vec<(Node, Node)> {
    let mut pairs = Vec::new();
    for a in 1..=brokers {
        for b in a + 1..=brokers {
            pairs.push((Node::Broker(a), Node::Broker(b)));
        }
    }
    pairs.extend((1..=brokers).map(|b| (Node::Producer, Node::Broker(b))));
    pairs.extend((1..=brokers).map(|b| (Node::Broker(b), Node::Controller)));
    pairs
}

fn cut_link(out: &mut String, a: Node, b: Node, n: usize) {
    let (ca, cb) = (column(a, n), column(b, n));
    let arc = arc(ca.min(cb), ca.max(cb));
    let (mx, my) = point_on(arc, 0.5);
    let title = tf("replication.link.cut_title", &[("a", &a.name()), ("b", &b.name())]);
    let _ = write!(
        out,
        r#"<g class="cut-link"><title>{}</title><path d="{}"/><text x="{mx:.1}" y="{:.1}" text-anchor="middle">✂</text></g>"#,
        esc(&title),
        arc_path(arc),
        my + 5.0
    );
}

fn message(out: &mut String, m: &InFlightView, n: usize) {
    let arc = arc(column(m.from, n), column(m.to, n));
    let (x, y) = point_on(arc, m.progress);
    let (label, class) = kind_style(m.kind);
    let width = 12.0 + 6.6 * label.chars().count() as f64;
    let title = format!("{} {} → {} · {}", m.kind, m.from.name(), m.to.name(), m.detail);
    let _ = write!(
        out,
        r#"<path class="track {class}" d="{}" marker-end="url(#rep-arrow)"/><g class="msg {class}" transform="translate({x:.1} {y:.1})"><title>{}</title><rect x="{:.1}" y="-9" width="{width:.1}" height="18" rx="9"/><text y="4" text-anchor="middle">{}</text></g>"#,
        arc_path(arc),
        esc(&title),
        -width / 2.0,
        esc(label)
    );
}

const ARROW: &str = r#"<defs><marker id="rep-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>"#;

/// The whole drawing's markup for the run's current state.
fn markup(run: &crate::model::scene::Run<Replication>) -> String {
    let w = run.world();
    let n = w.brokers().len();
    let mut out = String::from(ARROW);
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
    view! {
        <svg class="wire" role="img" aria-label=t("replication.wire.label") style=move || format!("--cols: {}", cols())
            viewBox=move || format!("0 0 {} {HEIGHT}", cols() as f64 * COL_W)
            inner_html=move || session.with(markup)>
        </svg>
    }
}

/// The messages on the wire as text (readable without the drawing).
fn list_markup(run: &crate::model::scene::Run<Replication>) -> String {
    let messages = in_flight(run.sim());
    let mut out = format!("<strong>{}</strong> ", esc(t("replication.wire.title")));
    if messages.is_empty() {
        let _ = write!(out, r#"<span class="muted">{}</span>"#, esc(t("replication.wire.none")));
        return out;
    }
    out.push_str("<ul>");
    for m in messages.iter().take(6) {
        let pct = m.progress * 100.0;
        let _ = write!(out, "<li>{} {} → {} · {} · {pct:.0}%</li>", m.kind, m.from.name(), m.to.name(), esc(&m.detail));
    }
    out.push_str("</ul>");
    if messages.len() > 6 {
        let more = tf("replication.wire.more", &[("count", &(messages.len() - 6).to_string())]);
        let _ = write!(out, r#" <span class="muted">{}</span>"#, esc(&more));
    }
    out
}

#[component]
pub fn WireList(session: Session<Replication>) -> impl IntoView {
    view! { <div class="wire-list" data-testid="in-flight" inner_html=move || session.with(list_markup)></div> }
}
