//! The partition as Kafka's tools describe it, and the configuration in force.

use leptos::prelude::*;

use super::brokers::acks_text;
use crate::i18n::t;
use crate::model::replication::{Replication, Settings};
use crate::ui::session::Session;
use crate::ui::widgets::Figure;

#[component]
pub fn PartitionPanel(session: Session<Replication>) -> impl IntoView {
    let describe = move || session.with(|run| run.world().describe());
    let epoch = move || session.with(|run| run.world().partition().leader_epoch());
    let divergent = move || session.with(|run| run.world().divergent_offsets());
    view! {
        <section class="rep-partition" aria-labelledby="rep-describe-title">
            <h2 id="rep-describe-title" class="mono">{t("replication.describe")}</h2>
            <pre class="describe" data-testid="describe">{move || format!("{}\tLeaderEpoch: {}", describe().line, epoch())}</pre>
            <dl class="stats">
                <Figure label="replication.under_replicated" testid="under-replicated"
                    value=Signal::derive(move || describe().under_replicated_partitions.to_string())/>
                <Figure label="replication.under_min_isr" testid="under-min-isr"
                    value=Signal::derive(move || describe().under_min_isr_partitions.to_string())/>
                <Figure label="replication.offline" testid="offline"
                    value=Signal::derive(move || describe().offline_partitions.to_string())/>
            </dl>
            <p class="legend">{t("replication.describe.hint")}</p>
            {move || {
                let offsets = divergent();
                (!offsets.is_empty()).then(|| {
                    let list = offsets.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
                    view! { <p class="warn" data-testid="divergent">"≠ "{t("replication.divergent")}" "<span class="num">{list}</span></p> }
                })
            }}
        </section>
    }
}

/// (property, value) rows of the config panel.
fn config_rows(s: &Settings, unclean: bool) -> Vec<(&'static str, String)> {
    let epoch = if s.leader_epoch_enabled { t("replication.config.epoch_on") } else { t("replication.config.epoch_off") };
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

#[component]
pub fn ConfigPanel(session: Session<Replication>) -> impl IntoView {
    let rows = move || {
        session.with(|run| {
            let w = run.world();
            config_rows(w.settings(), w.controller_view().unclean_leader_election)
        })
    };
    view! {
        <section class="rep-config" aria-labelledby="rep-config-title">
            <h2 id="rep-config-title">{t("replication.config")}</h2>
            <table data-testid="config">
                <tbody>
                    {move || rows().into_iter().map(|(name, value)| view! {
                        <tr><th scope="row" class="mono">{name}</th><td class="mono" data-testid=format!("config-{name}")>{value}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            <p class="legend">{t("replication.config.hint")}</p>
        </section>
    }
}
