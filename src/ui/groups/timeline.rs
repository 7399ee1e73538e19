//! The members' lanes on a sliding window of virtual time (SVG): heartbeat ticks, processing
//! bars, rebalance bands with JoinGroup/SyncGroup marks, and the coordinator's state strip on top.

use std::fmt::Write;

use leptos::prelude::*;

use super::member_name;
use crate::html;
use crate::i18n::{key, t};
use crate::markup::Html;
use crate::model::group::{GroupLab, GroupState, LaneSpan, MemberView, SpanKind};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

/// Virtual time the lanes show.
pub const WINDOW_MS: u64 = 90_000;
const VIEW_W: f64 = 1000.0;
const LABEL_W: f64 = 56.0;
const PLOT_W: f64 = VIEW_W - LABEL_W - 6.0;
const AXIS_H: f64 = 16.0;
const LANE_H: f64 = 22.0;
const GAP: f64 = 5.0;
/// Width of one character of band text, in view units (for "does the label fit").
const CHAR_W: f64 = 6.2;

/// The visible stretch of virtual time: the last `WINDOW_MS` up to now (0..WINDOW_MS at first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub from: u64,
    pub to: u64,
    pub now: u64,
}

impl Window {
    pub fn at(now: u64) -> Self {
        let to = now.max(WINDOW_MS);
        Self { from: to - WINDOW_MS, to, now }
    }

    pub fn x(&self, t: u64) -> f64 {
        LABEL_W + (t.clamp(self.from, self.to) - self.from) as f64 * PLOT_W / WINDOW_MS as f64
    }

    /// The x range of `[from, to)` that is visible and has already happened (`to == u64::MAX`: open).
    pub fn clip(&self, from: u64, to: u64) -> Option<(f64, f64)> {
        let end = to.min(self.now);
        (end >= self.from && from <= self.now && from <= end).then(|| (self.x(from), self.x(end)))
    }
}

fn lane_y(row: usize) -> f64 {
    AXIS_H + row as f64 * (LANE_H + GAP)
}

/// CSS class and band text of a lane span.
fn span_style(kind: SpanKind) -> (&'static str, &'static str) {
    match kind {
        SpanKind::Heartbeat => ("hb", ""),
        SpanKind::Process => ("process", ""),
        SpanKind::Joining => ("joining", key::GROUPS_BAND_JOINING),
        SpanKind::AwaitingSync => ("syncing", key::GROUPS_BAND_SYNCING),
        SpanKind::Paused => ("paused", key::GROUPS_BAND_PAUSED),
        SpanKind::PollTimeout => ("polltimeout", ""),
        SpanKind::Dead => ("dead", key::GROUPS_BAND_DEAD),
    }
}

fn state_class(state: GroupState) -> &'static str {
    match state {
        GroupState::Empty => "empty",
        GroupState::PreparingRebalance => "preparing",
        GroupState::CompletingRebalance => "completing",
        GroupState::Stable => "stable",
        GroupState::Dead => "gdead",
    }
}

/// The first of `labels` that fits in `width` view units.
fn fitting(labels: &[String], width: f64) -> Option<&String> {
    labels.iter().find(|l| !l.is_empty() && l.chars().count() as f64 * CHAR_W + 6.0 < width)
}

/// A band with its text centred when it fits (the longer text first, then the shorter).
fn band(out: &mut Html, class: &str, x0: f64, x1: f64, y: f64, h: f64, labels: &[String]) {
    let w = (x1 - x0).max(1.5);
    html!(out, r#"<rect class="band {}" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/>"#, class, x0, y, w, h);
    if let Some(label) = fitting(labels, w) {
        let (cx, cy) = (x0 + w / 2.0, y + h / 2.0 + 4.0);
        html!(out, r#"<text class="band-text" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, cx, cy, label);
    }
}

/// The marks of one lane, one `d` per class (many ticks and bars, few elements).
#[derive(Default)]
struct Marks {
    heartbeats: String,
    process: String,
    poll_timeouts: String,
}

impl Marks {
    fn draw(&self, out: &mut Html) {
        for (class, d) in [("process", &self.process), ("hb", &self.heartbeats), ("polltimeout", &self.poll_timeouts)] {
            if !d.is_empty() {
                html!(out, r#"<path class="{}" d="{}"/>"#, class, d.trim_end());
            }
        }
    }
}

/// One lane element: instants are ticks or markers, stretches are bars or bands.
fn span_markup(out: &mut Html, marks: &mut Marks, span: &LaneSpan, win: &Window, y: f64) {
    let (class, key) = span_style(span.kind);
    let Some((x0, x1)) = win.clip(span.from_ms, span.to_ms) else { return };
    match span.kind {
        SpanKind::Heartbeat => {
            let _ = write!(marks.heartbeats, "M{x0:.1} {y:.1}V{:.1} ", y + 6.0);
        }
        SpanKind::PollTimeout => {
            let _ = write!(marks.poll_timeouts, "M{x0:.1} {:.1}l6 -10h-12z ", y + LANE_H);
        }
        SpanKind::Process => {
            let _ = write!(marks.process, "M{x0:.1} {:.1}h{:.1}v8H{x0:.1}z ", y + 8.0, (x1 - x0).max(1.0));
        }
        SpanKind::Joining | SpanKind::AwaitingSync => {
            band(out, class, x0, x1, y + 2.0, LANE_H - 4.0, &[t(key).to_string()]);
            let mark = if span.kind == SpanKind::Joining { "J" } else { "S" };
            if span.from_ms >= win.from {
                html!(
                    out,
                    r#"<line class="msg" x1="{:.1}" x2="{:.1}" y1="{:.1}" y2="{:.1}"/><text class="mark" x="{:.1}" y="{:.1}">{}</text>"#,
                    x0,
                    x0,
                    y - 2.0,
                    y + LANE_H,
                    x0 + 1.5,
                    y + 1.0,
                    mark
                );
            }
        }
        SpanKind::Paused | SpanKind::Dead => band(out, class, x0, x1, y + 2.0, LANE_H - 4.0, &[t(key).to_string()]),
    }
}

fn member_lane(out: &mut Html, m: &MemberView, row: usize, win: &Window, selected: bool) {
    let y = lane_y(row);
    let star = if m.is_leader { " ★" } else { "" };
    let class = format!("lane{}{}", if selected { " selected" } else { "" }, if m.alive { "" } else { " down" });
    html!(
        out,
        r#"<g class="{}"><rect class="lane-bg" x="0" y="{:.1}" width="{}" height="{:.1}"/><line class="lane-axis" x1="{}" x2="{:.1}" y1="{:.1}" y2="{:.1}"/><text class="lane-label" x="4" y="{:.1}">{}{}</text>"#,
        class,
        y - 2.0,
        VIEW_W,
        LANE_H + 4.0,
        LABEL_W,
        VIEW_W - 6.0,
        y + 12.0,
        y + 12.0,
        y + 15.0,
        member_name(m.index),
        star
    );
    // Bands first, then bars and ticks on top of them.
    let mut marks = Marks::default();
    for span in &m.lane {
        span_markup(out, &mut marks, span, win, y);
    }
    marks.draw(out);
    html!(out, "</g>");
}

fn coordinator_strip(out: &mut Html, transitions: &[(u64, GroupState, i32)], win: &Window) {
    let y = lane_y(0);
    html!(
        out,
        r#"<g class="lane coordinator-lane"><text class="lane-label" x="4" y="{:.1}">{}</text>"#,
        y + 15.0,
        t(key::GROUPS_LANE_COORDINATOR)
    );
    for (i, (from, state, generation)) in transitions.iter().enumerate() {
        let to = transitions.get(i + 1).map_or(u64::MAX, |next| next.0);
        if let Some((x0, x1)) = win.clip(*from, to) {
            let labels = [format!("{} · gen {generation}", state.kafka_name()), state.kafka_name().to_string()];
            band(out, state_class(*state), x0, x1, y + 2.0, LANE_H - 4.0, &labels);
        }
    }
    html!(out, "</g>");
}

fn time_axis(out: &mut Html, win: &Window, height: f64) {
    let first = win.from.div_ceil(10_000) * 10_000;
    let mut grid = String::new();
    let mut labels = Html::new();
    for t in (first..=win.to).step_by(10_000) {
        let x = win.x(t);
        let _ = write!(grid, "M{x:.1} {:.1}V{height:.1} ", AXIS_H - 4.0);
        html!(
            labels,
            r#"<text class="axis" x="{:.1}" y="{:.1}" text-anchor="middle">{} s</text>"#,
            x,
            AXIS_H - 6.0,
            t / 1000
        );
    }
    // One path for every grid line, under the labels.
    html!(out, r#"<path class="grid" d="{}"/>"#, grid.trim_end());
    out.push(&labels);
    let now = win.x(win.now);
    html!(out, r#"<line class="now" x1="{:.1}" x2="{:.1}" y1="{:.1}" y2="{:.1}"/>"#, now, now, AXIS_H - 4.0, height);
}

/// The drawing inside the timeline's `<svg>` (one fragment: far less wasm than a node per tick).
pub fn timeline_svg(world: &GroupLab, now: u64, selected: Option<u32>) -> Html {
    let win = Window::at(now);
    let members = world.member_views(now);
    let height = timeline_height(members.len());
    let mut out = Html::new();
    time_axis(&mut out, &win, height);
    coordinator_strip(&mut out, &world.coordinator().transitions, &win);
    for (i, m) in members.iter().enumerate() {
        member_lane(&mut out, m, i + 1, &win, selected == Some(m.index));
    }
    out
}

/// The height of the drawing for `members` lanes.
fn timeline_height(members: usize) -> f64 {
    lane_y(members + 1)
}

#[component]
pub fn Timeline(session: Session<GroupLab>, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let drawing =
        Signal::derive(move || session.with(|run| timeline_svg(run.world(), run.sim().now_ms(), selected.get())));
    let view_box = move || {
        let members = session.with(|run| run.world().member_count());
        format!("0 0 {VIEW_W} {:.1}", timeline_height(members))
    };
    view! {
        <div class="pattern-defs" aria-hidden="true"><Markup html=Signal::derive(patterns)/></div>
        <div class="timeline-wrap">
            <svg class="timeline" viewBox=view_box role="img" aria-label=t(key::GROUPS_TIMELINE_ARIA) data-testid="timeline">
                <Markup html=drawing host=Host::G/>
            </svg>
        </div>
        <Legend/>
    }
}

/// Hatches and dots for the rebalance phases (styled in groups.css), so a band never
/// rests on colour alone.
fn patterns() -> Html {
    html!(
        r#"<svg width="0" height="0"><defs>
<pattern id="pat-joining" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect class="pat-bg joining" width="6" height="6"/><line class="pat-ink joining" x1="0" y1="0" x2="0" y2="6"/></pattern>
<pattern id="pat-syncing" width="5" height="5" patternUnits="userSpaceOnUse"><rect class="pat-bg syncing" width="5" height="5"/><circle class="pat-dot syncing" cx="2.5" cy="2.5" r="1.2"/></pattern>
<pattern id="pat-paused" width="6" height="6" patternUnits="userSpaceOnUse"><rect class="pat-bg paused" width="6" height="6"/><path class="pat-ink paused" d="M0 0 L6 6 M6 0 L0 6"/></pattern>
<pattern id="pat-dead" width="6" height="4" patternUnits="userSpaceOnUse"><rect class="pat-bg dead" width="6" height="4"/><line class="pat-ink dead" x1="0" y1="2" x2="6" y2="2"/></pattern>
</defs></svg>"#
    )
}

/// The legend's swatches use the timeline's own classes, so they always match the drawing.
fn legend_markup() -> Html {
    let items: [(Html, &str); 9] = [
        (html!(r#"<line class="hb" x1="12" x2="12" y1="0" y2="8"/>"#), key::GROUPS_LEGEND_HEARTBEAT),
        (html!(r#"<rect class="process" x="0" y="3" width="24" height="8"/>"#), key::GROUPS_LEGEND_PROCESS),
        (html!(r#"<rect class="band joining" width="24" height="14"/>"#), key::GROUPS_LEGEND_JOINING),
        (html!(r#"<rect class="band syncing" width="24" height="14"/>"#), key::GROUPS_LEGEND_SYNCING),
        (html!(r#"<rect class="band paused" width="24" height="14"/>"#), key::GROUPS_LEGEND_PAUSED),
        (html!(r#"<path class="polltimeout" d="M12 14 l6 -10 h-12 z"/>"#), key::GROUPS_LEGEND_POLLTIMEOUT),
        (html!(r#"<rect class="band dead" width="24" height="14"/>"#), key::GROUPS_LEGEND_DEAD),
        (html!(r#"<text class="mark-sample" x="0" y="11">J/S</text>"#), key::GROUPS_LEGEND_MARKS),
        (html!(r#"<text class="mark-sample" x="5" y="13" font-size="14">★</text>"#), key::GROUPS_LEGEND_LEADER),
    ];
    items
        .iter()
        .map(|(shape, key)| {
            html!(r#"<li><svg class="swatch" viewBox="0 0 24 14" aria-hidden="true">{}</svg>{}</li>"#, shape, t(key))
        })
        .collect()
}

#[component]
fn Legend() -> impl IntoView {
    let label = Signal::derive(|| t(key::GROUPS_LEGEND_ARIA).to_string());
    view! { <Markup html=Signal::derive(legend_markup) host=Host::Ul class="legend groups-legend" label=label/> }
}
