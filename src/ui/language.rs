//! Which language the page speaks: `lang=` in the link, else the learner's remembered
//! choice, else the browser's `navigator.languages`, else English. Every locale, English
//! too, is one file per bundle; the page draws once the chosen one has arrived.

use std::cell::Cell;

use wasm_bindgen::JsCast;

use crate::i18n::{format, Locale};
use crate::link::LinkState;

/// Where the learner's menu choice is kept across scenes and reloads.
const STORAGE_KEY: &str = "kafka-lab.lang";

thread_local! {
    /// The `lang=` of the page's link (kept in every link the page writes).
    static LINK_LANG: Cell<Option<Locale>> = const { Cell::new(None) };
}

/// The language a link the page writes should name (the one its own link named).
pub fn chosen_in_link() -> Option<Locale> {
    LINK_LANG.with(Cell::get)
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn remembered() -> Option<Locale> {
    storage()?.get_item(STORAGE_KEY).ok().flatten().as_deref().and_then(Locale::from_tag)
}

fn browser_languages() -> Vec<String> {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return Vec::new() };
    let list: Vec<String> = navigator.languages().iter().filter_map(|v| v.as_string()).collect();
    if list.is_empty() {
        navigator.language().into_iter().collect()
    } else {
        list
    }
}

/// The locale for this page, in the order above.
pub fn choose(query: &str) -> Locale {
    let from_link = LinkState::parse(query, &crate::scenes::ids()).ok().and_then(|l| l.lang);
    LINK_LANG.with(|l| l.set(from_link));
    from_link
        .or_else(remembered)
        .or_else(|| Locale::negotiate(browser_languages().iter().map(String::as_str)))
        .unwrap_or_default()
}

/// Sets `<html lang>` (and `dir`: all five locales are left-to-right).
pub fn mark_document(locale: Locale) {
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
    if let Some(root) = root {
        let _ = root.set_attribute("lang", locale.tag());
        let _ = root.set_attribute("dir", "ltr");
        // The bootstrap's failure overlay reads its texts here (it runs when the module cannot).
        let _ = root.set_attribute("data-panic-title", crate::i18n::t(crate::i18n::key::SHELL_PANIC_TITLE));
        let _ = root.set_attribute("data-panic-body", crate::i18n::t(crate::i18n::key::SHELL_PANIC_BODY));
        let _ = root.set_attribute("data-panic-defaults", crate::i18n::t(crate::i18n::key::SHELL_PANIC_DEFAULTS));
    }
}

/// Fetches the locale's file of this bundle's texts and hands its entries to `ready` (`None` on
/// any failure).
pub fn load(locale: Locale, ready: impl FnOnce(Option<Vec<(String, String)>>) + 'static) {
    // Each bundle has its own file per locale, holding only the texts it shows, in a folder named
    // after the numbering of its keys' short ids (`catalog_key!`): a page never reads a file
    // numbered for another build (a browser's cached copy from before a deploy).
    #[cfg(short_catalog_keys)]
    let folder = format!("{}-{}", super::bundle_texts(), crate::model::kernel::catalog_ids::VERSION);
    #[cfg(not(short_catalog_keys))]
    let folder = super::bundle_texts();
    let file = format!("{}locales/{}/{}.toml", super::url::root(), folder, locale.tag());
    let Some(window) = web_sys::window() else { return ready(None) };
    let promise = window.fetch_with_str(&file);
    wasm_bindgen_futures::spawn_local(async move { ready(fetch_texts(promise).await) });
}

async fn fetch_texts(promise: js_sys::Promise) -> Option<Vec<(String, String)>> {
    let response = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let response = response.dyn_into::<web_sys::Response>().ok()?;
    if !response.ok() {
        return None;
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().ok()?).await.ok()?;
    text.as_string().and_then(|t| format::parse(&t).ok())
}

/// The learner picked `locale` in the menu: remember it and reopen this state in it.
pub fn switch_to(locale: Locale) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(STORAGE_KEY, locale.tag());
    }
    let Some(window) = web_sys::window() else { return };
    // The address holds the whole state (once its last change is written); only `lang=` changes.
    super::url::flush();
    let query = super::url::current_query();
    let mut parts: Vec<String> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("lang="))
        .map(String::from)
        .collect();
    parts.push(format!("lang={}", locale.tag()));
    let _ = window.location().set_search(&parts.join("&"));
}
