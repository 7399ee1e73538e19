//! Two consumers of the same partition side by side: isolation.level=read_uncommitted (reads
//! to the HW, aborted records included) and read_committed (reads to the LSO, aborted records
//! dropped by the aborted-transactions index). Each shows its position, its lag and the
//! records it received, the newest as chips in the log's colours.

use leptos::prelude::*;

use super::strip::{entry_at, status_marks};
use super::{producer_class, TxnData};
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::transactions::core::{Isolation, RecordStatus};
use crate::model::transactions::{ConsumerView, TxnView};
use crate::ui::keyed::keyed_rows;
use crate::ui::markup::Markup;

/// How many of the newest received records are drawn as chips.
const CHIPS: usize = 8;

/// Kafka's config value, the test id and the catalog key of how it reads.
fn isolation_marks(isolation: Isolation) -> (&'static str, &'static str, &'static str) {
    match isolation {
        Isolation::ReadUncommitted => ("read_uncommitted", "uncommitted", key::TRANSACTIONS_READS_UNCOMMITTED),
        Isolation::ReadCommitted => ("read_committed", "committed", key::TRANSACTIONS_READS_COMMITTED),
    }
}

fn chip(out: &mut Html, v: &TxnView, offset: u64) {
    let Some(e) = entry_at(&v.entries, offset) else { return };
    let (class, mark, status_key) = status_marks(e.status);
    let who = e.producer.map_or_else(|| "p-none".to_string(), producer_class);
    let record = e.record_id.map_or_else(|| offset.to_string(), |id| format!("#{id}"));
    let title = tf(key::TRANSACTIONS_CHIP, &[("offset", &offset.to_string()), ("status", t(status_key))]);
    html!(
        out,
        "<li class=\"chip {} {}\" title=\"{}\" data-offset=\"{}\">{}<span aria-hidden=\"true\">{}</span><span class=\"sr-only\"> {}</span></li>",
        who,
        class,
        title,
        offset,
        record,
        mark,
        t(status_key)
    );
}

fn figure(label: &str, testid: &str, value: u64) -> Html {
    html!("<div class=\"figure\"><dt>{}</dt><dd class=\"num\" data-testid=\"{}\">{}</dd></div>", label, testid, value)
}

fn pane_markup(v: &TxnView, c: &ConsumerView) -> Html {
    let (_, id, reads) = isolation_marks(c.isolation);
    let aborted = c
        .received
        .iter()
        .filter(|o| entry_at(&v.entries, **o).is_some_and(|e| e.status == RecordStatus::Aborted))
        .count() as u64;
    let mut stats = figure(t(key::TRANSACTIONS_CONSUMER_POSITION), &format!("{id}-position"), c.position);
    stats.push(&figure(t(key::TRANSACTIONS_CONSUMER_LAG), &format!("{id}-lag"), c.lag));
    stats.push(&figure(t(key::TRANSACTIONS_CONSUMER_RECEIVED), &format!("{id}-received"), c.received.len() as u64));
    stats.push(&figure(t(key::TRANSACTIONS_CONSUMER_ABORTED), &format!("{id}-aborted"), aborted));
    let shown = c.received.len().saturating_sub(CHIPS);
    let mut chips = Html::new();
    for offset in &c.received[shown..] {
        chip(&mut chips, v, *offset);
    }
    let newest = if c.received.is_empty() {
        html!("<span class=\"newest\">{}</span>", t(key::TRANSACTIONS_CONSUMER_NOTHING))
    } else {
        html!("<span class=\"newest\">{}</span>", t(key::TRANSACTIONS_CONSUMER_NEWEST))
    };
    let warn = if aborted > 0 { " saw-aborted" } else { "" };
    html!(
        "<p class=\"reads\">{}</p><dl class=\"stats{}\">{}</dl><div class=\"received\">{}<ul class=\"chips\" data-testid=\"{}-chips\" aria-label=\"{}\">{}</ul></div>",
        t(reads),
        warn,
        stats,
        newest,
        id,
        t(key::TRANSACTIONS_CONSUMER_RECEIVED),
        chips
    )
}

#[component]
fn Pane(data: Memo<TxnData>, index: usize) -> impl IntoView {
    let consumer = move || data.with(|d| d.view.consumers.get(index).map(|c| c.isolation));
    let name = move || consumer().map_or("", |i| isolation_marks(i).0);
    let testid = move || consumer().map_or("consumer", |i| isolation_marks(i).1);
    let markup = Signal::derive(move || {
        data.with(|d| d.view.consumers.get(index).map(|c| pane_markup(&d.view, c)).unwrap_or_default())
    });
    let title_id = format!("tx-consumer-{index}");
    let labelled_by = title_id.clone();
    view! {
        <article class="tx-consumer" data-testid=move || format!("consumer-{}", testid()) aria-labelledby=labelled_by>
            <h3 id=title_id translate="no">"isolation.level="{name}</h3>
            <Markup html=markup class="card-body"/>
        </article>
    }
}

#[component]
pub fn Consumers(data: Memo<TxnData>) -> impl IntoView {
    let count = Memo::new(move |_| data.with(|d| d.view.consumers.len()));
    view! {
        <section class="tx-consumers" aria-labelledby="tx-consumers-title">
            <h2 id="tx-consumers-title" class="sr-only">{t(key::TRANSACTIONS_CONSUMERS)}</h2>
            {keyed_rows(
                move || (0..count.get() as u64).collect(),
                move |index| view! { <Pane data=data index=index as usize/> }.into_any(),
            )}
        </section>
    }
}
