//! "Record in notebook" on every scene's result card: the current run (scene, link, config
//! overrides, the card's figure and question, the seed, the learner's note) becomes a row of the
//! notebook kept in this browser.

use leptos::prelude::*;

use super::store;
use crate::i18n::{key, t, tf};
use crate::notebook::{Row, MAX_ROWS};
use crate::ui::transport::Shell;

/// Copies `text` to the clipboard (where the browser allows it).
pub(crate) fn copy_text(text: &str) {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else { return };
    let navigator = window.navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else { return };
    let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into()) else { return };
    if let Some(write) = write.dyn_ref::<js_sys::Function>() {
        let _ = write.call1(&clipboard, &text.into());
    }
}

/// The text of markup the views built (tags dropped, the escaper's entities read back).
fn plain(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// The row the current run makes.
fn row_now(shell: &Shell, note: String) -> Row {
    let link = shell.link(false);
    let story = shell.story();
    let config = link.config.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(",");
    Row {
        experiment: String::new(),
        figure_id: String::new(),
        scene: link.scene.clone().unwrap_or_default(),
        preset: link.preset.clone().unwrap_or_default(),
        config,
        seed: link.seed.unwrap_or(crate::model::scene::DEFAULT_SEED),
        label: plain(story.question.as_str()),
        figure: if story.reached { plain(story.answer.as_str()) } else { t(key::RECORD_NEVER).to_string() },
        link: crate::link::LinkState { lang: None, theme: None, present: false, embed: false, ..link }.to_query(),
        note,
    }
}

/// Adds `row` to the kept notebook; `Ok(rows now)` or why not (nothing changes then).
fn record(row: Row) -> Result<usize, String> {
    let mut notebook = store::load().map_err(|why| store::explain(&why))?;
    if notebook.rows.len() >= MAX_ROWS {
        return Err(tf(key::RECORD_FULL, &[("max", &MAX_ROWS.to_string())]));
    }
    notebook.rows.push(row);
    store::save(&notebook);
    Ok(notebook.rows.len())
}

/// The result card's "Record in notebook": a note field, then the row is added.
#[component]
pub fn Record(shell: Shell) -> impl IntoView {
    let open = RwSignal::new(false);
    let outcome = RwSignal::new(None::<Result<usize, String>>);
    let note = RwSignal::new(String::new());
    let compare = shell.clone();
    let shell = StoredValue::new(shell);
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        outcome.set(Some(record(shell.with_value(|shell| row_now(shell, note.get_untracked())))));
        note.set(String::new());
        open.set(false);
    };
    let notebook_link = format!("{}?scene=notebook", crate::ui::url::root());
    view! {
        <div class="record-run">
            <Show when=move || !open.get()>
                <button class="link-button" data-testid="record" on:click=move |_| {
                    outcome.set(None);
                    open.set(true);
                }>{t(key::RECORD_BUTTON)}</button>
            </Show>
            <Show when=move || open.get()>
                <form class="record-form" on:submit=add>
                    <input type="text" data-testid="record-note" aria-label=t(key::RECORD_NOTE)
                        placeholder=t(key::RECORD_NOTE) autofocus
                        prop:value=move || note.get() on:input=move |ev| note.set(event_target_value(&ev))/>
                    <button type="submit" data-testid="record-add">{t(key::RECORD_ADD)}</button>
                    <button type="button" on:click=move |_| open.set(false)>{t(key::RECORD_CANCEL)}</button>
                </form>
            </Show>
            <super::compare::CompareWith shell=compare/>
            {move || outcome.get().map(|result| match result {
                Ok(count) => view! {
                    <span role="status" data-testid="recorded">
                        {tf(key::RECORD_RECORDED_ROW, &[("count", &count.to_string())])}" "
                        <a href=notebook_link.clone()>{t(key::RECORD_OPEN_NOTEBOOK)}</a>
                    </span>
                }.into_any(),
                Err(why) => view! { <span role="alert">{why}</span> }.into_any(),
            })}
        </div>
    }
}
