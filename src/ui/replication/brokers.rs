//! One card per node under the network strip: the producer, each broker (state, role,
//! LEO/HW, faults to inject) and the controller (leader, epoch, ISR, unclean election).
//! What a card says is markup; only its controls are views.

use std::fmt::Write;

use leptos::prelude::*;

use super::{broker_name, esc};
use crate::i18n::{t, tf};
use crate::model::replication::{Acks, Command, PurgatoryView, ReplicaView, Replication};
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

/// Appends `<p class="...">text</p>` (text escaped).
fn line(out: &mut String, class: &str, text: &str) {
    let _ = write!(out, r#"<p class="{class}">{}</p>"#, esc(text));
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

fn producer_markup(run: &crate::model::scene::Run<Replication>) -> String {
    let w = run.world();
    let p = w.producer_view();
    let mut out = String::new();
    line(&mut out, "mono", &format!("acks={}", acks_text(w.settings().acks)));
    line(&mut out, "", &tf("replication.producer.in_flight", &[("count", &p.in_flight.to_string())]));
    line(&mut out, "", &tf("replication.producer.waiting", &[("count", &p.waiting_for_leader.to_string())]));
    // Its latest line in the event log: the last callback or error (kept in embeds too).
    if let Some(last) = run.sim().log().iter().filter(|e| e.actor == crate::model::kernel::Actor::Producer).last() {
        line(
            &mut out,
            "note mono",
            &format!(
                "{} {}",
                t("replication.producer.last"),
                crate::i18n::render(&crate::model::kernel::Describe::message(&last.fact))
            ),
        );
    }
    out
}

#[component]
fn ProducerCard(session: Session<Replication>) -> impl IntoView {
    let count = RwSignal::new(String::from("1"));
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // An unreadable count is sent as 0 so the model refuses it and says why.
        let records = count.get_untracked().trim().parse::<u32>().unwrap_or(0);
        session.command(Command::Produce { records });
    };
    view! {
        <article class="node-card producer" data-testid="producer">
            <h3>"producer"</h3>
            <div inner_html=move || session.with(producer_markup)></div>
            <form class="produce" on:submit=send>
                <input type="number" min="1" max="10000" prop:value=move || count.get()
                    aria-label=t("replication.produce.count") data-testid="produce-count"
                    on:input=move |ev| count.set(event_target_value(&ev))/>
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
    let line = format!(
        "{} · {}",
        t(role_key(v.role)),
        tf("replication.broker.epoch", &[("epoch", &v.leader_epoch.to_string())])
    );
    if v.alive {
        line
    } else {
        tf("replication.broker.was", &[("role", &line)])
    }
}

fn broker_markup(v: &ReplicaView, parked: &PurgatoryView) -> String {
    let mut out = String::new();
    let _ = write!(out, r#"<p class="state" data-testid="broker-{}-state">{}</p>"#, v.broker, esc(t(state_line(v).0)));
    line(&mut out, "", &role_line(v));
    if v.in_isr {
        line(&mut out, "", t("replication.broker.in_isr"));
    } else {
        line(&mut out, "out", t("replication.broker.out_isr"));
    }
    line(&mut out, "mono", &format!("LEO {} · HW {}", v.log_end_offset, v.high_watermark));
    let cache = v.epoch_cache.iter().map(|(e, o)| format!("{e}→{o}")).collect::<Vec<_>>().join(" ");
    let _ = write!(
        out,
        r#"<p class="mono small" title="{}">{} {}</p>"#,
        esc(t("replication.broker.checkpoint.hint")),
        esc(t("replication.broker.checkpoint")),
        if cache.is_empty() { "—".into() } else { cache }
    );
    if v.slow_fetch_delay_ms > 0 {
        line(&mut out, "note", &tf("replication.broker.slow", &[("ms", &v.slow_fetch_delay_ms.to_string())]));
    }
    if !parked.parked_fetches.is_empty() {
        line(&mut out, "note", &tf("replication.broker.parked", &[("followers", &names(&parked.parked_fetches))]));
    }
    if parked.waiting_produces > 0 {
        line(
            &mut out,
            "note",
            &tf("replication.broker.waiting_produces", &[("count", &parked.waiting_produces.to_string())]),
        );
    }
    out
}

fn broker_card(v: ReplicaView, parked: PurgatoryView, session: Session<Replication>) -> impl IntoView {
    let id = v.broker;
    let class = format!("node-card broker {} role-{}", state_line(&v).1, v.role);
    view! {
        <article class=class data-testid=format!("broker-{id}")>
            <h3>{broker_name(id)}</h3>
            <div inner_html=broker_markup(&v, &parked)></div>
            {broker_actions(&v, session)}
        </article>
    }
}

fn broker_actions(v: &ReplicaView, session: Session<Replication>) -> AnyView {
    let id = v.broker;
    let name = broker_name(id);
    let args = [("broker", name.as_str())];
    if !v.alive {
        let label = tf("replication.action.restart", &args);
        return view! { <div class="actions"><button class="primary" on:click=move |_| session.command(Command::Restart(id))>{label}</button></div> }
            .into_any();
    }
    let delay = if v.slow_fetch_delay_ms > 0 { 0 } else { SLOW_MS };
    let slow_key = if delay == 0 { "replication.action.unslow" } else { "replication.action.slow" };
    let buttons: [(&'static str, &'static str, &'static str, Command); 4] = [
        ("replication.action.kill", "replication.action.kill.hint", "danger", Command::Kill(id)),
        ("replication.action.powerfail", "replication.action.powerfail.hint", "danger", Command::PowerFail(id)),
        (
            "replication.action.pause",
            "replication.action.pause.hint",
            "",
            Command::Pause { broker: id, duration_ms: PAUSE_MS },
        ),
        (slow_key, "replication.action.slow.hint", "", Command::Slow { broker: id, delay_ms: delay }),
    ];
    let buttons = buttons
        .into_iter()
        .map(|(key, hint, class, command)| {
            let label = tf(key, &args);
            view! { <button class=class title=t(hint) on:click=move |_| session.command(command.clone())>{label}</button> }
        })
        .collect_view();
    view! { <div class="actions">{buttons}</div> }.into_any()
}

fn controller_markup(w: &Replication) -> String {
    let c = w.controller_view();
    let mut out = String::new();
    let leader = match c.leader {
        Some(l) => tf("replication.controller.leader", &[("leader", &broker_name(l))]),
        None => t("replication.controller.no_leader").to_string(),
    };
    line(&mut out, "", &leader);
    line(&mut out, "", &tf("replication.controller.epoch", &[("epoch", &c.leader_epoch.to_string())]));
    line(&mut out, "mono", &format!("Isr: {}", join(&c.isr)));
    line(&mut out, "", &tf("replication.controller.fenced", &[("brokers", &join(&c.fenced))]));
    line(&mut out, "mono small", &format!("unclean.leader.election.enable={}", c.unclean_leader_election));
    out
}

#[component]
fn ControllerCard(session: Session<Replication>) -> impl IntoView {
    let unclean = move || session.with(|run| run.world().controller_view().unclean_leader_election);
    view! {
        <article class="node-card controller" data-testid="controller">
            <h3>"controller"</h3>
            <div inner_html=move || session.with(|run| controller_markup(run.world()))></div>
            <button on:click=move |_| session.command(Command::SetUncleanElection(!unclean())) title=t("replication.unclean.hint") data-testid="unclean-toggle">
                {move || if unclean() { t("replication.unclean.off") } else { t("replication.unclean.on") }}
            </button>
        </article>
    }
}
