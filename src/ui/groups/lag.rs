//! Lag per partition over time: one small chart each, all on the same scale (SVG polylines
//! from the model's one-a-second samples).

use leptos::prelude::*;

use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::{Html, Tenths};
use crate::model::group::{GroupLab, LagSample, TOPIC};
use crate::ui::markup::Markup;
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
            format!("{},{}", Tenths(x), Tenths(y))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every partition's chart as markup (one fragment: lean wasm, redrawn each tick), the scale's
/// top and the first second shown.
fn charts_markup(world: &GroupLab, now: u64) -> (Html, i64, u64) {
    let history = world.lag_history();
    let t0 = history.iter().filter_map(|h| h.first()).map(|s| s.time_ms).min().unwrap_or(0);
    let max = history.iter().flatten().map(|s| s.lag).max().unwrap_or(0).max(1);
    let pills = world.poison_pills();
    let mut out = Html::new();
    for (p, samples) in history.iter().enumerate() {
        let name = format!("{TOPIC}-{p}");
        let lag = world.lag(p as u32).to_string();
        let pill = pills.iter().find(|(q, _)| *q == p as u32).map_or(Html::new(), |(_, offset)| {
            html!(r#"<span class="pill"> · ☠ {}</span>"#, tf(key::GROUPS_LAG_PILL, &[("offset", &offset.to_string())]))
        });
        html!(
            out,
            r#"<figure class="lag-chart" data-testid="lag-{}"><svg viewBox="0 0 {} {}" preserveAspectRatio="none" role="img" aria-label='{}'><line class="lag-base" x1="0" x2="{}" y1="{}" y2="{}"/><polyline class="lag-line" points="{}"/></svg><figcaption>{} · {}{}</figcaption></figure>"#,
            p,
            Tenths(W),
            Tenths(H),
            tf(key::GROUPS_LAG_ARIA, &[("partition", &name), ("lag", &lag)]),
            Tenths(W),
            Tenths(H - PAD),
            Tenths(H - PAD),
            points(samples, t0, now, max),
            name,
            tf(key::GROUPS_LAG_NOW, &[("lag", &lag)]),
            pill,
        );
    }
    (out, max, t0 / 1000)
}

#[component]
pub fn LagCharts(session: Session<GroupLab>) -> impl IntoView {
    let charts = Memo::new(move |_| session.with(|run| charts_markup(run.world(), run.sim().now_ms())));
    let to = move || session.with(|run| run.sim().now_ms() / 1000);
    let scale = move || {
        let (max, from) = charts.with(|(_, max, from)| (*max, *from));
        tf(key::GROUPS_LAG_SCALE, &[("max", &max.to_string()), ("from", &from.to_string()), ("to", &to().to_string())])
    };
    let cards = Signal::derive(move || charts.with(|(cards, _, _)| cards.clone()));
    view! {
        <section aria-labelledby="lag-title">
            <h2 id="lag-title">{t(key::GROUPS_LAG)}</h2>
            <p class="legend">{scale}</p>
            <Markup html=cards class="lag-grid"/>
        </section>
    }
}
