//! Scene "Timing wheel": Kafka's hierarchical timing wheel as concentric rings, tasks falling
//! from coarse rings into fine ones, a heap beside it, and the purgatory that lives on it.

mod dots;
mod geometry;
mod html;
mod labels;
mod purgatory;
mod replicas;
mod rings;
mod tasks;
mod wheels;

use leptos::prelude::*;

use super::markup::{Host, Markup};
use super::session::Session;
use super::widgets::{Layout, SceneViews};
use crate::html;
use crate::i18n::{key, t};
use crate::markup::Html;
use crate::model::timer::TimerLab;

/// The stage: the rings with their tasks beside the sandbox (add a task, let time pass), what
/// just happened and the pending tasks; with the broker running (the purgatory presets), the
/// replicas and the waiting produces instead of the sandbox. Below: the purgatory's tables and
/// faults, how to read the wheel, the clocks, the cost table and the configuration.
pub fn views<L: Layout>(session: Session<TimerLab>) -> SceneViews {
    let broker = Memo::new(move |_| session.with(|run| run.world().purgatory().is_some()));
    SceneViews {
        intro: key::TIMER_INTRO,
        stage: view! {
            <div class="timer">
                <div class="timer-main">
                    <section class="wheel-figure" aria-labelledby="timer-wheel-title">
                        <h2 id="timer-wheel-title">{t(key::TIMER_WHEEL)}</h2>
                        <Legend/>
                        <rings::RingsFigure session=session/>
                    </section>
                    <div class="timer-side">
                        {move || if broker.get() {
                            view! { <replicas::PurgatoryPicture session=session/> }.into_any()
                        } else {
                            view! { <tasks::Controls session=session/> }.into_any()
                        }}
                        <tasks::WhatHappened session=session/>
                        {move || (!broker.get()).then(|| view! { <tasks::PendingList session=session/> })}
                    </div>
                </div>
            </div>
        }
        .into_any(),
        panels: L::full(move || {
            view! {
                <div class="timer">
                    {move || broker.get().then(|| view! {
                        <purgatory::PurgatoryPanel session=session/>
                        <div class="timer-row">
                            <tasks::Controls session=session/>
                            <tasks::PendingList session=session/>
                        </div>
                    })}
                    <Reading/>
                    <div class="timer-row">
                        <wheels::WheelTable session=session/>
                        <wheels::OpsTable session=session/>
                    </div>
                    <wheels::ConfigStrip session=session/>
                </div>
            }
            .into_any()
        }),
    }
}

/// Each mark of the rings: css class, symbol, short name (the stage's one-line legend) and
/// what it means (the panel below).
const MARKS: &[(&str, &str, &str, &str)] = &[
    ("sandbox", "●", key::TIMER_LEGEND_SANDBOX, key::TIMER_LEGEND_SANDBOX),
    ("produce", "■", key::TIMER_LEGEND_PRODUCE, key::TIMER_LEGEND_PRODUCE),
    ("fetch", "◆", key::TIMER_LEGEND_FETCH, key::TIMER_LEGEND_FETCH),
    ("pointer", "┃", key::TIMER_LEGEND_POINTER_SHORT, key::TIMER_LEGEND_POINTER),
    ("busy", "▨", key::TIMER_LEGEND_BUSY_SHORT, key::TIMER_LEGEND_BUSY),
    ("fell", "↘", key::TIMER_LEGEND_FELL_SHORT, key::TIMER_LEGEND_FELL),
    ("ran", "✓", key::TIMER_LEGEND_RAN, key::TIMER_LEGEND_RAN),
];

fn marks(long: bool) -> Html {
    MARKS
        .iter()
        .map(|(class, symbol, short, meaning)| {
            let text = t(if long { meaning } else { short });
            html!(r#"<li><span class="key {}" aria-hidden="true">{}</span> {}</li>"#, class, symbol, text)
        })
        .collect()
}

/// The rings' marks in one line above them.
#[component]
fn Legend() -> impl IntoView {
    view! { <Markup host=Host::Ul class="legend timer-legend" html=marks(false)/> }
}

/// What each mark means, and what Step does in this scene.
#[component]
fn Reading() -> impl IntoView {
    view! {
        <section class="timer-reading" aria-labelledby="timer-reading-title">
            <h2 id="timer-reading-title">{t(key::TIMER_LEGEND_TITLE)}</h2>
            <Markup host=Host::Ul class="timer-legend long" html=marks(true)/>
            <p class="hint">{t(key::TIMER_ADVANCE_HINT)}</p>
        </section>
    }
}
