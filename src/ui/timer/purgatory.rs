//! The live purgatory (lab.purgatory=true): leader and followers with LEO/HW, the waiting
//! DelayedProduce requests with their timer task's place in the wheel, and the faults.

use leptos::prelude::*;

use super::html::row;
use crate::html;
use crate::i18n::{t, tf};
use crate::markup::Html;
use crate::model::kernel::{Fault, Node};
use crate::model::timer::{Command, PurgatoryView, ReplicaView, TimerLab, WaitingProduceView};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

#[component]
pub fn PurgatoryPanel(session: Session<TimerLab>) -> impl IntoView {
    let view_of = move || session.with(|run| run.world().purgatory());
    let settings = move || {
        session.with(|run| {
            let s = run.world().settings();
            tf(
                "timer.broker.settings",
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
            <h2 id="timer-broker-title">{t("timer.broker")}</h2>
            <p class="legend">{t("timer.broker.intro")}</p>
            <p class="config-line num">{settings}</p>
            <Markup host=Host::Dl class="stats" testid="purgatory-stats" html=Signal::derive(move || view_of().map(|p| stats(&p)).unwrap_or_default())/>
            <button class="primary" on:click=move |_| session.command(Command::Produce { records: 1 })>{t("timer.broker.produce")}</button>
            <ReplicaTable session=session/>
            <WaitingProduces session=session/>
        </section>
    }
}

/// The purgatory's numbers as `<dt>`/`<dd>` pairs.
fn stats(p: &PurgatoryView) -> Html {
    let figures = [
        ("timer.broker.leo", "leo", p.log_end_offset.to_string()),
        ("timer.broker.hw", "hw", p.high_watermark.to_string()),
        ("timer.broker.isr", "isr", join(&p.isr)),
        ("timer.broker.completed", "completed", p.completed_produces.to_string()),
        ("timer.broker.expired", "expired", p.expired_produces.to_string()),
        ("timer.broker.consumer", "consumer", p.consumer_offset.to_string()),
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
fn place(session: Session<TimerLab>, task: u64) -> String {
    session.with(|run| match run.world().timer().location(task) {
        Some((level, bucket)) => {
            tf("timer.location", &[("level", &level.to_string()), ("bucket", &bucket.to_string())])
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
                <th scope="col">{t("timer.broker.replica")}</th>
                <th scope="col">{t("timer.broker.state")}</th>
                <th scope="col">{t("timer.broker.in_isr")}</th>
                <th scope="col" class="num">"LEO"</th>
                <th scope="col">{t("timer.broker.fetch")}</th>
                <th scope="col">{t("timer.broker.faults")}</th>
            </tr></thead>
            <tbody>
                <For each=move || replicas.get() key=|r| r.broker
                    children=move |r| replica_row(session, r.broker, r.leader, replicas)/>
            </tbody>
        </table>
    }
}

/// Symbol, css class and catalog key of a replica's state.
fn state_of(r: &ReplicaView) -> (&'static str, &'static str, &'static str) {
    match (r.leader, r.alive, r.fetching, r.fenced) {
        (true, ..) => ("★", "leader", "timer.state.leader"),
        (false, true, true, _) => ("✓", "ok", "timer.state.fetching"),
        (false, true, false, _) => ("‖", "bad", "timer.state.stalled"),
        (false, false, _, false) => ("✗", "bad", "timer.state.crashed"),
        (false, false, _, true) => ("✗", "bad", "timer.state.fenced"),
    }
}

/// Symbol, css class and catalog key of a replica's ISR membership.
fn isr_of(r: &ReplicaView) -> (&'static str, &'static str, &'static str) {
    if r.in_isr {
        ("✓", "ok", "timer.yes")
    } else {
        ("✗", "bad", "timer.no")
    }
}

/// One replica, kept by broker id (its fault buttons keep focus); its cells follow the model.
fn replica_row(session: Session<TimerLab>, id: u32, leader: bool, replicas: Memo<Vec<ReplicaView>>) -> impl IntoView {
    let read = move |f: fn(&ReplicaView) -> (&'static str, &'static str, &'static str)| {
        replicas.with(|all| all.iter().find(|r| r.broker == id).map(f)).unwrap_or(("", "", "timer.no"))
    };
    let fetching = move || replicas.with(|all| all.iter().any(|r| r.broker == id && r.fetching));
    let alive = move || replicas.with(|all| all.iter().any(|r| r.broker == id && r.alive));
    let leo = move || replicas.with(|all| all.iter().find(|r| r.broker == id).map(|r| r.log_end_offset));
    let fetch = move || {
        let parked = replicas.with(|all| all.iter().find(|r| r.broker == id).and_then(|r| r.parked_fetch_task));
        parked.map_or_else(
            || "–".to_string(),
            |task| tf("timer.broker.parked", &[("task", &task.to_string()), ("place", &place(session, task))]),
        )
    };
    let name = move |key: &'static str| tf(key, &[("id", &id.to_string())]);
    let node = Node::Id(id);
    let faults = (!leader).then(|| {
        view! {
            <button disabled=move || !fetching() on:click=move |_| session.command(Command::Fault(Fault::Pause { node, duration_ms: None }))>{name("timer.broker.stall")}</button>
            <button class="danger" disabled=move || !alive() on:click=move |_| session.command(Command::Fault(Fault::Crash(node)))>{name("timer.broker.kill")}</button>
            <button disabled=fetching on:click=move |_| session.command(Command::Fault(Fault::Restart(node)))>{name("timer.broker.restart")}</button>
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
        <h3>{t("timer.broker.waiting")}</h3>
        <table class="waiting" data-testid="waiting-produces">
            <thead><tr>
                <th scope="col">{t("timer.broker.request")}</th>
                <th scope="col">{t("timer.broker.until")}</th>
                <th scope="col">{t("timer.broker.task")}</th>
                <th scope="col">{t("timer.pending.location")}</th>
                <th scope="col">{t("timer.broker.expires")}</th>
            </tr></thead>
            <Markup host=Host::Tbody html=Signal::derive(move || waiting_rows(session, waiting()))/>
        </table>
    }
}

/// The waiting produces as table rows, each with its timer task's place and expiry.
fn waiting_rows(session: Session<TimerLab>, rows: Vec<WaitingProduceView>) -> Html {
    if rows.is_empty() {
        return html!(r#"<tr><td colspan="5" class="muted">{}</td></tr>"#, t("timer.broker.none"));
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
