//! The code stays in pieces a reader can hold: files of at most ~400 lines and
//! functions of at most ~70 lines, as `cargo fmt` writes them.

use std::fs;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 400;
const MAX_FN_LINES: usize = 70;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `(name, first line, length)` of every `fn` whose body starts on its signature's last line.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let is_fn = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn ", "const fn ", "pub const fn "]
            .iter()
            .any(|p| trimmed.starts_with(p));
        if !is_fn {
            i += 1;
            continue;
        }
        let name = trimmed.split("fn ").nth(1).unwrap_or("").split(['(', '<']).next().unwrap_or("").to_string();
        let indent = lines[i].len() - trimmed.len();
        // The body ends at the first line after it that closes at the same indentation.
        let end = (i + 1..lines.len()).find(|&j| {
            let line = lines[j];
            line.len() - line.trim_start().len() == indent && line.trim_start().starts_with('}')
        });
        if let Some(end) = end {
            if !lines[i..=end].iter().any(|l| l.trim_end().ends_with(';') && l.trim_start().starts_with("fn ")) {
                found.push((name, i + 1, end - i + 1));
            }
        }
        i += 1;
    }
    found
}

#[test]
fn files_and_functions_stay_small() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "examples"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        if path.exists() {
            rust_files(&path, &mut files);
        }
    }
    let mut too_big = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("readable file");
        let shown = file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&file).display().to_string();
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            too_big.push(format!("{shown}: {lines} lines"));
        }
        for (name, at, length) in functions(&text) {
            if length > MAX_FN_LINES {
                too_big.push(format!("{shown}:{at}: fn {name} is {length} lines"));
            }
        }
    }
    assert!(too_big.is_empty(), "split these by concern:\n{}", too_big.join("\n"));
}
