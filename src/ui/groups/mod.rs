//! Scene "Consumer groups": the coordinator's state machine, members' lanes (heartbeats,
//! processing, rebalance phases), `kafka-consumer-groups --describe`, lag, stop time and the ledger.

mod assignors;
mod config;
mod lag;
mod lanes;
mod legend;
mod members;
mod tables;
mod timeline;

use leptos::prelude::*;

use super::session::Session;
use super::widgets::{Figure, Layout, SceneViews};
use crate::i18n::{key, render, tf};
use crate::model::group::{loop_verdict, GroupLab, GroupState, GROUP_ID};
use crate::model::kernel::{Actor, Describe};

/// A member's name in the current language (`C1`, `C2`, …).
pub fn member_name(index: u32) -> String {
    render(&Actor::Member(index).message())
}

/// The stage: the coordinator's state and figures on one row, then the members' lanes (each
/// lane's label is the member's button; its actions open under the lanes). Below: the legend,
/// `--describe`, the measures, lag, configuration, the group's actions and the assignors' examples.
pub fn views<L: Layout>(session: Session<GroupLab>) -> SceneViews {
    let selected = RwSignal::new(None::<u32>);
    SceneViews {
        intro: key::GROUPS_INTRO,
        stage: view! {
            <div class="groups">
                <section class="groups-stage" aria-labelledby="coordinator-title">
                    <Coordinator session=session/>
                    <lanes::Lanes session=session selected=selected/>
                </section>
            </div>
        }
        .into_any(),
        panels: L::full(move || {
            view! {
                <div class="groups">
                    <legend::TimelineLegend session=session/>
                    <tables::Describe session=session/>
                    <div class="groups-columns measures-row">
                        <tables::Measures session=session/>
                        <lag::LagCharts session=session/>
                    </div>
                    <div class="groups-columns">
                        <config::ConfigPanel session=session/>
                        <members::GroupActions session=session/>
                    </div>
                    <assignors::AssignorExamples/>
                </div>
            }
            .into_any()
        }),
    }
}

/// Symbol paired with each state, so the state never rests on colour alone.
fn state_symbol(state: GroupState) -> &'static str {
    match state {
        GroupState::Empty => "○",
        GroupState::PreparingRebalance => "⟳",
        GroupState::CompletingRebalance => "⇄",
        GroupState::Stable => "✓",
        GroupState::Dead => "✕",
    }
}

pub fn state_hint(state: GroupState) -> &'static str {
    match state {
        GroupState::Empty => key::GROUPS_STATE_EMPTY,
        GroupState::PreparingRebalance => key::GROUPS_STATE_PREPARING,
        GroupState::CompletingRebalance => key::GROUPS_STATE_COMPLETING,
        GroupState::Stable => key::GROUPS_STATE_STABLE,
        GroupState::Dead => key::GROUPS_STATE_DEAD,
    }
}

/// The coordinator's state and figures on one row (a rebalance loop's verdict under them).
#[component]
fn Coordinator(session: Session<GroupLab>) -> impl IntoView {
    let info = move || {
        session.with(|run| {
            let world = run.world();
            let c = world.coordinator();
            let leader = c.leader.as_deref().and_then(|id| world.member_index(id)).map(member_name);
            (c.state, c.generation, leader, c.members.len(), world.idle_member_count())
        })
    };
    let state = move || info().0;
    // A group that keeps rebalancing is not "✓ Stable" even while a generation lasts.
    let looping = move || session.with(|run| loop_verdict(run.sim()).map(|m| render(&m)));
    let symbol = move || if looping().is_some() { "⟳" } else { state_symbol(state()) };
    let class = move || {
        let extra = if looping().is_some() { " looping" } else { "" };
        format!("group-state {}{extra}", state().kafka_name())
    };
    view! {
        <div class="coordinator-row">
            <h2 id="coordinator-title">{tf(key::GROUPS_COORDINATOR, &[("group", GROUP_ID)])}</h2>
            <p class=class aria-live="polite">
                <span class="symbol" aria-hidden="true">{symbol}</span>
                <span data-testid="group-state">{move || state().kafka_name()}</span>
            </p>
            <dl class="stats">
                <Figure label=key::GROUPS_GENERATION value=Signal::derive(move || info().1.to_string()) testid="generation"/>
                <Figure label=key::GROUPS_LEADER value=Signal::derive(move || info().2.unwrap_or_else(|| "-".into()))/>
                <Figure label=key::GROUPS_MEMBERS value=Signal::derive(move || info().3.to_string()) testid="member-count"/>
                <Figure label=key::GROUPS_IDLE value=Signal::derive(move || info().4.to_string()) testid="idle-count"/>
            </dl>
        </div>
        {move || looping().map(|verdict| view! { <p class="warning" role="status" data-testid="rebalance-loop">{verdict}</p> })}
    }
}
