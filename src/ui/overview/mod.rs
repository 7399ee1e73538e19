//! Scene "Topic overview": brokers, partitions with leaders and ISRs, offsets growing.

mod partitions;

use leptos::prelude::*;

use super::session::Session;
use super::widgets::{Figure, PresetPicker};
use crate::i18n::{t, tf};
use crate::model::cluster::{BrokerView, Cluster, Command};
use crate::model::kernel::{Fault, Node};

#[component]
pub fn OverviewScene(session: Session<Cluster>) -> impl IntoView {
    let brokers = move || session.with(|run| run.world().broker_views());
    view! {
        <div class="overview">
            <p class="intro">{t("overview.intro")}</p>
            <PresetPicker session=session/>
            <section aria-labelledby="brokers-title">
                <h2 id="brokers-title">{t("overview.brokers")}</h2>
                <div class="brokers">
                    {move || brokers().into_iter().map(|b| view! { <BrokerCard broker=b session=session/> }).collect_view()}
                </div>
            </section>
            <partitions::PartitionGrid session=session/>
            <ProducerPanel session=session/>
        </div>
    }
}

#[component]
fn BrokerCard(broker: BrokerView, session: Session<Cluster>) -> impl IntoView {
    let id = broker.id;
    let id_text = id.to_string();
    let (state_key, state_class) = match (broker.alive, broker.fenced) {
        (true, _) => ("overview.broker.running", "up"),
        (false, false) => ("overview.broker.crashed", "crashed"),
        (false, true) => ("overview.broker.fenced", "fenced"),
    };
    let action = if broker.alive {
        let label = tf("overview.broker.kill", &[("id", &id_text)]);
        view! { <button class="danger" on:click=move |_| session.command(Command::Fault(Fault::Crash(Node::Id(id))))>{label}</button> }
            .into_any()
    } else {
        let label = tf("overview.broker.restart", &[("id", &id_text)]);
        view! { <button on:click=move |_| session.command(Command::Fault(Fault::Restart(Node::Id(id))))>{label}</button> }.into_any()
    };
    view! {
        <article class=format!("broker {state_class}") data-testid=format!("broker-{id}")>
            <h3>{tf("overview.broker.name", &[("id", &id_text)])}</h3>
            <p class="state">{t(state_key)}</p>
            <p>{tf("overview.broker.leads", &[("count", &broker.leader_of.len().to_string())])}</p>
            {action}
        </article>
    }
}

#[component]
fn ProducerPanel(session: Session<Cluster>) -> impl IntoView {
    let stats = move || session.with(|run| run.world().producer_stats());
    view! {
        <section class="producer" aria-labelledby="producer-title">
            <h2 id="producer-title">{t("overview.producer")}</h2>
            <dl class="stats" data-testid="producer-stats">
                <Figure label="overview.producer.sent" value=Signal::derive(move || stats().sent.to_string())/>
                <Figure label="overview.producer.acked" value=Signal::derive(move || stats().acknowledged.to_string())/>
                <Figure label="overview.producer.waiting" value=Signal::derive(move || stats().waiting.to_string())/>
                <Figure label="overview.producer.expired" value=Signal::derive(move || stats().expired.to_string())/>
            </dl>
            <button on:click=move |_| session.command(Command::Produce { records: 100 })>{t("overview.produce")}</button>
        </section>
    }
}
