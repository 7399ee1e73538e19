//! The model must stay pure: no UI or web crates, no wall clock, no unseeded randomness.

use std::fs;
use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn model_imports_no_ui_or_web_crate_and_reads_no_wall_clock() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/model"), &mut files);
    assert!(files.len() > 5, "src/model should hold the model's files");
    let forbidden = [
        "leptos",
        "web_sys",
        "wasm_bindgen",
        "js_sys",
        "gloo",
        "Instant::now",
        "SystemTime",
        "thread_rng",
        "from_entropy",
        "OsRng",
        "HashMap",
        "HashSet",
    ];
    let mut offences = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("readable file");
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if code.contains(word) {
                    offences.push(format!("{}:{}: {word}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(offences.is_empty(), "the model must stay pure:\n{}", offences.join("\n"));
}
