//! The wasm entry point: mounts the Leptos app. Natively it only explains itself.

#[cfg(target_arch = "wasm32")]
fn main() {
    kafka_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!("Kafka Lab runs in the browser: see README.md (scripts/run).");
}
