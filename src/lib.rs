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

/// A bundle's `main`: the shell with one scene (`bundle!(overview, EN_OVERVIEW)`), its embed
/// (`bundle!(overview, EN_OVERVIEW, embed)`: the stage alone) or its comparison
/// (`bundle!(overview, EN_OVERVIEW, compare)`: `vs=` links), or the front page
/// (`bundle!(home)`), or the lab notebook (`bundle!(notebook)`). Natively the binary only explains itself.
#[macro_export]
macro_rules! bundle {
    (home) => {
        $crate::bundle!(@main $crate::ui::start_home, "home", "home", None,
            &[$crate::i18n::EN_SHELL, $crate::i18n::EN_SCENE, $crate::i18n::EN_HOME]);
    };
    (notebook) => {
        $crate::bundle!(@main $crate::ui::start_notebook, "notebook", "notebook", None,
            &[$crate::i18n::EN_SHELL, $crate::i18n::EN_SCENE, $crate::i18n::EN_NOTEBOOK, $crate::i18n::EN_RECORD]);
    };
    ($scene:ident, $table:ident) => {
        $crate::bundle!(@main $crate::ui::start_scene::<$crate::ui::Full>, stringify!($scene), stringify!($scene), Some($crate::scenes::mounts::$scene),
            &[$crate::i18n::EN_SHELL, $crate::i18n::EN_SCENE, $crate::i18n::$table, $crate::i18n::EN_RECORD]);
    };
    ($scene:ident, $table:ident, embed) => {
        // No `record` texts: they belong to the notebook buttons, which an embed does not show.
        $crate::bundle!(@main $crate::ui::start_scene::<$crate::ui::Stage>, stringify!($scene), concat!(stringify!($scene), "-embed"),
            Some($crate::scenes::mounts::stage::$scene), &[$crate::i18n::EN_SHELL, $crate::i18n::EN_SCENE, $crate::i18n::$table]);
    };
    ($scene:ident, $table:ident, compare) => {
        $crate::bundle!(@main $crate::ui::start_scene::<$crate::ui::Full>, stringify!($scene), stringify!($scene), Some($crate::scenes::mounts::compared::$scene),
            &[$crate::i18n::EN_SHELL, $crate::i18n::EN_SCENE, $crate::i18n::$table, $crate::i18n::EN_RECORD]);
    };
    (@main $start:expr, $id:expr, $texts:expr, $mount:expr, $english:expr) => {
        #[cfg(target_arch = "wasm32")]
        fn main() {
            static BUNDLE: $crate::ui::Bundle = $crate::ui::Bundle { id: $id, texts: $texts, mount: $mount, english: $english };
            ($start)(&BUNDLE);
        }

        #[cfg(not(target_arch = "wasm32"))]
        fn main() {
            println!("Kafka Lab runs in the browser: see README.md (scripts/run).");
        }
    };
}
