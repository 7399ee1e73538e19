//! The durability ledger: what the producer was told against what the leader still holds.

use leptos::prelude::*;

use crate::html;
use crate::i18n::{t, tf};
use crate::markup::Html;
use crate::model::replication::{LedgerSummary, Replication};
use crate::ui::markup::Markup;
use crate::ui::session::Session;

/// How many lost record ids are listed by number.
const LISTED: usize = 24;

fn lost_list(ids: &[u64]) -> String {
    let mut text = ids.iter().take(LISTED).map(|id| format!("#{id}")).collect::<Vec<_>>().join(", ");
    if ids.len() > LISTED {
        text.push_str(&tf("replication.ledger.lost_more", &[("count", &(ids.len() - LISTED).to_string())]));
    }
    text
}

fn markup(s: &LedgerSummary, lost: &[u64]) -> Html {
    let (class, headline) = if s.acked_lost > 0 {
        ("headline bad", t("replication.ledger.headline_bad"))
    } else {
        ("headline", t("replication.ledger.headline_ok"))
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
            t("replication.ledger.lost_ids"),
            lost_list(lost)
        );
    }
    let rows = [
        ("replication.ledger.sent", "ledger-sent", s.sent, ""),
        ("replication.ledger.acked", "ledger-acked", s.acked, ""),
        ("replication.ledger.failed", "ledger-failed", s.failed, ""),
        ("replication.ledger.pending", "ledger-pending", s.pending, ""),
        ("replication.ledger.acked_lost", "ledger-lost", s.acked_lost, "lost-row"),
        ("replication.ledger.duplicated", "ledger-duplicated", s.duplicated, ""),
        ("replication.ledger.unacked_present", "ledger-unacked-present", s.unacked_but_present, ""),
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
            <h2 id="rep-ledger-title">{t("replication.ledger")}</h2>
            <Markup html=body/>
            <p class="legend">{t("replication.ledger.hint")}</p>
        </section>
    }
}
