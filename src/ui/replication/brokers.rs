//! One card per node under the network strip: the producer, each broker (state, role,
//! LEO/HW, faults to inject) and the controller (leader, epoch, ISR, unclean election).
//! What a card says is markup; the cards and their controls are keyed views, so a
//! focused button survives the run moving on.

use leptos::prelude::*;

use super::{broker_name, node_name};
use crate::html;
use crate::i18n::{key, render, t, tf};
use crate::markup::Html;
use crate::model::kernel::{Actor, Describe};
use crate::model::replication::{Acks, Command, Fault, Node, PurgatoryView, ReplicaRole, ReplicaView, Replication};
use crate::ui::markup::Markup;
use crate::ui::session::Session;

/// Length of the GC pause the card injects, in ms (longer than broker.session.timeout.ms).
const PAUSE_MS: u64 = 15_000;
/// Extra wait before each fetch of a slowed follower, in ms.
const SLOW_MS: u64 = 5_000;

pub fn join(ids: &[u32]) -> String {
    if ids.is_empty() {
        return "—".into();
    }
    crate::model::join_ids(ids)
}

fn names(ids: &[u32]) -> String {
    ids.iter().map(|id| broker_name(*id)).collect::<Vec<_>>().join(", ")
}

pub fn acks_text(acks: Acks) -> &'static str {
    acks.config_value()
}

/// `<p class="...">text</p>`, the text escaped.
fn line(out: &mut Html, class: &str, text: &str) {
    html!(out, "<p class=\"{}\">{}</p>", class, text);
}

/// Every replica's view and the purgatories, computed once per change for all cards.
type CardData = (Vec<ReplicaView>, Vec<PurgatoryView>);

#[component]
pub fn NodeCards(session: Session<Replication>) -> impl IntoView {
    let cluster: Memo<CardData> =
        Memo::new(move |_| session.with(|run| (run.world().replica_views(), run.world().purgatory_views())));
    let ids =
        Memo::new(move |_: Option<&Vec<u32>>| cluster.with(|(views, _)| views.iter().map(|v| v.broker).collect()));
    let cols = move || session.with(|run| run.world().brokers().len() + 2);
    view! {
        <div class="node-cards" style=move || format!("--cols: {}", cols())>
            <ProducerCard session=session/>
            <For each=move || ids.get() key=|id: &u32| *id let:id>
                <BrokerCard id=id cluster=cluster session=session/>
            </For>
            <ControllerCard session=session/>
        </div>
    }
}

fn producer_markup(run: &crate::model::scene::Run<Replication>) -> Html {
    let w = run.world();
    let p = w.producer_view();
    let mut out = Html::new();
    line(&mut out, "mono", &format!("acks={}", acks_text(w.settings().acks)));
    line(&mut out, "", &tf(key::REPLICATION_PRODUCER_IN_FLIGHT, &[("count", &p.in_flight.to_string())]));
    line(&mut out, "", &tf(key::REPLICATION_PRODUCER_WAITING, &[("count", &p.waiting_for_leader.to_string())]));
    // Its latest line in the event log: the last callback or error (kept in embeds too).
    if let Some(last) = run.sim().log().iter().rev().find(|e| e.actor == Actor::Producer) {
        line(&mut out, "note mono", &format!("{} {}", t(key::REPLICATION_PRODUCER_LAST), render(&last.fact.message())));
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
    let markup = Signal::derive(move || session.with(producer_markup));
    view! {
        <article class="node-card producer" data-testid="producer">
            <h3>{node_name(Node::Producer)}</h3>
            <Markup html=markup/>
            <form class="produce" on:submit=send>
                <input type="number" min="1" max="10000" prop:value=move || count.get()
                    aria-label=t(key::REPLICATION_PRODUCE_COUNT) data-testid="produce-count"
                    on:input=move |ev| count.set(event_target_value(&ev))/>
                <button type="submit" class="primary">{t(key::REPLICATION_PRODUCE)}</button>
            </form>
        </article>
    }
}

fn state_line(v: &ReplicaView) -> (&'static str, &'static str) {
    match (v.alive, v.paused, v.fenced) {
        (false, _, true) => (key::REPLICATION_BROKER_DOWN_FENCED, "down"),
        (false, _, false) => (key::REPLICATION_BROKER_DOWN, "down"),
        (true, true, _) => (key::REPLICATION_BROKER_PAUSED, "paused"),
        (true, false, true) => (key::REPLICATION_BROKER_FENCED, "fenced"),
        (true, false, false) => (key::REPLICATION_BROKER_RUNNING, "up"),
    }
}

/// Catalog key and css class of a role.
fn role_style(role: ReplicaRole) -> (&'static str, &'static str) {
    match role {
        ReplicaRole::Leader => (key::REPLICATION_ROLE_LEADER, "leader"),
        ReplicaRole::Follower => (key::REPLICATION_ROLE_FOLLOWER, "follower"),
        ReplicaRole::Unknown => (key::REPLICATION_ROLE_UNKNOWN, "unknown"),
    }
}

/// Role and epoch as the broker believes them (for a dead broker: what it believed last).
fn role_line(v: &ReplicaView) -> String {
    let line = format!(
        "{} · {}",
        t(role_style(v.role).0),
        tf(key::REPLICATION_BROKER_EPOCH, &[("epoch", &v.leader_epoch.to_string())])
    );
    if v.alive {
        line
    } else {
        tf(key::REPLICATION_BROKER_WAS, &[("role", &line)])
    }
}

fn broker_markup(v: &ReplicaView, parked: &PurgatoryView) -> Html {
    let mut out = html!("<p class=\"state\" data-testid=\"broker-{}-state\">{}</p>", v.broker, t(state_line(v).0));
    line(&mut out, "", &role_line(v));
    if v.in_isr {
        line(&mut out, "", t(key::REPLICATION_BROKER_IN_ISR));
    } else {
        line(&mut out, "out", t(key::REPLICATION_BROKER_OUT_ISR));
    }
    line(&mut out, "mono", &format!("LEO {} · HW {}", v.log_end_offset, v.high_watermark));
    let cache = v.epoch_cache.iter().map(|(e, o)| format!("{e}→{o}")).collect::<Vec<_>>().join(" ");
    html!(
        out,
        "<p class=\"mono small\" title=\"{}\">{} {}</p>",
        t(key::REPLICATION_BROKER_CHECKPOINT_HINT),
        t(key::REPLICATION_BROKER_CHECKPOINT),
        if cache.is_empty() { "—".into() } else { cache }
    );
    if v.slow_fetch_delay_ms > 0 {
        line(&mut out, "note", &tf(key::REPLICATION_BROKER_SLOW, &[("ms", &v.slow_fetch_delay_ms.to_string())]));
    }
    if !parked.parked_fetches.is_empty() {
        line(&mut out, "note", &tf(key::REPLICATION_BROKER_PARKED, &[("followers", &names(&parked.parked_fetches))]));
    }
    if parked.waiting_produces > 0 {
        let count = parked.waiting_produces.to_string();
        line(&mut out, "note", &tf(key::REPLICATION_BROKER_WAITING_PRODUCES, &[("count", &count)]));
    }
    out
}

/// One broker's view and its purgatories (`None` once it is gone).
fn broker_now((views, parked): &CardData, id: u32) -> Option<(ReplicaView, PurgatoryView)> {
    let view = views.iter().find(|v| v.broker == id)?.clone();
    let parked = parked.iter().find(|p| p.broker == id).cloned().unwrap_or_default();
    Some((view, parked))
}

#[component]
fn BrokerCard(id: u32, cluster: Memo<CardData>, session: Session<Replication>) -> impl IntoView {
    let now = Memo::new(move |_| cluster.with(|c| broker_now(c, id)));
    let class = move || {
        now.with(|n| match n {
            Some((v, _)) => format!("node-card broker {} role-{}", state_line(v).1, role_style(v.role).1),
            None => "node-card broker".to_string(),
        })
    };
    let markup = Signal::derive(move || now.with(|n| n.as_ref().map(|(v, p)| broker_markup(v, p)).unwrap_or_default()));
    // The buttons change only when the broker dies or restarts, or is slowed or not.
    let controls = Memo::new(move |_| now.with(|n| n.as_ref().map(|(v, _)| (v.alive, v.slow_fetch_delay_ms > 0))));
    view! {
        <article class=class data-testid=format!("broker-{id}")>
            <h3>{broker_name(id)}</h3>
            <Markup html=markup/>
            {move || controls.get().map(|(alive, slowed)| broker_actions(id, alive, slowed, session))}
        </article>
    }
}

fn broker_actions(id: u32, alive: bool, slowed: bool, session: Session<Replication>) -> AnyView {
    let name = broker_name(id);
    let args = [("broker", name.as_str())];
    let node = Node::Id(id);
    if !alive {
        let label = tf(key::REPLICATION_ACTION_RESTART, &args);
        let restart = move |_| session.command(Command::Fault(Fault::Restart(node)));
        return view! { <div class="actions"><button class="primary" on:click=restart>{label}</button></div> }
            .into_any();
    }
    let delay_ms = if slowed { 0 } else { SLOW_MS };
    let slow_key = if slowed { key::REPLICATION_ACTION_UNSLOW } else { key::REPLICATION_ACTION_SLOW };
    let buttons: [(&'static str, &'static str, &'static str, Fault); 4] = [
        (key::REPLICATION_ACTION_KILL, key::REPLICATION_ACTION_KILL_HINT, "danger", Fault::Crash(node)),
        (key::REPLICATION_ACTION_POWERFAIL, key::REPLICATION_ACTION_POWERFAIL_HINT, "danger", Fault::PowerFail(node)),
        (
            key::REPLICATION_ACTION_PAUSE,
            key::REPLICATION_ACTION_PAUSE_HINT,
            "",
            Fault::Pause { node, duration_ms: Some(PAUSE_MS) },
        ),
        (slow_key, key::REPLICATION_ACTION_SLOW_HINT, "", Fault::Slow { node, delay_ms }),
    ];
    let buttons = buttons
        .into_iter()
        .map(|(key, hint, class, fault)| {
            let label = tf(key, &args);
            view! { <button class=class title=t(hint) on:click=move |_| session.command(Command::Fault(fault))>{label}</button> }
        })
        .collect_view();
    view! { <div class="actions">{buttons}</div> }.into_any()
}

fn controller_markup(w: &Replication) -> Html {
    let c = w.controller_view();
    let mut out = Html::new();
    let leader = match c.leader {
        Some(l) => tf(key::REPLICATION_CONTROLLER_LEADER, &[("leader", &broker_name(l))]),
        None => t(key::REPLICATION_CONTROLLER_NO_LEADER).to_string(),
    };
    line(&mut out, "", &leader);
    line(&mut out, "", &tf(key::REPLICATION_CONTROLLER_EPOCH, &[("epoch", &c.leader_epoch.to_string())]));
    line(&mut out, "mono", &format!("Isr: {}", join(&c.isr)));
    line(&mut out, "", &tf(key::REPLICATION_CONTROLLER_FENCED, &[("brokers", &join(&c.fenced))]));
    line(&mut out, "mono small", &format!("unclean.leader.election.enable={}", c.unclean_leader_election));
    out
}

#[component]
fn ControllerCard(session: Session<Replication>) -> impl IntoView {
    let unclean = Memo::new(move |_| session.with(|run| run.world().controller_view().unclean_leader_election));
    let markup = Signal::derive(move || session.with(|run| controller_markup(run.world())));
    view! {
        <article class="node-card controller" data-testid="controller">
            <h3>{node_name(Node::Controller)}</h3>
            <Markup html=markup/>
            <button on:click=move |_| session.command(Command::SetUncleanElection(!unclean.get_untracked())) title=t(key::REPLICATION_UNCLEAN_HINT) data-testid="unclean-toggle">
                {move || if unclean.get() { t(key::REPLICATION_UNCLEAN_OFF) } else { t(key::REPLICATION_UNCLEAN_ON) }}
            </button>
        </article>
    }
}
