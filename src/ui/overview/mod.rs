//! Scene "Topic overview": brokers, partitions with leaders and ISRs, offsets growing.

mod partitions;

use leptos::prelude::*;

use super::session::Session;
use crate::i18n::{t, tf};
use crate::model::cluster::{BrokerView, Cluster, Command};
use crate::model::scene::LabScene;

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
fn PresetPicker(session: Session<Cluster>) -> impl IntoView {
    view! {
        <label class="preset">
            {t("shell.preset")}
            <select data-testid="preset" on:change=move |ev| {
                let id = event_target_value(&ev);
                if let Some(preset) = Cluster::presets().iter().find(|p| p.id == id) {
                    session.load_preset(preset);
                }
            }>
                <option value="" selected=move || session.preset_id().is_none()>{t("shell.preset.none")}</option>
                {Cluster::presets().iter().map(|p| {
                    let id = p.id;
                    view! { <option value=id selected=move || session.preset_id().as_deref() == Some(id)>{t(p.title_key)}</option> }
                }).collect_view()}
            </select>
        </label>
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
        view! { <button class="danger" on:click=move |_| session.command(Command::KillBroker(id))>{label}</button> }.into_any()
    } else {
        let label = tf("overview.broker.restart", &[("id", &id_text)]);
        view! { <button on:click=move |_| session.command(Command::RestartBroker(id))>{label}</button> }.into_any()
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
    let row = move |key: &'static str, value: Box<dyn Fn() -> u64 + Send + Sync>| {
        view! { <div><dt>{t(key)}</dt><dd class="num">{move || value()}</dd></div> }
    };
    view! {
        <section class="producer" aria-labelledby="producer-title">
            <h2 id="producer-title">{t("overview.producer")}</h2>
            <dl class="stats" data-testid="producer-stats">
                {row("overview.producer.sent", Box::new(move || stats().sent))}
                {row("overview.producer.acked", Box::new(move || stats().acknowledged))}
                {row("overview.producer.waiting", Box::new(move || stats().waiting))}
                {row("overview.producer.expired", Box::new(move || stats().expired))}
            </dl>
            <button on:click=move |_| session.command(Command::Produce { records: 100 })>{t("overview.produce")}</button>
        </section>
    }
}
