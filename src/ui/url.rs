//! Reading the page's link and keeping it up to date (replaceState, no history entry per step).

use crate::link::LinkState;

pub fn current_query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// Rewrites the address bar to `state` without adding a history entry.
pub fn replace(state: &LinkState) {
    let Some(window) = web_sys::window() else { return };
    let path = window.location().pathname().unwrap_or_default();
    let url = format!("{path}?{}", state.to_query());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The absolute link for `state`, for "Copy link" and "Open in Kafka Lab".
pub fn absolute(state: &LinkState) -> String {
    let Some(window) = web_sys::window() else { return String::new() };
    let location = window.location();
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    format!("{origin}{path}?{}", state.to_query())
}
