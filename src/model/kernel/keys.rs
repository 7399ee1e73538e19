//! Declaring a scene's message keys: `crate::messages! { … }`, each key with its English
//! template (left out of the site's wasm, which reads English from its locale files).

/// A model key's English template. A build with `--cfg english_in_locale_files` (the site's wasm:
/// .cargo/config.toml, scripts/build-static) leaves templates out, because its pages read every
/// language's texts, English's too, from their locale files (src/ui/language.rs).
#[cfg(not(english_in_locale_files))]
#[macro_export]
macro_rules! english_template {
    ($en:literal) => {
        $en
    };
}

/// See above: no template, the English is in the page's locale file.
#[cfg(english_in_locale_files)]
#[macro_export]
macro_rules! english_template {
    ($en:literal) => {
        ""
    };
}

/// Declares a scene's message keys: `messages! { pub TABLE; NAME = "id" => "English template"; … }`
/// makes one `pub const NAME: Key` per line and `TABLE`, the list of all of them (for the catalog).
/// The site's wasm carries no templates (see [`english_template!`]): its pages read English from a
/// locale file like every other language, so a translated page does not ship English as well.
#[macro_export]
macro_rules! messages {
    ($vis:vis $table:ident; $($name:ident = $id:literal => $en:literal;)*) => {
        $(#[allow(missing_docs)] $vis const $name: $crate::model::kernel::Key =
            $crate::model::kernel::Key { id: $id, en: $crate::english_template!($en) };)*
        /// Every key above, for the catalog and its tests.
        $vis const $table: &[$crate::model::kernel::Key] = &[$($name),*];
    };
}
