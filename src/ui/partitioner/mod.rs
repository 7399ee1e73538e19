//! Scene "Partitioner": the default partitioner's arithmetic for a typed key, a key population
//! before and after `--alter --partitions`, the order break, hot keys, and the sticky partitioner.

mod geometry;
mod key;
mod load;
mod order;
mod population;
mod sticky;

use leptos::prelude::*;

use super::session::{Session, Transport};
use super::widgets::{Layout, SceneViews};
use crate::i18n::key as text_key;
use crate::model::kernel::Describe;
use crate::model::partitioner::{Command, Partitioner, Refusal};

/// What a preset's story is about, so its stage shows that part (the others are panels).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Story {
    /// A key's partition and a key population before and after `--alter` (the scene's page).
    Keys,
    /// One key's events across the alter: the order break.
    Order,
    /// Load per partition and the hot key.
    Load,
    /// Records without key and the sticky partitioner's batches (with a slow broker, too).
    Sticky,
}

fn story_of(preset: Option<&str>) -> Story {
    match preset {
        Some("cliente-42" | "orderid-6-12") => Story::Order,
        Some("megacorp") => Story::Load,
        Some(id) if id.starts_with("sticky") || id.starts_with("adaptive") => Story::Sticky,
        _ => Story::Keys,
    }
}

/// The scene's parts, in the order the panels list them.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Part {
    Key,
    Steps,
    Population,
    Order,
    Load,
    Offsets,
    Sticky,
}

const PARTS: [Part; 7] =
    [Part::Key, Part::Steps, Part::Population, Part::Order, Part::Load, Part::Offsets, Part::Sticky];

/// The parts a story's stage shows, the most important first.
fn staged(story: Story) -> &'static [Part] {
    match story {
        Story::Keys => &[Part::Key, Part::Population],
        Story::Order => &[Part::Order],
        Story::Load => &[Part::Load],
        Story::Sticky => &[Part::Sticky],
    }
}

fn part(session: Session<Partitioner>, which: Part) -> AnyView {
    match which {
        Part::Key => view! { <key::KeyPanel session=session/> }.into_any(),
        Part::Steps => view! { <key::StepsPanel session=session/> }.into_any(),
        Part::Population => view! { <population::PopulationPanel session=session/> }.into_any(),
        Part::Order => view! { <order::OrderPanel session=session/> }.into_any(),
        Part::Load => view! { <load::LoadPanel session=session/> }.into_any(),
        Part::Offsets => view! { <load::OffsetsPanel session=session/> }.into_any(),
        Part::Sticky => view! { <sticky::StickyPanel session=session/> }.into_any(),
    }
}

/// The stage: what the preset's story is about (on the scene's own page, a key's arithmetic
/// and where a key population lands); the panels: every other part, in the scene's order.
pub fn views<L: Layout>(session: Session<Partitioner>) -> SceneViews {
    // Re-chosen only when the preset changes, not on every step.
    let story = Memo::new(move |_| story_of(session.preset_id().as_deref()));
    let stage = move || staged(story.get()).iter().map(|p| part(session, *p)).collect_view();
    let panels = move || {
        let shown = staged(story.get());
        PARTS.into_iter().filter(|p| !shown.contains(p)).map(|p| part(session, p)).collect_view()
    };
    SceneViews {
        intro: text_key::PARTITIONER_INTRO,
        stage: view! { <div class="partitioner">{stage}</div> }.into_any(),
        panels: L::full(move || view! { <div class="partitioner">{panels}</div> }.into_any()),
    }
}

/// Sends a command the UI built itself (e.g. from typed text); a refusal goes to the shell's banner.
fn send(session: Session<Partitioner>, command: Result<Command, Refusal>) {
    match command {
        Ok(command) => session.command(command),
        Err(refusal) => session.error().set(Some(refusal.message())),
    }
}

/// `12345` → `12 345` (thin grouping so offsets are readable).
fn grouped(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

/// A share as a percentage with one decimal, as the locale writes it (`49,1 %` in es, `%49,1` in
/// tr), rounded as the model's facts round it.
fn percent(share: f64) -> String {
    let locale = crate::i18n::current_locale();
    let mut text = String::new();
    let tenths = crate::model::kernel::decimal_units(share * 100.0, 1);
    let _ = crate::model::kernel::write_decimal(&mut text, tenths, 1);
    let number = locale.decimal(&text);
    if locale == crate::i18n::Locale::Tr {
        format!("%{number}")
    } else {
        format!("{number} %")
    }
}
