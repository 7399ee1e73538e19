//! The stylesheets keep their colours in browsers without CSS `light-dark()` (before Chrome 123 /
//! Safari 17.5): a custom property set to `light-dark(…)` there is invalid at computed time and the
//! colour is lost, so every `light-dark(` must sit inside `@supports (color: light-dark(…))`, with
//! plain light values outside it.

use std::fs;

/// The byte ranges of `@supports (color: light-dark…) { … }` blocks in `css`.
fn supported_blocks(css: &str) -> Vec<(usize, usize)> {
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(at) = css[from..].find("@supports (color: light-dark(") {
        let start = from + at;
        let open = start + css[start..].find('{').expect("a block after @supports");
        let mut depth = 0;
        let mut end = open;
        for (i, c) in css[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        blocks.push((start, end));
        from = end;
    }
    blocks
}

/// `css` with each comment blanked out (same length, so line numbers stay).
fn without_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").map_or(rest.len(), |e| start + e + 2);
        out.extend(rest[start..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn every_light_dark_colour_has_a_fallback_for_older_browsers() {
    let mut unguarded = Vec::new();
    for entry in fs::read_dir("www").expect("www/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "css") {
            continue;
        }
        let css = without_comments(&fs::read_to_string(&path).expect("a stylesheet"));
        let blocks = supported_blocks(&css);
        for (at, _) in css.match_indices("light-dark(") {
            let line_start = css[..at].rfind('\n').map_or(0, |i| i + 1);
            let condition = css[line_start..at].contains("@supports");
            let guarded = condition || blocks.iter().any(|(start, end)| at > *start && at < *end);
            if !guarded {
                let line = css[..at].lines().count();
                unguarded.push(format!("{}:{line}", path.display()));
            }
        }
    }
    assert!(unguarded.is_empty(), "light-dark() outside @supports (color: light-dark(…)): {unguarded:?}");
}
