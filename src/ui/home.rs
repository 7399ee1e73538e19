//! The front page (the site's root without `scene=`): the lab's name and the scenes to pick.
//! Its own small bundle: it links no scene's model or views.

use leptos::prelude::*;

use super::app::{Header, HelpDialog};
use crate::i18n::{key, t};
use crate::scenes::SCENES;

/// One line on what a scene lets the learner break.
fn blurb(scene: &str) -> &'static str {
    t(match scene {
        "overview" => key::HOME_BLURB_OVERVIEW,
        "log" => key::HOME_BLURB_LOG,
        "replication" => key::HOME_BLURB_REPLICATION,
        "groups" => key::HOME_BLURB_GROUPS,
        "partitioner" => key::HOME_BLURB_PARTITIONER,
        "transactions" => key::HOME_BLURB_TRANSACTIONS,
        _ => key::HOME_BLURB_TIMER,
    })
}

#[component]
pub fn Home() -> impl IntoView {
    let query = super::url::current_query();
    let link_theme = crate::link::LinkState::parse(&query, &crate::scenes::ids()).ok().and_then(|l| l.theme);
    let theme = RwSignal::new(super::theme::chosen(link_theme));
    super::theme::apply(theme.get_untracked());
    let help_open = RwSignal::new(false);
    view! {
        <div class="app home">
            <Header current=String::new() help_open=help_open theme=theme/>
            <main class="front" id="scene">
                <h2>{t(key::HOME_HEADING)}</h2>
                <p class="prose">{t(key::HOME_INTRO)}</p>
                <ul class="scene-cards">
                    {SCENES.iter().map(|scene| view! {
                        <li>
                            <a href=super::url::scene_link(scene.id) data-testid=format!("open-{}", scene.id)>
                                <strong>{t(scene.title_key)}</strong>
                                <span>{blurb(scene.id)}</span>
                            </a>
                        </li>
                    }).collect_view()}
                </ul>
            </main>
            <HelpDialog open=help_open/>
        </div>
    }
}
