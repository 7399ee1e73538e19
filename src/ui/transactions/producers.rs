//! The producer incarnations, oldest first, one card each in its colour (the colour of its
//! records in the log): its transactional.id, producer id, epoch and next sequence number,
//! its state (running, in a GC pause, crashed, fenced — and a zombie: an older incarnation
//! still alive after a newer one took its transactional.id), what it sent and had
//! acknowledged, and the scene's commands. Cards and buttons are keyed views, so a focused
//! button keeps its focus while the run moves on.

use leptos::prelude::*;

use super::{producer_class, TxnData};
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::transactions::{ClientState, ProducerView, TxnLab, OTHER_LABEL};
use crate::ui::keyed::keyed_rows;
use crate::ui::markup::Markup;
use crate::ui::session::Session;

/// A client's state: css class, symbol and catalog key.
pub fn client_state(state: ClientState) -> (&'static str, &'static str, &'static str) {
    match state {
        ClientState::Running => ("running", "▶", key::TRANSACTIONS_STATE_RUNNING),
        ClientState::Paused => ("paused", "‖", key::TRANSACTIONS_STATE_PAUSED),
        ClientState::Crashed => ("crashed", "✗", key::TRANSACTIONS_STATE_CRASHED),
        ClientState::Fenced => ("fenced", "⊘", key::TRANSACTIONS_STATE_FENCED),
    }
}

/// The state as a badge: symbol and words.
pub fn state_badge((class, symbol, words): (&str, &str, &'static str), testid: &str) -> Html {
    html!(
        "<p class=\"state {}\" data-testid=\"{}\" data-state=\"{}\"><span aria-hidden=\"true\">{}</span> {}</p>",
        class,
        testid,
        class,
        symbol,
        t(words)
    )
}

/// "sent 5 · acked 3", then what is in flight or waiting, if anything.
fn counts(p: &ProducerView) -> String {
    let mut text =
        tf(key::TRANSACTIONS_PRODUCER_COUNTS, &[("sent", &p.sent.to_string()), ("acked", &p.acked.to_string())]);
    for (count, key) in
        [(p.in_flight, key::TRANSACTIONS_PRODUCER_IN_FLIGHT), (p.queued, key::TRANSACTIONS_PRODUCER_QUEUED)]
    {
        if count > 0 {
            text.push_str(" · ");
            text.push_str(&tf(key, &[("count", &count.to_string())]));
        }
    }
    text
}

fn card_markup(producers: &[ProducerView], index: usize) -> Html {
    let Some(p) = producers.get(index) else { return Html::new() };
    let mut out = html!("<p class=\"inc\">{}</p>", incarnation(&p.label, index));
    out.push(&state_badge(client_state(p.state), &format!("producer-{index}-state")));
    if p.zombie {
        html!(
            out,
            "<p class=\"zombie-note\" data-testid=\"producer-{}-zombie\">{}</p>",
            index,
            t(key::TRANSACTIONS_ZOMBIE)
        );
    }
    if p.has_producer_id {
        html!(
            out,
            "<dl class=\"ids\"><div><dt translate=\"no\">producerId</dt><dd class=\"num\" data-testid=\"producer-{}-id\">{}</dd></div><div><dt>{}</dt><dd class=\"num epoch\" data-testid=\"producer-{}-epoch\">{}</dd></div><div><dt>{}</dt><dd class=\"num\" data-testid=\"producer-{}-seq\">{}</dd></div></dl>",
            index,
            p.producer_id,
            t(key::TRANSACTIONS_EPOCH),
            index,
            p.epoch,
            t(key::TRANSACTIONS_NEXT_SEQUENCE),
            index,
            p.next_sequence
        );
    } else {
        html!(
            out,
            "<p class=\"ids none\" data-testid=\"producer-{}-id\">{}</p>",
            index,
            t(key::TRANSACTIONS_NO_PRODUCER_ID)
        );
    }
    html!(out, "<p class=\"small muted\">{}</p>", counts(p));
    out
}

/// "incarnation 2" for the app's cards, "another producer" for the other one.
fn incarnation(label: &str, index: usize) -> String {
    if label == OTHER_LABEL {
        t(key::TRANSACTIONS_OTHER_PRODUCER).to_string()
    } else {
        tf(key::TRANSACTIONS_INCARNATION, &[("n", &(index + 1).to_string())])
    }
}

#[component]
pub fn Producers(data: Memo<TxnData>, session: Session<TxnLab>, faults_open: RwSignal<bool>) -> impl IntoView {
    let count = Memo::new(move |_| data.with(|d| d.view.producers.len()));
    view! {
        <section class="tx-producers" aria-labelledby="tx-producers-title">
            <h2 id="tx-producers-title">{t(key::TRANSACTIONS_PRODUCERS)}</h2>
            <div class="cards">
                {keyed_rows(
                    move || (0..count.get() as u64).collect(),
                    move |index| {
                        view! { <ProducerCard data=data session=session index=index as usize faults_open=faults_open/> }.into_any()
                    },
                )}
            </div>
        </section>
    }
}

#[component]
fn ProducerCard(
    data: Memo<TxnData>,
    session: Session<TxnLab>,
    index: usize,
    faults_open: RwSignal<bool>,
) -> impl IntoView {
    let me = Memo::new(move |_| data.with(|d| d.view.producers.get(index).cloned()));
    let zombie = Memo::new(move |_| me.with(|p| p.as_ref().is_some_and(|p| p.zombie)));
    let markup = Signal::derive(move || data.with(|d| card_markup(&d.view.producers, index)));
    // The buttons change only with what they depend on (the newest incarnation's state, …).
    let controls = super::actions::controls_for(data, session, Some(index));
    let label = move || me.with(|p| p.as_ref().map(|p| p.label.clone()).unwrap_or_default());
    let class = move || {
        let state = me.with(|p| p.as_ref().map_or("crashed", |p| client_state(p.state).0));
        let zombie = if zombie.get() { " zombie" } else { "" };
        format!("tx-producer {} {state}{zombie}", producer_class(index))
    };
    view! {
        <article class=class data-testid=format!("producer-{index}")>
            <h3 translate="no">{label}</h3>
            <Markup html=markup class="card-body"/>
            <super::actions::AppActions session=session controls=controls faults_open=faults_open/>
        </article>
    }
}
