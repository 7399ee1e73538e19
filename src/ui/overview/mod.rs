//! Scene "Topic overview": brokers, partitions with leaders and ISRs, offsets growing.

mod partitions;

use leptos::prelude::*;

use super::session::Session;
use super::widgets::{Figure, SceneViews};
use crate::i18n::{key, t, tf};
use crate::model::cluster::{BrokerView, Cluster, Command};
use crate::model::kernel::{Fault, Node};

/// The stage: the brokers and the partitions they lead and follow; below, the producer's figures.
pub fn views(session: Session<Cluster>) -> SceneViews {
    let broker_ids =
        Memo::new(move |_| session.with(|run| run.world().brokers().iter().map(|b| b.id).collect::<Vec<_>>()));
    SceneViews {
        intro: key::OVERVIEW_INTRO,
        stage: view! {
            <div class="overview">
                <section aria-labelledby="brokers-title">
                    <h2 id="brokers-title">{t(key::OVERVIEW_BROKERS)}</h2>
                    <div class="brokers">
                        // Keyed by broker id: a step updates each card in place, so a focused button keeps focus.
                        <For each=move || broker_ids.get() key=|id| *id
                            children=move |id| view! { <BrokerCard id=id session=session/> }/>
                    </div>
                </section>
                <partitions::PartitionGrid session=session/>
            </div>
        }
        .into_any(),
        panels: view! { <div class="overview"><ProducerPanel session=session/></div> }.into_any(),
    }
}

#[component]
fn BrokerCard(id: u32, session: Session<Cluster>) -> impl IntoView {
    let id_text = id.to_string();
    let broker = Memo::new(move |_| {
        session.with(|run| run.world().broker_views().into_iter().find(|b| b.id == id)).unwrap_or(BrokerView {
            id,
            alive: false,
            fenced: false,
            leader_of: Vec::new(),
            follower_of: Vec::new(),
        })
    });
    let state = move || match broker.with(|b| (b.alive, b.fenced)) {
        (true, _) => (key::OVERVIEW_BROKER_RUNNING, "up"),
        (false, false) => (key::OVERVIEW_BROKER_CRASHED, "crashed"),
        (false, true) => (key::OVERVIEW_BROKER_FENCED, "fenced"),
    };
    let alive = move || broker.with(|b| b.alive);
    let leads = move || broker.with(|b| b.leader_of.len().to_string());
    let kill_label = tf(key::OVERVIEW_BROKER_KILL, &[("id", &id_text)]);
    let restart_label = tf(key::OVERVIEW_BROKER_RESTART, &[("id", &id_text)]);
    // One button whose action and label follow the broker's state, so focus stays on it.
    let act = move |_| {
        let fault = if alive() { Fault::Crash(Node::Id(id)) } else { Fault::Restart(Node::Id(id)) };
        session.command(Command::Fault(fault));
    };
    view! {
        <article class=move || format!("broker {}", state().1) data-testid=format!("broker-{id}")>
            <h3>{tf(key::OVERVIEW_BROKER_NAME, &[("id", &id_text)])}</h3>
            <p class="state">{move || t(state().0)}</p>
            <p>{move || tf(key::OVERVIEW_BROKER_LEADS, &[("count", &leads())])}</p>
            <button class:danger=alive on:click=act data-testid=format!("action-broker-{id}")>
                {move || if alive() { kill_label.clone() } else { restart_label.clone() }}
            </button>
        </article>
    }
}

#[component]
fn ProducerPanel(session: Session<Cluster>) -> impl IntoView {
    let stats = move || session.with(|run| run.world().producer_stats());
    view! {
        <section class="producer" aria-labelledby="producer-title">
            <h2 id="producer-title">{t(key::OVERVIEW_PRODUCER)}</h2>
            <dl class="stats" data-testid="producer-stats">
                <Figure label=key::OVERVIEW_PRODUCER_SENT value=Signal::derive(move || stats().sent.to_string())/>
                <Figure label=key::OVERVIEW_PRODUCER_ACKED value=Signal::derive(move || stats().acknowledged.to_string())/>
                <Figure label=key::OVERVIEW_PRODUCER_WAITING value=Signal::derive(move || stats().waiting.to_string())/>
                <Figure label=key::OVERVIEW_PRODUCER_EXPIRED value=Signal::derive(move || stats().expired.to_string())/>
            </dl>
            <button on:click=move |_| session.command(Command::Produce { records: 100 })>{t(key::OVERVIEW_PRODUCE)}</button>
        </section>
    }
}
