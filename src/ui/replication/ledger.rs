//! The durability ledger: what the producer was told against what the leader still holds.

use leptos::prelude::*;

use crate::i18n::{t, tf};
use crate::model::replication::Replication;
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

#[component]
pub fn LedgerPanel(session: Session<Replication>) -> impl IntoView {
    let summary = move || session.with(|run| run.world().ledger_summary());
    let lost = move || session.with(|run| run.world().acked_lost());
    let row = move |key: &'static str, testid: &'static str, value: fn(&crate::model::replication::LedgerSummary) -> u64| {
        view! {
            <tr><th scope="row">{t(key)}</th><td class="num" data-testid=testid>{move || value(&summary()).to_string()}</td></tr>
        }
    };
    view! {
        <section class="rep-ledger" aria-labelledby="rep-ledger-title">
            <h2 id="rep-ledger-title">{t("replication.ledger")}</h2>
            <p class="headline" class:bad={move || summary().acked_lost > 0} data-testid="ledger-headline">
                <span class="big num" data-testid="acked-lost">{move || summary().acked_lost.to_string()}</span>" "
                <span>{move || if summary().acked_lost > 0 { t("replication.ledger.headline_bad") } else { t("replication.ledger.headline_ok") }}</span>
            </p>
            {move || {
                let ids = lost();
                (!ids.is_empty()).then(|| view! { <p class="lost-ids">{t("replication.ledger.lost_ids")}" "<span class="num">{lost_list(&ids)}</span></p> })
            }}
            <table class="ledger" data-testid="ledger">
                <tbody>
                    {row("replication.ledger.sent", "ledger-sent", |s| s.sent)}
                    {row("replication.ledger.acked", "ledger-acked", |s| s.acked)}
                    {row("replication.ledger.failed", "ledger-failed", |s| s.failed)}
                    {row("replication.ledger.pending", "ledger-pending", |s| s.pending)}
                    <tr class="lost-row"><th scope="row">{t("replication.ledger.acked_lost")}</th>
                        <td class="num" data-testid="ledger-lost">{move || summary().acked_lost.to_string()}</td></tr>
                    {row("replication.ledger.duplicated", "ledger-duplicated", |s| s.duplicated)}
                    {row("replication.ledger.unacked_present", "ledger-unacked-present", |s| s.unacked_but_present)}
                </tbody>
            </table>
            <p class="legend">{t("replication.ledger.hint")}</p>
        </section>
    }
}
