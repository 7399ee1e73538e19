//! The five locales of the lab and how a browser's or a link's language tag picks one.

/// A language the lab speaks: English and the course notes' four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Locale {
    #[default]
    En,
    Es,
    PtBr,
    ZhCn,
    Tr,
}

/// Every locale, in the language menu's order.
pub const LOCALES: &[Locale] = &[Locale::En, Locale::Es, Locale::PtBr, Locale::ZhCn, Locale::Tr];

impl Locale {
    /// The BCP 47 tag used in links (`lang=`), file names and `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Es => "es",
            Locale::PtBr => "pt-BR",
            Locale::ZhCn => "zh-CN",
            Locale::Tr => "tr",
        }
    }

    /// The language's own name, for the menu.
    pub fn native_name(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::Es => "Español",
            Locale::PtBr => "Português (Brasil)",
            Locale::ZhCn => "中文（简体）",
            Locale::Tr => "Türkçe",
        }
    }

    /// The locale a language tag asks for, if the lab has it: `es-MX` → es, `pt`/`pt-PT` →
    /// pt-BR, `zh`/`zh-Hans`/`zh-CN`/`zh-SG` → zh-CN (traditional `zh-TW`/`zh-Hant` → none).
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let tag = tag.trim().to_ascii_lowercase().replace('_', "-");
        let mut parts = tag.split('-');
        let language = parts.next()?;
        let rest: Vec<&str> = parts.collect();
        match language {
            "en" => Some(Locale::En),
            "es" => Some(Locale::Es),
            "pt" => Some(Locale::PtBr),
            "tr" => Some(Locale::Tr),
            "zh" => {
                let traditional = rest.iter().any(|p| matches!(*p, "hant" | "tw" | "hk" | "mo"));
                (!traditional).then_some(Locale::ZhCn)
            }
            _ => None,
        }
    }

    /// The first of a browser's preferred languages the lab has.
    pub fn negotiate<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Option<Locale> {
        preferred.into_iter().find_map(Locale::from_tag)
    }

    /// A decimal number written as the locale writes it (`9.000` → `9,000` in es, pt-BR, tr).
    pub fn decimal(self, english: &str) -> String {
        match self {
            Locale::Es | Locale::PtBr | Locale::Tr => english.replace('.', ","),
            Locale::En | Locale::ZhCn => english.to_string(),
        }
    }

    /// A count with the locale's digit grouping (CLDR: `1,000` en and zh, `1.000` pt-BR and tr,
    /// `1000` but `10.000` es). In the browser, `Intl.NumberFormat` writes it.
    pub fn count(self, n: i64) -> String {
        #[cfg(target_arch = "wasm32")]
        if let Some(text) = browser::format_count(self, n) {
            return text;
        }
        match self {
            Locale::En | Locale::ZhCn => crate::model::kernel::group_digits(n, ",", 4),
            Locale::PtBr | Locale::Tr => crate::model::kernel::group_digits(n, ".", 4),
            Locale::Es => crate::model::kernel::group_digits(n, ".", 5),
        }
    }

    /// The name of the file the app fetches for this locale from its bundle's folder
    /// (`locales/<bundle>-<version>/`); none for English, which is compiled in.
    pub fn file(self) -> Option<String> {
        (self != Locale::En).then(|| format!("{}.toml", self.tag()))
    }
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::cell::RefCell;

    use super::Locale;

    thread_local! {
        /// The locale's `Intl.NumberFormat(tag).format`, made once: building a formatter costs
        /// ~0.1 ms, and a step renders a count in every line it draws (a log step that rolls
        /// 100 segments wrote 200 counts: 28 ms of its 110, CPU profile).
        static FORMAT: RefCell<Option<(Locale, js_sys::Function)>> = const { RefCell::new(None) };
    }

    /// `n` as `Intl.NumberFormat` writes it in `locale`.
    pub fn format_count(locale: Locale, n: i64) -> Option<String> {
        FORMAT.with(|format| {
            let mut format = format.borrow_mut();
            if format.as_ref().map(|(l, _)| *l) != Some(locale) {
                let tags = js_sys::Array::of1(&locale.tag().into());
                *format = Some((locale, js_sys::Intl::NumberFormat::new(&tags, &js_sys::Object::new()).format()));
            }
            let (_, format) = format.as_ref()?;
            format.call1(&wasm_bindgen::JsValue::NULL, &(n as f64).into()).ok()?.as_string()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_tags_pick_the_labs_locales() {
        assert_eq!(Locale::from_tag("pt"), Some(Locale::PtBr));
        assert_eq!(Locale::from_tag("pt-PT"), Some(Locale::PtBr));
        assert_eq!(Locale::from_tag("zh-Hans-CN"), Some(Locale::ZhCn));
        assert_eq!(Locale::from_tag("zh"), Some(Locale::ZhCn));
        assert_eq!(Locale::from_tag("zh-TW"), None);
        assert_eq!(Locale::from_tag("es-419"), Some(Locale::Es));
        assert_eq!(Locale::from_tag("de-DE"), None);
        assert_eq!(Locale::negotiate(["de", "fr-CA", "tr-TR", "es"]), Some(Locale::Tr));
        for locale in LOCALES {
            assert_eq!(Locale::from_tag(locale.tag()), Some(*locale));
        }
    }

    #[test]
    fn counts_take_the_locales_grouping() {
        assert_eq!(Locale::En.count(1000), "1,000");
        assert_eq!(Locale::Es.count(1000), "1000");
        assert_eq!(Locale::Es.count(10_000), "10.000");
        assert_eq!(Locale::PtBr.count(1_000_000), "1.000.000");
        assert_eq!(Locale::Tr.count(999), "999");
    }

    #[test]
    fn decimals_take_the_locales_separator() {
        assert_eq!(Locale::Es.decimal("41.956"), "41,956");
        assert_eq!(Locale::ZhCn.decimal("41.956"), "41.956");
    }
}
