//! The members' lanes on a sliding window of virtual time (SVG): heartbeat ticks, processing
//! bars, rebalance bands with JoinGroup/SyncGroup marks, and the coordinator's state strip on top.

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
fn fitting(labels: &[String], width: f64) -> Option<String> {
    labels.iter().find(|l| !l.is_empty() && l.chars().count() as f64 * CHAR_W + 6.0 < width).cloned()
}

/// A band with its text centred when it fits (the longer text first, then the shorter).
fn band(class: &'static str, x0: f64, x1: f64, y: f64, h: f64, labels: &[String]) -> impl IntoView {
    let w = (x1 - x0).max(1.5);
    view! {
        <rect class=format!("band {class}") x=x0 y=y width=w height=h/>
        {fitting(labels, w).map(|label| view! { <text class="band-text" x=x0 + w / 2.0 y=y + h / 2.0 + 4.0 text-anchor="middle">{label}</text> })}
    }
}

/// One lane element: instants are ticks or markers, stretches are bars or bands.
fn span_view(span: &LaneSpan, win: &Window, y: f64) -> Option<AnyView> {
    let (class, key) = span_style(span.kind);
    let (x0, x1) = win.clip(span.from_ms, span.to_ms)?;
    let view = match span.kind {
        SpanKind::Heartbeat => view! { <line class="hb" x1=x0 x2=x0 y1=y y2=y + 6.0/> }.into_any(),
        SpanKind::PollTimeout => view! { <path class="polltimeout" d=format!("M{x0} {} l6 -10 h-12 z", y + LANE_H)/> }.into_any(),
        SpanKind::Process => view! { <rect class="process" x=x0 y=y + 8.0 width=(x1 - x0).max(1.0) height=8/> }.into_any(),
        SpanKind::Joining | SpanKind::AwaitingSync => {
            let mark = if span.kind == SpanKind::Joining { "J" } else { "S" };
            let start_visible = span.from_ms >= win.from;
            view! {
                {band(class, x0, x1, y + 2.0, LANE_H - 4.0, &[t(key).to_string()])}
                {start_visible.then(|| view! {
                    <line class="msg" x1=x0 x2=x0 y1=y - 2.0 y2=y + LANE_H/>
                    <text class="mark" x=x0 + 1.5 y=y + 1.0>{mark}</text>
                })}
            }
            .into_any()
        }
        SpanKind::Paused | SpanKind::Dead => band(class, x0, x1, y + 2.0, LANE_H - 4.0, &[t(key).to_string()]).into_any(),
    };
    Some(view)
}

fn member_lane(m: &MemberView, row: usize, win: &Window, selected: bool, select: Callback<u32>) -> impl IntoView {
    let y = lane_y(row);
    let index = m.index;
    let label = if m.is_leader { format!("{} ★", m.name) } else { m.name.clone() };
    // Bands first, then bars and ticks on top of them.
    let mut spans: Vec<&LaneSpan> = m.lane.iter().collect();
    spans.sort_by_key(|s| matches!(s.kind, SpanKind::Process | SpanKind::Heartbeat | SpanKind::PollTimeout));
    let body = spans.into_iter().filter_map(|s| span_view(s, win, y)).collect_view();
    view! {
        <g class="lane" class:selected=selected class:down=!m.alive on:click=move |_| select.run(index)>
            <rect class="lane-bg" x=0 y=y - 2.0 width=VIEW_W height=LANE_H + 4.0/>
            <line class="lane-axis" x1=LABEL_W x2=VIEW_W - 6.0 y1=y + 12.0 y2=y + 12.0/>
            <text class="lane-label" x=4 y=y + 15.0>{label}</text>
            {body}
        </g>
    }
}

fn coordinator_strip(transitions: &[(u64, GroupState, i32)], win: &Window) -> impl IntoView {
    let y = lane_y(0);
    let bands = transitions
        .iter()
        .enumerate()
        .filter_map(|(i, (from, state, generation))| {
            let to = transitions.get(i + 1).map_or(u64::MAX, |next| next.0);
            let (x0, x1) = win.clip(*from, to)?;
            let labels = [format!("{} · gen {generation}", state.kafka_name()), state.kafka_name().to_string()];
            Some(band(state_class(*state), x0, x1, y + 2.0, LANE_H - 4.0, &labels))
        })
        .collect_view();
    view! {
        <g class="lane coordinator-lane">
            <text class="lane-label" x=4 y=y + 15.0>{t("groups.lane.coordinator")}</text>
            {bands}
        </g>
    }
}

fn time_axis(win: &Window, height: f64) -> impl IntoView {
    let first = win.from.div_ceil(10_000) * 10_000;
    let ticks = (first..=win.to)
        .step_by(10_000)
        .map(|t| {
            let x = win.x(t);
            view! {
                <line class="grid" x1=x x2=x y1=AXIS_H - 4.0 y2=height/>
                <text class="axis" x=x y=AXIS_H - 6.0 text-anchor="middle">{format!("{} s", t / 1000)}</text>
            }
        })
        .collect_view();
    let now = win.x(win.now);
    view! {
        {ticks}
        <line class="now" x1=now x2=now y1=AXIS_H - 4.0 y2=height/>
    }
}

#[component]
pub fn Timeline(session: Session<GroupLab>, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let select = Callback::new(move |index: u32| selected.set(Some(index)));
    let drawing = move || {
        session.with(|run| {
            let now = run.sim().now_ms();
            let win = Window::at(now);
            let members = run.world().member_views(now);
            let height = lane_y(members.len() + 1);
            let chosen = selected.get();
            let lanes = members
                .iter()
                .enumerate()
                .map(|(i, m)| member_lane(m, i + 1, &win, chosen == Some(m.index), select))
                .collect_view();
            view! {
                <svg class="timeline" viewBox=format!("0 0 {VIEW_W} {height}") role="img"
                    aria-label=t("groups.timeline.aria") data-testid="timeline">
                    {time_axis(&win, height)}
                    {coordinator_strip(&run.world().coordinator().transitions, &win)}
                    {lanes}
                </svg>
            }
        })
    };
    view! {
        <Patterns/>
        <div class="timeline-wrap">{drawing}</div>
        <Legend/>
    }
}

/// Hatches and dots for the rebalance phases (styled in groups.css), so a band never
/// rests on colour alone.
#[component]
fn Patterns() -> impl IntoView {
    view! {
        <svg class="pattern-defs" width="0" height="0" aria-hidden="true">
            <defs>
                <pattern id="pat-joining" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect class="pat-bg joining" width="6" height="6"/><line class="pat-ink joining" x1="0" y1="0" x2="0" y2="6"/>
                </pattern>
                <pattern id="pat-syncing" width="5" height="5" patternUnits="userSpaceOnUse">
                    <rect class="pat-bg syncing" width="5" height="5"/><circle class="pat-dot syncing" cx="2.5" cy="2.5" r="1.2"/>
                </pattern>
                <pattern id="pat-paused" width="6" height="6" patternUnits="userSpaceOnUse">
                    <rect class="pat-bg paused" width="6" height="6"/><path class="pat-ink paused" d="M0 0 L6 6 M6 0 L0 6"/>
                </pattern>
                <pattern id="pat-dead" width="6" height="4" patternUnits="userSpaceOnUse">
                    <rect class="pat-bg dead" width="6" height="4"/><line class="pat-ink dead" x1="0" y1="2" x2="6" y2="2"/>
                </pattern>
            </defs>
        </svg>
    }
}

/// Swatches share the timeline's classes, so the legend always matches the drawing.
#[component]
fn Legend() -> impl IntoView {
    let swatch = |class: &'static str, key: &'static str| {
        view! {
            <li><svg class="swatch" viewBox="0 0 24 14" aria-hidden="true"><rect class=format!("band {class}") x=0 y=0 width=24 height=14/></svg>{t(key)}</li>
        }
    };
    view! {
        <ul class="legend groups-legend" aria-label=t("groups.legend.aria")>
            <li><svg class="swatch" viewBox="0 0 24 14" aria-hidden="true"><line class="hb" x1=12 x2=12 y1=0 y2=8/></svg>{t("groups.legend.heartbeat")}</li>
            <li><svg class="swatch" viewBox="0 0 24 14" aria-hidden="true"><rect class="process" x=0 y=3 width=24 height=8/></svg>{t("groups.legend.process")}</li>
            {swatch("joining", "groups.legend.joining")}
            {swatch("syncing", "groups.legend.syncing")}
            {swatch("paused", "groups.legend.paused")}
            <li><svg class="swatch" viewBox="0 0 24 14" aria-hidden="true"><path class="polltimeout" d="M12 14 l5 -8 h-10 z"/></svg>{t("groups.legend.polltimeout")}</li>
            {swatch("dead", "groups.legend.dead")}
            <li><span class="mark-sample">"J"</span>" / "<span class="mark-sample">"S"</span>" "{t("groups.legend.marks")}</li>
            <li>"★ "{t("groups.legend.leader")}</li>
        </ul>
    }
}

