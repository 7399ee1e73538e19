//! One card per node between the wire's lanes: the producer (acks, requests, its last
//! callback, a produce form), each broker (the controller's view of it, its process state,
//! its own belief when that differs, faults to inject) and the controller (leader, epoch,
//! ISR, unclean election). LEO and HW are in the replica logs below; what a broker does to
//! the traffic (slowed, parked fetches, waiting produces) is said under the cards.
//! What a card says is markup; the cards and their controls are keyed views, so a
//! focused button survives the run moving on.

use leptos::prelude::*;

use super::{broker_name, node_name};
use crate::html;
use crate::i18n::{key, render, t, tf};
use crate::markup::Html;
use crate::model::kernel::{Actor, Describe};
use crate::model::replication::{Acks, Command, Fault, Node, PurgatoryView, ReplicaRole, ReplicaView, Replication};
use crate::ui::keyed::keyed_rows;
use crate::ui::markup::PatchedMarkup;
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

/// Every replica's view and the controller's leader and epoch, computed once per change
/// for all cards.
#[derive(Clone, Debug, PartialEq)]
struct CardData {
    views: Vec<ReplicaView>,
    leader: Option<u32>,
    epoch: i32,
}

fn card_data(w: &Replication) -> CardData {
    let p = w.partition();
    CardData { views: w.replica_states(), leader: p.leader(), epoch: p.leader_epoch() }
}

#[component]
pub fn NodeCards(session: Session<Replication>) -> impl IntoView {
    let cluster: Memo<CardData> = Memo::new(move |_| session.with(|run| card_data(run.world())));
    let ids = Memo::new(move |_: Option<&Vec<u32>>| cluster.with(|c| c.views.iter().map(|v| v.broker).collect()));
    view! {
        <div class="node-cards">
            <ProducerCard session=session/>
            {keyed_rows(
                move || ids.with(|ids| ids.iter().map(|&id| u64::from(id)).collect()),
                move |id| view! { <BrokerCard id=id as u32 cluster=cluster session=session/> }.into_any(),
            )}
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
    if p.waiting_for_leader > 0 {
        line(&mut out, "", &tf(key::REPLICATION_PRODUCER_WAITING, &[("count", &p.waiting_for_leader.to_string())]));
    }
    out
}

/// The producer's latest line in the event log: the last callback or error (said under the
/// cards, so it is there in embeds too).
fn producer_last(run: &crate::model::scene::Run<Replication>) -> Option<String> {
    let last = run.sim().log().iter().rev().find(|e| e.actor == Actor::Producer)?;
    Some(format!("{} {}", t(key::REPLICATION_PRODUCER_LAST), render(&last.fact.message())))
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
            <PatchedMarkup html=markup/>
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

/// The controller's view of a broker: leader (with the epoch), follower in the ISR, or out.
fn controller_says(v: &ReplicaView, c: &CardData) -> (String, &'static str) {
    if c.leader == Some(v.broker) {
        (tf(key::REPLICATION_NODE_LEADER, &[("epoch", &c.epoch.to_string())]), "isr-leader")
    } else if v.in_isr {
        (t(key::REPLICATION_NODE_IN_ISR).to_string(), "isr-in")
    } else {
        (t(key::REPLICATION_NODE_OUT_OF_ISR).to_string(), "isr-out")
    }
}

/// Role and epoch as a live broker believes them, when that is not what the controller says
/// (a broker that agrees, or is down, says nothing more).
fn belief_line(v: &ReplicaView, c: &CardData) -> Option<String> {
    let leads = c.leader == Some(v.broker);
    let agrees = v.leader_epoch == c.epoch
        && match v.role {
            ReplicaRole::Leader => leads,
            ReplicaRole::Follower => !leads,
            ReplicaRole::Unknown => false,
        };
    if !v.alive || agrees {
        return None;
    }
    Some(format!(
        "{} · {}",
        t(role_style(v.role).0),
        tf(key::REPLICATION_BROKER_EPOCH, &[("epoch", &v.leader_epoch.to_string())])
    ))
}

fn broker_markup(v: &ReplicaView, c: &CardData) -> Html {
    let (says, class) = controller_says(v, c);
    let mut out = html!("<p class=\"says {}\">{}</p>", class, says);
    html!(out, "<p class=\"state\" data-testid=\"broker-{}-state\">{}</p>", v.broker, t(state_line(v).0));
    if let Some(belief) = belief_line(v, c) {
        line(&mut out, "belief", &belief);
    }
    out
}

/// What a broker is doing to the traffic: slowed, holding parked fetches, holding produce
/// requests (said under the cards, where a sentence has the width it needs).
fn broker_notes(v: &ReplicaView, parked: &PurgatoryView) -> Vec<String> {
    let mut notes = Vec::new();
    if v.slow_fetch_delay_ms > 0 {
        notes.push(tf(key::REPLICATION_BROKER_SLOW, &[("ms", &v.slow_fetch_delay_ms.to_string())]));
    }
    if !parked.parked_fetches.is_empty() {
        notes.push(tf(key::REPLICATION_BROKER_PARKED, &[("followers", &names(&parked.parked_fetches))]));
    }
    if parked.waiting_produces > 0 {
        let count = parked.waiting_produces.to_string();
        notes.push(tf(key::REPLICATION_BROKER_WAITING_PRODUCES, &[("count", &count)]));
    }
    notes
}

fn notes_markup(run: &crate::model::scene::Run<Replication>) -> Html {
    let w = run.world();
    let parked = w.purgatory_views();
    let mut items = Html::new();
    if w.controller_view().leader.is_none() {
        let (who, what) = (node_name(Node::Controller), t(key::REPLICATION_CONTROLLER_NO_LEADER));
        html!(items, "<li class=\"offline\"><strong>{}</strong> {}</li>", who, what);
    }
    if let Some(last) = producer_last(run) {
        html!(items, "<li><strong>{}</strong> {}</li>", node_name(Node::Producer), last);
    }
    let brokers: Html = w
        .replica_states()
        .iter()
        .flat_map(|v| {
            let p = parked.iter().find(|p| p.broker == v.broker).cloned().unwrap_or_default();
            broker_notes(v, &p)
                .into_iter()
                .map(|note| html!("<li><strong>{}</strong> {}</li>", broker_name(v.broker), note))
        })
        .collect();
    items.push(&brokers);
    if items.is_empty() {
        return items;
    }
    html!("<ul>{}</ul>", items)
}

/// An offline partition, the producer's last callback and the brokers' notes, under the cards.
#[component]
pub fn NodeNotes(session: Session<Replication>) -> impl IntoView {
    let markup = Signal::derive(move || session.with(notes_markup));
    view! { <PatchedMarkup class="node-notes" testid="broker-notes" html=markup/> }
}

/// One broker's view and the controller's (`None` once it is gone).
fn broker_now(c: &CardData, id: u32) -> Option<(ReplicaView, CardData)> {
    let view = c.views.iter().find(|v| v.broker == id)?.clone();
    Some((view, CardData { views: Vec::new(), ..c.clone() }))
}

#[component]
fn BrokerCard(id: u32, cluster: Memo<CardData>, session: Session<Replication>) -> impl IntoView {
    let now = Memo::new(move |_| cluster.with(|c| broker_now(c, id)));
    let class = move || {
        now.with(|n| match n {
            Some((v, c)) => format!(
                "node-card broker {} role-{} {}",
                state_line(v).1,
                role_style(v.role).1,
                controller_says(v, c).1
            ),
            None => "node-card broker".to_string(),
        })
    };
    let markup = Signal::derive(move || now.with(|n| n.as_ref().map(|(v, c)| broker_markup(v, c)).unwrap_or_default()));
    // The buttons change only when the broker dies or restarts, or is slowed or not.
    let controls = Memo::new(move |_| now.with(|n| n.as_ref().map(|(v, ..)| (v.alive, v.slow_fetch_delay_ms > 0))));
    view! {
        <article class=class data-testid=format!("broker-{id}")>
            <h3>{broker_name(id)}</h3>
            <PatchedMarkup html=markup/>
            {move || controls.get().map(|(alive, slowed)| broker_actions(id, alive, slowed, session))}
        </article>
    }
}

/// A fault button: a short visible verb, the broker's name for screen readers (so its name
/// reads `Kill broker-2`), the fault's consequence as its tooltip.
fn fault_button(
    verb: &'static str,
    hint: &'static str,
    class: &'static str,
    name: &str,
    run: impl Fn() + 'static,
) -> AnyView {
    let name = format!(" {name}");
    view! {
        <button class=class title=t(hint) on:click=move |_| run()>{t(verb)}<span class="sr-only">{name}</span></button>
    }
    .into_any()
}

fn broker_actions(id: u32, alive: bool, slowed: bool, session: Session<Replication>) -> AnyView {
    let name = broker_name(id);
    let node = Node::Id(id);
    if !alive {
        let label = tf(key::REPLICATION_ACTION_RESTART, &[("broker", name.as_str())]);
        let restart = move |_| session.command(Command::Fault(Fault::Restart(node)));
        return view! { <div class="actions"><button class="primary" on:click=restart>{label}</button></div> }
            .into_any();
    }
    let delay_ms = if slowed { 0 } else { SLOW_MS };
    let slow_key = if slowed { key::REPLICATION_ACTION_UNSLOW_SHORT } else { key::REPLICATION_ACTION_SLOW_SHORT };
    let buttons: [(&'static str, &'static str, &'static str, Fault); 4] = [
        (key::REPLICATION_ACTION_KILL_SHORT, key::REPLICATION_ACTION_KILL_HINT, "danger", Fault::Crash(node)),
        (
            key::REPLICATION_ACTION_POWERFAIL_SHORT,
            key::REPLICATION_ACTION_POWERFAIL_HINT,
            "danger",
            Fault::PowerFail(node),
        ),
        (
            key::REPLICATION_ACTION_PAUSE_SHORT,
            key::REPLICATION_ACTION_PAUSE_HINT,
            "",
            Fault::Pause { node, duration_ms: Some(PAUSE_MS) },
        ),
        (slow_key, key::REPLICATION_ACTION_SLOW_HINT, "", Fault::Slow { node, delay_ms }),
    ];
    let buttons = buttons
        .into_iter()
        .map(|(verb, hint, class, fault)| {
            fault_button(verb, hint, class, &name, move || session.command(Command::Fault(fault)))
        })
        .collect_view();
    view! { <div class="actions">{buttons}</div> }.into_any()
}

/// The controller's partition record: the leader is starred on its card (an offline partition
/// is said under the cards), so here the ISR and the fenced brokers, if any.
fn controller_markup(w: &Replication) -> Html {
    let c = w.controller_view();
    let mut out = Html::new();
    line(&mut out, "mono", &format!("Isr: {}", join(&c.isr)));
    if !c.fenced.is_empty() {
        line(&mut out, "", &tf(key::REPLICATION_CONTROLLER_FENCED, &[("brokers", &join(&c.fenced))]));
    }
    out
}

#[component]
fn ControllerCard(session: Session<Replication>) -> impl IntoView {
    let unclean = Memo::new(move |_| session.with(|run| run.world().controller_view().unclean_leader_election));
    let markup = Signal::derive(move || session.with(|run| controller_markup(run.world())));
    view! {
        <article class="node-card controller" data-testid="controller">
            <h3>{node_name(Node::Controller)}</h3>
            <PatchedMarkup html=markup/>
            // The property and its value as one checkbox; its name breaks at its dots in a narrow card.
            <label class="unclean" title=t(key::REPLICATION_UNCLEAN_HINT)>
                <input type="checkbox" data-testid="unclean-toggle" prop:checked=move || unclean.get()
                    on:change=move |_| session.command(Command::SetUncleanElection(!unclean.get_untracked()))/>
                "unclean."<wbr/>"leader."<wbr/>"election."<wbr/>"enable"
            </label>
            <button data-testid="elect-unclean" title=t(key::REPLICATION_ELECT_UNCLEAN_HINT)
                on:click=move |_| session.command(Command::ElectUncleanLeader)>{t(key::REPLICATION_ELECT_UNCLEAN)}</button>
        </article>
    }
}
