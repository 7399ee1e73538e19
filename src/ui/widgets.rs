//! Small pieces every scene uses: the preset picker and a labelled figure.

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

/// The scene's introduction and its preset menu on one row: the text folds away while a
/// preset tells its story (the result card and the caption say what to watch), and opens
/// on the scene's own page.
#[component]
pub fn SceneIntro<S>(session: Session<S>, text: &'static str) -> impl IntoView
where
    S: super::session::UiScene,
{
    let open = session.preset_id().is_none();
    view! {
        <div class="scene-head">
            <PresetPicker session=session/>
            <details class="intro" open=open>
                <summary>{t(key::SHELL_INTRO_ABOUT)}</summary>
                <p>{t(text)}</p>
            </details>
        </div>
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
