//! Plural categories (CLDR rules for whole numbers) of the lab's five locales. In the
//! browser the same answers come from `Intl.PluralRules`; these rules are the native
//! fallback and what the tests pin.

use super::Locale;
use crate::model::kernel::Plural;

/// The plural category of the whole number `n` in `locale`: the browser's own
/// `Intl.PluralRules` on wasm, the same CLDR rules natively.
pub fn plural_category(locale: Locale, n: i64) -> Plural {
    #[cfg(target_arch = "wasm32")]
    if let Some(category) = browser::select(locale, n) {
        return category;
    }
    cldr_category(locale, n)
}

/// The CLDR plural category of the whole number `n` in `locale` (native rules).
pub fn cldr_category(locale: Locale, n: i64) -> Plural {
    let i = n.unsigned_abs();
    let millions = i != 0 && i.is_multiple_of(1_000_000);
    match locale {
        Locale::En | Locale::Tr => {
            if i == 1 {
                Plural::One
            } else {
                Plural::Other
            }
        }
        // Spanish: one = 1; many = a non-zero multiple of a million ("1 millón de registros").
        Locale::Es => match i {
            1 => Plural::One,
            _ if millions => Plural::Many,
            _ => Plural::Other,
        },
        // Portuguese: one = 0 and 1 ("0 registro"); many as in Spanish.
        Locale::PtBr => match i {
            0 | 1 => Plural::One,
            _ if millions => Plural::Many,
            _ => Plural::Other,
        },
        Locale::ZhCn => Plural::Other,
    }
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::cell::RefCell;

    use super::{Locale, Plural};

    thread_local! {
        static RULES: RefCell<Option<(Locale, js_sys::Intl::PluralRules)>> = const { RefCell::new(None) };
    }

    /// `new Intl.PluralRules(tag).select(n)`, the rules object kept for the locale in use.
    pub fn select(locale: Locale, n: i64) -> Option<Plural> {
        RULES.with(|rules| {
            let mut rules = rules.borrow_mut();
            if rules.as_ref().map(|(l, _)| *l) != Some(locale) {
                let tags = js_sys::Array::of1(&locale.tag().into());
                *rules = Some((locale, js_sys::Intl::PluralRules::new(&tags, &js_sys::Object::new())));
            }
            let category = String::from(rules.as_ref()?.1.select(n as f64));
            Some(match category.as_str() {
                "zero" => Plural::Zero,
                "one" => Plural::One,
                "two" => Plural::Two,
                "few" => Plural::Few,
                "many" => Plural::Many,
                _ => Plural::Other,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_locale_picks_cldrs_categories() {
        let numbers = [0, 1, 2, 5, 21, 1_000_000];
        let categories = |locale| numbers.map(|n| cldr_category(locale, n));
        use Plural::{Many, One, Other};
        assert_eq!(categories(Locale::En), [Other, One, Other, Other, Other, Other]);
        assert_eq!(categories(Locale::Tr), [Other, One, Other, Other, Other, Other]);
        assert_eq!(categories(Locale::Es), [Other, One, Other, Other, Other, Many]);
        assert_eq!(categories(Locale::PtBr), [One, One, Other, Other, Other, Many]);
        assert_eq!(categories(Locale::ZhCn), [Other; 6]);
    }
}
