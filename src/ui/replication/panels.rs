//! The partition as Kafka's tools describe it, and the configuration in force.

use std::fmt::Write;

use leptos::prelude::*;

use super::brokers::acks_text;
use super::esc;
use crate::i18n::t;
use crate::model::replication::{Replication, Settings};
use crate::ui::session::Session;

fn describe_markup(w: &Replication) -> String {
    let d = w.describe();
    let mut out = format!(r#"<pre class="describe" data-testid="describe">{}</pre><dl class="stats">"#, esc(&d.line));
    let figures = [
        ("replication.under_replicated", "under-replicated", d.under_replicated_partitions),
        ("replication.under_min_isr", "under-min-isr", d.under_min_isr_partitions),
        ("replication.offline", "offline", d.offline_partitions),
    ];
    for (key, testid, value) in figures {
        let _ = write!(
            out,
            r#"<div class="figure"><dt>{}</dt><dd class="num" data-testid="{testid}">{value}</dd></div>"#,
            esc(t(key))
        );
    }
    let _ = write!(out, r#"</dl><p class="legend">{}</p>"#, esc(t("replication.describe.hint")));
    let divergent = w.divergent_offsets();
    if !divergent.is_empty() {
        let list = divergent.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        let _ = write!(
            out,
            r#"<p class="warn" data-testid="divergent">≠ {} <span class="num">{list}</span></p>"#,
            esc(t("replication.divergent"))
        );
    }
    out
}

#[component]
pub fn PartitionPanel(session: Session<Replication>) -> impl IntoView {
    view! {
        <section class="rep-partition" aria-labelledby="rep-describe-title">
            <h2 id="rep-describe-title" class="mono">{t("replication.describe")}</h2>
            <div inner_html=move || session.with(|run| describe_markup(run.world()))></div>
        </section>
    }
}

/// (property, value) rows of the config panel.
fn config_rows(s: &Settings, unclean: bool) -> Vec<(&'static str, String)> {
    let epoch =
        if s.leader_epoch_enabled { t("replication.config.epoch_on") } else { t("replication.config.epoch_off") };
    vec![
        ("acks", acks_text(s.acks).to_string()),
        ("min.insync.replicas", s.min_insync_replicas.to_string()),
        ("replication.factor", s.replication_factor.to_string()),
        ("unclean.leader.election.enable", unclean.to_string()),
        ("replica.lag.time.max.ms", s.replica_lag_time_max_ms.to_string()),
        ("lab.leader.epoch.enabled", epoch.to_string()),
        ("enable.idempotence", s.idempotence.to_string()),
        ("replica.fetch.wait.max.ms", s.replica_fetch_wait_max_ms.to_string()),
        ("lab.network.delay.ms", s.network_delay_ms.to_string()),
    ]
}

fn config_markup(w: &Replication) -> String {
    let mut out = String::from(r#"<table data-testid="config"><tbody>"#);
    for (name, value) in config_rows(w.settings(), w.controller_view().unclean_leader_election) {
        let _ = write!(
            out,
            r#"<tr><th scope="row" class="mono">{name}</th><td class="mono" data-testid="config-{name}">{}</td></tr>"#,
            esc(&value)
        );
    }
    out.push_str("</tbody></table>");
    out
}

#[component]
pub fn ConfigPanel(session: Session<Replication>) -> impl IntoView {
    view! {
        <section class="rep-config" aria-labelledby="rep-config-title">
            <h2 id="rep-config-title">{t("replication.config")}</h2>
            <div inner_html=move || session.with(|run| config_markup(run.world()))></div>
            <p class="legend">{t("replication.config.hint")}</p>
        </section>
    }
}
