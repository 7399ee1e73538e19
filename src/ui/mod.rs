//! The Leptos app (CSR): the shell (navigation, transport, log, links, embed)
//! and one folder per scene. No Kafka logic here: views read the model and send commands.

mod app;
pub(crate) use app::{mount, Mounted};
mod config_panel;
mod embed;
mod event_log;
pub(crate) mod groups;
mod keyboard;
mod language;
pub(crate) mod log;
pub mod markup;
pub(crate) mod overview;
pub(crate) mod partitioner;
mod present;
pub(crate) mod replication;
mod session;
mod story;
mod story_bar;
mod theme;
pub(crate) mod timer;
mod transport;
mod url;
mod widgets;

use crate::i18n::{key, t};

/// Entry point: installs the panic overlay and mounts the app.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_panic_overlay(&info.to_string());
    }));
    let locale = language::choose(&url::current_query());
    language::mark_document(crate::i18n::Locale::En);
    // English at once; another locale mounts again when its file has arrived.
    let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) else { return };
    let english = leptos::mount::mount_to(body.clone(), app::App);
    if locale == crate::i18n::Locale::En {
        english.forget();
        return;
    }
    // The English app stays unless the file arrives (a failed fetch keeps English, never a blank page).
    let slot = std::rc::Rc::new(std::cell::RefCell::new(Some(english)));
    std::mem::forget(slot.clone());
    language::load(locale, move |entries| {
        crate::i18n::activate(locale, entries);
        language::mark_document(locale);
        drop(slot.borrow_mut().take());
        leptos::mount::mount_to(body, app::App).forget();
    });
}

/// Writes a plain overlay with the DOM API: after a panic the reactive system can't be trusted.
fn show_panic_overlay(detail: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = document.body() else { return };
    let Ok(overlay) = document.create_element("div") else { return };
    overlay.set_id("panic-overlay");
    let _ = overlay.set_attribute("role", "alert");
    let title = document.create_element("h2").ok();
    let text = document.create_element("p").ok();
    let pre = document.create_element("pre").ok();
    if let (Some(title), Some(text), Some(pre)) = (title, text, pre) {
        title.set_text_content(Some(t(key::SHELL_PANIC_TITLE)));
        text.set_text_content(Some(t(key::SHELL_PANIC_BODY)));
        pre.set_text_content(Some(detail));
        let _ = overlay.append_child(&title);
        let _ = overlay.append_child(&text);
        let _ = overlay.append_child(&pre);
    }
    let _ = body.append_child(&overlay);
}
