//! The transaction coordinator's table: one row per transactional.id with its producer id,
//! epoch, state (Kafka's names: Ongoing, PrepareCommit, CompleteAbort, …), the partitions in
//! the transaction and when transaction.timeout.ms runs out.

use leptos::prelude::*;

use super::TxnData;
use crate::html;
use crate::i18n::{duration, key, t, tf};
use crate::markup::Html;
use crate::model::transactions::core::TxnState;
use crate::model::transactions::TxnMetaView;
use crate::ui::markup::Markup;

/// Kafka's name of a state (`TransactionState`), and whether a transaction is in progress.
pub fn state_name(state: TxnState) -> (&'static str, bool) {
    match state {
        TxnState::Empty => ("Empty", false),
        TxnState::Ongoing => ("Ongoing", true),
        TxnState::PrepareCommit => ("PrepareCommit", true),
        TxnState::PrepareAbort => ("PrepareAbort", true),
        TxnState::CompleteCommit => ("CompleteCommit", false),
        TxnState::CompleteAbort => ("CompleteAbort", false),
        TxnState::PrepareEpochFence => ("PrepareEpochFence", true),
        TxnState::Dead => ("Dead", false),
    }
}

/// "expires in 42 s" while a transaction runs, "expired" past its deadline, "—" otherwise.
fn timeout_text(m: &TxnMetaView, now_ms: u64) -> (String, &'static str) {
    match (state_name(m.state).1, m.expires_ms) {
        (true, Some(at)) if at > now_ms => (tf(key::TRANSACTIONS_COORD_EXPIRES, &[("in", &duration(at - now_ms))]), ""),
        (true, Some(_)) => (t(key::TRANSACTIONS_COORD_EXPIRED).to_string(), "late"),
        _ => ("—".to_string(), ""),
    }
}

/// One row of the table: a property, then its value for each transactional.id.
fn row(out: &mut Html, label: &str, class: &str, testid: &str, cells: &[(String, &str)]) {
    let tds: Html = cells
        .iter()
        .map(|(text, extra)| html!("<td class=\"{} {}\" data-testid=\"{}\">{}</td>", class, extra, testid, text))
        .collect();
    html!(out, "<tr><th scope=\"row\">{}</th>{}</tr>", label, tds);
}

/// One column per transactional.id (a table that stays narrow).
fn table_markup(d: &TxnData) -> Html {
    let v = &d.view;
    if v.transactions.is_empty() {
        return html!("<p class=\"none\" data-testid=\"coord-none\">{}</p>", t(key::TRANSACTIONS_COORD_NONE));
    }
    let ids: Html = v
        .transactions
        .iter()
        .map(|m| html!("<th scope=\"col\" translate=\"no\">{}</th>", m.transactional_id))
        .collect();
    let column = |f: &dyn Fn(&TxnMetaView) -> (String, &'static str)| -> Vec<(String, &'static str)> {
        v.transactions.iter().map(f).collect()
    };
    let mut rows = Html::new();
    row(&mut rows, "producerId", "num", "coord-producer-id", &column(&|m| (m.producer_id.to_string(), "")));
    row(&mut rows, t(key::TRANSACTIONS_EPOCH), "num", "coord-epoch", &column(&|m| (m.epoch.to_string(), "")));
    let state = |m: &TxnMetaView| {
        let (name, running) = state_name(m.state);
        (name.to_string(), if running { "running" } else { "" })
    };
    row(&mut rows, t(key::TRANSACTIONS_COORD_STATE), "state mono", "coord-state", &column(&state));
    let partitions =
        |m: &TxnMetaView| (if m.partitions.is_empty() { "—".to_string() } else { m.partitions.join(", ") }, "");
    row(&mut rows, t(key::TRANSACTIONS_COORD_PARTITIONS), "mono", "coord-partitions", &column(&partitions));
    row(&mut rows, t(key::TRANSACTIONS_COORD_TIMEOUT), "", "coord-timeout", &column(&|m| timeout_text(m, d.now_ms)));
    html!(
        "<table data-testid=\"coordinator\"><thead><tr><th scope=\"col\" translate=\"no\">transactional.id</th>{}</tr></thead><tbody>{}</tbody></table>",
        ids,
        rows
    )
}

#[component]
pub fn Coordinator(data: Memo<TxnData>) -> impl IntoView {
    let markup = Signal::derive(move || data.with(table_markup));
    view! {
        <section class="tx-coordinator" aria-labelledby="tx-coord-title">
            <h2 id="tx-coord-title">{t(key::TRANSACTIONS_COORDINATOR)}</h2>
            <div class="tx-table-scroll" role="group" tabindex="0" aria-labelledby="tx-coord-title">
                <Markup html=markup/>
            </div>
        </section>
    }
}
