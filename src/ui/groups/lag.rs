//! Lag per partition over time: one small chart each, all on the same scale (SVG polylines
//! from the model's one-a-second samples).

use leptos::prelude::*;

use crate::i18n::{t, tf};
use crate::model::group::{GroupLab, LagSample, TOPIC};
use crate::ui::session::Session;

const W: f64 = 200.0;
const H: f64 = 60.0;
const PAD: f64 = 3.0;

/// Polyline points of `samples` scaled to `[t0, t1]` × `[0, max]`.
pub fn points(samples: &[LagSample], t0: u64, t1: u64, max: i64) -> String {
    let span = (t1.saturating_sub(t0)).max(1) as f64;
    let max = max.max(1) as f64;
    samples
        .iter()
        .map(|s| {
            let x = (s.time_ms.saturating_sub(t0)) as f64 * W / span;
            let y = H - PAD - s.lag.max(0) as f64 * (H - 2.0 * PAD) / max;
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[component]
pub fn LagCharts(session: Session<GroupLab>) -> impl IntoView {
    let charts = move || {
        session.with(|run| {
            let world = run.world();
            let history = world.lag_history();
            let now = run.sim().now_ms();
            let t0 = history.iter().filter_map(|h| h.first()).map(|s| s.time_ms).min().unwrap_or(0);
            let max = history.iter().flatten().map(|s| s.lag).max().unwrap_or(0).max(1);
            let pills = world.poison_pills();
            let cards = history
                .iter()
                .enumerate()
                .map(|(p, samples)| {
                    let line = points(samples, t0, now, max);
                    let current = world.lag(p as u32);
                    let pill = pills.iter().find(|(q, _)| *q == p as u32).map(|(_, offset)| {
                        view! { <span class="pill">" · ☠ "{tf("groups.lag.pill", &[("offset", &offset.to_string())])}</span> }
                    });
                    view! {
                        <figure class="lag-chart" data-testid=format!("lag-{p}")>
                            <svg viewBox=format!("0 0 {W} {H}") preserveAspectRatio="none" role="img"
                                aria-label=tf("groups.lag.aria", &[("partition", &format!("{TOPIC}-{p}")), ("lag", &current.to_string())])>
                                <line class="lag-base" x1=0 x2=W y1=H - PAD y2=H - PAD/>
                                <polyline class="lag-line" points=line/>
                            </svg>
                            <figcaption>{format!("{TOPIC}-{p}")}" · "{tf("groups.lag.now", &[("lag", &current.to_string())])}{pill}</figcaption>
                        </figure>
                    }
                })
                .collect_view();
            (cards, max, t0 / 1000, now / 1000)
        })
    };
    view! {
        <section aria-labelledby="lag-title">
            <h2 id="lag-title">{t("groups.lag")}</h2>
            {move || {
                let (cards, max, from, to) = charts();
                view! {
                    <p class="legend">{tf("groups.lag.scale", &[("max", &max.to_string()), ("from", &from.to_string()), ("to", &to.to_string())])}</p>
                    <div class="lag-grid">{cards}</div>
                }
            }}
        </section>
    }
}
