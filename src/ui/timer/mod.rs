//! Scene "Timing wheel": Kafka's hierarchical timing wheel as concentric rings, tasks falling
//! from coarse rings into fine ones, a heap beside it, and the purgatory that lives on it.

mod geometry;
mod html;
mod purgatory;
mod rings;
mod tasks;
mod wheels;

use leptos::prelude::*;

use super::markup::{Host, Markup};
use super::session::Session;
use super::widgets::SceneViews;
use crate::html;
use crate::i18n::{key, t};
use crate::markup::Html;
use crate::model::timer::TimerLab;

/// The stage: the rings with their tasks, what just happened, the sandbox and the wheels; below,
/// the purgatory (on a broker), the pending tasks, the cost table and the configuration.
pub fn views(session: Session<TimerLab>) -> SceneViews {
    let broker = move || session.with(|run| run.world().purgatory().is_some());
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
                        <tasks::Controls session=session/>
                        <tasks::WhatHappened session=session/>
                        <wheels::WheelTable session=session/>
                    </div>
                </div>
            </div>
        }
        .into_any(),
        panels: view! {
            <div class="timer">
                <Show when=broker>
                    <purgatory::PurgatoryPanel session=session/>
                </Show>
                <tasks::PendingList session=session/>
                <div class="timer-row">
                    <wheels::OpsTable session=session/>
                    <wheels::ConfigStrip session=session/>
                </div>
            </div>
        }
        .into_any(),
    }
}

#[component]
fn Legend() -> impl IntoView {
    let items = [
        ("sandbox", "●", key::TIMER_LEGEND_SANDBOX),
        ("produce", "■", key::TIMER_LEGEND_PRODUCE),
        ("fetch", "◆", key::TIMER_LEGEND_FETCH),
        ("pointer", "┃", key::TIMER_LEGEND_POINTER),
        ("busy", "▨", key::TIMER_LEGEND_BUSY),
        ("fell", "↘", key::TIMER_LEGEND_FELL),
        ("ran", "✓", key::TIMER_LEGEND_RAN),
    ];
    let markup: Html = items
        .iter()
        .map(|(class, symbol, key)| {
            html!(r#"<li><span class="key {}" aria-hidden="true">{}</span> {}</li>"#, class, symbol, t(key))
        })
        .collect();
    view! { <Markup host=Host::Ul class="legend timer-legend" html=markup/> }
}
