//! Embed mode: tell the parent page our height whenever it changes.

use wasm_bindgen::prelude::*;

/// The message type the host script (www/embed.js) listens for.
pub const HEIGHT_MESSAGE: &str = "kafka-lab:height";

/// Observes the content's size and posts `{type, height}` to the parent window. The body's
/// own height, not the document's scroll height (which is never less than the iframe), so
/// the iframe shrinks as well as grows.
pub fn post_height_on_resize() {
    let Some(window) = web_sys::window() else { return };
    let Some(body) = window.document().and_then(|d| d.body()) else { return };
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| post_height());
    if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        observer.observe(&body);
    }
    // The observer lives as long as the page: the closure must too.
    callback.forget();
    post_height();
}

fn post_height() {
    let Some(window) = web_sys::window() else { return };
    let Some(body) = window.document().and_then(|d| d.body()) else { return };
    let height = body.offset_height();
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &HEIGHT_MESSAGE.into());
    let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
    if let Ok(Some(parent)) = window.parent() {
        if !parent.loose_eq(&window) {
            let _ = parent.post_message(&message, "*");
        }
    }
}
