//! The live purgatory (lab.purgatory=true): leader and followers with LEO/HW, the waiting
//! DelayedProduce requests with their timer task's place in the wheel, and the faults.

use leptos::prelude::*;

use super::html::row;
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::kernel::{Fault, Node};
use crate::model::timer::{Command, PurgatoryView, ReplicaView, TimerLab, WaitingProduceView};
use crate::ui::keyed::keyed_rows;
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

#[component]
pub fn PurgatoryPanel(session: Session<TimerLab>) -> impl IntoView {
    let view_of = move || session.with(|run| run.world().purgatory());
    let settings = move || {
        session.with(|run| {
            let s = run.world().settings();
            tf(
                key::TIMER_BROKER_SETTINGS,
                &[
                    ("acks", s.acks.kafka_value()),
                    ("timeout", &s.request_timeout_ms.to_string()),
                    ("lag", &s.replica_lag_time_max_ms.to_string()),
                    ("session", &s.broker_session_timeout_ms.to_string()),
                    ("wait", &s.replica_fetch_wait_max_ms.to_string()),
                ],
            )
        })
    };
    view! {
        <section class="purgatory" aria-labelledby="timer-broker-title">
            <h2 id="timer-broker-title">{t(key::TIMER_BROKER_DETAILS)}</h2>
            <p class="legend">{t(key::TIMER_BROKER_INTRO)}</p>
            <p class="config-line num">{settings}</p>
            <Markup host=Host::Dl class="stats" testid="purgatory-stats" html=Signal::derive(move || view_of().map(|p| stats(&p)).unwrap_or_default())/>
            <button class="primary" on:click=move |_| session.command(Command::Produce { records: 1 })>{t(key::TIMER_BROKER_PRODUCE)}</button>
            <ReplicaTable session=session/>
            <WaitingProduces session=session/>
        </section>
    }
}

/// The purgatory's numbers as `<dt>`/`<dd>` pairs.
fn stats(p: &PurgatoryView) -> Html {
    let figures = [
        (key::TIMER_BROKER_LEO, "leo", p.log_end_offset.to_string()),
        (key::TIMER_BROKER_HW, "hw", p.high_watermark.to_string()),
        (key::TIMER_BROKER_ISR, "isr", join(&p.isr)),
        (key::TIMER_BROKER_COMPLETED, "completed", p.completed_produces.to_string()),
        (key::TIMER_BROKER_EXPIRED, "expired", p.expired_produces.to_string()),
        (key::TIMER_BROKER_CONSUMER, "consumer", p.consumer_offset.to_string()),
    ];
    figures
        .iter()
        .map(|(key, testid, value)| {
            html!(
                r#"<div class="figure"><dt>{}</dt><dd class="num" data-testid="{}">{}</dd></div>"#,
                t(key),
                testid,
                value
            )
        })
        .collect()
}

use crate::model::join_ids as join;

/// "level 1 bucket 17" of a pending task, or a dash.
pub(super) fn place(session: Session<TimerLab>, task: u64) -> String {
    session.with(|run| match run.world().timer().location(task) {
        Some((level, bucket)) => {
            tf(key::TIMER_LOCATION, &[("level", &level.to_string()), ("bucket", &bucket.to_string())])
        }
        None => "–".to_string(),
    })
}

#[component]
fn ReplicaTable(session: Session<TimerLab>) -> impl IntoView {
    let replicas =
        Memo::new(move |_| session.with(|run| run.world().purgatory().map(|p| p.replicas).unwrap_or_default()));
    view! {
        <table class="replicas" data-testid="replicas">
            <thead><tr>
                <th scope="col">{t(key::TIMER_BROKER_REPLICA)}</th>
                <th scope="col">{t(key::TIMER_BROKER_STATE)}</th>
                <th scope="col">{t(key::TIMER_BROKER_IN_ISR)}</th>
                <th scope="col" class="num">"LEO"</th>
                <th scope="col">{t(key::TIMER_BROKER_FETCH)}</th>
                <th scope="col">{t(key::TIMER_BROKER_FAULTS)}</th>
            </tr></thead>
            <tbody>
                {keyed_rows(
                    move || replicas.with(|all| all.iter().map(|r| u64::from(r.broker)).collect()),
                    move |broker| {
                        let leader = replicas.with_untracked(|all| all.iter().find(|r| u64::from(r.broker) == broker).map(|r| r.leader));
                        replica_row(session, broker as u32, leader.unwrap_or_default(), replicas).into_any()
                    },
                )}
            </tbody>
        </table>
    }
}

/// Symbol, css class and catalog key of a replica's state.
pub(super) fn state_of(r: &ReplicaView) -> (&'static str, &'static str, &'static str) {
    match (r.leader, r.alive, r.fetching, r.fenced) {
        (true, ..) => ("★", "leader", key::TIMER_STATE_LEADER),
        (false, true, true, _) => ("✓", "ok", key::TIMER_STATE_FETCHING),
        (false, true, false, _) => ("‖", "bad", key::TIMER_STATE_STALLED),
        (false, false, _, false) => ("✗", "bad", key::TIMER_STATE_CRASHED),
        (false, false, _, true) => ("✗", "bad", key::TIMER_STATE_FENCED),
    }
}

/// Symbol, css class and catalog key of a replica's ISR membership.
pub(super) fn isr_of(r: &ReplicaView) -> (&'static str, &'static str, &'static str) {
    if r.in_isr {
        ("✓", "ok", key::TIMER_YES)
    } else {
        ("✗", "bad", key::TIMER_NO)
    }
}

/// One replica, kept by broker id (its fault buttons keep focus); its cells follow the model.
fn replica_row(session: Session<TimerLab>, id: u32, leader: bool, replicas: Memo<Vec<ReplicaView>>) -> impl IntoView {
    let read = move |f: fn(&ReplicaView) -> (&'static str, &'static str, &'static str)| {
        replicas.with(|all| all.iter().find(|r| r.broker == id).map(f)).unwrap_or(("", "", key::TIMER_NO))
    };
    let fetching = move || replicas.with(|all| all.iter().any(|r| r.broker == id && r.fetching));
    let alive = move || replicas.with(|all| all.iter().any(|r| r.broker == id && r.alive));
    let leo = move || replicas.with(|all| all.iter().find(|r| r.broker == id).map(|r| r.log_end_offset));
    let fetch = move || {
        let parked = replicas.with(|all| all.iter().find(|r| r.broker == id).and_then(|r| r.parked_fetch_task));
        parked.map_or_else(
            || "–".to_string(),
            |task| tf(key::TIMER_BROKER_PARKED, &[("task", &task.to_string()), ("place", &place(session, task))]),
        )
    };
    let name = move |key: &'static str| tf(key, &[("id", &id.to_string())]);
    let node = Node::Id(id);
    let faults = (!leader).then(|| {
        view! {
            <button disabled=move || !fetching() on:click=move |_| session.command(Command::Fault(Fault::Pause { node, duration_ms: None }))>{name(key::TIMER_BROKER_STALL)}</button>
            <button class="danger" disabled=move || !alive() on:click=move |_| session.command(Command::Fault(Fault::Crash(node)))>{name(key::TIMER_BROKER_KILL)}</button>
            <button disabled=fetching on:click=move |_| session.command(Command::Fault(Fault::Restart(node)))>{name(key::TIMER_BROKER_RESTART)}</button>
        }
    });
    view! {
        <tr data-testid=format!("replica-{id}")>
            <th scope="row">{format!("broker-{id}")}</th>
            <td class=move || format!("state {}", read(state_of).1)><span aria-hidden="true">{move || read(state_of).0}</span>" "{move || t(read(state_of).2)}</td>
            <td class=move || format!("state {}", read(isr_of).1)><span aria-hidden="true">{move || read(isr_of).0}</span>" "{move || t(read(isr_of).2)}</td>
            <td class="num">{leo}</td>
            <td class="num">{fetch}</td>
            <td class="faults">{faults}</td>
        </tr>
    }
}

#[component]
fn WaitingProduces(session: Session<TimerLab>) -> impl IntoView {
    let waiting = move || session.with(|run| run.world().purgatory().map(|p| p.waiting_produces).unwrap_or_default());
    view! {
        <h3>{t(key::TIMER_BROKER_WAITING)}</h3>
        <table class="waiting" data-testid="waiting-produces">
            <thead><tr>
                <th scope="col">{t(key::TIMER_BROKER_REQUEST)}</th>
                <th scope="col">{t(key::TIMER_BROKER_UNTIL)}</th>
                <th scope="col">{t(key::TIMER_BROKER_TASK)}</th>
                <th scope="col">{t(key::TIMER_PENDING_LOCATION)}</th>
                <th scope="col">{t(key::TIMER_BROKER_EXPIRES)}</th>
            </tr></thead>
            <Markup host=Host::Tbody html=Signal::derive(move || waiting_rows(session, waiting()))/>
        </table>
    }
}

/// The waiting produces as table rows, each with its timer task's place and expiry.
fn waiting_rows(session: Session<TimerLab>, rows: Vec<WaitingProduceView>) -> Html {
    if rows.is_empty() {
        return html!(r#"<tr><td colspan="5" class="muted">{}</td></tr>"#, t(key::TIMER_BROKER_NONE));
    }
    let expiry = |task: u64| session.with(|run| run.world().timer().expiration_of(task));
    let mut out = Html::new();
    for WaitingProduceView { request, required_offset, task } in rows {
        let cells = [
            ("num", format!("HW ≥ {required_offset}")),
            ("num", format!("#{task}")),
            ("num", place(session, task)),
            ("num", expiry(task).map_or("–".to_string(), |ms| format!("{ms} ms"))),
        ];
        row(&mut out, &format!("produce-{request}"), &format!("#{request}"), &cells);
    }
    out
}
