//! The sticky partitioner for records without key: batches filling one partition at a time,
//! and the points where it switched to another partition.

use leptos::prelude::*;

use super::geometry::{PathData, TimeAxis, WIDTH};
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::{fixed, Html, Tenths};
use crate::model::partitioner::{BatchView, Command, Partitioner, SendReason, SwitchView, TOPIC};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

const ROW: f64 = 22.0;
const LEFT: f64 = 74.0;
const AXIS: f64 = 22.0;

/// Everything the timeline draws, copied out of the model once per change.
#[derive(Clone, PartialEq)]
struct Timeline {
    batches: Vec<BatchView>,
    switches: Vec<SwitchView>,
    partitions: u32,
    now_ms: u64,
}

#[component]
pub fn StickyPanel(session: Session<Partitioner>) -> impl IntoView {
    // Recomputed on every change, redrawn only when it differs (the clock matters only while a batch is open).
    let timeline = Memo::new(move |_| {
        session.with(|run| {
            let world = run.world();
            let view = world.sticky_timeline();
            let open = view.batches.iter().any(|b| b.sent_ms.is_none());
            let now_ms = if open { run.sim().now_ms() } else { 0 };
            Timeline {
                batches: view.batches.to_vec(),
                switches: view.switches.to_vec(),
                partitions: world.num_partitions(),
                now_ms,
            }
        })
    });
    let settings = move || {
        session.with(|run| {
            let s = run.world().settings();
            tf(
                key::PARTITIONER_STICKY_SETTINGS,
                &[
                    ("batch", &s.batch_size_bytes.to_string()),
                    ("linger", &s.linger_ms.to_string()),
                    ("adaptive", &s.adaptive_partitioning_enable.to_string()),
                    ("timeout", &s.availability_timeout_ms.to_string()),
                    ("value", &s.value_bytes.to_string()),
                ],
            )
        })
    };
    view! {
        <section class="sticky" aria-labelledby="sticky-title">
            <h2 id="sticky-title">{t(key::PARTITIONER_STICKY_TITLE)}</h2>
            <p class="legend"><code translate="no">{settings}</code></p>
            <button data-testid="send-unkeyed" on:click=move |_| session.command(Command::ProduceUnkeyed(120))>{t(key::PARTITIONER_STICKY_SEND)}</button>
            {move || {
                let timeline = timeline.get();
                if timeline.batches.is_empty() {
                    view! { <p class="muted" data-testid="sticky-empty">{t(key::PARTITIONER_STICKY_EMPTY)}</p> }.into_any()
                } else {
                    view! { <TimelineView timeline=timeline/> }.into_any()
                }
            }}
        </section>
    }
}

#[component]
fn TimelineView(timeline: Timeline) -> impl IntoView {
    let Timeline { batches, switches, partitions, now_ms } = timeline;
    let start_ms = batches.iter().map(|b| b.created_ms).min().unwrap_or(0);
    let end_ms = batches.iter().map(|b| b.sent_ms.unwrap_or(now_ms)).max().unwrap_or(now_ms).max(start_ms + 1);
    let axis = TimeAxis { start_ms, end_ms, left: LEFT };
    let height = f64::from(partitions) * ROW + AXIS;
    let full = batches.iter().filter(|b| b.send_reason == Some(SendReason::Full)).count();
    let records: u32 = batches.iter().map(|b| b.records).sum();
    let fill = batches.iter().map(|b| f64::from(b.size_bytes) / f64::from(b.write_limit_bytes.max(1))).sum::<f64>()
        / batches.len() as f64;
    let summary = tf(
        key::PARTITIONER_STICKY_SUMMARY,
        &[
            ("records", &records.to_string()),
            ("batches", &batches.len().to_string()),
            ("full", &full.to_string()),
            ("fill", &crate::model::kernel::decimal_units(fill * 100.0, 0).to_string()),
            ("switches", &switches.len().to_string()),
        ],
    );
    let markup = timeline_markup(&batches, &switches, partitions, &axis, now_ms);
    view! {
        <p data-testid="sticky-summary">{summary}</p>
        <svg class="timeline" data-testid="sticky-timeline" viewBox=format!("0 0 {} {}", Tenths(WIDTH), Tenths(height)) role="img"
            aria-label=t(key::PARTITIONER_STICKY_ARIA)>
            <Markup host=Host::G html=Signal::stored(markup)/>
        </svg>
        <p class="legend">{t(key::PARTITIONER_STICKY_LEGEND)}</p>
    }
}

/// The whole drawing: lanes, time ticks, batches (each a `rect.batch`) and switches; repeated
/// marks of one class are one path.
fn timeline_markup(
    batches: &[BatchView],
    switches: &[SwitchView],
    partitions: u32,
    axis: &TimeAxis,
    now_ms: u64,
) -> Html {
    let (mut even, mut odd) = (PathData::default(), PathData::default());
    let mut out = Html::new();
    for p in 0..partitions {
        let lane = if p % 2 == 0 { &mut even } else { &mut odd };
        lane.rect(0.0, f64::from(p) * ROW, WIDTH, ROW);
    }
    out.push(&even.element("lane even"));
    out.push(&odd.element("lane"));
    for p in 0..partitions {
        html!(out, "<text class='lane-label' x='4' y='{}'>{}-{}</text>", Tenths(f64::from(p) * ROW + 15.0), TOPIC, p);
    }
    out.push(&axis_ticks(axis, f64::from(partitions) * ROW));
    out.push(&batch_blocks(batches, switches, axis, now_ms));
    out.push(&switch_marks(switches, axis));
    out
}

/// The batches, each with its fill as a bar and, when it is wide enough and no switch mark
/// (⇢) sits at its start, as a percentage.
fn batch_blocks(batches: &[BatchView], switches: &[SwitchView], axis: &TimeAxis, now_ms: u64) -> Html {
    let mut blocks = Html::new();
    let mut fills = PathData::default();
    let mut labels = Html::new();
    for b in batches {
        let y = f64::from(b.partition) * ROW + 3.0;
        let x = axis.x(b.created_ms);
        let width = (axis.x(b.sent_ms.unwrap_or(now_ms)) - x).max(5.0);
        let share = f64::from(b.size_bytes) / f64::from(b.write_limit_bytes.max(1));
        let fill_h = (ROW - 6.0) * share.min(1.0);
        let class = if b.sent_ms.is_none() { "batch open" } else { "batch" };
        html!(
            blocks,
            "<rect class='{}' x='{}' y='{}' width='{}' height='{}'/>",
            class,
            Tenths(x),
            Tenths(y),
            Tenths(width),
            Tenths(ROW - 6.0)
        );
        fills.rect(x, y + ROW - 6.0 - fill_h, width, fill_h);
        let marked = switches.iter().any(|s| s.switch.to == b.partition && (axis.x(s.at_ms) - x).abs() < 4.0);
        if width >= 30.0 && !marked {
            html!(
                labels,
                "<text class='fill-label' x='{}' y='{}' text-anchor='middle'>{}%</text>",
                Tenths(x + width / 2.0),
                Tenths(y + 12.0),
                fixed(share * 100.0, 0)
            );
        }
    }
    blocks.push(&fills.element("batch-fill"));
    blocks.push(&labels);
    blocks
}

fn switch_marks(switches: &[SwitchView], axis: &TimeAxis) -> Html {
    let mut lines = PathData::default();
    let mut marks = Html::new();
    for s in switches {
        let x = axis.x(s.at_ms);
        let (a, b) = (s.switch.from.min(s.switch.to), s.switch.from.max(s.switch.to));
        lines.vline(x, f64::from(a) * ROW + 2.0, f64::from(b) * ROW + ROW - 2.0);
        let y_to = f64::from(s.switch.to) * ROW + ROW / 2.0 + 4.0;
        html!(marks, "<text class='switch-mark' x='{}' y='{}'>⇢</text>", Tenths(x + 2.0), Tenths(y_to));
    }
    let mut out = lines.element("switch");
    out.push(&marks);
    out
}

fn axis_ticks(axis: &TimeAxis, top: f64) -> Html {
    let span = axis.end_ms - axis.start_ms;
    let step =
        [1u64, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].into_iter().find(|s| span / s <= 8).unwrap_or(10_000);
    let first = axis.start_ms.div_ceil(step) * step;
    let mut lines = PathData::default();
    let mut labels = Html::new();
    for ms in (first..=axis.end_ms).step_by(step as usize) {
        let x = axis.x(ms);
        lines.vline(x, 0.0, top);
        html!(
            labels,
            "<text class='tick-label' x='{}' y='{}' text-anchor='middle'>{} ms</text>",
            Tenths(x),
            Tenths(top + 15.0),
            ms
        );
    }
    let mut out = lines.element("tick");
    out.push(&labels);
    out
}
