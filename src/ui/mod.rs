//! The Leptos app (CSR): the shell (navigation, transport, log, links, embed)
//! and one folder per scene. No Kafka logic here: views read the model and send commands.

mod app;
pub(crate) use app::mount;
pub use app::Mounted;
pub(crate) use notebook::compare::mount_compared;
mod config_panel;
mod embed;
mod event_log;
pub(crate) mod groups;
mod home;
mod keyboard;
mod keyed;
mod language;
pub(crate) mod log;
pub mod markup;
pub(crate) mod notebook;
pub(crate) mod overview;
pub(crate) mod partitioner;
mod present;
pub(crate) mod replication;
mod session;
mod story;
mod story_bar;
mod theme;
pub(crate) mod timer;
pub(crate) mod transactions;
mod transport;
mod url;
mod widgets;
pub use widgets::{Full, Layout, Stage};

/// What one bundle (one page's wasm) holds: its scene, or the front page, and where its texts
/// are. Each `src/bin/` file names one.
pub struct Bundle {
    /// The bundle's id: a scene's link id, or `home` for the front page.
    pub id: &'static str,
    /// The folder of its locale files (`locales/<texts>-<version>/`, English's too, each with the
    /// keys its code names): its id, or its scene's for a comparison, which reads the scene page's
    /// files (the version: src/ui/language.rs).
    pub texts: &'static str,
    /// Opens the bundle's scene (`None`: the front page, which lists the scenes).
    pub mount: Option<fn(&crate::link::LinkState) -> Mounted>,
}

thread_local! {
    static BUNDLE: std::cell::Cell<Option<&'static Bundle>> = const { std::cell::Cell::new(None) };
}

/// The id of the running bundle (`home` until one starts).
pub(crate) fn bundle_id() -> &'static str {
    BUNDLE.with(|b| b.get()).map_or("home", |b| b.id)
}

/// The folder of the running bundle's locale files.
pub(crate) fn bundle_texts() -> &'static str {
    BUNDLE.with(|b| b.get()).map_or("home", |b| b.texts)
}

/// Entry point of a scene's bundle: the shell around its scene (`L`: all of it, or an embed's
/// stage alone).
pub fn start_scene<L: widgets::Layout>(bundle: &'static Bundle) {
    use leptos::prelude::*;
    start(bundle, |bundle| bundle.mount.map(|mount| app::app::<L>(mount)).into_any());
}

/// Entry point of the front page's bundle (it never links the scene shell).
pub fn start_home(bundle: &'static Bundle) {
    use leptos::prelude::*;
    start(bundle, |_| view! { <home::Home/> }.into_any());
}

/// Entry point of the lab notebook's bundle (`?scene=notebook`): its page, no scene shell.
pub fn start_notebook(bundle: &'static Bundle) {
    use leptos::prelude::*;
    start(bundle, |_| view! { <notebook::NotebookPage/> }.into_any());
}

type Root = fn(&'static Bundle) -> leptos::prelude::AnyView;

/// Installs the panic hook, fetches the texts of the page's language and mounts the bundle's
/// root view in it.
fn start(bundle: &'static Bundle, root: Root) {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        keep_panic_detail(&info.to_string());
    }));
    BUNDLE.with(|b| b.set(Some(bundle)));
    let query = url::current_query();
    let locale = language::choose(&query);
    // The page's bootstrap has asked for this file already (scripts/site.mjs, LAUNCH), beside the
    // wasm; the app draws once it is here. Should it fail, English; should English fail too, the
    // app still draws (with its texts' keys) rather than leave a blank page.
    language::load(locale, move |entries| match entries {
        Some(entries) => mount_in(bundle, root, locale, entries, &query),
        None if locale != crate::i18n::Locale::En => language::load(crate::i18n::Locale::En, move |entries| {
            mount_in(bundle, root, crate::i18n::Locale::En, entries.unwrap_or_default(), &query)
        }),
        None => mount_in(bundle, root, locale, Vec::new(), &query),
    });
}

fn mount_in(
    bundle: &'static Bundle,
    root: Root,
    locale: crate::i18n::Locale,
    texts: Vec<(String, String)>,
    query: &str,
) {
    crate::i18n::activate(locale, texts);
    language::mark_document(locale);
    let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) else { return };
    leptos::mount::mount_to(body, move || root(bundle)).forget();
    debug_trigger(query);
}

/// A panic aborts the module (`panic = "abort"`): the page's bootstrap script catches the
/// `RuntimeError` that follows — as it does an out-of-memory abort, which runs no hook — and
/// draws the overlay from plain DOM. The hook only leaves the panic's message for it; the
/// release build (`scripts/build-static`) makes a panic a bare trap, so there it never runs and
/// the overlay shows without the message.
fn keep_panic_detail(detail: &str) {
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
    if let Some(root) = root {
        let _ = root.set_attribute("data-panic", detail);
    }
}

/// `debug=panic` (a Rust panic) and `debug=trap` (an abort that runs no hook, like running out
/// of memory) stop the page on purpose, a moment after it first drew, so the browser tests can
/// check that no failure leaves a blank page.
fn debug_trigger(query: &str) {
    let wanted = query.trim_start_matches('?').split('&').find_map(|pair| pair.strip_prefix("debug="));
    let Some(kind @ ("panic" | "trap")) = wanted else { return };
    let trap = kind == "trap";
    gloo_timers::callback::Timeout::new(50, move || {
        if trap {
            std::process::abort();
        }
        panic!("debug=panic: a panic asked for by the link");
    })
    .forget();
}
