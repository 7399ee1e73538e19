//! Durations as a person reads them, in the active locale: `350 ms`, `9.5 s`, `2 min 05 s`,
//! `24 h`, `3 d 04 h` — each with the locale's unit words and decimal separator.

use super::{key, t, Locale};

/// `ms` as a human duration in `locale` (the exact milliseconds go in a tooltip beside it).
pub fn duration(locale: Locale, ms: u64) -> String {
    let units =
        [key::SHELL_UNIT_MS, key::SHELL_UNIT_S, key::SHELL_UNIT_MIN, key::SHELL_UNIT_H, key::SHELL_UNIT_D].map(t);
    let [a, b, c, d, e] = &units;
    crate::model::kernel::write_duration(ms, [a, b, c, d, e], &|text| locale.decimal(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_says_them() {
        let en = |ms| duration(Locale::En, ms);
        assert_eq!(en(0), "0 ms");
        assert_eq!(en(350), "350 ms");
        assert_eq!(en(9_000), "9 s");
        assert_eq!(en(41_956), "41.956 s");
        assert_eq!(en(9_500), "9.5 s");
        assert_eq!(en(125_000), "2 min 05 s");
        assert_eq!(en(86_400_000), "1 d");
        assert_eq!(en(24 * 3_600_000 - 60_000), "23 h 59 min");
        assert_eq!(en(3_600_000), "1 h");
        assert_eq!(duration(Locale::Es, 41_956), "41,956 s");
    }
}
