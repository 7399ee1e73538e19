//! The Leptos app (CSR): the shell (navigation, transport, log, links, embed)
//! and one folder per scene. No Kafka logic here: views read the model and send commands.

mod app;
pub(crate) use app::{mount, Mounted};
mod config_panel;
mod embed;
mod event_log;
pub(crate) mod groups;
mod keyboard;
pub(crate) mod log;
pub mod markup;
pub(crate) mod overview;
pub(crate) mod partitioner;
pub(crate) mod replication;
mod session;
pub(crate) mod timer;
mod transport;
mod url;
mod widgets;

use crate::i18n::t;

/// Entry point: installs the panic overlay and mounts the app.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_panic_overlay(&info.to_string());
    }));
    leptos::mount::mount_to_body(app::App);
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
        title.set_text_content(Some(t("shell.panic.title")));
        text.set_text_content(Some(t("shell.panic.body")));
        pre.set_text_content(Some(detail));
        let _ = overlay.append_child(&title);
        let _ = overlay.append_child(&text);
        let _ = overlay.append_child(&pre);
    }
    let _ = body.append_child(&overlay);
}
