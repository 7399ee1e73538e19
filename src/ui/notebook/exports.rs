//! Keeping and sharing the notebook: downloads (Markdown, CSV, JSON), importing a JSON file,
//! a link holding every row, printing, and clearing.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{store, Page};
use crate::i18n::{key, t, tf};
use crate::notebook::{to_csv, to_markdown, Headings, Notebook};

fn headings() -> Headings<'static> {
    Headings {
        experiment: t(key::NOTEBOOK_COL_EXPERIMENT),
        run: t(key::NOTEBOOK_COL_RUN),
        figure: t(key::NOTEBOOK_COL_FIGURE),
        value: t(key::NOTEBOOK_COL_VALUE),
        seed: t(key::NOTEBOOK_COL_SEED),
        note: t(key::NOTEBOOK_COL_NOTE),
        link: t(key::NOTEBOOK_COL_LINK),
    }
}

/// The site's root as an absolute URL (rows' links are made absolute in exports).
fn site_root() -> String {
    let Some(window) = web_sys::window() else { return String::new() };
    let location = window.location();
    let origin = location.origin().unwrap_or_default();
    format!("{origin}{}", crate::link::root_path(&location.pathname().unwrap_or_default(), &super::super::url::root()))
}

fn data_url(mime: &str, text: &str) -> String {
    format!("data:{mime};charset=utf-8,{}", String::from(js_sys::encode_uri_component(text)))
}

/// The link that opens this notebook anywhere, or why it cannot be one.
pub(crate) fn share_link(notebook: &Notebook) -> Result<String, String> {
    let text = notebook.to_text();
    let max_bytes = crate::link::MAX_QUERY_BYTES;
    if text.len() + "scene=notebook&nb=".len() > max_bytes {
        return Err(store::explain(&crate::notebook::NotebookError::TooLong { max_bytes }));
    }
    Ok(format!("{}?scene=notebook&nb={text}", site_root()))
}

#[component]
pub(super) fn Exports(page: Page) -> impl IntoView {
    let empty = move || page.notebook.with(|n| n.rows.is_empty());
    let markdown =
        move || page.notebook.with(|n| data_url("text/markdown", &to_markdown(n, &headings(), &site_root())));
    let csv = move || page.notebook.with(|n| data_url("text/csv", &to_csv(n, &headings(), &site_root())));
    let json = move || page.notebook.with(|n| data_url("application/json", &n.to_json()));
    let shared = RwSignal::new(None::<String>);
    let share = move |_| match page.notebook.with_untracked(share_link) {
        Ok(link) => {
            super::record::copy_text(&link);
            shared.set(Some(link));
        }
        Err(why) => page.error.set(Some(why)),
    };
    let clear = move |_| {
        let confirmed = web_sys::window().and_then(|w| w.confirm_with_message(t(key::NOTEBOOK_CLEAR_CONFIRM)).ok());
        if confirmed == Some(true) {
            page.set(Notebook::default());
            page.took_ms.set(None);
        }
    };
    let print = move |_| {
        if let Some(window) = web_sys::window() {
            let _ = window.print();
        }
    };
    view! {
        <section class="notebook-exports" aria-labelledby="exports-title">
            <h3 id="exports-title">{t(key::NOTEBOOK_EXPORT_HEADING)}</h3>
            <Show when=empty>
                <p class="muted">{t(key::NOTEBOOK_EMPTY)}</p>
            </Show>
            <div class="export-buttons">
                <a class="button" download="kafka-lab-notebook.md" href=markdown data-testid="export-markdown"
                    class:disabled=empty>{t(key::NOTEBOOK_EXPORT_MARKDOWN)}</a>
                <a class="button" download="kafka-lab-notebook.csv" href=csv data-testid="export-csv"
                    class:disabled=empty>{t(key::NOTEBOOK_EXPORT_CSV)}</a>
                <a class="button" download="kafka-lab-notebook.json" href=json data-testid="export-json"
                    class:disabled=empty>{t(key::NOTEBOOK_EXPORT_JSON)}</a>
                <Import page=page/>
                <button on:click=share data-testid="share">{t(key::NOTEBOOK_SHARE)}</button>
                <button on:click=print>{t(key::NOTEBOOK_PRINT)}</button>
                <button on:click=clear data-testid="clear">{t(key::NOTEBOOK_CLEAR)}</button>
            </div>
            <Show when=move || shared.get().is_some()>
                <p role="status">{t(key::NOTEBOOK_SHARED)}</p>
                <input class="share-link" type="text" readonly aria-label=t(key::NOTEBOOK_SHARE_LABEL)
                    data-testid="share-link" value=move || shared.get().unwrap_or_default()/>
            </Show>
        </section>
    }
}

/// "Import JSON": reads the chosen file; a file that is refused changes nothing and says why.
#[component]
fn Import(page: Page) -> impl IntoView {
    let done = RwSignal::new(None::<usize>);
    let chosen = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
        input.set_value("");
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            let text = text.ok().and_then(|v| v.as_string()).unwrap_or_default();
            match Notebook::from_json(&text) {
                Ok(notebook) => {
                    done.set(Some(notebook.rows.len()));
                    page.error.set(None);
                    page.set(notebook);
                }
                Err(why) => {
                    done.set(None);
                    page.error.set(Some(store::explain(&why)));
                }
            }
        });
    };
    view! {
        <label class="button import">
            {t(key::NOTEBOOK_IMPORT)}
            <input type="file" accept=".json,application/json" class="sr-only" data-testid="import"
                on:change=chosen/>
        </label>
        <Show when=move || done.get().is_some()>
            <span role="status" data-testid="imported">
                {move || tf(key::NOTEBOOK_IMPORTED, &[("count", &done.get().unwrap_or(0).to_string())])}
            </span>
        </Show>
    }
}
