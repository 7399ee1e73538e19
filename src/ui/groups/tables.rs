//! `kafka-consumer-groups --describe` as a table, the stop time rebalances cost, and the ledger.

use leptos::prelude::*;

use super::member_name;
use crate::html;
use crate::i18n::{key, render, t, tf};
use crate::markup::Html;
use crate::model::group::{churn_figures, loop_verdict, DescribeRow, GroupLab, GROUP_ID};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;
use crate::ui::widgets::Figure;

fn dash<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Milliseconds as seconds with all three decimals (the figure is exact, not rounded).
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03} s", ms / 1000, ms % 1000)
}

fn describe_row(out: &mut Html, row: DescribeRow) {
    let class = if row.consumer_id.is_none() { "unowned" } else { "" };
    html!(
        out,
        r#"<tr data-testid="describe-{}" class="{}"><td>{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num" data-testid="lag">{}</td><td data-testid="consumer-id">{}</td></tr>"#,
        row.partition,
        class,
        GROUP_ID,
        row.topic,
        row.partition,
        dash(row.current_offset),
        row.log_end_offset,
        dash(row.lag),
        dash(row.consumer_id),
    );
}

/// The rows Kafka prints: one per partition, then members with no partition ("-" for the rest).
fn describe_rows(world: &GroupLab) -> Html {
    let mut out = Html::new();
    for row in world.describe() {
        describe_row(&mut out, row);
    }
    for member_id in world.idle_members() {
        html!(
            out,
            r#"<tr class="idle-row" data-testid="describe-idle"><td>{}</td><td>-</td><td class="num">-</td><td class="num">-</td><td class="num">-</td><td class="num">-</td><td data-testid="consumer-id">{}</td></tr>"#,
            GROUP_ID,
            member_id,
        );
    }
    out
}

#[component]
pub fn Describe(session: Session<GroupLab>) -> impl IntoView {
    let rows = Signal::derive(move || session.with(|run| describe_rows(run.world())));
    let rebalancing = move || session.with(|run| run.world().rebalancing());
    view! {
        <section class="describe-section" aria-labelledby="describe-title">
            <h2 id="describe-title" class="cmd">{tf(key::GROUPS_DESCRIBE, &[("group", GROUP_ID)])}</h2>
            <Show when=rebalancing>
                <p class="warning" role="status">{tf(key::GROUPS_DESCRIBE_REBALANCING, &[("group", GROUP_ID)])}</p>
            </Show>
            <div class="table-scroll">
                <table class="describe-table" data-testid="describe" tabindex="0" aria-labelledby="describe-title">
                    <thead><tr>
                        {["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID"]
                            .into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}
                    </tr></thead>
                    <Markup html=rows host=Host::Tbody/>
                </table>
            </div>
            <p class="legend">{t(key::GROUPS_DESCRIBE_LEGEND)}</p>
        </section>
    }
}

#[component]
pub fn Measures(session: Session<GroupLab>) -> impl IntoView {
    let stops = move || session.with(|run| run.world().stop_totals());
    let ledger = move || session.with(|run| run.world().ledger().clone());
    let churn = move || session.with(|run| render(&churn_figures(run.sim())));
    let looping = move || session.with(|run| loop_verdict(run.sim()).map(|m| render(&m)));
    let per_member = move || {
        let (members, _) = stops();
        if members.is_empty() {
            // In a loop nobody's stop is counted (members leave instead of revoking), so say so.
            let text = looping().unwrap_or_else(|| t(key::GROUPS_STOPS_NONE).to_string());
            return view! { <p class="muted" data-testid="stop-none">{text}</p> }.into_any();
        }
        view! {
            <ul class="stop-list">
                {members.into_iter().map(|(index, ms)| view! {
                    <li><span>{member_name(index)}</span>" "<span class="num" data-testid=format!("stop-C{index}")>{seconds(ms)}</span></li>
                }).collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <section class="measures" aria-labelledby="measures-title">
            <h2 id="measures-title">{t(key::GROUPS_STOPS)}</h2>
            <p class="legend">{t(key::GROUPS_STOPS_ABOUT)}</p>
            {per_member}
            <dl class="stats">
                <Figure label=key::GROUPS_STOPS_SUM value=Signal::derive(move || seconds(stops().1)) testid="stop-total"/>
            </dl>
            <h2>{t(key::GROUPS_CHURN)}</h2>
            <p data-testid="churn">{churn}</p>
            <h2>{t(key::GROUPS_LEDGER)}</h2>
            <p class="legend">{t(key::GROUPS_LEDGER_ABOUT)}</p>
            <dl class="stats" data-testid="ledger">
                <Figure label=key::GROUPS_LEDGER_PROCESSED value=Signal::derive(move || ledger().total_processed().to_string()) testid="ledger-processed"/>
                <Figure label=key::GROUPS_LEDGER_DUPLICATES value=Signal::derive(move || ledger().total_duplicates().to_string()) testid="ledger-duplicates"/>
                <Figure label=key::GROUPS_LEDGER_LOST value=Signal::derive(move || ledger().total_lost().to_string()) testid="ledger-lost"/>
                <Figure label=key::GROUPS_LEDGER_SKIPPED value=Signal::derive(move || ledger().partitions.iter().map(|l| l.skipped_by_reset).sum::<u64>().to_string())/>
            </dl>
        </section>
    }
}
