//! Reading the page's link and keeping it up to date (replaceState, no history entry per step),
//! and where the page sits: at the site's root (the loader) or on a scene's own page.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::link::LinkState;

pub fn current_query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// Whether the link asks for the embedded layout (`embed`, `embed=1` or `embed=true`; the
/// pages' loader, scripts/site.mjs, reads it the same way to pick the embed's bundle).
pub fn is_embed(query: &str) -> bool {
    query.split(['?', '&']).any(|p| p == "embed=1" || p == "embed=true" || p == "embed")
}

/// The site's root relative to this page: `""` at the root, `"../"` on a scene's own page
/// (its HTML says so in `<html data-root>`).
pub fn root() -> String {
    let element = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
    element.and_then(|e| e.get_attribute("data-root")).unwrap_or_default()
}

/// The link to a scene as course pages write it: at the site's root, `?scene=<id>`.
pub fn scene_link(id: &str) -> String {
    format!("{}?scene={id}", root())
}

/// Rewrites the address bar to `state` without adding a history entry.
pub fn replace(state: &LinkState) {
    let Some(window) = web_sys::window() else { return };
    let path = window.location().pathname().unwrap_or_default();
    let url = format!("{path}?{}{}", state.to_query(), comparison());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// How long the run must rest before the address bar is rewritten.
const SETTLE_MS: u32 = 250;

thread_local! {
    /// The state the address bar should name, not written yet, and the timer that will write it.
    static PENDING: RefCell<Option<(LinkState, Option<gloo_timers::callback::Timeout>)>> = const { RefCell::new(None) };
}

/// Writes `state` into the address bar once nothing newer arrives for [`SETTLE_MS`].
pub fn schedule(state: LinkState) {
    // Replacing the old timeout cancels it.
    let timeout = gloo_timers::callback::Timeout::new(SETTLE_MS, flush);
    PENDING.with(|p| *p.borrow_mut() = Some((state, Some(timeout))));
}

/// Keeps `state` for the address bar without writing it (while playing): a pause, a hidden
/// page or a language switch writes it.
pub fn hold(state: LinkState) {
    PENDING.with(|p| *p.borrow_mut() = Some((state, None)));
}

/// Writes the waiting state now (the page is hidden, or about to reload in another language).
pub fn flush() {
    if let Some((state, _timer)) = PENDING.with(|p| p.borrow_mut().take()) {
        replace(&state);
    }
}

/// Writes the waiting state whenever the page is hidden (another tab, closing, a locked phone).
pub fn flush_on_page_hide() {
    let Some(window) = web_sys::window() else { return };
    let callback = Closure::<dyn Fn()>::new(flush);
    let _ = window.add_event_listener_with_callback("pagehide", callback.as_ref().unchecked_ref());
    if let Some(document) = window.document() {
        let _ = document.add_event_listener_with_callback("visibilitychange", callback.as_ref().unchecked_ref());
    }
    // The listener lives as long as the page: the closure must too.
    callback.forget();
}

/// The absolute link for `state` at the site's root, for "Copy link" and "Open in Kafka Lab".
pub fn absolute(state: &LinkState) -> String {
    let Some(window) = web_sys::window() else { return String::new() };
    let location = window.location();
    let origin = location.origin().unwrap_or_default();
    let path = crate::link::root_path(&location.pathname().unwrap_or_default(), &root());
    format!("{origin}{path}?{}{}", state.to_query(), comparison())
}

/// A comparison's `&vs=…` (the lab notebook's side by side), kept in every link the page writes.
fn comparison() -> String {
    let query = current_query();
    let vs = query.trim_start_matches('?').split('&').find(|p| p.starts_with("vs="));
    vs.map(|p| format!("&{p}")).unwrap_or_default()
}
