//! The members (click one to act on it) and the group-wide faults: add members, poison a
//! partition, add partitions. Every button sends one scene command (it lands in the link).

use leptos::prelude::*;

use crate::i18n::{t, tf};
use crate::model::group::{Command, GroupLab, MemberView, TOPIC};
use crate::ui::session::Session;

fn partitions_text(assigned: &[u32]) -> String {
    if assigned.is_empty() {
        t("groups.member.idle").to_string()
    } else {
        assigned.iter().map(|p| format!("{TOPIC}-{p}")).collect::<Vec<_>>().join(", ")
    }
}

/// Symbol and text of what the member is doing now.
fn status(m: &MemberView) -> (&'static str, String) {
    if !m.alive {
        ("✕", t("groups.member.down").to_string())
    } else if m.paused {
        ("❚❚", t("groups.member.paused").to_string())
    } else if m.phase == "Stable" {
        (
            if m.assigned.is_empty() { "○" } else { "▶" },
            tf("groups.member.stable", &[("generation", &m.generation.to_string())]),
        )
    } else {
        ("⟳", m.phase.to_string())
    }
}

fn member_card(m: MemberView, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let index = m.index;
    let (symbol, state) = status(&m);
    let name = if m.is_leader { format!("{} ★", m.name) } else { m.name.clone() };
    let id_line =
        m.instance_id.clone().map(|i| format!("group.instance.id={i}")).unwrap_or_else(|| m.client_id.clone());
    view! {
        <li>
            <button class="member" class:down=!m.alive class:idle=m.alive && m.assigned.is_empty()
                aria-pressed=move || (selected.get() == Some(index)).to_string()
                data-testid=format!("member-{}", m.name)
                on:click=move |_| selected.update(|s| *s = if *s == Some(index) { None } else { Some(index) })>
                <strong>{name}</strong>
                <span class="member-state"><span aria-hidden="true">{symbol}" "</span>{state}</span>
                <span class="member-parts">{if m.alive { partitions_text(&m.assigned) } else { "-".to_string() }}</span>
                <span class="member-id">{id_line}</span>
            </button>
        </li>
    }
}

#[component]
pub fn MemberList(session: Session<GroupLab>, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let members = move || session.with(|run| run.world().member_views(run.sim().now_ms()));
    view! {
        <h3 class="members-title">{t("groups.members.title")}</h3>
        <ul class="member-list">
            {move || members().into_iter().map(|m| member_card(m, selected)).collect_view()}
        </ul>
        {move || selected.get().and_then(|index| {
            let member = members().into_iter().find(|m| m.index == index)?;
            Some(view! { <MemberActions session=session member=member/> })
        })}
    }
}

fn number(signal: RwSignal<String>) -> Option<u64> {
    signal.get_untracked().trim().parse().ok()
}

#[component]
fn MemberActions(session: Session<GroupLab>, member: MemberView) -> impl IntoView {
    let index = member.index;
    let name = member.name.clone();
    let pause_ms = RwSignal::new("60000".to_string());
    let slow_ms = RwSignal::new((member.ms_per_record.max(1) * 10).to_string());
    let with_name = |key: &'static str| tf(key, &[("member", &name)]);
    let actions = if member.alive {
        view! {
            <button class="danger" on:click=move |_| session.command(Command::Kill(index))>{with_name("groups.action.kill")}</button>
            <button on:click=move |_| session.command(Command::Close(index))>{with_name("groups.action.close")}</button>
            <form class="inline" on:submit=move |ev| {
                ev.prevent_default();
                if let Some(duration_ms) = number(pause_ms) { session.command(Command::Pause { member: index, duration_ms }) }
            }>
                <label>{t("groups.action.pause.ms")}
                    <input type="number" min="1" max="3600000" step="1000" prop:value=pause_ms on:input=move |ev| pause_ms.set(event_target_value(&ev))/>
                </label>
                <button type="submit">{with_name("groups.action.pause")}</button>
            </form>
            <form class="inline" on:submit=move |ev| {
                ev.prevent_default();
                if let Some(ms_per_record) = number(slow_ms) { session.command(Command::Slow { member: index, ms_per_record }) }
            }>
                <label>{t("groups.action.slow.ms")}
                    <input type="number" min="0" max="600000" prop:value=slow_ms on:input=move |ev| slow_ms.set(event_target_value(&ev))/>
                </label>
                <button type="submit">{with_name("groups.action.slow")}</button>
            </form>
        }
        .into_any()
    } else {
        view! { <button class="primary" on:click=move |_| session.command(Command::Restart(index))>{with_name("groups.action.restart")}</button> }.into_any()
    };
    view! {
        <div class="member-actions" role="group" aria-label=with_name("groups.actions.aria") data-testid="member-actions">
            <p class="muted">{tf("groups.actions.about", &[("member", &name), ("ms", &member.ms_per_record.to_string())])}</p>
            <div class="action-row">{actions}</div>
        </div>
    }
}

#[component]
pub fn GroupActions(session: Session<GroupLab>) -> impl IntoView {
    let partitions = move || session.with(|run| run.world().log_end_offsets().len() as u32);
    let poison = RwSignal::new("0".to_string());
    view! {
        <section class="group-actions" aria-labelledby="group-actions-title">
            <h2 id="group-actions-title">{t("groups.faults")}</h2>
            <div class="action-row">
                <button on:click=move |_| session.command(Command::AddMembers(1))>{t("groups.action.add")}</button>
                <button on:click=move |_| session.command(Command::GrowPartitions(partitions() + 1))>
                    {move || tf("groups.action.grow", &[("count", &(partitions() + 1).to_string())])}
                </button>
            </div>
            <form class="inline" on:submit=move |ev| {
                ev.prevent_default();
                if let Ok(p) = poison.get_untracked().parse() { session.command(Command::Poison(p)) }
            }>
                <label>{t("groups.action.poison.partition")}
                    <select on:change=move |ev| poison.set(event_target_value(&ev))>
                        {move || (0..partitions()).map(|p| view! {
                            <option value=p.to_string() selected=move || poison.get() == p.to_string()>{format!("{TOPIC}-{p}")}</option>
                        }).collect_view()}
                    </select>
                </label>
                <button type="submit" class="danger">{t("groups.action.poison")}</button>
            </form>
            <p class="muted">{t("groups.faults.hint")}</p>
        </section>
    }
}
