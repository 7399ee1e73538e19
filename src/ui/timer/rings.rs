//! The wheel drawn as concentric rings (one per level, level 0 innermost), with each
//! level's pointer at its currentTime, the tasks as dots, and the last expiration's moves.

use leptos::prelude::*;

use super::dots::{dots_of, tags, task_dot, Dot};
use super::geometry::{center, point, Rings};
use super::labels;
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::markup::Tenths;
use crate::model::timer::{LevelView, MoveView, TimerLab};
use crate::ui::keyed::keyed_rows;
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

fn rings_of(levels: &[LevelView]) -> Rings {
    Rings { levels: levels.len(), wheel_size: levels.first().map_or(1, |w| w.wheel_size) }
}

/// The arrowhead of a task's fall.
fn arrow() -> Html {
    html!(
        r#"<defs><marker id="timer-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" class="arrow-head"/></marker></defs>"#
    )
}

/// Layers, bottom to top: rings, rounds, pointers and moves; the labels' leader lines; the
/// dots; the numbers and level names (on a halo, so lines pass under them) and the clock.
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
        moves.with(|m| dots.with(|d| move_marks(&mut svg, rings, m, d)));
        svg
    };
    let labelled = Memo::new(move |_| dots.with(|d| tags(rings.get(), d)));
    let names = Memo::new(move |_| {
        let rings = rings.get();
        let mut svg = Html::new();
        bucket_numbers(&mut svg, rings);
        levels.with(|l| level_labels(&mut svg, rings, l));
        svg
    });
    let hub = move || {
        html!(
            r#"<text class="hub" x="{}" y="{}" text-anchor="middle">{}</text><text class="hub num" x="{}" y="{}" text-anchor="middle">{} ms</text>"#,
            Tenths(center()),
            Tenths(center() - 9.0),
            t(key::TIMER_RINGS_CLOCK),
            Tenths(center()),
            Tenths(center() + 13.0),
            clock()
        )
    };
    view! {
        <svg class="rings" viewBox=labels::view_box() role="img" aria-labelledby="timer-rings-title" data-testid="rings">
            <title id="timer-rings-title">{t(key::TIMER_RINGS_TITLE)}</title>
            <Markup host=Host::G html=Signal::derive(drawing)/>
            <Markup host=Host::G html=labelled/>
            {keyed_rows(
                move || dots.with(|dots| dots.iter().map(|dot| dot.id).collect()),
                move |id| task_dot(id, rings, dots).into_any(),
            )}
            <Markup host=Host::G html=names/>
            <Markup host=Host::G html=Signal::derive(hub)/>
        </svg>
    }
}

/// Alternating ring bands and the bucket edges.
fn ring_backgrounds(svg: &mut Html, rings: Rings) {
    for level in 0..rings.levels {
        let (r0, r1) = rings.radii(level);
        let class = if level % 2 == 0 { "even" } else { "odd" };
        html!(
            svg,
            r#"<circle class="band {}" cx="{}" cy="{}" r="{}" stroke-width="{}"/>"#,
            class,
            Tenths(center()),
            Tenths(center()),
            Tenths((r0 + r1) / 2.0),
            Tenths(r1 - r0)
        );
    }
    html!(svg, r#"<path class="spokes" d="{}"/>"#, rings.spokes());
}

/// "L<n>" on each ring, on a bucket edge (a quarter turn apart) where neither the pointer
/// nor a round of that level is, so the name never sits on a mark; the same edge for every
/// ring when one is free on all of them.
fn level_labels(svg: &mut Html, rings: Rings, levels: &[LevelView]) {
    let size = rings.wheel_size;
    let edges: Vec<usize> = (0..4).map(|k| k * size / 4).collect();
    let common = edges.iter().copied().find(|&e| levels.iter().all(|w| edge_is_free(w, e, size)));
    for wheel in levels {
        let edge = common.or_else(|| edges.iter().copied().find(|&e| edge_is_free(wheel, e, size))).unwrap_or(0);
        let (r0, r1) = rings.radii(wheel.level);
        let (x, y) = point((r0 + r1) / 2.0, rings.angle(edge as f64));
        html!(
            svg,
            r#"<text class="level-label" x="{}" y="{}" text-anchor="middle">L{}</text>"#,
            Tenths(x),
            Tenths(y + 5.0),
            wheel.level
        );
    }
}

/// True when no mark of the level touches bucket edge `edge`: not its pointer (or the far edge of
/// the pointer's outlined bucket), and no round on either side.
fn edge_is_free(wheel: &LevelView, edge: usize, size: usize) -> bool {
    let pointer = ((wheel.current_time_ms / wheel.tick_ms) % size as u64) as usize;
    let busy =
        |b: usize| wheel.buckets.iter().any(|x| x.index == b && (x.expiration_ms.is_some() || !x.tasks.is_empty()));
    edge != pointer && edge != (pointer + 1) % size && !busy(edge) && !busy((edge + size - 1) % size)
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
            Tenths(x1),
            Tenths(y1),
            Tenths(x2),
            Tenths(y2),
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
            Tenths(x),
            Tenths(y + 5.0),
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
                    Tenths(from.0),
                    Tenths(from.1),
                    Tenths(end.0),
                    Tenths(end.1)
                );
            }
            None => {
                html!(
                    svg,
                    r#"<text class="ran" x="{}" y="{}" text-anchor="middle">✓</text>"#,
                    Tenths(from.0),
                    Tenths(from.1 + 5.0)
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
