//! The members' lanes on a sliding window of virtual time (SVG): heartbeat ticks, processing
//! bars, rebalance bands with JoinGroup/SyncGroup marks, and the coordinator's state strip on top.

use std::fmt::Write;

use leptos::prelude::*;

use crate::i18n::t;
use crate::model::group::{GroupLab, GroupState, LaneSpan, MemberView, SpanKind};
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
        SpanKind::Joining => ("joining", "groups.band.joining"),
        SpanKind::AwaitingSync => ("syncing", "groups.band.syncing"),
        SpanKind::Paused => ("paused", "groups.band.paused"),
        SpanKind::PollTimeout => ("polltimeout", ""),
        SpanKind::Dead => ("dead", "groups.band.dead"),
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

pub use crate::markup::esc;

/// A band with its text centred when it fits (the longer text first, then the shorter).
fn band(out: &mut String, class: &str, x0: f64, x1: f64, y: f64, h: f64, labels: &[String]) {
    let w = (x1 - x0).max(1.5);
    let _ = write!(out, r#"<rect class="band {class}" x="{x0:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}"/>"#);
    if let Some(label) = fitting(labels, w) {
        let (cx, cy) = (x0 + w / 2.0, y + h / 2.0 + 4.0);
        let _ = write!(
            out,
            r#"<text class="band-text" x="{cx:.1}" y="{cy:.1}" text-anchor="middle">{}</text>"#,
            esc(label)
        );
    }
}

/// One lane element: instants are ticks or markers, stretches are bars or bands.
fn span_markup(out: &mut String, span: &LaneSpan, win: &Window, y: f64) {
    let (class, key) = span_style(span.kind);
    let Some((x0, x1)) = win.clip(span.from_ms, span.to_ms) else { return };
    let _ = match span.kind {
        SpanKind::Heartbeat => {
            write!(out, r#"<line class="hb" x1="{x0:.1}" x2="{x0:.1}" y1="{y:.1}" y2="{:.1}"/>"#, y + 6.0)
        }
        SpanKind::PollTimeout => {
            write!(out, r#"<path class="polltimeout" d="M{x0:.1} {:.1} l6 -10 h-12 z"/>"#, y + LANE_H)
        }
        SpanKind::Process => write!(
            out,
            r#"<rect class="process" x="{x0:.1}" y="{:.1}" width="{:.1}" height="8"/>"#,
            y + 8.0,
            (x1 - x0).max(1.0)
        ),
        SpanKind::Joining | SpanKind::AwaitingSync => {
            band(out, class, x0, x1, y + 2.0, LANE_H - 4.0, &[t(key).to_string()]);
            let mark = if span.kind == SpanKind::Joining { "J" } else { "S" };
            if span.from_ms < win.from {
                return;
            }
            write!(
                out,
                r#"<line class="msg" x1="{x0:.1}" x2="{x0:.1}" y1="{:.1}" y2="{:.1}"/><text class="mark" x="{:.1}" y="{:.1}">{mark}</text>"#,
                y - 2.0,
                y + LANE_H,
                x0 + 1.5,
                y + 1.0
            )
        }
        SpanKind::Paused | SpanKind::Dead => {
            band(out, class, x0, x1, y + 2.0, LANE_H - 4.0, &[t(key).to_string()]);
            Ok(())
        }
    };
}

fn member_lane(out: &mut String, m: &MemberView, row: usize, win: &Window, selected: bool) {
    let y = lane_y(row);
    let star = if m.is_leader { " ★" } else { "" };
    let class = format!("lane{}{}", if selected { " selected" } else { "" }, if m.alive { "" } else { " down" });
    let _ = write!(
        out,
        r#"<g class="{class}"><rect class="lane-bg" x="0" y="{:.1}" width="{VIEW_W}" height="{:.1}"/><line class="lane-axis" x1="{LABEL_W}" x2="{:.1}" y1="{:.1}" y2="{:.1}"/><text class="lane-label" x="4" y="{:.1}">{}{star}</text>"#,
        y - 2.0,
        LANE_H + 4.0,
        VIEW_W - 6.0,
        y + 12.0,
        y + 12.0,
        y + 15.0,
        esc(&m.name)
    );
    // Bands first, then bars and ticks on top of them.
    let mut spans: Vec<&LaneSpan> = m.lane.iter().collect();
    spans.sort_by_key(|s| matches!(s.kind, SpanKind::Process | SpanKind::Heartbeat | SpanKind::PollTimeout));
    for span in spans {
        span_markup(out, span, win, y);
    }
    out.push_str("</g>");
}

fn coordinator_strip(out: &mut String, transitions: &[(u64, GroupState, i32)], win: &Window) {
    let y = lane_y(0);
    let _ = write!(
        out,
        r#"<g class="lane coordinator-lane"><text class="lane-label" x="4" y="{:.1}">{}</text>"#,
        y + 15.0,
        esc(t("groups.lane.coordinator"))
    );
    for (i, (from, state, generation)) in transitions.iter().enumerate() {
        let to = transitions.get(i + 1).map_or(u64::MAX, |next| next.0);
        if let Some((x0, x1)) = win.clip(*from, to) {
            let labels = [format!("{} · gen {generation}", state.kafka_name()), state.kafka_name().to_string()];
            band(out, state_class(*state), x0, x1, y + 2.0, LANE_H - 4.0, &labels);
        }
    }
    out.push_str("</g>");
}

fn time_axis(out: &mut String, win: &Window, height: f64) {
    let first = win.from.div_ceil(10_000) * 10_000;
    for t in (first..=win.to).step_by(10_000) {
        let x = win.x(t);
        let _ = write!(
            out,
            r#"<line class="grid" x1="{x:.1}" x2="{x:.1}" y1="{:.1}" y2="{height:.1}"/><text class="axis" x="{x:.1}" y="{:.1}" text-anchor="middle">{} s</text>"#,
            AXIS_H - 4.0,
            AXIS_H - 6.0,
            t / 1000
        );
    }
    let now = win.x(win.now);
    let _ = write!(out, r#"<line class="now" x1="{now:.1}" x2="{now:.1}" y1="{:.1}" y2="{height:.1}"/>"#, AXIS_H - 4.0);
}

/// The whole drawing as SVG markup (one string: far less wasm than a node per tick).
pub fn timeline_svg(world: &GroupLab, now: u64, selected: Option<u32>) -> String {
    let win = Window::at(now);
    let members = world.member_views(now);
    let height = lane_y(members.len() + 1);
    let mut out = format!(
        r#"<svg class="timeline" viewBox="0 0 {VIEW_W} {height:.1}" role="img" aria-label='{}' data-testid="timeline">"#,
        esc(t("groups.timeline.aria"))
    );
    time_axis(&mut out, &win, height);
    coordinator_strip(&mut out, &world.coordinator().transitions, &win);
    for (i, m) in members.iter().enumerate() {
        member_lane(&mut out, m, i + 1, &win, selected == Some(m.index));
    }
    out.push_str("</svg>");
    out
}

#[component]
pub fn Timeline(session: Session<GroupLab>, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let drawing = move || session.with(|run| timeline_svg(run.world(), run.sim().now_ms(), selected.get()));
    view! {
        <div class="pattern-defs" aria-hidden="true" inner_html=PATTERNS></div>
        <div class="timeline-wrap" inner_html=drawing></div>
        <Legend/>
    }
}

/// Hatches and dots for the rebalance phases (styled in groups.css), so a band never
/// rests on colour alone.
const PATTERNS: &str = r#"<svg width="0" height="0"><defs>
<pattern id="pat-joining" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect class="pat-bg joining" width="6" height="6"/><line class="pat-ink joining" x1="0" y1="0" x2="0" y2="6"/></pattern>
<pattern id="pat-syncing" width="5" height="5" patternUnits="userSpaceOnUse"><rect class="pat-bg syncing" width="5" height="5"/><circle class="pat-dot syncing" cx="2.5" cy="2.5" r="1.2"/></pattern>
<pattern id="pat-paused" width="6" height="6" patternUnits="userSpaceOnUse"><rect class="pat-bg paused" width="6" height="6"/><path class="pat-ink paused" d="M0 0 L6 6 M6 0 L0 6"/></pattern>
<pattern id="pat-dead" width="6" height="4" patternUnits="userSpaceOnUse"><rect class="pat-bg dead" width="6" height="4"/><line class="pat-ink dead" x1="0" y1="2" x2="6" y2="2"/></pattern>
</defs></svg>"#;

/// The legend's swatches use the timeline's own classes, so they always match the drawing.
fn legend_markup() -> String {
    let items: [(&str, &str); 9] = [
        (r#"<line class="hb" x1="12" x2="12" y1="0" y2="8"/>"#, "groups.legend.heartbeat"),
        (r#"<rect class="process" x="0" y="3" width="24" height="8"/>"#, "groups.legend.process"),
        (r#"<rect class="band joining" width="24" height="14"/>"#, "groups.legend.joining"),
        (r#"<rect class="band syncing" width="24" height="14"/>"#, "groups.legend.syncing"),
        (r#"<rect class="band paused" width="24" height="14"/>"#, "groups.legend.paused"),
        (r#"<path class="polltimeout" d="M12 14 l6 -10 h-12 z"/>"#, "groups.legend.polltimeout"),
        (r#"<rect class="band dead" width="24" height="14"/>"#, "groups.legend.dead"),
        (r#"<text class="mark-sample" x="0" y="11">J/S</text>"#, "groups.legend.marks"),
        (r#"<text class="mark-sample" x="5" y="13" font-size="14">★</text>"#, "groups.legend.leader"),
    ];
    items
        .iter()
        .map(|(shape, key)| {
            format!(
                r#"<li><svg class="swatch" viewBox="0 0 24 14" aria-hidden="true">{shape}</svg>{}</li>"#,
                esc(t(key))
            )
        })
        .collect()
}

#[component]
fn Legend() -> impl IntoView {
    view! { <ul class="legend groups-legend" aria-label=t("groups.legend.aria") inner_html=legend_markup()></ul> }
}
