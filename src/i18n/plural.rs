//! Plural categories (CLDR rules for whole numbers) of the lab's five locales. In the
//! browser the same answers come from `Intl.PluralRules`; these rules are the native
//! fallback and what the tests pin.

use super::Locale;
use crate::model::kernel::Plural;

/// The CLDR plural category of the whole number `n` in `locale`.
pub fn plural_category(locale: Locale, n: i64) -> Plural {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_locale_picks_cldrs_categories() {
        let numbers = [0, 1, 2, 5, 21, 1_000_000];
        let categories = |locale| numbers.map(|n| plural_category(locale, n));
        use Plural::{Many, One, Other};
        assert_eq!(categories(Locale::En), [Other, One, Other, Other, Other, Other]);
        assert_eq!(categories(Locale::Tr), [Other, One, Other, Other, Other, Other]);
        assert_eq!(categories(Locale::Es), [Other, One, Other, Other, Other, Many]);
        assert_eq!(categories(Locale::PtBr), [One, One, Other, Other, Other, Many]);
        assert_eq!(categories(Locale::ZhCn), [Other; 6]);
    }
}
