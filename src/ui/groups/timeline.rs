//! The members' lanes on a sliding window of virtual time (SVG): heartbeat ticks, processing
//! bars, rebalance bands with JoinGroup/SyncGroup marks, and the coordinator's state strip on top.
//!
//! The drawing is measured, not stretched: one view unit is 1/16 rem (1 px at the default root
//! size, ≈1.6 px in presenter mode at 1920), so its text is exactly the size the CSS gives it at
//! any width. Inside a lane, ticks sit in a top strip, bars in a bottom strip and labels between
//! them (with a halo), so no label is ever drawn over a mark.

use std::fmt::Write;

use crate::html;
use crate::i18n::{key, t};
use crate::markup::{Html, Tenths};
use crate::model::group::{GroupLab, GroupState, LaneSpan, MemberView, SpanKind};

/// Virtual time the lanes show.
pub const WINDOW_MS: u64 = 90_000;
/// Height of the time axis on top, in view units.
pub const AXIS_H: f64 = 20.0;
/// Below this width (view units) lanes stay tall enough to tap.
const NARROW: f64 = 480.0;

/// The layout of the drawing in view units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    pub width: f64,
    pub lane_h: f64,
    /// Font size of the lanes' labels (the CSS says the same: `.lanes-svg` 13, `.lanes-svg.dense` 12).
    pub font: f64,
}

impl Geometry {
    /// Dense lanes for more than six members, unless the screen is narrow (lanes are tap targets).
    pub fn new(width: f64, members: usize) -> Self {
        let width = width.max(120.0);
        let dense = members > 6 && width >= NARROW;
        Self { width, lane_h: if dense { 26.0 } else { 34.0 }, font: if dense { 12.0 } else { 13.0 } }
    }

    pub fn dense(&self) -> bool {
        self.lane_h < 34.0
    }

    fn lane_y(&self, row: usize) -> f64 {
        AXIS_H + row as f64 * self.lane_h
    }

    /// The height of the drawing for `members` lanes (plus the coordinator's strip).
    pub fn height(&self, members: usize) -> f64 {
        self.lane_y(members + 1)
    }

    /// Width of `text` in view units (the lanes use a monospace font).
    fn text_w(&self, text: &str) -> f64 {
        text.chars().count() as f64 * self.font * 0.62
    }

    /// A label's baseline below its lane's top: the ink (caps and descenders) centred between the strips.
    fn baseline(&self) -> f64 {
        self.lane_h / 2.0 + self.font * 0.26
    }

    /// Height of the top (ticks) and bottom (bars) strips of a lane.
    fn strip(&self) -> f64 {
        ((self.lane_h - 4.0 - self.font - 2.0) / 2.0).max(3.0)
    }
}

/// The visible stretch of virtual time: the last `WINDOW_MS` up to now (0..WINDOW_MS at first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub from: u64,
    pub to: u64,
    pub now: u64,
    width: f64,
}

impl Window {
    pub fn at(now: u64, width: f64) -> Self {
        let to = now.max(WINDOW_MS);
        Self { from: to - WINDOW_MS, to, now, width }
    }

    pub fn x(&self, t: u64) -> f64 {
        (t.clamp(self.from, self.to) - self.from) as f64 * self.width / WINDOW_MS as f64
    }

    /// The x range of `[from, to)` that is visible and has already happened (`to == u64::MAX`: open).
    pub fn clip(&self, from: u64, to: u64) -> Option<(f64, f64)> {
        let end = to.min(self.now);
        (end >= self.from && from <= self.now && from <= end).then(|| (self.x(from), self.x(end)))
    }
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

/// A label waiting to be placed: it is drawn only if it does not overlap the one before it.
struct Label {
    x: f64,
    width: f64,
    text: String,
}

/// The marks of one lane, one `d` per class (many ticks and bars, few elements), and its labels.
#[derive(Default)]
struct Lane {
    heartbeats: String,
    process: String,
    poll_timeouts: String,
    messages: String,
    labels: Vec<Label>,
}

impl Lane {
    /// Marks over the bands, then the labels that fit, left to right, over everything.
    fn draw(mut self, out: &mut Html, geo: &Geometry, y: f64) {
        for (class, d) in [
            ("process", &self.process),
            ("hb", &self.heartbeats),
            ("msg", &self.messages),
            ("polltimeout", &self.poll_timeouts),
        ] {
            if !d.is_empty() {
                html!(out, r#"<path class="{}" d="{}"/>"#, class, d.trim_end());
            }
        }
        crate::model::kernel::order::sort_by(&mut self.labels, |a, b| a.x.total_cmp(&b.x));
        let baseline = y + geo.baseline();
        let mut free_from = f64::MIN;
        for label in self.labels {
            if label.x >= free_from && label.x + label.width <= geo.width {
                html!(
                    out,
                    r#"<text class="band-text" x="{}" y="{}">{}</text>"#,
                    Tenths(label.x),
                    Tenths(baseline),
                    label.text
                );
                free_from = label.x + label.width + 4.0;
            }
        }
    }
}

/// The full text left-aligned in the band when it fits, else `short` (at a visible start only).
fn band_label(geo: &Geometry, x0: f64, x1: f64, text: &str, short: Option<&str>) -> Option<Label> {
    let x = x0 + 3.0;
    let width = geo.text_w(text);
    if x + width <= x1 - 2.0 {
        return Some(Label { x, width, text: text.to_string() });
    }
    short.map(|s| Label { x, width: geo.text_w(s), text: s.to_string() })
}

fn rect(out: &mut Html, class: &str, x0: f64, x1: f64, y: f64, h: f64) {
    let w = (x1 - x0).max(1.5);
    html!(
        out,
        r#"<rect class="band {}" x="{}" y="{}" width="{}" height="{}"/>"#,
        class,
        Tenths(x0),
        Tenths(y),
        Tenths(w),
        Tenths(h)
    );
}

/// One lane element: instants are ticks or markers, stretches are bars or bands.
fn span_markup(out: &mut Html, lane: &mut Lane, span: &LaneSpan, win: &Window, geo: &Geometry, y: f64) {
    let (class, key) = span_style(span.kind);
    let Some((x0, x1)) = win.clip(span.from_ms, span.to_ms) else { return };
    let (s, h) = (geo.strip(), geo.lane_h);
    match span.kind {
        SpanKind::Heartbeat => {
            let _ = write!(lane.heartbeats, "M{} {}v{} ", Tenths(x0), Tenths(y + 2.0), Tenths(s));
        }
        SpanKind::PollTimeout => {
            let _ = write!(
                lane.poll_timeouts,
                "M{} {}l{} -{}h-{}z ",
                Tenths(x0),
                Tenths(y + h - 2.0),
                Tenths(s * 0.7),
                Tenths(s),
                Tenths(s * 1.4)
            );
        }
        SpanKind::Process => {
            let w = (x1 - x0).max(1.0);
            let _ = write!(
                lane.process,
                "M{} {}h{}v{}H{}z ",
                Tenths(x0),
                Tenths(y + h - 2.0 - s),
                Tenths(w),
                Tenths(s),
                Tenths(x0)
            );
        }
        SpanKind::Joining | SpanKind::AwaitingSync => {
            rect(out, class, x0, x1, y + 2.0, h - 4.0);
            let started = span.from_ms >= win.from;
            if started {
                let _ = write!(lane.messages, "M{} {}V{} ", Tenths(x0), Tenths(y + 1.0), Tenths(y + h - 1.0));
            }
            let mark = if span.kind == SpanKind::Joining { "J" } else { "S" };
            lane.labels.extend(band_label(geo, x0, x1, t(key), started.then_some(mark)));
        }
        SpanKind::Paused | SpanKind::Dead => {
            rect(out, class, x0, x1, y + 2.0, h - 4.0);
            lane.labels.extend(band_label(geo, x0, x1, t(key), None));
        }
    }
}

fn member_lane(out: &mut Html, m: &MemberView, row: usize, win: &Window, geo: &Geometry, selected: bool) {
    let y = geo.lane_y(row);
    let class = format!("lane{}{}", if selected { " selected" } else { "" }, if m.alive { "" } else { " down" });
    html!(
        out,
        r#"<g class="{}"><rect class="lane-bg" x="0" y="{}" width="{}" height="{}"/><line class="lane-axis" x1="0" x2="{}" y1="{}" y2="{}"/>"#,
        class,
        Tenths(y),
        Tenths(geo.width),
        Tenths(geo.lane_h),
        Tenths(geo.width),
        Tenths(y),
        Tenths(y)
    );
    // Bands first, then bars and ticks on top of them, then the labels.
    let mut lane = Lane::default();
    for span in &m.lane {
        span_markup(out, &mut lane, span, win, geo, y);
    }
    lane.draw(out, geo, y);
    html!(out, "</g>");
}

fn coordinator_strip(out: &mut Html, transitions: &[(u64, GroupState, i32)], win: &Window, geo: &Geometry) {
    let y = geo.lane_y(0);
    html!(out, r#"<g class="lane coordinator-lane">"#);
    let baseline = y + geo.baseline();
    for (i, (from, state, generation)) in transitions.iter().enumerate() {
        let to = transitions.get(i + 1).map_or(u64::MAX, |next| next.0);
        let Some((x0, x1)) = win.clip(*from, to) else { continue };
        rect(out, state_class(*state), x0, x1, y + 2.0, geo.lane_h - 4.0);
        let labels = [format!("{} · gen {generation}", state.kafka_name()), state.kafka_name().to_string()];
        if let Some(label) = labels.iter().find(|l| geo.text_w(l) + 6.0 < x1 - x0) {
            html!(
                out,
                r#"<text class="band-text" x="{}" y="{}" text-anchor="middle">{}</text>"#,
                Tenths((x0 + x1) / 2.0),
                Tenths(baseline),
                label
            );
        }
    }
    html!(out, "</g>");
}

fn time_axis(out: &mut Html, win: &Window, geo: &Geometry, height: f64) {
    // A label every 10 s, or every 20 or 30 s when they would crowd.
    let step = [10_000, 20_000, 30_000].into_iter().find(|s| win.x(win.from + s) >= 48.0).unwrap_or(30_000);
    let first = win.from.div_ceil(step) * step;
    let mut grid = String::new();
    let mut labels = Html::new();
    for t in (first..=win.to).step_by(step as usize) {
        let x = win.x(t);
        let _ = write!(grid, "M{} {}V{} ", Tenths(x), Tenths(AXIS_H - 4.0), Tenths(height));
        // The first and last labels stay inside the drawing.
        let anchor = if x < 16.0 {
            "start"
        } else if x > geo.width - 16.0 {
            "end"
        } else {
            "middle"
        };
        html!(labels, r#"<text class="axis" x="{}" y="14" text-anchor="{}">{} s</text>"#, Tenths(x), anchor, t / 1000);
    }
    // One path for every grid line, under the labels.
    html!(out, r#"<path class="grid" d="{}"/>"#, grid.trim_end());
    out.push(&labels);
    let now = win.x(win.now);
    html!(
        out,
        r#"<line class="now" x1="{}" x2="{}" y1="{}" y2="{}"/>"#,
        Tenths(now),
        Tenths(now),
        Tenths(AXIS_H - 4.0),
        Tenths(height)
    );
}

/// The drawing inside the timeline's `<svg>` (one fragment: far less wasm than a node per tick).
pub fn timeline_svg(world: &GroupLab, now: u64, selected: Option<u32>, geo: Geometry) -> Html {
    let win = Window::at(now, geo.width);
    let members = world.member_views(now);
    let height = geo.height(members.len());
    let mut out = Html::new();
    time_axis(&mut out, &win, &geo, height);
    coordinator_strip(&mut out, &world.coordinator().transitions, &win, &geo);
    for (i, m) in members.iter().enumerate() {
        member_lane(&mut out, m, i + 1, &win, &geo, selected == Some(m.index));
    }
    out
}

/// Which kinds of lane marks are on screen now (the compact key lists only those).
pub fn kinds_shown(world: &GroupLab, now: u64) -> Vec<SpanKind> {
    let win = Window::at(now, 1.0);
    let mut kinds: Vec<SpanKind> = Vec::new();
    for m in world.member_views(now) {
        for span in &m.lane {
            if !kinds.contains(&span.kind) && win.clip(span.from_ms, span.to_ms).is_some() {
                kinds.push(span.kind);
            }
        }
    }
    kinds
}

/// Hatches and dots for the rebalance phases (styled in groups.css), so a band never
/// rests on colour alone.
pub fn patterns() -> Html {
    html!(
        r#"<svg width="0" height="0"><defs>
<pattern id="pat-joining" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect class="pat-bg joining" width="6" height="6"/><line class="pat-ink joining" x1="0" y1="0" x2="0" y2="6"/></pattern>
<pattern id="pat-syncing" width="5" height="5" patternUnits="userSpaceOnUse"><rect class="pat-bg syncing" width="5" height="5"/><circle class="pat-dot syncing" cx="2.5" cy="2.5" r="1.2"/></pattern>
<pattern id="pat-paused" width="6" height="6" patternUnits="userSpaceOnUse"><rect class="pat-bg paused" width="6" height="6"/><path class="pat-ink paused" d="M0 0 L6 6 M6 0 L0 6"/></pattern>
<pattern id="pat-dead" width="6" height="4" patternUnits="userSpaceOnUse"><rect class="pat-bg dead" width="6" height="4"/><line class="pat-ink dead" x1="0" y1="2" x2="6" y2="2"/></pattern>
</defs></svg>"#
    )
}
