//! The network links a learner can cut and heal (both directions at once).

use leptos::prelude::*;

use super::wire::link_pairs;
use crate::i18n::{t, tf};
use crate::model::replication::{Command, Node, Replication};
use crate::ui::session::Session;

#[component]
pub fn LinksPanel(session: Session<Replication>) -> impl IntoView {
    let links = move || {
        session.with(|run| {
            let w = run.world();
            link_pairs(w.brokers().len() as u32).into_iter().map(|(a, b)| (a, b, w.link_up(a, b))).collect::<Vec<_>>()
        })
    };
    view! {
        <section class="rep-links" aria-labelledby="rep-links-title">
            <h2 id="rep-links-title">{t("replication.links")}</h2>
            <p class="legend">{t("replication.links.hint")}</p>
            <ul class="links" data-testid="links">
                {move || links().into_iter().map(|(a, b, up)| link_item(a, b, up, session)).collect_view()}
            </ul>
        </section>
    }
}

fn link_item(a: Node, b: Node, up: bool, session: Session<Replication>) -> impl IntoView {
    let names = [("a", a.name()), ("b", b.name())];
    let args: Vec<(&str, &str)> = names.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (symbol, state) = if up { ("⟷", t("replication.link.up")) } else { ("✂", t("replication.link.cut")) };
    let label = if up { tf("replication.link.do_cut", &args) } else { tf("replication.link.do_heal", &args) };
    let command = if up { Command::Cut(a, b) } else { Command::Heal(a, b) };
    view! {
        <li class:cut=!up>
            <span class="mono">{format!("{} {symbol} {}", a.name(), b.name())}</span>" "
            <span class="state">{state}</span>" "
            <button class:danger=up aria-label=label.clone() title=label on:click=move |_| session.command(command.clone())>
                {if up { t("replication.link.cut_button") } else { t("replication.link.heal_button") }}
            </button>
        </li>
    }
}
