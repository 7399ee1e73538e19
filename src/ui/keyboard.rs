//! Keyboard shortcuts: Space play/pause, → / PageDown step, ← / PageUp back, ? help.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What a key asks the shell to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    TogglePlay,
    Step,
    Back,
    ToggleHelp,
    /// `p`: presenter mode on or off.
    TogglePresent,
    CloseHelp,
    /// `[` `]` the previous/next key moment, Home/End the start/end.
    Jump(super::story::Jump),
}

/// Maps a key to an action; ignores keys typed into form fields.
fn action_for(event: &web_sys::KeyboardEvent) -> Option<KeyAction> {
    if event.ctrl_key() || event.meta_key() || event.alt_key() {
        return None;
    }
    let tag =
        event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|el| el.tag_name()).unwrap_or_default();
    // Fields keep their own keys; a focused button keeps Space (it presses the button).
    let typing = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
    let key = event.key();
    match key.as_str() {
        "?" if !typing => Some(KeyAction::ToggleHelp),
        "p" | "P" if !typing => Some(KeyAction::TogglePresent),
        "Escape" => Some(KeyAction::CloseHelp),
        " " if !typing && tag != "BUTTON" => Some(KeyAction::TogglePlay),
        "PageDown" => Some(KeyAction::Step),
        "PageUp" => Some(KeyAction::Back),
        "ArrowRight" if !typing => Some(KeyAction::Step),
        "ArrowLeft" if !typing => Some(KeyAction::Back),
        other if !typing => super::story_bar::jump_for(other).map(KeyAction::Jump),
        _ => None,
    }
}

/// Listens on the window for the page's lifetime; the listener is removed on cleanup.
pub fn listen(on_action: impl Fn(KeyAction) + 'static) {
    let handle = window_event_listener(ev::keydown, move |event| {
        if let Some(action) = action_for(&event) {
            event.prevent_default();
            on_action(action);
        }
    });
    on_cleanup(move || handle.remove());
}
