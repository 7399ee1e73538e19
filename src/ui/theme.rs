//! The colour theme: the link's `theme=` (an embedding lesson page picks it), else the
//! learner's last choice (remembered in the browser), else the system's. The ◐ button cycles
//! system → light → dark → system.

use std::cell::Cell;

use crate::link::Theme;

const STORAGE_KEY: &str = "kafka-lab.theme";

thread_local! {
    /// The theme the page's own link named (kept in every link the page writes).
    static LINK_THEME: Cell<Option<Theme>> = const { Cell::new(None) };
}

/// The theme a link the page writes should name.
pub fn in_link() -> Option<Theme> {
    LINK_THEME.with(Cell::get)
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The theme in force for a link: the link's, else the remembered one, else the system's.
pub fn chosen(link_theme: Option<Theme>) -> Theme {
    LINK_THEME.with(|cell| cell.set(link_theme));
    link_theme
        .or_else(|| storage()?.get_item(STORAGE_KEY).ok().flatten().and_then(|t| Theme::from_token(&t)))
        .unwrap_or(Theme::Auto)
}

/// Sets `data-theme` on the root (none for the system's theme).
pub fn apply(theme: Theme) {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else {
        return;
    };
    let _ = match theme {
        Theme::Auto => root.remove_attribute("data-theme"),
        fixed => root.set_attribute("data-theme", fixed.token()),
    };
}

/// The learner picked `theme`: apply it and remember it for every scene and reload.
pub fn choose(theme: Theme) {
    apply(theme);
    if let Some(storage) = storage() {
        let _ = storage.set_item(STORAGE_KEY, theme.token());
    }
}
