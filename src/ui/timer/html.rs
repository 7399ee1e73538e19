//! Display-only parts of the scene are written as markup (far less wasm than a view per cell),
//! always through [`Html`], so every text is escaped.

use crate::html;
use crate::markup::Html;

/// One table row: a row header, then cells (`class`, text).
pub fn row(out: &mut Html, testid: &str, header: &str, cells: &[(&str, String)]) {
    html!(out, r#"<tr data-testid="{}"><th scope="row">{}</th>"#, testid, header);
    for (class, text) in cells {
        html!(out, r#"<td class="{}">{}</td>"#, class, text);
    }
    html!(out, "</tr>");
}
