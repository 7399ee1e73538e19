//! The members (click one to act on it) and the group-wide faults: add members, poison a
//! partition, add partitions. Every button sends one scene command (it lands in the link).
//! Cards are keyed by member index, so a card (and the focus on it) survives every redraw.

use leptos::prelude::*;

use super::member_name;
use crate::i18n::{key, t, tf};
use crate::model::group::{ClientPhase, Command, GroupLab, MemberView, TOPIC};
use crate::model::kernel::{Fault, Node};
use crate::ui::session::Session;

/// What a member card shows: a member view without its lane, so it changes only when the card does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Card {
    pub index: u32,
    pub alive: bool,
    pub paused: bool,
    pub is_leader: bool,
    pub generation: i32,
    pub phase: Option<ClientPhase>,
    pub assigned: Vec<u32>,
    pub ms_per_record: u64,
    pub client_id: String,
    pub instance_id: Option<String>,
}

impl From<MemberView> for Card {
    fn from(m: MemberView) -> Self {
        Self {
            index: m.index,
            alive: m.alive,
            paused: m.paused,
            is_leader: m.is_leader,
            generation: m.generation,
            phase: Some(m.phase),
            assigned: m.assigned,
            ms_per_record: m.ms_per_record,
            client_id: m.client_id,
            instance_id: m.instance_id,
        }
    }
}

fn partitions_text(card: &Card) -> String {
    if !card.alive {
        "-".to_string()
    } else if card.assigned.is_empty() {
        t(key::GROUPS_MEMBER_IDLE).to_string()
    } else {
        card.assigned.iter().map(|p| format!("{TOPIC}-{p}")).collect::<Vec<_>>().join(", ")
    }
}

/// Symbol and text of what the member is doing now.
fn status(card: &Card) -> (&'static str, String) {
    match card.phase {
        _ if !card.alive => ("✕", t(key::GROUPS_MEMBER_DOWN).to_string()),
        _ if card.paused => ("❚❚", t(key::GROUPS_MEMBER_PAUSED).to_string()),
        Some(ClientPhase::Stable) => (
            if card.assigned.is_empty() { "○" } else { "▶" },
            tf(key::GROUPS_MEMBER_STABLE, &[("generation", &card.generation.to_string())]),
        ),
        Some(phase) => ("⟳", phase.name().to_string()),
        None => ("", String::new()),
    }
}

fn title(card: &Card, name: &str) -> String {
    if card.is_leader {
        format!("{name} ★")
    } else {
        name.to_string()
    }
}

/// What the member is doing, what it holds and who it is (the details beside its actions).
fn details(card: &Card) -> String {
    let id = card.instance_id.as_ref().map(|i| format!("group.instance.id={i}")).unwrap_or(card.client_id.clone());
    let (symbol, status) = status(card);
    format!("{symbol} {status} · {} · {id} ·", partitions_text(card))
}

/// Partition numbers, runs of three or more as a range: `0,1` · `0–3` · `0,2,4`.
fn partition_numbers(parts: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let mut j = i;
        while j + 1 < parts.len() && parts[j + 1] == parts[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            out.push(format!("{}–{}", parts[i], parts[j]));
        } else {
            out.extend(parts[i..=j].iter().map(u32::to_string));
        }
        i = j + 1;
    }
    out.join(",")
}

/// A lane label's short status: what it holds (`orders-0,1`), `-` when idle, or why it holds nothing.
fn lane_status(card: &Card) -> String {
    if !card.alive {
        t(key::GROUPS_MEMBER_DOWN).to_string()
    } else if card.paused {
        t(key::GROUPS_MEMBER_PAUSED).to_string()
    } else if card.assigned.is_empty() {
        "-".to_string()
    } else {
        format!("{TOPIC}-{}", partition_numbers(&card.assigned))
    }
}

/// A member's lane label: a button (pick it to act on the member), keyed by index so focus survives.
fn lane_label(index: u32, card: Memo<Card>, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let name = member_name(index);
    view! {
        <li>
            <button class="member" class:down=move || !card.with(|c| c.alive)
                class:idle=move || card.with(|c| c.alive && c.assigned.is_empty())
                aria-pressed=move || (selected.get() == Some(index)).to_string()
                data-testid=format!("member-C{index}")
                on:click=move |_| selected.update(|s| *s = if *s == Some(index) { None } else { Some(index) })>
                <strong>{name}</strong>
                <span class="star">{move || if card.with(|c| c.is_leader) { "★" } else { "" }}</span>
                <span class="member-symbol" aria-hidden="true">{move || card.with(|c| status(c).0)}</span>
                <span class="member-parts">{move || card.with(lane_status)}</span>
            </button>
        </li>
    }
}

/// The members' cards, one a second (every redraw of the lanes reads them from here).
pub fn cards(session: Session<GroupLab>) -> Memo<Vec<Card>> {
    Memo::new(move |_| {
        session.with(|run| run.world().member_views(run.sim().now_ms()).into_iter().map(Card::from).collect::<Vec<_>>())
    })
}

fn card_of(cards: Memo<Vec<Card>>, index: u32) -> Memo<Card> {
    Memo::new(move |_| cards.with(|all| all.get((index - 1) as usize).cloned().unwrap_or_default()))
}

/// The lanes' labels beside the drawing: the axis row, the coordinator's row, then one
/// button per member (its name, ★ for the leader, what it holds).
#[component]
pub fn LaneLabels(cards: Memo<Vec<Card>>, selected: RwSignal<Option<u32>>) -> impl IntoView {
    view! {
        <ul class="lane-labels">
            <li class="axis-row" aria-hidden="true"></li>
            <li class="group-row">{t(key::GROUPS_LANE_COORDINATOR)}</li>
            <For each=move || 1..=cards.with(|all| all.len() as u32) key=|index| *index
                children=move |index| lane_label(index, card_of(cards, index), selected)/>
        </ul>
    }
}

/// Under the lanes: the picked member's details and actions, or how to pick one.
#[component]
pub fn MemberFoot(
    session: Session<GroupLab>,
    cards: Memo<Vec<Card>>,
    selected: RwSignal<Option<u32>>,
) -> impl IntoView {
    // The actions panel is rebuilt only when another member is picked or it goes up or down.
    let picked = Memo::new(move |_| {
        let index = selected.get()?;
        cards.with(|all| all.get(index.checked_sub(1)? as usize).map(|c| (index, c.alive)))
    });
    view! {
        {move || match picked.get() {
            Some((index, alive)) => view! { <MemberActions session=session index=index alive=alive card=card_of(cards, index)/> }.into_any(),
            None => view! {
                <p class="lanes-hint">
                    <span class="muted">{t(key::GROUPS_MEMBERS_TITLE)}</span>
                    <button class="link" on:click=|_| show_group_actions()>{t(key::GROUPS_FAULTS)}" ↓"</button>
                </p>
            }.into_any(),
        }}
    }
}

/// Scrolls to the group's actions in the panels (add a member or a partition, a poison pill).
fn show_group_actions() {
    let Some(section) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("group-actions"))
    else {
        return;
    };
    section.scroll_into_view();
    if let Some(first) = section.query_selector("button").ok().flatten() {
        use wasm_bindgen::JsCast;
        if let Ok(button) = first.dyn_into::<web_sys::HtmlElement>() {
            let _ = button.focus();
        }
    }
}

fn number(signal: RwSignal<String>) -> Option<u64> {
    signal.get_untracked().trim().parse().ok()
}

fn fault(session: Session<GroupLab>, fault: Fault) {
    session.command(Command::Fault(fault));
}

#[component]
fn MemberActions(session: Session<GroupLab>, index: u32, alive: bool, card: Memo<Card>) -> impl IntoView {
    let name = member_name(index);
    let node = Node::Id(index);
    let pause_ms = RwSignal::new("60000".to_string());
    let slow_ms = RwSignal::new((card.get_untracked().ms_per_record.max(1) * 10).to_string());
    let with_name = |key: &'static str| tf(key, &[("member", &name)]);
    let actions = if alive {
        view! {
            <button class="danger" on:click=move |_| fault(session, Fault::Crash(node))>{with_name(key::GROUPS_ACTION_KILL)}</button>
            <button on:click=move |_| session.command(Command::Close(index))>{with_name(key::GROUPS_ACTION_CLOSE)}</button>
            <form class="inline" on:submit=move |ev| {
                ev.prevent_default();
                if let Some(ms) = number(pause_ms) { fault(session, Fault::Pause { node, duration_ms: Some(ms) }) }
            }>
                <label>{t(key::GROUPS_ACTION_PAUSE_MS)}
                    <input type="number" min="1" max="3600000" step="1000" prop:value=pause_ms on:input=move |ev| pause_ms.set(event_target_value(&ev))/>
                </label>
                <button type="submit">{with_name(key::GROUPS_ACTION_PAUSE)}</button>
            </form>
            <form class="inline" on:submit=move |ev| {
                ev.prevent_default();
                if let Some(delay_ms) = number(slow_ms) { fault(session, Fault::Slow { node, delay_ms }) }
            }>
                <label>{t(key::GROUPS_ACTION_SLOW_MS)}
                    <input type="number" min="0" max="600000" prop:value=slow_ms on:input=move |ev| slow_ms.set(event_target_value(&ev))/>
                </label>
                <button type="submit">{with_name(key::GROUPS_ACTION_SLOW)}</button>
            </form>
        }
        .into_any()
    } else {
        view! { <button class="primary" on:click=move |_| fault(session, Fault::Restart(node))>{with_name(key::GROUPS_ACTION_RESTART)}</button> }.into_any()
    };
    let (about_name, title_name) = (name.clone(), name.clone());
    let about = move || {
        tf(key::GROUPS_ACTIONS_ABOUT, &[("member", &about_name), ("ms", &card.with(|c| c.ms_per_record).to_string())])
    };
    view! {
        <div class="member-actions" role="group" aria-label=with_name(key::GROUPS_ACTIONS_ARIA) data-testid="member-actions">
            <p class="member-details"><strong>{move || card.with(|c| title(c, &title_name))}</strong>" · "{move || card.with(details)}" "<span class="muted">{about}</span></p>
            <div class="action-row">{actions}</div>
        </div>
    }
}

#[component]
pub fn GroupActions(session: Session<GroupLab>) -> impl IntoView {
    let partitions = move || session.with(|run| run.world().log_end_offsets().len() as u32);
    let poison = RwSignal::new("0".to_string());
    view! {
        <section class="group-actions" id="group-actions" aria-labelledby="group-actions-title">
            <h2 id="group-actions-title">{t(key::GROUPS_FAULTS)}</h2>
            <div class="action-row">
                <button on:click=move |_| session.command(Command::AddMembers(1))>{t(key::GROUPS_ACTION_ADD)}</button>
                <button on:click=move |_| session.command(Command::GrowPartitions(partitions() + 1))>
                    {move || tf(key::GROUPS_ACTION_GROW, &[("count", &(partitions() + 1).to_string())])}
                </button>
            </div>
            <form class="inline" on:submit=move |ev| {
                ev.prevent_default();
                if let Ok(p) = poison.get_untracked().parse() { session.command(Command::Poison(p)) }
            }>
                <label>{t(key::GROUPS_ACTION_POISON_PARTITION)}
                    <select on:change=move |ev| poison.set(event_target_value(&ev))>
                        {move || (0..partitions()).map(|p| view! {
                            <option value=p.to_string() selected=move || poison.get() == p.to_string()>{format!("{TOPIC}-{p}")}</option>
                        }).collect_view()}
                    </select>
                </label>
                <button type="submit" class="danger">{t(key::GROUPS_ACTION_POISON)}</button>
            </form>
            <p class="muted">{t(key::GROUPS_FAULTS_HINT)}</p>
        </section>
    }
}
