//! The watched key's records replayed: where each went, when its partition's consumer
//! processed it, and which ones overtook an earlier event of the same key.

use leptos::prelude::*;

use super::send;
use crate::i18n::{key, t, tf};
use crate::model::partitioner::{Command, Partitioner, TrackedRecord, TOPIC};
use crate::ui::session::Session;

/// One table row: the record and the earlier events it overtook.
type Row = (TrackedRecord, Vec<String>);

#[component]
pub fn OrderPanel(session: Session<Partitioner>) -> impl IntoView {
    let rows = Memo::new(move |_| {
        session.with(|run| {
            let world = run.world();
            let overtaken = world.overtaken_events();
            world
                .tracked_records()
                .iter()
                .cloned()
                .zip(overtaken.into_iter().map(|events| events.into_iter().map(str::to_string).collect()))
                .collect::<Vec<Row>>()
        })
    });
    let order = move || {
        session.with(|run| {
            run.world()
                .processing_order()
                .iter()
                .map(|r| format!("{} ({TOPIC}-{})", r.event, r.partition))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="order" aria-labelledby="order-title">
            <h2 id="order-title">{t(key::PARTITIONER_ORDER_TITLE)}</h2>
            <SendEvent session=session/>
            {move || {
                let rows = rows.get();
                if rows.is_empty() {
                    return view! { <p class="muted" data-testid="order-empty">{t(key::PARTITIONER_ORDER_EMPTY)}</p> }.into_any();
                }
                view! {
                    <Verdict rows=rows.clone()/>
                    <table class="order-table" data-testid="order-table" tabindex="0" aria-labelledby="order-title">
                        <thead><tr>
                            <th scope="col">{t(key::PARTITIONER_ORDER_SENT)}</th>
                            <th scope="col">{t(key::PARTITIONER_ORDER_EVENT)}</th>
                            <th scope="col">{t(key::PARTITIONER_ORDER_PARTITION)}</th>
                            <th scope="col">{t(key::PARTITIONER_ORDER_OFFSET)}</th>
                            <th scope="col">{t(key::PARTITIONER_ORDER_SENT_AT)}</th>
                            <th scope="col">{t(key::PARTITIONER_ORDER_PROCESSED_AT)}</th>
                            <th scope="col">{t(key::PARTITIONER_ORDER_RANK)}</th>
                        </tr></thead>
                        <tbody>{rows.into_iter().enumerate().map(|(i, row)| order_row(i, row)).collect_view()}</tbody>
                    </table>
                    <p class="legend">{move || tf(key::PARTITIONER_ORDER_PROCESSING, &[("order", &order().join(" → "))])}</p>
                }.into_any()
            }}
        </section>
    }
}

#[component]
fn Verdict(rows: Vec<Row>) -> impl IntoView {
    let broken = rows.iter().find(|(_, over)| !over.is_empty());
    let key = rows.first().map(|(r, _)| r.key_text.clone()).unwrap_or_default();
    match broken {
        Some((record, over)) => {
            let text = tf(key::PARTITIONER_ORDER_BROKEN, &[("key", &key), ("event", &record.event), ("before", &over.join(", "))]);
            view! { <p class="verdict broken" data-testid="order-verdict"><span aria-hidden="true">"⚠ "</span>{text}</p> }.into_any()
        }
        None => view! { <p class="verdict kept" data-testid="order-verdict"><span aria-hidden="true">"✓ "</span>{tf(key::PARTITIONER_ORDER_KEPT, &[("key", &key)])}</p> }.into_any(),
    }
}

fn order_row(index: usize, (record, overtaken): Row) -> impl IntoView {
    let processed = match record.processed_ms {
        Some(ms) => format!("{ms} ms"),
        None => t(key::PARTITIONER_ORDER_WAITING).to_string(),
    };
    let flag = (!overtaken.is_empty()).then(|| {
        view! { <span class="flag">{tf(key::PARTITIONER_ORDER_OVERTOOK, &[("before", &overtaken.join(", "))])}</span> }
    });
    let rank = record.processed_rank.map_or("—".to_string(), |r| format!("#{}", r + 1));
    view! {
        <tr class:broken=!overtaken.is_empty() data-testid=format!("order-row-{}", record.event)>
            <td class="num">{index + 1}</td>
            <td><code translate="no">{record.key_text.clone()}</code>" "<code translate="no">{record.event.clone()}</code></td>
            <td><code translate="no">{format!("{TOPIC}-{}", record.partition)}</code>" "<span class="muted">{tf(key::PARTITIONER_ORDER_OF, &[("n", &record.partitions_at_send.to_string())])}</span></td>
            <td class="num">{record.offset}</td>
            <td class="num">{format!("{} ms", record.produced_ms)}</td>
            <td class="num">{processed}</td>
            <td class="num" data-testid="rank">{rank}" "{flag}</td>
        </tr>
    }
}

/// Sends one record with the watched key and an event name (its order is replayed below).
#[component]
fn SendEvent(session: Session<Partitioner>) -> impl IntoView {
    let event = RwSignal::new("created".to_string());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send(session, Command::send(&event.get_untracked()));
    };
    view! {
        <form class="send-form" on:submit=submit>
            <label for="event-name">{t(key::PARTITIONER_SEND_LABEL)}</label>
            <input id="event-name" type="text" data-testid="event-input" autocomplete="off" spellcheck="false"
                prop:value=move || event.get() on:input=move |ev| event.set(event_target_value(&ev))/>
            <button type="submit">{t(key::PARTITIONER_SEND_BUTTON)}</button>
        </form>
    }
}
