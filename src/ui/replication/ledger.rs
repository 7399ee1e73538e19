//! The durability ledger: what the producer was told against what the leader still holds.

use leptos::prelude::*;

use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::replication::{LedgerSummary, Replication};
use crate::ui::markup::Markup;
use crate::ui::session::Session;

/// How many lost record ids are listed by number.
const LISTED: usize = 24;

fn lost_list(ids: &[u64]) -> String {
    let mut text = ids.iter().take(LISTED).map(|id| format!("#{id}")).collect::<Vec<_>>().join(", ");
    if ids.len() > LISTED {
        text.push_str(&tf(key::REPLICATION_LEDGER_LOST_MORE, &[("count", &(ids.len() - LISTED).to_string())]));
    }
    text
}

fn markup(s: &LedgerSummary, lost: &[u64]) -> Html {
    let (class, headline) = if s.acked_lost > 0 {
        ("headline bad", t(key::REPLICATION_LEDGER_HEADLINE_BAD))
    } else {
        ("headline", t(key::REPLICATION_LEDGER_HEADLINE_OK))
    };
    let mut out = html!(
        "<p class=\"{}\" data-testid=\"ledger-headline\"><span class=\"big num\" data-testid=\"acked-lost\">{}</span> <span>{}</span></p>",
        class,
        s.acked_lost,
        headline
    );
    if !lost.is_empty() {
        html!(
            out,
            "<p class=\"lost-ids\">{} <span class=\"num\">{}</span></p>",
            t(key::REPLICATION_LEDGER_LOST_IDS),
            lost_list(lost)
        );
    }
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
    let body =
        Signal::derive(move || session.with(|run| markup(&run.world().ledger_summary(), &run.world().acked_lost())));
    view! {
        <section class="rep-ledger" aria-labelledby="rep-ledger-title">
            <h2 id="rep-ledger-title">{t(key::REPLICATION_LEDGER)}</h2>
            <Markup html=body/>
            <p class="legend">{t(key::REPLICATION_LEDGER_HINT)}</p>
        </section>
    }
}
