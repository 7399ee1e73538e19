//! The wheel drawn as concentric rings (one per level, level 0 innermost), with each
//! level's pointer at its currentTime, the tasks as dots, and the last expiration's moves.

use leptos::prelude::*;

use super::geometry::{center, point, Rings, D, SIZE};
use crate::html;
use crate::i18n::{key, render, t, tf};
use crate::markup::Html;
use crate::model::kernel::Describe;
use crate::model::timer::{LevelView, MoveView, TaskOrigin, TimerLab};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

/// A task dot: where it sits and what it says.
#[derive(Clone, Debug, PartialEq)]
struct Dot {
    id: u64,
    level: usize,
    bucket: usize,
    slot: usize,
    count: usize,
    expiration_ms: u64,
    origin: TaskOrigin,
}

/// How a task's origin is drawn: css class and shape (paired with its colour).
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Sandbox,
    Produce,
    Fetch,
}

pub fn kind_of(origin: &TaskOrigin) -> Kind {
    match origin {
        TaskOrigin::User { .. } | TaskOrigin::Stream { .. } => Kind::Sandbox,
        TaskOrigin::DelayedProduce { .. } => Kind::Produce,
        TaskOrigin::DelayedFetch { .. } => Kind::Fetch,
    }
}

fn dots_of(levels: &[LevelView]) -> Vec<Dot> {
    let mut dots = Vec::new();
    for wheel in levels {
        for bucket in &wheel.buckets {
            for (slot, task) in bucket.tasks.iter().enumerate() {
                dots.push(Dot {
                    id: task.id,
                    level: wheel.level,
                    bucket: bucket.index,
                    slot,
                    count: bucket.tasks.len(),
                    expiration_ms: task.expiration_ms,
                    origin: task.origin.clone(),
                });
            }
        }
    }
    dots
}

fn rings_of(levels: &[LevelView]) -> Rings {
    Rings { levels: levels.len(), wheel_size: levels.first().map_or(1, |w| w.wheel_size) }
}

/// The arrowhead of a task's fall.
fn arrow() -> Html {
    html!(
        r#"<defs><marker id="timer-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" class="arrow-head"/></marker></defs>"#
    )
}

#[component]
pub fn RingsFigure(session: Session<TimerLab>) -> impl IntoView {
    let levels = Memo::new(move |_| session.with(|run| run.world().levels()));
    let rings = Memo::new(move |_| levels.with(|l| rings_of(l)));
    let dots = Memo::new(move |_| levels.with(|l| dots_of(l)));
    let moves = Memo::new(move |_| session.with(|run| run.world().last_moves()));
    let clock = move || session.with(|run| run.sim().now_ms());
    // The drawing is written as SVG markup (lean wasm); only the dots are kept elements, by
    // task id, so that a dot's move between buckets is a CSS transition.
    let drawing = move || {
        let rings = rings.get();
        let mut svg = arrow();
        levels.with(|l| {
            ring_backgrounds(&mut svg, rings);
            busy_buckets(&mut svg, rings, l);
            pointers(&mut svg, rings, l);
        });
        bucket_numbers(&mut svg, rings);
        moves.with(|m| dots.with(|d| move_marks(&mut svg, rings, m, d)));
        svg
    };
    let hub = move || {
        html!(
            r#"<text class="hub" x="{}" y="{}" text-anchor="middle">{}</text><text class="hub num" x="{}" y="{}" text-anchor="middle">{} ms</text>"#,
            D(center()),
            D(center() - 8.0),
            t(key::TIMER_RINGS_CLOCK),
            D(center()),
            D(center() + 10.0),
            clock()
        )
    };
    let view_box = format!("0 0 {SIZE} {SIZE}");
    view! {
        <svg class="rings" viewBox=view_box role="img" aria-labelledby="timer-rings-title" data-testid="rings">
            <title id="timer-rings-title">{t(key::TIMER_RINGS_TITLE)}</title>
            <Markup host=Host::G html=Signal::derive(drawing)/>
            <For each=move || dots.get() key=|dot| dot.id children=move |dot| task_dot(dot.id, rings, dots)/>
            <Markup host=Host::G html=Signal::derive(hub)/>
        </svg>
    }
}

/// Alternating ring bands, the bucket edges, and an "L<n>" label per ring at twelve o'clock.
fn ring_backgrounds(svg: &mut Html, rings: Rings) {
    for level in 0..rings.levels {
        let (r0, r1) = rings.radii(level);
        let class = if level % 2 == 0 { "even" } else { "odd" };
        let (x, y) = point((r0 + r1) / 2.0, 0.0);
        html!(
            svg,
            r#"<circle class="band {}" cx="{}" cy="{}" r="{}" stroke-width="{}"/><text class="level-label" x="{}" y="{}" text-anchor="end">L{}</text>"#,
            class,
            D(center()),
            D(center()),
            D((r0 + r1) / 2.0),
            D(r1 - r0),
            D(x - 3.0),
            D(y + 3.0),
            level
        );
    }
    html!(svg, r#"<path class="spokes" d="{}"/>"#, rings.spokes());
}

/// Shades each bucket that holds a round (Kafka's TimerTaskList with an expiration).
fn busy_buckets(svg: &mut Html, rings: Rings, levels: &[LevelView]) {
    for wheel in levels {
        for bucket in &wheel.buckets {
            let Some(expiration) = bucket.expiration_ms else { continue };
            let title = tf(
                key::TIMER_BUCKET_TITLE,
                &[
                    ("level", &wheel.level.to_string()),
                    ("bucket", &bucket.index.to_string()),
                    ("expiration", &expiration.to_string()),
                    ("count", &bucket.tasks.len().to_string()),
                ],
            );
            html!(
                svg,
                r#"<path class="busy" d="{}"><title>{}</title></path>"#,
                rings.sector(wheel.level, bucket.index),
                title
            );
        }
    }
}

/// Each level's pointer: the bucket at its currentTime outlined, and a hand at its start edge.
fn pointers(svg: &mut Html, rings: Rings, levels: &[LevelView]) {
    for wheel in levels {
        let bucket = ((wheel.current_time_ms / wheel.tick_ms) % wheel.wheel_size as u64) as usize;
        let ((x1, y1), (x2, y2)) = rings.pointer(wheel.level, bucket);
        let title = tf(
            key::TIMER_POINTER_TITLE,
            &[
                ("level", &wheel.level.to_string()),
                ("time", &wheel.current_time_ms.to_string()),
                ("bucket", &bucket.to_string()),
            ],
        );
        html!(
            svg,
            r#"<path class="now" d="{}"/><line class="pointer" x1="{}" y1="{}" x2="{}" y2="{}"><title>{}</title></line>"#,
            rings.sector(wheel.level, bucket),
            D(x1),
            D(y1),
            D(x2),
            D(y2),
            title
        );
    }
}

fn bucket_numbers(svg: &mut Html, rings: Rings) {
    for bucket in (0..rings.wheel_size).filter(|b| rings.labelled(*b)) {
        let (x, y) = rings.label_at(bucket);
        html!(
            svg,
            r#"<text class="bucket-number" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            D(x),
            D(y + 4.0),
            bucket
        );
    }
}

/// Arrows from where a task was to where it fell; a ✓ where a task ran.
fn move_marks(svg: &mut Html, rings: Rings, moves: &[MoveView], dots: &[Dot]) {
    for m in moves {
        let (level, bucket) = m.step.from;
        let from = rings.dot(level, bucket, 0, 1);
        match m.step.to {
            Some((to_level, to_bucket)) => {
                let to = dots.iter().find(|d| d.id == m.step.id).map_or_else(
                    || rings.dot(to_level, to_bucket, 0, 1),
                    |d| rings.dot(d.level, d.bucket, d.slot, d.count),
                );
                let end = shorten(from, to, rings.dot_radius() + 3.0);
                html!(
                    svg,
                    r#"<line class="fell" x1="{}" y1="{}" x2="{}" y2="{}" marker-end="url(#timer-arrow)"/>"#,
                    D(from.0),
                    D(from.1),
                    D(end.0),
                    D(end.1)
                );
            }
            None => {
                html!(
                    svg,
                    r#"<text class="ran" x="{}" y="{}" text-anchor="middle">✓</text>"#,
                    D(from.0),
                    D(from.1 + 5.0)
                );
            }
        }
    }
}

fn shorten(from: (f64, f64), to: (f64, f64), by: f64) -> (f64, f64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy);
    if length <= by {
        return to;
    }
    (to.0 - dx / length * by, to.1 - dy / length * by)
}

/// One task, kept by id so that a move between buckets is a CSS transition.
fn task_dot(id: u64, rings: Memo<Rings>, dots: Memo<Vec<Dot>>) -> impl IntoView {
    let dot = move || dots.with(|all| all.iter().find(|d| d.id == id).cloned());
    let place = move || {
        dot().map(|d| {
            let (x, y) = rings.get().dot(d.level, d.bucket, d.slot, d.count);
            format!("transform: translate({}px, {}px)", D(x), D(y))
        })
    };
    let body = Signal::derive(move || dot().map(|d| dot_markup(rings.get(), &d)).unwrap_or_default());
    view! { <g class="task" style=place data-task=id><Markup host=Host::G html=body/></g> }
}

/// A dot's shape (by origin), tooltip, and label (expiration and origin when alone in its bucket).
fn dot_markup(rings: Rings, d: &Dot) -> Html {
    let r = (rings.dot_radius() * 10.0).round() / 10.0;
    // Labels go left of dots on the right-hand side, so they stay inside the drawing.
    let (x, _) = rings.dot(d.level, d.bucket, d.slot, d.count);
    let (label_x, anchor) = if x > center() + 60.0 { (-r - 3.0, "end") } else { (r + 3.0, "start") };
    let origin = render(&d.origin.message());
    let title = tf(
        key::TIMER_DOT_TITLE,
        &[("id", &d.id.to_string()), ("origin", &origin), ("expiration", &d.expiration_ms.to_string())],
    );
    let mut svg = html!("<title>{}</title>", title);
    match kind_of(&d.origin) {
        Kind::Sandbox => html!(svg, r#"<circle class="shape sandbox" r="{}"/>"#, r),
        Kind::Produce => html!(
            svg,
            r#"<rect class="shape produce" x="{}" y="{}" width="{}" height="{}"/>"#,
            D(-r),
            D(-r),
            D(2.0 * r),
            D(2.0 * r)
        ),
        Kind::Fetch => {
            html!(svg, r#"<path class="shape fetch" d="M0 {}L{} 0L0 {}L{} 0Z"/>"#, D(-r * 1.3), r, r, D(-r * 1.3))
        }
    }
    let label = if d.count == 1 {
        html!(r#"<tspan class="exp">{} ms</tspan> {}"#, d.expiration_ms, short(&d.origin))
    } else if d.slot == 0 {
        Html::text(&tf(key::TIMER_DOT_MANY, &[("count", &d.count.to_string())]))
    } else {
        return svg;
    };
    html!(svg, r#"<text class="dot-label" x="{}" y="4" text-anchor="{}">{}</text>"#, D(label_x), anchor, label);
    svg
}

/// Origins on the rings are cut short; the pending list has them whole.
fn short(origin: &TaskOrigin) -> String {
    let text = render(&origin.short_message());
    if text.chars().count() > 18 {
        format!("{}…", text.chars().take(17).collect::<String>())
    } else {
        text
    }
}
