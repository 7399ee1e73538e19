//! Durations as a person reads them, in the active locale: `350 ms`, `9.5 s`, `2 min 05 s`,
//! `24 h`, `3 d 04 h` — each with the locale's unit words and decimal separator.

use super::{key, t, Locale};

/// `ms` as a human duration in `locale` (the exact milliseconds go in a tooltip beside it).
pub fn duration(locale: Locale, ms: u64) -> String {
    let unit = |k: &'static str| t(k);
    let (s, m, h, d) = (1_000, 60_000, 3_600_000, 86_400_000);
    if ms < s {
        return format!("{ms} {}", unit(key::SHELL_UNIT_MS));
    }
    if ms < m {
        let whole = ms / s;
        let fraction = ms % s;
        let text = if fraction == 0 {
            whole.to_string()
        } else {
            let digits = format!("{fraction:03}");
            locale.decimal(&format!("{whole}.{}", digits.trim_end_matches('0')))
        };
        return format!("{text} {}", unit(key::SHELL_UNIT_S));
    }
    let pair = |big: u64, big_key: &'static str, small: u64, small_key: &'static str| {
        if small == 0 {
            format!("{big} {}", unit(big_key))
        } else {
            format!("{big} {} {small:02} {}", unit(big_key), unit(small_key))
        }
    };
    if ms < h {
        return pair(ms / m, key::SHELL_UNIT_MIN, (ms % m) / s, key::SHELL_UNIT_S);
    }
    if ms < d {
        return pair(ms / h, key::SHELL_UNIT_H, (ms % h) / m, key::SHELL_UNIT_MIN);
    }
    pair(ms / d, key::SHELL_UNIT_D, (ms % d) / h, key::SHELL_UNIT_H)
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
