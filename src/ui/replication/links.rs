//! The network links a learner can cut and heal (both directions at once). Each link is
//! a keyed view, so its button keeps focus while the run moves on.

use leptos::prelude::*;

use super::node_name;
use super::wire::link_pairs;
use crate::i18n::{key, t, tf};
use crate::model::replication::{Command, Fault, Node, Replication};
use crate::ui::keyed::keyed_rows;
use crate::ui::session::Session;

#[component]
pub fn LinksPanel(session: Session<Replication>) -> impl IntoView {
    let pairs = Memo::new(move |_| session.with(|run| link_pairs(run.world().brokers().len() as u32)));
    view! {
        <section class="rep-links" aria-labelledby="rep-links-title">
            <h2 id="rep-links-title">{t(key::REPLICATION_LINKS)}</h2>
            <p class="legend">{t(key::REPLICATION_LINKS_HINT)}</p>
            <ul class="links" data-testid="links">
                {keyed_rows(
                    move || pairs.with(|all| all.iter().map(|&pair| pair_key(pair)).collect()),
                    move |at| {
                        let pair = pairs.with_untracked(|all| all.iter().copied().find(|&pair| pair_key(pair) == at));
                        pair.map(|(a, b)| view! { <LinkItem a=a b=b session=session/> }.into_any()).unwrap_or_else(|| ().into_any())
                    },
                )}
            </ul>
        </section>
    }
}

/// A link's row key: its two ends, each a number (the controller 0, the producer 1, broker n n + 2).
fn pair_key((a, b): (Node, Node)) -> u64 {
    let end = |node| match node {
        Node::Controller => 0,
        Node::Producer => 1,
        Node::Id(id) => u64::from(id) + 2,
    };
    end(a) << 32 | end(b)
}

#[component]
fn LinkItem(a: Node, b: Node, session: Session<Replication>) -> impl IntoView {
    let up = Memo::new(move |_| session.with(|run| run.world().link_up(a, b)));
    let (name_a, name_b) = (node_name(a), node_name(b));
    let (end_a, end_b) = (name_a.clone(), name_b.clone());
    let ends = move || format!("{end_a} {} {end_b}", if up.get() { "⟷" } else { "✂" });
    let label = move || {
        let args = [("a", name_a.as_str()), ("b", name_b.as_str())];
        if up.get() {
            tf(key::REPLICATION_LINK_DO_CUT, &args)
        } else {
            tf(key::REPLICATION_LINK_DO_HEAL, &args)
        }
    };
    let command = move || if up.get_untracked() { Fault::Cut(a, b) } else { Fault::Heal(a, b) };
    view! {
        <li class:cut=move || !up.get()>
            <span class="mono">{ends}</span>" "
            <span class="state">{move || if up.get() { t(key::REPLICATION_LINK_UP) } else { t(key::REPLICATION_LINK_CUT) }}</span>" "
            <button class:danger=move || up.get() aria-label=label.clone() title=label
                on:click=move |_| session.command(Command::Fault(command()))>
                {move || if up.get() { t(key::REPLICATION_LINK_CUT_BUTTON) } else { t(key::REPLICATION_LINK_HEAL_BUTTON) }}
            </button>
        </li>
    }
}
