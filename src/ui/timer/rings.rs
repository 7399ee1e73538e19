//! The wheel drawn as concentric rings (one per level, level 0 innermost), with each
//! level's pointer at its currentTime, the tasks as dots, and the last expiration's moves.

use leptos::prelude::*;

use super::geometry::{center, point, Rings, SIZE};
use crate::i18n::{t, tf};
use crate::model::timer::{LevelView, MoveView, TimerLab};
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
    origin: String,
}

/// How a task's origin is drawn: css class and shape (paired with its colour).
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Sandbox,
    Produce,
    Fetch,
}

pub fn kind_of(origin: &str) -> Kind {
    if origin.starts_with("DelayedProduce") {
        Kind::Produce
    } else if origin.starts_with("DelayedFetch") {
        Kind::Fetch
    } else {
        Kind::Sandbox
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

#[component]
pub fn RingsFigure(session: Session<TimerLab>) -> impl IntoView {
    let levels = Memo::new(move |_| session.with(|run| run.world().levels()));
    let rings = Memo::new(move |_| levels.with(|l| rings_of(l)));
    let dots = Memo::new(move |_| levels.with(|l| dots_of(l)));
    let moves = Memo::new(move |_| session.with(|run| run.world().last_moves()));
    let clock = move || session.with(|run| run.sim().now_ms());
    let view_box = format!("0 0 {SIZE} {SIZE}");
    view! {
        <svg class="rings" viewBox=view_box role="img" aria-labelledby="timer-rings-title" data-testid="rings">
            <title id="timer-rings-title">{t("timer.rings.title")}</title>
            <defs>
                <marker id="timer-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
                    <path d="M0 0L10 5L0 10z" class="arrow-head"/>
                </marker>
            </defs>
            {move || ring_backgrounds(rings.get())}
            {move || levels.with(|l| busy_buckets(rings.get(), l))}
            {move || levels.with(|l| pointers(rings.get(), l))}
            {move || bucket_numbers(rings.get())}
            {move || moves.with(|m| dots.with(|d| move_marks(rings.get(), m, d)))}
            <For each=move || dots.get() key=|dot| dot.id children=move |dot| task_dot(dot.id, rings, dots)/>
            <text class="hub" x=center() y=center() - 8.0 text-anchor="middle">{t("timer.rings.clock")}</text>
            <text class="hub num" x=center() y=center() + 10.0 text-anchor="middle" data-testid="rings-clock">
                {move || format!("{} ms", clock())}
            </text>
        </svg>
    }
}

/// Alternating ring bands, the bucket edges, and an "L<n>" label per ring at twelve o'clock.
fn ring_backgrounds(rings: Rings) -> impl IntoView {
    let bands = (0..rings.levels)
        .map(|level| {
            let (r0, r1) = rings.radii(level);
            let class = if level % 2 == 0 { "band even" } else { "band odd" };
            let (x, y) = point((r0 + r1) / 2.0, 0.0);
            view! {
                <circle class=class cx=center() cy=center() r=(r0 + r1) / 2.0 stroke-width=r1 - r0/>
                <text class="level-label" x=x - 3.0 y=y + 3.0 text-anchor="end">{format!("L{level}")}</text>
            }
        })
        .collect_view();
    view! { {bands}<path class="spokes" d=rings.spokes()/> }
}

/// Shades each bucket that holds a round (Kafka's TimerTaskList with an expiration).
fn busy_buckets(rings: Rings, levels: &[LevelView]) -> impl IntoView {
    levels
        .iter()
        .flat_map(|wheel| {
            wheel.buckets.iter().filter_map(move |bucket| {
                let expiration = bucket.expiration_ms?;
                let title = tf(
                    "timer.bucket.title",
                    &[
                        ("level", &wheel.level.to_string()),
                        ("bucket", &bucket.index.to_string()),
                        ("expiration", &expiration.to_string()),
                        ("count", &bucket.tasks.len().to_string()),
                    ],
                );
                Some(view! { <path class="busy" d=rings.sector(wheel.level, bucket.index)><title>{title}</title></path> })
            })
        })
        .collect_view()
}

/// Each level's pointer: the bucket at its currentTime outlined, and a hand at its start edge.
fn pointers(rings: Rings, levels: &[LevelView]) -> impl IntoView {
    levels
        .iter()
        .map(|wheel| {
            let bucket = ((wheel.current_time_ms / wheel.tick_ms) % wheel.wheel_size as u64) as usize;
            let ((x1, y1), (x2, y2)) = rings.pointer(wheel.level, bucket);
            let title = tf(
                "timer.pointer.title",
                &[("level", &wheel.level.to_string()), ("time", &wheel.current_time_ms.to_string()), ("bucket", &bucket.to_string())],
            );
            view! {
                <path class="now" d=rings.sector(wheel.level, bucket)/>
                <line class="pointer" x1=x1 y1=y1 x2=x2 y2=y2><title>{title}</title></line>
            }
        })
        .collect_view()
}

fn bucket_numbers(rings: Rings) -> impl IntoView {
    (0..rings.wheel_size)
        .filter(|b| rings.labelled(*b))
        .map(|bucket| {
            let (x, y) = rings.label_at(bucket);
            view! { <text class="bucket-number" x=x y=y + 4.0 text-anchor="middle">{bucket}</text> }
        })
        .collect_view()
}

/// Arrows from where a task was to where it fell; a ✓ where a task ran.
fn move_marks(rings: Rings, moves: &[MoveView], dots: &[Dot]) -> impl IntoView {
    moves
        .iter()
        .map(|m| {
            let (level, bucket) = m.step.from;
            let from = rings.dot(level, bucket, 0, 1);
            match m.step.to {
                Some((to_level, to_bucket)) => {
                    let to = dots
                        .iter()
                        .find(|d| d.id == m.step.id)
                        .map_or_else(|| rings.dot(to_level, to_bucket, 0, 1), |d| rings.dot(d.level, d.bucket, d.slot, d.count));
                    let end = shorten(from, to, rings.dot_radius() + 3.0);
                    view! { <line class="fell" x1=from.0 y1=from.1 x2=end.0 y2=end.1 marker-end="url(#timer-arrow)"/> }.into_any()
                }
                None => view! {
                    <text class="ran" x=from.0 y=from.1 + 5.0 text-anchor="middle">"✓"</text>
                }
                .into_any(),
            }
        })
        .collect_view()
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
            format!("transform: translate({x:.1}px, {y:.1}px)")
        })
    };
    let body = move || {
        let d = dot()?;
        let rings = rings.get();
        let r = rings.dot_radius();
        // Labels go left of dots on the right-hand side, so they stay inside the drawing.
        let (x, _) = rings.dot(d.level, d.bucket, d.slot, d.count);
        let (label_x, anchor) = if x > center() + 60.0 { (-r - 3.0, "end") } else { (r + 3.0, "start") };
        let title = tf("timer.dot.title", &[("id", &d.id.to_string()), ("origin", &d.origin), ("expiration", &d.expiration_ms.to_string())]);
        let shape = match kind_of(&d.origin) {
            Kind::Sandbox => view! { <circle class="shape sandbox" r=r/> }.into_any(),
            Kind::Produce => view! { <rect class="shape produce" x=-r y=-r width=2.0 * r height=2.0 * r/> }.into_any(),
            Kind::Fetch => view! { <path class="shape fetch" d=format!("M0 {}L{r} 0L0 {r}L{} 0Z", -r * 1.3, -r * 1.3)/> }.into_any(),
        };
        let label = if d.count == 1 {
            Some(view! {
                <text class="dot-label" x=label_x y=4.0 text-anchor=anchor>
                    <tspan class="exp">{format!("{} ms", d.expiration_ms)}</tspan>
                    <tspan class="origin">{format!(" {}", short(&d.origin))}</tspan>
                </text>
            }.into_any())
        } else {
            (d.slot == 0).then(|| view! { <text class="dot-label" x=label_x y=4.0 text-anchor=anchor>{tf("timer.dot.many", &[("count", &d.count.to_string())])}</text> }.into_any())
        };
        Some(view! { <title>{title}</title>{shape}{label} })
    };
    view! { <g class="task" style=place data-task=id>{body}</g> }
}

/// Origins on the rings are cut short; the pending list has them whole.
fn short(origin: &str) -> String {
    let text = origin.split(" (").next().unwrap_or(origin);
    if text.chars().count() > 18 {
        format!("{}…", text.chars().take(17).collect::<String>())
    } else {
        text.to_string()
    }
}
