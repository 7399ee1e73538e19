//! Display-only parts of the scene are written as markup (far less wasm than a view per cell).

use std::fmt::Write;

/// Text for markup: origins and catalog texts may hold `<`, `&` or quotes.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// One table row: a row header, then cells (`class`, text), all escaped.
pub fn row(out: &mut String, testid: &str, header: &str, cells: &[(&str, String)]) {
    let _ = write!(out, r#"<tr data-testid="{testid}"><th scope="row">{}</th>"#, escape(header));
    for (class, text) in cells {
        let _ = write!(out, r#"<td class="{class}">{}</td>"#, escape(text));
    }
    out.push_str("</tr>");
}
