//! Small pieces every scene uses: the scene contract, the preset picker and a labelled figure.

use leptos::prelude::*;

use super::session::Session;
use crate::i18n::{key, t};

/// A select of the scene's presets; choosing one loads it (the link follows).
#[component]
pub fn PresetPicker<S>(session: Session<S>) -> impl IntoView
where
    S: super::session::UiScene,
{
    view! {
        <label class="preset">
            {t(key::SHELL_PRESET)}
            <select data-testid="preset" on:change=move |ev| {
                let id = event_target_value(&ev);
                if let Some(preset) = S::presets().iter().find(|p| p.id == id) {
                    session.load_preset(preset);
                }
                // Give the keys back to the transport: a presenter's clicker sends → and ←,
                // which a focused menu would take as "next preset".
                use wasm_bindgen::JsCast;
                if let Some(select) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
                    let _ = select.blur();
                }
            }>
                <option value="" selected=move || session.preset_id().is_none()>{t(key::SHELL_PRESET_NONE)}</option>
                {S::presets().iter().map(|p| {
                    let id = p.id;
                    view! { <option value=id selected=move || session.preset_id().as_deref() == Some(id)>{t(p.title_key)}</option> }
                }).collect_view()}
            </select>
        </label>
    }
}

/// What every scene gives the shell (its one contract): the stage — the picture the story is
/// about, shown with the result card, the caption and the transport, and alone in an embed — and
/// the panels below it (worked numbers, CLI views, dumps, configuration, examples).
pub struct SceneViews {
    /// Catalog key of the scene's introduction ("About this scene", first of the panels).
    pub intro: &'static str,
    pub stage: AnyView,
    /// `None` in an embed's bundle ([`Stage`]), which never shows them.
    pub panels: Option<AnyView>,
}

/// What a bundle holds of the shell and its scene: everything ([`Full`]: the scene's page, which
/// can also be embedded), or what an embed shows ([`Stage`]: the story, the transport and the
/// picture). The choice is a type so that the embed's bundle never builds, and so never links,
/// the header, the preset menu, the panels or the notebook's buttons.
pub trait Layout: 'static {
    /// Every page of this bundle is an embed.
    const EMBED_ONLY: bool;
    /// `make()`, in a bundle that holds more than the stage.
    fn full<T>(make: impl FnOnce() -> T) -> Option<T>;
    /// `make()`, unless the page is an embed.
    fn unless_embed<T>(embed: bool, make: impl FnOnce() -> T) -> Option<T> {
        if embed {
            None
        } else {
            Self::full(make)
        }
    }
}

/// The scene's page: the whole shell; an embed link still shows the stage alone.
pub struct Full;

impl Layout for Full {
    const EMBED_ONLY: bool = false;
    fn full<T>(make: impl FnOnce() -> T) -> Option<T> {
        Some(make())
    }
}

/// An embed's bundle: the stage alone.
pub struct Stage;

impl Layout for Stage {
    const EMBED_ONLY: bool = true;
    fn full<T>(_: impl FnOnce() -> T) -> Option<T> {
        None
    }
}

/// The scene's introduction, first below the stage.
#[component]
pub fn About(text: &'static str) -> impl IntoView {
    view! {
        <section class="about" aria-labelledby="about-title">
            <h2 id="about-title">{t(key::SHELL_INTRO_ABOUT)}</h2>
            <p class="prose">{t(text)}</p>
        </section>
    }
}

/// One labelled number (`<dt>`/`<dd>`), for figures a learner reads off the scene.
#[component]
pub fn Figure(
    label: &'static str,
    #[prop(into)] value: Signal<String>,
    #[prop(optional)] testid: &'static str,
) -> impl IntoView {
    view! {
        <div class="figure">
            <dt>{t(label)}</dt>
            <dd class="num" data-testid=(!testid.is_empty()).then_some(testid)>{move || value.get()}</dd>
        </div>
    }
}
