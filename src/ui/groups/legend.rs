//! What the lanes' marks mean: a one-line key on the stage (only the marks on screen, in short
//! words) and the full legend in the panels, with what the coordinator's current state means.
//! Both draw their swatches with the timeline's own classes, so they always match the drawing.

use leptos::prelude::*;

use super::state_hint;
use crate::html;
use crate::i18n::{key, t};
use crate::markup::{Html, Render};
use crate::model::group::{GroupLab, SpanKind};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

/// A swatch drawn in a 24 × 14 box.
fn swatch(kind: SpanKind) -> Html {
    match kind {
        SpanKind::Heartbeat => html!(r#"<line class="hb" x1="12" x2="12" y1="1" y2="9"/>"#),
        SpanKind::Process => html!(r#"<rect class="process" x="0" y="5" width="24" height="8"/>"#),
        SpanKind::Joining => html!(r#"<rect class="band joining" width="24" height="14"/>"#),
        SpanKind::AwaitingSync => html!(r#"<rect class="band syncing" width="24" height="14"/>"#),
        SpanKind::Paused => html!(r#"<rect class="band paused" width="24" height="14"/>"#),
        SpanKind::PollTimeout => html!(r#"<path class="polltimeout" d="M12 14 l6 -10 h-12 z"/>"#),
        SpanKind::Dead => html!(r#"<rect class="band dead" width="24" height="14"/>"#),
    }
}

/// In the order of a member's life: heartbeats and polls, a rebalance, the faults.
const KINDS: [SpanKind; 7] = [
    SpanKind::Heartbeat,
    SpanKind::Process,
    SpanKind::Joining,
    SpanKind::AwaitingSync,
    SpanKind::Paused,
    SpanKind::PollTimeout,
    SpanKind::Dead,
];

/// The key's short word for a kind, and the letter its lane mark carries.
fn short(kind: SpanKind) -> (&'static str, &'static str) {
    match kind {
        SpanKind::Heartbeat => (key::GROUPS_KEY_HEARTBEAT, ""),
        SpanKind::Process => (key::GROUPS_KEY_PROCESS, ""),
        SpanKind::Joining => (key::GROUPS_BAND_JOINING, "J"),
        SpanKind::AwaitingSync => (key::GROUPS_BAND_SYNCING, "S"),
        SpanKind::Paused => (key::GROUPS_BAND_PAUSED, ""),
        SpanKind::PollTimeout => (key::GROUPS_KEY_POLLTIMEOUT, ""),
        SpanKind::Dead => (key::GROUPS_BAND_DEAD, ""),
    }
}

fn long(kind: SpanKind) -> &'static str {
    match kind {
        SpanKind::Heartbeat => key::GROUPS_LEGEND_HEARTBEAT,
        SpanKind::Process => key::GROUPS_LEGEND_PROCESS,
        SpanKind::Joining => key::GROUPS_LEGEND_JOINING,
        SpanKind::AwaitingSync => key::GROUPS_LEGEND_SYNCING,
        SpanKind::Paused => key::GROUPS_LEGEND_PAUSED,
        SpanKind::PollTimeout => key::GROUPS_LEGEND_POLLTIMEOUT,
        SpanKind::Dead => key::GROUPS_LEGEND_DEAD,
    }
}

fn item(shape: Html, text: impl Render) -> Html {
    html!(r#"<li><svg class="swatch" viewBox="0 0 24 14" aria-hidden="true">{}</svg>{}</li>"#, shape, text)
}

/// The stage's one-line key: the kinds of marks on screen now, in short words.
pub fn key_markup(shown: &[SpanKind]) -> Html {
    KINDS
        .into_iter()
        .filter(|kind| shown.contains(kind))
        .map(|kind| {
            let (word, letter) = short(kind);
            let text = if letter.is_empty() {
                html!("{}", t(word))
            } else {
                html!(r#"<b class="key-mark" aria-hidden="true">{}</b> {}"#, letter, t(word))
            };
            item(swatch(kind), text)
        })
        .collect()
}

/// Every mark with its full meaning, and the leader's star.
fn legend_markup() -> Html {
    let mut out: Html = KINDS.into_iter().map(|kind| item(swatch(kind), t(long(kind)))).collect();
    out.push(&item(html!(r#"<text class="mark-sample" x="0" y="11">J/S</text>"#), t(key::GROUPS_LEGEND_MARKS)));
    out.push(&item(
        html!(r#"<text class="mark-sample" x="5" y="13" font-size="14">★</text>"#),
        t(key::GROUPS_LEGEND_LEADER),
    ));
    out
}

/// The panels' legend: what the coordinator's state means now, then every mark of the lanes.
#[component]
pub fn TimelineLegend(session: Session<GroupLab>) -> impl IntoView {
    let hint = move || session.with(|run| t(state_hint(run.world().coordinator().state)));
    let label = Signal::derive(|| t(key::GROUPS_LEGEND_ARIA).to_string());
    view! {
        <section class="timeline-legend" aria-labelledby="timeline-legend-title">
            <h2 id="timeline-legend-title">{t(key::GROUPS_LEGEND_ARIA)}</h2>
            <p class="state-hint" data-testid="state-hint">{hint}</p>
            <Markup html=Signal::derive(legend_markup) host=Host::Ul class="legend groups-legend" label=label/>
        </section>
    }
}
