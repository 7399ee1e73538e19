//! Display-only parts of the scene are written as markup (far less wasm than a view per cell).

use std::fmt::Write;

pub use crate::markup::esc as escape;

/// One table row: a row header, then cells (`class`, text), all escaped.
pub fn row(out: &mut String, testid: &str, header: &str, cells: &[(&str, String)]) {
    let _ = write!(out, r#"<tr data-testid="{testid}"><th scope="row">{}</th>"#, escape(header));
    for (class, text) in cells {
        let _ = write!(out, r#"<td class="{class}">{}</td>"#, escape(text));
    }
    out.push_str("</tr>");
}
