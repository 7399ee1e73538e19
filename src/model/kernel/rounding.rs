//! A float rounded to a few decimals exactly as `format!("{:.N}")` rounds it (the exact binary
//! value, a tie to even), as a whole number of units (`decimal_units(12.25, 1)` is 122), so
//! that a page can write it with [`write_decimal`](super::write_decimal) and link no float
//! formatting code.

/// `v` rounded to `places` decimals (at most 6), in units of `10^-places`, as `{:.N}` rounds it.
/// Values beyond `i64` saturate; NaN is 0.
pub fn decimal_units(v: f64, places: u32) -> i64 {
    debug_assert!(places <= 6, "at most 6 places");
    if v.is_nan() {
        return 0;
    }
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    // |v| = mantissa × 2^exponent exactly.
    let (mantissa, exponent) = if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) };
    let scaled = u128::from(mantissa) * 10u128.pow(places.min(6));
    let magnitude = if exponent >= 0 {
        if exponent > 40 {
            u128::MAX
        } else {
            scaled << exponent
        }
    } else {
        let shift = exponent.unsigned_abs();
        if shift >= 127 {
            0
        } else {
            let (whole, rest, half) = (scaled >> shift, scaled & ((1 << shift) - 1), 1u128 << (shift - 1));
            whole + u128::from(rest > half || (rest == half && whole & 1 == 1))
        }
    };
    let magnitude = i64::try_from(magnitude).unwrap_or(i64::MAX);
    if bits >> 63 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_formatting(v: f64, places: usize) -> i64 {
        format!("{v:.places$}").replace('.', "").parse().unwrap()
    }

    #[test]
    fn rounds_as_formatting_does_at_ties_near_ties_and_everywhere_between() {
        let mut values = vec![0.0, -0.0, 0.05, 0.15, 0.25, 0.35, 12.25, 12.75, 99.95, 100.0, -8.25, 1e-300, 5e-324];
        // Every quarter and twentieth up to 200 (the exact ties and the near ones), and a spread
        // of other bit patterns.
        values.extend((0..4000).map(|k| f64::from(k) / 20.0));
        values.extend((0..800).map(|k| f64::from(k) / 4.0));
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..20_000 {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            values.push(f64::from((state >> 40) as u32) / 1000.0);
        }
        for v in values {
            for places in 0..=3 {
                assert_eq!(decimal_units(v, places), by_formatting(v, places as usize), "{v:e} to {places} places");
            }
        }
    }
}
