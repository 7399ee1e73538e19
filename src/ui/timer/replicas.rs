//! The purgatory's picture beside the wheel (lab.purgatory=true): each replica's log with the
//! high watermark drawn across them, its state and Isr membership, and the DelayedProduce
//! requests waiting for that watermark with their timer task's place on the wheel. The
//! tables, the faults and the Produce button are in the purgatory panel below.

use leptos::prelude::*;

use super::purgatory::{isr_of, place, state_of};
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::timer::{PurgatoryView, ReplicaView, TimerLab};
use crate::ui::markup::Markup;
use crate::ui::session::Session;

/// The most offsets drawn as cells per replica (the latest ones).
const MAX_CELLS: u64 = 12;

#[component]
pub fn PurgatoryPicture(session: Session<TimerLab>) -> impl IntoView {
    let view_of = Memo::new(move |_| session.with(|run| run.world().purgatory()));
    let markup = move || view_of.with(|p| p.as_ref().map(|p| picture(session, p)).unwrap_or_default());
    view! {
        <section class="purgatory-picture" aria-labelledby="timer-picture-title">
            <h2 id="timer-picture-title">{t(key::TIMER_BROKER)}</h2>
            <Markup html=Signal::derive(markup)/>
        </section>
    }
}

fn picture(session: Session<TimerLab>, p: &PurgatoryView) -> Html {
    let mut out = figures(p);
    let top = p.replicas.iter().map(|r| r.log_end_offset).max().unwrap_or(0).max(p.high_watermark).max(1);
    let first = top.saturating_sub(MAX_CELLS);
    html!(out, r#"<ul class="pg-replicas" data-style="--cells: {}">"#, top - first);
    for r in &p.replicas {
        replica(&mut out, session, r, first..top, p.high_watermark);
    }
    html!(out, "</ul>");
    waiting(&mut out, session, p);
    out
}

/// High watermark, log end offset, Isr and the produces completed and expired, on one line.
fn figures(p: &PurgatoryView) -> Html {
    let isr = crate::model::join_ids(&p.isr);
    let items = [
        ("hw", key::TIMER_BROKER_HW, p.high_watermark.to_string()),
        ("leo", key::TIMER_BROKER_LEO, p.log_end_offset.to_string()),
        ("isr", key::TIMER_BROKER_ISR, isr),
        ("done", key::TIMER_BROKER_COMPLETED, p.completed_produces.to_string()),
        ("expired", key::TIMER_BROKER_EXPIRED, p.expired_produces.to_string()),
    ];
    let mut out = html!(r#"<p class="pg-figures">"#);
    for (class, key, value) in items {
        html!(out, r#"<span class="{}">{} <strong class="num">{}</strong></span>"#, class, t(key), value);
    }
    html!(out, "</p>");
    out
}

/// One replica: name, its log's cells (filled below its LEO) with the HW mark, state, Isr.
fn replica(out: &mut Html, session: Session<TimerLab>, r: &ReplicaView, window: std::ops::Range<u64>, hw: u64) {
    let (symbol, class, state) = state_of(r);
    let (isr_symbol, isr_class, isr) = isr_of(r);
    html!(
        out,
        r#"<li class="pg-replica {}"><span class="who"><span aria-hidden="true">{}</span> broker-{}</span><span class="cells" aria-hidden="true">"#,
        class,
        symbol,
        r.broker
    );
    for offset in window.clone() {
        let filled = if offset < r.log_end_offset { "on" } else { "off" };
        html!(out, r#"<i class="{}"></i>"#, filled);
    }
    if window.contains(&hw) || hw == window.end {
        html!(out, r#"<b class="hw-mark" data-style="--at: {}"></b>"#, hw - window.start);
    }
    html!(
        out,
        r#"</span><span class="num">LEO {}</span><span class="pg-state"><span class="state {}">{}</span> · <span class="state {}"><span aria-hidden="true">{}</span> {}: {}</span>"#,
        r.log_end_offset,
        class,
        t(state),
        isr_class,
        isr_symbol,
        t(key::TIMER_BROKER_IN_ISR),
        t(isr)
    );
    if let Some(task) = r.parked_fetch_task {
        let parked = tf(key::TIMER_BROKER_PARKED, &[("task", &task.to_string()), ("place", &place(session, task))]);
        html!(out, r#" · <span class="fetch"><span aria-hidden="true">◆</span> {}</span>"#, parked);
    }
    html!(out, "</span></li>");
}

/// The produces waiting for the high watermark, each with its DelayedProduce task's place.
fn waiting(out: &mut Html, session: Session<TimerLab>, p: &PurgatoryView) {
    html!(out, r#"<p class="pg-waiting"><strong>{}</strong> "#, t(key::TIMER_BROKER_WAITING));
    if p.waiting_produces.is_empty() {
        html!(out, r#"<span class="muted">{}</span>"#, t(key::TIMER_BROKER_NONE));
    }
    let expiry = |task: u64| session.with(|run| run.world().timer().expiration_of(task));
    for w in &p.waiting_produces {
        let parked = tf(key::TIMER_BROKER_PARKED, &[("task", &w.task.to_string()), ("place", &place(session, w.task))]);
        let until = expiry(w.task).map_or("–".to_string(), |ms| format!("{ms} ms"));
        html!(
            out,
            r#"<span class="pg-produce"><span class="key produce" aria-hidden="true">■</span> #{} HW ≥ {} · {} · {}</span>"#,
            w.request,
            w.required_offset,
            parked,
            until
        );
    }
    html!(out, "</p>");
}
