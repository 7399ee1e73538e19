//! The durability ledger: what the producer was told against what the leader still holds.

use std::fmt::Write;

use leptos::prelude::*;

use super::esc;
use crate::i18n::{t, tf};
use crate::model::replication::{LedgerSummary, Replication};
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

fn markup(s: &LedgerSummary, lost: &[u64]) -> String {
    let (class, headline) = if s.acked_lost > 0 {
        (" bad", t("replication.ledger.headline_bad"))
    } else {
        ("", t("replication.ledger.headline_ok"))
    };
    let mut out = format!(
        r#"<p class="headline{class}" data-testid="ledger-headline"><span class="big num" data-testid="acked-lost">{}</span> <span>{}</span></p>"#,
        s.acked_lost,
        esc(headline)
    );
    if !lost.is_empty() {
        let _ = write!(
            out,
            r#"<p class="lost-ids">{} <span class="num">{}</span></p>"#,
            esc(t("replication.ledger.lost_ids")),
            lost_list(lost)
        );
    }
    out.push_str(r#"<table class="ledger" data-testid="ledger"><tbody>"#);
    let rows = [
        ("replication.ledger.sent", "ledger-sent", s.sent, ""),
        ("replication.ledger.acked", "ledger-acked", s.acked, ""),
        ("replication.ledger.failed", "ledger-failed", s.failed, ""),
        ("replication.ledger.pending", "ledger-pending", s.pending, ""),
        ("replication.ledger.acked_lost", "ledger-lost", s.acked_lost, " class=\"lost-row\""),
        ("replication.ledger.duplicated", "ledger-duplicated", s.duplicated, ""),
        ("replication.ledger.unacked_present", "ledger-unacked-present", s.unacked_but_present, ""),
    ];
    for (key, testid, value, class) in rows {
        let _ = write!(
            out,
            r#"<tr{class}><th scope="row">{}</th><td class="num" data-testid="{testid}">{value}</td></tr>"#,
            esc(t(key))
        );
    }
    out.push_str("</tbody></table>");
    out
}

#[component]
pub fn LedgerPanel(session: Session<Replication>) -> impl IntoView {
    let body = move || session.with(|run| markup(&run.world().ledger_summary(), &run.world().acked_lost()));
    view! {
        <section class="rep-ledger" aria-labelledby="rep-ledger-title">
            <h2 id="rep-ledger-title">{t("replication.ledger")}</h2>
            <div inner_html=body></div>
            <p class="legend">{t("replication.ledger.hint")}</p>
        </section>
    }
}
