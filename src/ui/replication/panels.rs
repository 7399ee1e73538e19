//! The partition as Kafka's tools describe it, and the configuration in force.

use leptos::prelude::*;

use super::brokers::acks_text;
use crate::html;
use crate::i18n::{key, t};
use crate::markup::Html;
use crate::model::replication::{FetchProtocol, Replication, Settings};
use crate::ui::markup::PatchedMarkup;
use crate::ui::session::Session;

fn describe_markup(w: &Replication) -> Html {
    let d = w.describe();
    // Kafka's own describe line, formatted by the model from its fields. It may scroll sideways,
    // so Tab reaches it; a group, not a region: the section around it is the landmark of that name.
    let mut out =
        html!(
            "<pre translate=\"no\" class=\"describe\" data-testid=\"describe\" role=\"group\" tabindex=\"0\" aria-label=\"{}\">{}</pre>",
            t(key::REPLICATION_DESCRIBE),
            d.line.to_string()
        );
    let figures = [
        (key::REPLICATION_UNDER_REPLICATED, "under-replicated", d.under_replicated_partitions),
        (key::REPLICATION_UNDER_MIN_ISR, "under-min-isr", d.under_min_isr_partitions),
        (key::REPLICATION_OFFLINE, "offline", d.offline_partitions),
    ];
    let stats: Html = figures
        .into_iter()
        .map(|(key, testid, value)| {
            html!(
                "<div class=\"figure\"><dt>{}</dt><dd class=\"num\" data-testid=\"{}\">{}</dd></div>",
                t(key),
                testid,
                value
            )
        })
        .collect();
    html!(out, "<dl class=\"stats\">{}</dl><p class=\"legend\">{}</p>", stats, t(key::REPLICATION_DESCRIBE_HINT));
    let divergent = w.divergent_offsets();
    if !divergent.is_empty() {
        let list = divergent.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        html!(
            out,
            "<p class=\"warn\" data-testid=\"divergent\">≠ {} <span class=\"num\">{}</span></p>",
            t(key::REPLICATION_DIVERGENT),
            list
        );
    }
    out
}

#[component]
pub fn PartitionPanel(session: Session<Replication>) -> impl IntoView {
    let markup = Signal::derive(move || session.with(|run| describe_markup(run.world())));
    view! {
        <section class="rep-partition" aria-labelledby="rep-describe-title">
            <h2 id="rep-describe-title" class="mono">{t(key::REPLICATION_DESCRIBE)}</h2>
            <PatchedMarkup html=markup/>
        </section>
    }
}

/// (property, value) rows of the config panel.
fn config_rows(s: &Settings, unclean: bool) -> Vec<(&'static str, String)> {
    let epoch =
        if s.leader_epoch_enabled { t(key::REPLICATION_CONFIG_EPOCH_ON) } else { t(key::REPLICATION_CONFIG_EPOCH_OFF) };
    let protocol = match s.fetch_protocol {
        FetchProtocol::DivergingEpoch => t(key::REPLICATION_CONFIG_PROTOCOL_DIVERGING),
        FetchProtocol::OffsetsForLeaderEpoch => t(key::REPLICATION_CONFIG_PROTOCOL_OFFSETS),
    };
    vec![
        ("acks", acks_text(s.acks).to_string()),
        ("min.insync.replicas", s.min_insync_replicas.to_string()),
        ("replication.factor", s.replication_factor.to_string()),
        ("unclean.leader.election.enable", unclean.to_string()),
        ("replica.lag.time.max.ms", s.replica_lag_time_max_ms.to_string()),
        ("lab.leader.epoch.enabled", epoch.to_string()),
        ("lab.fetch.protocol", protocol.to_string()),
        ("enable.idempotence", s.idempotence.to_string()),
        ("replica.fetch.wait.max.ms", s.replica_fetch_wait_max_ms.to_string()),
        ("lab.network.delay.ms", s.network_delay_ms.to_string()),
    ]
}

fn config_markup(w: &Replication) -> Html {
    let rows: Html = config_rows(w.settings(), w.controller_view().unclean_leader_election)
        .into_iter()
        .map(|(name, value)| {
            html!(
                "<tr><th scope=\"row\" class=\"mono\">{}</th><td class=\"mono\" data-testid=\"config-{}\">{}</td></tr>",
                name,
                name,
                value
            )
        })
        .collect();
    html!("<table data-testid=\"config\"><tbody>{}</tbody></table>", rows)
}

#[component]
pub fn ConfigPanel(session: Session<Replication>) -> impl IntoView {
    let markup = Signal::derive(move || session.with(|run| config_markup(run.world())));
    view! {
        <section class="rep-config" aria-labelledby="rep-config-title">
            <h2 id="rep-config-title">{t(key::REPLICATION_CONFIG)}</h2>
            <PatchedMarkup html=markup/>
            <p class="legend">{t(key::REPLICATION_CONFIG_HINT)}</p>
        </section>
    }
}
