//! Kafka Lab: a deterministic model of Apache Kafka's internals (`model`) and,
//! on wasm32, the Leptos app that shows it (`ui`).

pub mod i18n;
pub mod link;
pub mod markup;
pub mod model;
pub mod notebook;
pub mod scenes;

#[cfg(target_arch = "wasm32")]
pub mod ui;

/// A bundle's start: the shell with one scene (`bundle!(overview)`), its embed
/// (`bundle!(overview, embed)`: the stage alone) or its comparison
/// (`bundle!(overview, compare)`: `vs=` links), or the front page
/// (`bundle!(home)`), or the lab notebook (`bundle!(notebook)`). Natively the binary only explains itself.
/// On wasm it is wasm-bindgen's start function, not `main`: each bundle's file says
/// `#![cfg_attr(target_arch = "wasm32", no_main)]`, so std's runtime entry (which flushes stdout at
/// exit) stays out of the bundle, 0.3 KB gzip a page (scripts/size).
#[macro_export]
macro_rules! bundle {
    (home) => {
        $crate::bundle!(@main $crate::ui::start_home, "home", "home", None);
    };
    (notebook) => {
        $crate::bundle!(@main $crate::ui::start_notebook, "notebook", "notebook", None);
    };
    ($scene:ident) => {
        $crate::bundle!(@main $crate::ui::start_scene::<$crate::ui::Full>, stringify!($scene), stringify!($scene), Some($crate::scenes::mounts::$scene));
    };
    ($scene:ident, embed) => {
        // Locale files of its own, with only the texts the stage names (scripts/site.mjs).
        $crate::bundle!(@main $crate::ui::start_scene::<$crate::ui::Stage>, stringify!($scene), concat!(stringify!($scene), "-embed"),
            Some($crate::scenes::mounts::stage::$scene));
    };
    ($scene:ident, compare) => {
        $crate::bundle!(@main $crate::ui::start_scene::<$crate::ui::Full>, stringify!($scene), stringify!($scene), Some($crate::scenes::mounts::compared::$scene));
    };
    (@main $start:expr, $id:expr, $texts:expr, $mount:expr) => {
        #[cfg(target_arch = "wasm32")]
        #[::wasm_bindgen::prelude::wasm_bindgen(start)]
        pub fn start() {
            static BUNDLE: $crate::ui::Bundle = $crate::ui::Bundle { id: $id, texts: $texts, mount: $mount };
            ($start)(&BUNDLE);
        }

        #[cfg(not(target_arch = "wasm32"))]
        fn main() {
            println!("Kafka Lab runs in the browser: see README.md (scripts/run).");
        }
    };
}
