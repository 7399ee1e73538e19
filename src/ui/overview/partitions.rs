//! The numbers beside the picture: the partition table (replica roles per broker, log end
//! offsets, leader epochs) and, in the panels, the `kafka-topics --describe` output.

use leptos::prelude::*;

use crate::i18n::{key, t};
use crate::model::cluster::{Cluster, PartitionView};
use crate::ui::session::Session;

use crate::model::join_ids as join;

/// One `kafka-topics --describe` line.
fn describe_line(p: &PartitionView) -> String {
    // kafka-topics prints "none" when a partition has no leader.
    let leader = p.leader.map_or("none".to_string(), |l| l.to_string());
    format!(
        "Topic: {}\tPartition: {}\tLeader: {}\tReplicas: {}\tIsr: {}",
        p.topic,
        p.partition,
        leader,
        join(&p.replicas),
        join(&p.isr)
    )
}

/// Role of `broker` in a partition: symbol, css class, catalog key.
fn role(p: &PartitionView, broker: u32) -> (&'static str, &'static str, &'static str) {
    if !p.replicas.contains(&broker) {
        ("", "none", key::OVERVIEW_ROLE_NONE)
    } else if p.leader == Some(broker) {
        ("★", "leader", key::OVERVIEW_ROLE_LEADER)
    } else if p.isr.contains(&broker) {
        ("✓", "follower", key::OVERVIEW_ROLE_FOLLOWER)
    } else {
        ("✗", "out", key::OVERVIEW_ROLE_OUT)
    }
}

#[component]
pub fn PartitionTable(session: Session<Cluster>) -> impl IntoView {
    let partitions = move || session.with(|run| run.world().partition_views());
    let broker_ids = move || session.with(|run| run.world().brokers().iter().map(|b| b.id).collect::<Vec<_>>());
    view! {
        <section class="ov-numbers" aria-labelledby="partitions-title">
            <h2 id="partitions-title">{t(key::OVERVIEW_PARTITIONS)}</h2>
            <div class="ov-table-scroll" role="region" tabindex="0" aria-labelledby="partitions-title">
                <table class="partitions" data-testid="partitions">
                    <thead><tr>
                        <th scope="col">{t(key::OVERVIEW_PARTITION)}</th>
                        {move || broker_ids().into_iter().map(|b| view! { <th scope="col" class="role">{format!("broker-{b}")}</th> }).collect_view()}
                        <th scope="col">{t(key::OVERVIEW_LEO)}</th>
                        <th scope="col" class="num">{t(key::OVERVIEW_EPOCH)}</th>
                    </tr></thead>
                    <tbody>
                        {move || {
                            let parts = partitions();
                            let max_leo = parts.iter().map(|p| p.log_end_offset).max().unwrap_or(0).max(1);
                            let brokers = broker_ids();
                            parts.into_iter().map(|p| partition_row(p, &brokers, max_leo)).collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// `kafka-topics --describe --topic orders`, as the CLI prints it.
#[component]
pub fn Describe(session: Session<Cluster>) -> impl IntoView {
    let partitions = move || session.with(|run| run.world().partition_views());
    view! {
        <section aria-labelledby="describe-title">
            <h2 id="describe-title" class="describe-title">{t(key::OVERVIEW_DESCRIBE)}</h2>
            <pre translate="no" class="describe" data-testid="describe" role="region" tabindex="0"
                aria-labelledby="describe-title">
                {move || partitions().iter().map(describe_line).collect::<Vec<_>>().join("\n")}
            </pre>
        </section>
    }
}

fn partition_row(p: PartitionView, brokers: &[u32], max_leo: i64) -> impl IntoView {
    let width = format!("width: {}%", p.log_end_offset * 100 / max_leo);
    let offline = p.leader.is_none();
    let cells = brokers
        .iter()
        .map(|b| {
            let (symbol, class, key) = role(&p, *b);
            view! { <td class=format!("role {class}") title=t(key)><span aria-hidden="true">{symbol}</span><span class="sr-only">{t(key)}</span></td> }
        })
        .collect_view();
    view! {
        <tr class:offline=offline data-testid=format!("partition-{}", p.partition)>
            <th scope="row">{format!("{}-{}", p.topic, p.partition)}</th>
            {cells}
            <td class="leo">
                <div class="leo-cell">
                    <div class="bar"><div class="fill" data-style=width></div></div>
                    <span class="num" data-testid="leo">{p.log_end_offset}</span>
                </div>
                {offline.then(|| view! { <span class="badge">{t(key::OVERVIEW_OFFLINE)}</span> })}
            </td>
            <td class="num">{p.leader_epoch}</td>
        </tr>
    }
}
