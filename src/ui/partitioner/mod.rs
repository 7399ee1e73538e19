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
use super::widgets::SceneViews;
use crate::i18n::key as text_key;
use crate::model::kernel::Describe;
use crate::model::partitioner::{Command, Partitioner, Refusal};

/// The stage: a key's arithmetic and where a key population lands; below, the order break,
/// hot keys and the sticky partitioner.
pub fn views(session: Session<Partitioner>) -> SceneViews {
    SceneViews {
        intro: text_key::PARTITIONER_INTRO,
        stage: view! {
            <div class="partitioner">
                <key::KeyPanel session=session/>
                <population::PopulationPanel session=session/>
            </div>
        }
        .into_any(),
        panels: view! {
            <div class="partitioner">
                <order::OrderPanel session=session/>
                <load::LoadPanel session=session/>
                <sticky::StickyPanel session=session/>
            </div>
        }
        .into_any(),
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

/// A share as a percentage with one decimal.
/// A share as a percentage with one decimal, as the locale writes it (`49,1 %` in es, `%49,1` in tr).
fn percent(share: f64) -> String {
    let locale = crate::i18n::current_locale();
    let number = locale.decimal(&format!("{:.1}", share * 100.0));
    if locale == crate::i18n::Locale::Tr {
        format!("%{number}")
    } else {
        format!("{number} %")
    }
}
