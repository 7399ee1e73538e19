//! One card per node under the network strip: the producer, each broker (state, role,
//! LEO/HW, faults to inject) and the controller (leader, epoch, ISR, unclean election).

use leptos::prelude::*;

use super::broker_name;
use crate::i18n::{t, tf};
use crate::model::replication::{Acks, Command, PurgatoryView, Replication, ReplicaView};
use crate::ui::session::Session;

/// Length of the GC pause the card injects, in ms (longer than broker.session.timeout.ms).
const PAUSE_MS: u64 = 15_000;
/// Extra wait before each fetch of a slowed follower, in ms.
const SLOW_MS: u64 = 5_000;

pub fn join(ids: &[u32]) -> String {
    if ids.is_empty() {
        return "—".into();
    }
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn names(ids: &[u32]) -> String {
    ids.iter().map(|id| broker_name(*id)).collect::<Vec<_>>().join(", ")
}

pub fn acks_text(acks: Acks) -> &'static str {
    match acks {
        Acks::None => "0",
        Acks::Leader => "1",
        Acks::All => "all",
    }
}

#[component]
pub fn NodeCards(session: Session<Replication>) -> impl IntoView {
    let cols = move || session.with(|run| run.world().brokers().len() + 2);
    view! {
        <div class="node-cards" style=move || format!("--cols: {}", cols())>
            <ProducerCard session=session/>
            {move || {
                let (views, parked) = session.with(|run| (run.world().replica_views(), run.world().purgatory_views()));
                views.into_iter().map(|v| {
                    let purgatory = parked.iter().find(|p| p.broker == v.broker).cloned().unwrap_or_default();
                    broker_card(v, purgatory, session)
                }).collect_view()
            }}
            <ControllerCard session=session/>
        </div>
    }
}

#[component]
fn ProducerCard(session: Session<Replication>) -> impl IntoView {
    let count = RwSignal::new(String::from("1"));
    let stats = move || session.with(|run| (run.world().producer_view(), run.world().settings().acks));
    // The producer's latest line in the event log: its last callback or error (kept in embeds too).
    let last = move || session.with(|run| run.sim().log().iter().filter(|e| e.actor == "producer").last().map(|e| e.text.clone()));
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match count.get_untracked().trim().parse::<u32>() {
            Ok(records) => session.command(Command::Produce { records }),
            Err(_) => session.command(Command::Produce { records: 0 }),
        }
    };
    view! {
        <article class="node-card producer" data-testid="producer">
            <h3>"producer"</h3>
            <p class="mono">{move || format!("acks={}", acks_text(stats().1))}</p>
            <p>{move || tf("replication.producer.in_flight", &[("count", &stats().0.in_flight.to_string())])}</p>
            <p>{move || tf("replication.producer.waiting", &[("count", &stats().0.waiting_for_leader.to_string())])}</p>
            {move || last().map(|line| view! { <p class="note mono" data-testid="producer-last">{t("replication.producer.last")}" "{line}</p> })}
            <form class="produce" on:submit=send>
                <label>
                    <span class="sr-only">{t("replication.produce.count")}</span>
                    <input type="number" min="1" max="10000" size="5" prop:value=move || count.get()
                        aria-label=t("replication.produce.count") data-testid="produce-count"
                        on:input=move |ev| count.set(event_target_value(&ev))/>
                </label>
                <button type="submit" class="primary">{t("replication.produce")}</button>
            </form>
        </article>
    }
}

fn state_line(v: &ReplicaView) -> (&'static str, &'static str) {
    match (v.alive, v.paused, v.fenced) {
        (false, _, true) => ("replication.broker.down_fenced", "down"),
        (false, _, false) => ("replication.broker.down", "down"),
        (true, true, _) => ("replication.broker.paused", "paused"),
        (true, false, true) => ("replication.broker.fenced", "fenced"),
        (true, false, false) => ("replication.broker.running", "up"),
    }
}

fn role_key(role: &str) -> &'static str {
    match role {
        "leader" => "replication.role.leader",
        "follower" => "replication.role.follower",
        _ => "replication.role.unknown",
    }
}

/// Role and epoch as the broker believes them (for a dead broker: what it believed last).
fn role_line(v: &ReplicaView) -> String {
    let line = format!("{} · {}", t(role_key(v.role)), tf("replication.broker.epoch", &[("epoch", &v.leader_epoch.to_string())]));
    if v.alive {
        line
    } else {
        tf("replication.broker.was", &[("role", &line)])
    }
}

fn epoch_cache_text(cache: &[(i32, i64)]) -> String {
    if cache.is_empty() {
        return "—".into();
    }
    cache.iter().map(|(e, o)| format!("{e}→{o}")).collect::<Vec<_>>().join(" ")
}

fn broker_card(v: ReplicaView, parked: PurgatoryView, session: Session<Replication>) -> impl IntoView {
    let id = v.broker;
    let (state_key, state_class) = state_line(&v);
    let isr_key = if v.in_isr { "replication.broker.in_isr" } else { "replication.broker.out_isr" };
    let name = broker_name(id);
    view! {
        <article class=format!("node-card broker {state_class} role-{}", v.role) data-testid=format!("broker-{id}")>
            <h3>{name.clone()}</h3>
            <p class="state" data-testid=format!("broker-{id}-state")>{t(state_key)}</p>
            <p>{role_line(&v)}</p>
            <p class:out=!v.in_isr>{t(isr_key)}</p>
            <p class="mono">{format!("LEO {} · HW {}", v.log_end_offset, v.high_watermark)}</p>
            <p class="mono small" title=t("replication.broker.checkpoint.hint")>
                {t("replication.broker.checkpoint")}" "{epoch_cache_text(&v.epoch_cache)}
            </p>
            {(v.slow_fetch_delay_ms > 0).then(|| view! {
                <p class="note">{tf("replication.broker.slow", &[("ms", &v.slow_fetch_delay_ms.to_string())])}</p>
            })}
            {(!parked.parked_fetches.is_empty()).then(|| view! {
                <p class="note">{tf("replication.broker.parked", &[("followers", &names(&parked.parked_fetches))])}</p>
            })}
            {(parked.waiting_produces > 0).then(|| view! {
                <p class="note">{tf("replication.broker.waiting_produces", &[("count", &parked.waiting_produces.to_string())])}</p>
            })}
            {broker_actions(&v, &name, session)}
        </article>
    }
}

fn broker_actions(v: &ReplicaView, name: &str, session: Session<Replication>) -> impl IntoView {
    let id = v.broker;
    let args = [("broker", name)];
    if !v.alive {
        return view! {
            <div class="actions">
                <button class="primary" on:click=move |_| session.command(Command::Restart(id))>{tf("replication.action.restart", &args)}</button>
            </div>
        }
        .into_any();
    }
    let slowed = v.slow_fetch_delay_ms > 0;
    let slow_label = if slowed { tf("replication.action.unslow", &args) } else { tf("replication.action.slow", &args) };
    let delay = if slowed { 0 } else { SLOW_MS };
    view! {
        <div class="actions">
            <button class="danger" title=t("replication.action.kill.hint") on:click=move |_| session.command(Command::Kill(id))>{tf("replication.action.kill", &args)}</button>
            <button class="danger" title=t("replication.action.powerfail.hint") on:click=move |_| session.command(Command::PowerFail(id))>{tf("replication.action.powerfail", &args)}</button>
            <button title=t("replication.action.pause.hint") disabled=v.paused
                on:click=move |_| session.command(Command::Pause { broker: id, duration_ms: PAUSE_MS })>{tf("replication.action.pause", &args)}</button>
            <button title=t("replication.action.slow.hint") on:click=move |_| session.command(Command::Slow { broker: id, delay_ms: delay })>{slow_label}</button>
        </div>
    }
    .into_any()
}

#[component]
fn ControllerCard(session: Session<Replication>) -> impl IntoView {
    let view_of = move || session.with(|run| run.world().controller_view());
    let toggle = move |_| {
        let on = view_of().unclean_leader_election;
        session.command(Command::SetUncleanElection(!on));
    };
    view! {
        <article class="node-card controller" data-testid="controller">
            <h3>"controller"</h3>
            <p>{move || match view_of().leader {
                Some(l) => tf("replication.controller.leader", &[("leader", &broker_name(l))]),
                None => t("replication.controller.no_leader").to_string(),
            }}</p>
            <p>{move || tf("replication.controller.epoch", &[("epoch", &view_of().leader_epoch.to_string())])}</p>
            <p class="mono">{move || format!("Isr: {}", join(&view_of().isr))}</p>
            <p>{move || tf("replication.controller.fenced", &[("brokers", &join(&view_of().fenced))])}</p>
            <p class="mono small">{move || format!("unclean.leader.election.enable={}", view_of().unclean_leader_election)}</p>
            <button on:click=toggle title=t("replication.unclean.hint") data-testid="unclean-toggle">
                {move || if view_of().unclean_leader_election { t("replication.unclean.off") } else { t("replication.unclean.on") }}
            </button>
        </article>
    }
}
