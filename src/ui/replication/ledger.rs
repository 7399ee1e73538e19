//! The durability ledger: what the producer was told against what the leader still holds.

use leptos::prelude::*;

use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::replication::{id_ranges, LedgerSummary, Replication};
use crate::ui::markup::PatchedMarkup;
use crate::ui::session::Session;

/// The headline: how many acknowledged records the leader's log lacks, the ids of those lost
/// (folded into runs, as the result card writes them), and, when leader epochs are on and the
/// replicas agree, what the epoch fixed and what it could not.
fn headline(w: &Replication, s: &LedgerSummary) -> Html {
    let lost = w.acked_lost();
    let class = if s.acked_lost > 0 { "headline bad" } else { "headline" };
    let count = s.acked_lost.to_string();
    let mut out = html!(
        "<p class=\"{}\" data-testid=\"ledger-headline\"><span class=\"big num\" data-testid=\"acked-lost\">{}</span> <span>{}</span></p>",
        class,
        s.acked_lost,
        tf(key::REPLICATION_LEDGER_HEADLINE_COUNT, &[("count", &count)])
    );
    if !lost.is_empty() {
        html!(
            out,
            "<p class=\"lost-ids\">{} <span class=\"num\">{}</span></p>",
            t(key::REPLICATION_LEDGER_LOST_IDS),
            id_ranges(&lost)
        );
    }
    // KIP-101 makes the replicas agree (no divergence); it cannot restore what no surviving
    // replica held, so a loss beside consistent logs needs saying.
    if s.acked_lost > 0 && w.settings().leader_epoch_enabled && w.divergent_offsets().is_empty() {
        html!(
            out,
            "<p class=\"legend\" data-testid=\"ledger-epoch-note\">{}</p>",
            tf(key::REPLICATION_LEDGER_EPOCH_NOTE, &[("count", &count)])
        );
    }
    out
}

fn markup(w: &Replication) -> Html {
    let s = w.ledger_summary();
    let mut out = headline(w, &s);
    let rows = [
        (key::REPLICATION_LEDGER_SENT, "ledger-sent", s.sent, ""),
        (key::REPLICATION_LEDGER_ACKED, "ledger-acked", s.acked, ""),
        (key::REPLICATION_LEDGER_FAILED, "ledger-failed", s.failed, ""),
        (key::REPLICATION_LEDGER_PENDING, "ledger-pending", s.pending, ""),
        (key::REPLICATION_LEDGER_ACKED_LOST, "ledger-lost", s.acked_lost, "lost-row"),
        (key::REPLICATION_LEDGER_DUPLICATED, "ledger-duplicated", s.duplicated, ""),
        (key::REPLICATION_LEDGER_UNACKED_PRESENT, "ledger-unacked-present", s.unacked_but_present, ""),
    ];
    let body: Html = rows
        .into_iter()
        .map(|(key, testid, value, class)| {
            html!(
                "<tr class=\"{}\"><th scope=\"row\">{}</th><td class=\"num\" data-testid=\"{}\">{}</td></tr>",
                class,
                t(key),
                testid,
                value
            )
        })
        .collect();
    html!(out, "<table class=\"ledger\" data-testid=\"ledger\"><tbody>{}</tbody></table>", body);
    out
}

#[component]
pub fn LedgerPanel(session: Session<Replication>) -> impl IntoView {
    let body = Signal::derive(move || session.with(|run| markup(run.world())));
    view! {
        <section class="rep-ledger" aria-labelledby="rep-ledger-title">
            <h2 id="rep-ledger-title">{t(key::REPLICATION_LEDGER)}</h2>
            <PatchedMarkup html=body/>
            <p class="legend">{t(key::REPLICATION_LEDGER_HINT)}</p>
        </section>
    }
}
