//! Presenter mode (`present=1`, or the `p` key): the stage fills a projector's screen, type and
//! diagram labels scale with the viewport, prose folds away, and the clicker keys drive the
//! transport. The mode is kept in every link the page writes, so a reload stays in it.

use std::cell::Cell;

thread_local! {
    static PRESENTING: Cell<bool> = const { Cell::new(false) };
}

/// Whether links the page writes should say `present=1`.
pub fn in_link() -> bool {
    PRESENTING.with(Cell::get)
}

/// Turns presenter mode on or off: the root element's `present` class drives the styles.
pub fn apply(on: bool) {
    PRESENTING.with(|cell| cell.set(on));
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else {
        return;
    };
    let _ = root.class_list().toggle_with_force("present", on);
}
