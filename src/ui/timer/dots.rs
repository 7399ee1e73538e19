//! The tasks on the rings: a dot per task (its shape says its origin) and, per occupied
//! bucket, a label in the gutter beside the wheel tied to the dot by a leader line.

use leptos::prelude::*;

use super::geometry::Rings;
use super::labels;
use crate::html;
use crate::i18n::{key, render, tf};
use crate::markup::Html;
use crate::markup::Tenths;
use crate::model::kernel::Describe;
use crate::model::timer::{LevelView, TaskOrigin};
use crate::ui::markup::{Host, Markup};

/// A task dot: where it sits and what it says.
#[derive(Clone, Debug, PartialEq)]
pub struct Dot {
    pub id: u64,
    pub level: usize,
    pub bucket: usize,
    pub slot: usize,
    pub count: usize,
    pub expiration_ms: u64,
    pub origin: TaskOrigin,
}

/// How a task's origin is drawn: css class and shape (paired with its colour).
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Sandbox,
    Produce,
    Fetch,
}

fn kind_of(origin: &TaskOrigin) -> Kind {
    match origin {
        TaskOrigin::User { .. } | TaskOrigin::Stream { .. } => Kind::Sandbox,
        TaskOrigin::DelayedProduce { .. } => Kind::Produce,
        TaskOrigin::DelayedFetch { .. } => Kind::Fetch,
    }
}

pub fn dots_of(levels: &[LevelView]) -> Vec<Dot> {
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

fn title(d: &Dot) -> String {
    let origin = render(&d.origin.message());
    tf(
        key::TIMER_DOT_TITLE,
        &[("id", &d.id.to_string()), ("origin", &origin), ("expiration", &d.expiration_ms.to_string())],
    )
}

/// One task, kept by id so that a move between buckets is a CSS transition.
pub fn task_dot(id: u64, rings: Memo<Rings>, dots: Memo<Vec<Dot>>) -> impl IntoView {
    let dot = move || dots.with(|all| all.iter().find(|d| d.id == id).cloned());
    let place = move || {
        dot().map(|d| {
            let (x, y) = rings.get().dot(d.level, d.bucket, d.slot, d.count);
            format!("transform: translate({}px, {}px)", Tenths(x), Tenths(y))
        })
    };
    let body = Signal::derive(move || dot().map(|d| dot_markup(rings.get(), &d)).unwrap_or_default());
    view! { <g class="task" data-style=place data-task=id><Markup host=Host::G html=body/></g> }
}

/// A dot's shape (by origin) and tooltip; its label is in the gutter ([`tags`]).
fn dot_markup(rings: Rings, d: &Dot) -> Html {
    let r = (rings.dot_radius() * 10.0).round() / 10.0;
    let mut svg = html!("<title>{}</title>", title(d));
    match kind_of(&d.origin) {
        Kind::Sandbox => html!(svg, r#"<circle class="shape sandbox" r="{}"/>"#, Tenths(r)),
        Kind::Produce => html!(
            svg,
            r#"<rect class="shape produce" x="{}" y="{}" width="{}" height="{}"/>"#,
            Tenths(-r),
            Tenths(-r),
            Tenths(2.0 * r),
            Tenths(2.0 * r)
        ),
        Kind::Fetch => {
            html!(
                svg,
                r#"<path class="shape fetch" d="M0 {}L{} 0L0 {}L{} 0Z"/>"#,
                Tenths(-r * 1.3),
                Tenths(r),
                Tenths(r),
                Tenths(-r * 1.3)
            )
        }
    }
    svg
}

/// The labels of the occupied buckets, soonest first: "#id 350 ms" for a lone task, "3 tasks"
/// for several (each with the full text as its tooltip; the pending list has them all).
pub fn tags(rings: Rings, dots: &[Dot]) -> Html {
    let mut heads: Vec<&Dot> = dots.iter().filter(|d| d.slot == 0).collect();
    let soonest = |head: &Dot| {
        dots.iter().filter(|d| (d.level, d.bucket) == (head.level, head.bucket)).map(|d| d.expiration_ms).min()
    };
    crate::model::kernel::order::sort_by_key(&mut heads, |head| (soonest(head), head.id));
    let anchors: Vec<(f64, f64)> = heads.iter().map(|d| rings.dot(d.level, d.bucket, 0, d.count)).collect();
    let mut out = Html::new();
    for p in labels::place(&anchors) {
        let head = heads[p.index];
        let same: Vec<&Dot> = dots.iter().filter(|d| (d.level, d.bucket) == (head.level, head.bucket)).collect();
        let tooltip = same.iter().map(|d| title(d)).collect::<Vec<_>>().join("\n");
        let text = if head.count == 1 {
            html!(r#"#{} <tspan class="exp">{} ms</tspan>"#, head.id, head.expiration_ms)
        } else {
            Html::text(&tf(key::TIMER_DOT_MANY, &[("count", &head.count.to_string())]))
        };
        html!(
            out,
            r#"<g class="tag"><title>{}</title><line class="leader" x1="{}" y1="{}" x2="{}" y2="{}"/><text class="dot-label" x="{}" y="{}" text-anchor="{}">{}</text></g>"#,
            tooltip,
            Tenths(p.from.0),
            Tenths(p.from.1),
            Tenths(p.to.0),
            Tenths(p.to.1),
            Tenths(p.x),
            Tenths(p.y + 5.0),
            p.anchor,
            text
        );
    }
    out
}
