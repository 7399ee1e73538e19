//! The key population as dots in partition columns, `kafka-topics --alter --partitions M`,
//! and the share of keys whose new records now go elsewhere.

use leptos::prelude::*;

use super::geometry::{self, Dot, WIDTH};
use super::{percent, send};
use crate::i18n::{key, t, tf};
use crate::markup::Tenths;
use crate::model::partitioner::{Command, KeyDistribution, Partitioner, TOPIC};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;
use crate::ui::widgets::Figure;

/// The most keys drawn: a sample, never the whole population.
const MAX_DOTS: u32 = 400;

/// What the drawing depends on: (from, to, population size, key prefix).
type Shape = (u32, u32, u32, &'static str);

#[component]
pub fn PopulationPanel(session: Session<Partitioner>) -> impl IntoView {
    let shape = Memo::new(move |_| {
        session.with(|run| {
            let world = run.world();
            let n = world.num_partitions();
            let (from, to) = world.alters().last().map_or((n, n), |a| (a.from_partitions, a.to_partitions));
            (from, to, world.workload().distinct_keys, world.workload().prefix)
        })
    });
    let drawing = Memo::new(move |_| {
        let (from, to, _, _): Shape = shape.get();
        let sample = untrack(|| session.with(|run| run.world().population_sample(from, to, MAX_DOTS)));
        geometry::dot_layout(&sample, to)
    });
    let last_alter = move || session.with(|run| run.world().alters().last().cloned());
    let hot = move || session.with(|run| run.world().workload().distribution == KeyDistribution::Megacorp);
    let moved = move || last_alter().map_or("—".into(), |a| percent(1.0 - a.fraction_stayed));
    let expected = move || last_alter().map_or("—".into(), |a| percent(1.0 - a.expected_fraction_stayed));
    let keys = move || shape.get().2;
    view! {
        <section class="population" aria-labelledby="population-title">
            <h2 id="population-title">{t(key::PARTITIONER_POPULATION_TITLE)}</h2>
            <p class="legend">{move || tf(key::PARTITIONER_POPULATION_INTRO, &[("keys", &keys().to_string()), ("shown", &keys().min(MAX_DOTS).to_string())])}</p>
            <div class="population-bar">
                <dl class="stats">
                    <Figure label=key::PARTITIONER_POPULATION_PARTITIONS value=Signal::derive(move || shape.get().1.to_string()) testid="num-partitions"/>
                    <Figure label=key::PARTITIONER_POPULATION_MOVED value=Signal::derive(moved) testid="moved-percent"/>
                    <Figure label=key::PARTITIONER_POPULATION_EXPECTED value=Signal::derive(expected)/>
                </dl>
                <AlterForm session=session/>
            </div>
            {move || last_alter().map(|a| view! {
                <p class="alter-summary" data-testid="alter-summary">{tf(key::PARTITIONER_POPULATION_SUMMARY, &[
                    ("from", &a.from_partitions.to_string()), ("to", &a.to_partitions.to_string()),
                    ("moved", &a.moved_keys.to_string()), ("keys", &a.keys.to_string()),
                ])}" "{hot().then(|| tf(key::PARTITIONER_POPULATION_HOT, &[
                    ("from", &a.hot_key.from.to_string()), ("to", &a.hot_key.to.to_string()),
                ]))}</p>
            })}
            <Dots session=session drawing=drawing/>
            <p class="legend">{t(key::PARTITIONER_POPULATION_LEGEND)}</p>
        </section>
    }
}

#[component]
fn AlterForm(session: Session<Partitioner>) -> impl IntoView {
    let n = Memo::new(move |_| session.with(|run| run.world().num_partitions()));
    let target = RwSignal::new(String::new());
    Effect::new(move |_| target.set((n.get() * 2).min(256).to_string()));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send(session, Command::alter(&target.get_untracked()));
    };
    view! {
        <form class="alter-form" on:submit=submit>
            // The command on the button says what the number is; the label is for screen readers.
            <label for="alter-to" class="sr-only">{t(key::PARTITIONER_ALTER_LABEL)}</label>
            <input id="alter-to" type="number" min="1" max="256" data-testid="alter-input"
                prop:value=move || target.get() on:input=move |ev| target.set(event_target_value(&ev))/>
            <button type="submit" data-testid="alter-button">
                <code translate="no">{move || format!("kafka-topics --alter --topic {TOPIC} --partitions {}", target.get())}</code>
            </button>
        </form>
    }
}

#[component]
fn Dots(session: Session<Partitioner>, drawing: Memo<(Vec<Dot>, f64)>) -> impl IntoView {
    let partitions = move || session.with(|run| run.world().num_partitions());
    let height = move || drawing.with(|(_, h)| *h);
    let indices = move || drawing.with(|(dots, _)| dots.iter().map(|d| d.index).collect::<Vec<_>>());
    let dot = move |index: u32| {
        drawing.with(|(dots, _)| dots.binary_search_by_key(&index, |d| d.index).ok().map(|i| dots[i]))
    };
    let watched = move || {
        session.with(|run| run.world().key_steps().map(|s| (s.partition, run.world().key_text().unwrap_or_default())))
    };
    // Only rewritten when it differs, not on every tick of Play.
    let background = Memo::new(move |_| {
        geometry::columns_markup(partitions(), height(), watched().as_ref().map(|(p, key)| (*p, key.as_str())))
    });
    view! {
        <svg class="dots" data-testid="population" viewBox=move || format!("0 0 {} {}", Tenths(WIDTH), Tenths(height()))
            role="img" aria-label=t(key::PARTITIONER_POPULATION_ARIA)>
            <Markup host=Host::G html=background/>
            <For each=indices key=|index| *index let:index>
                <circle r="3.4" class="dot" class:moved=move || dot(index).is_some_and(|d| d.moved)
                    style:transform=move || dot(index).map_or(String::new(), |d| format!("translate({}px, {}px)", Tenths(d.x), Tenths(d.y)))/>
            </For>
        </svg>
    }
}
