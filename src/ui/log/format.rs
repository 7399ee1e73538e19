//! Pure helpers of the log scene: numbers as a learner reads them, strip slots, axis geometry.

/// `1048576` → `1 MiB`, `253290` → `247.4 KiB` (binary units, as Kafka's defaults are written).
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if (value - value.round()).abs() < 0.05 {
        format!("{} {}", fixed(value, 0), UNITS[unit])
    } else {
        format!("{} {}", fixed(value, 1), UNITS[unit])
    }
}

pub use crate::markup::fixed;

/// `3600000` → `1 h`, `604800000` → `7 d`, `90500` → `1 min 30 s`; negative → `−1 (never)` is left to the caller.
pub fn duration(ms: i64) -> String {
    if ms < 0 {
        return format!("{ms} ms");
    }
    if ms < 1000 {
        return format!("{ms} ms");
    }
    let s = ms / 1000;
    let parts = [(s / 86_400, "d"), (s / 3600 % 24, "h"), (s / 60 % 60, "min"), (s % 60, "s")];
    let first = parts.iter().position(|(v, _)| *v > 0).unwrap_or(3);
    parts[first..(first + 2).min(4)]
        .iter()
        .filter(|(v, _)| *v > 0)
        .map(|(v, u)| format!("{v} {u}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `1234567` → `1 234 567` (thin spaces keep long offsets readable).
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// A slot of the directory strip: a segment (by index) or a run of hidden segments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Segment(usize),
    Gap { from: usize, to: usize },
}

/// Which of `count` segments the strip draws: all when at most `max`, else the first few,
/// a window around `selected`, and the newest ones, with gaps between.
pub fn strip_slots(count: usize, selected: usize, max: usize) -> Vec<Slot> {
    if count <= max {
        return (0..count).map(Slot::Segment).collect();
    }
    let tail = max / 2;
    let mut shown: Vec<usize> = (0..4.min(count)).collect();
    shown.extend(selected.saturating_sub(6)..(selected + 7).min(count));
    shown.extend(count - tail..count);
    crate::model::kernel::order::sort(&mut shown);
    shown.dedup();
    let mut slots = Vec::new();
    let mut previous: Option<usize> = None;
    for i in shown {
        if let Some(p) = previous {
            if i > p + 1 {
                slots.push(Slot::Gap { from: p + 1, to: i - 1 });
            }
        }
        slots.push(Slot::Segment(i));
        previous = Some(i);
    }
    slots
}

/// Percent of `width` where `value` sits on the axis `0..=end` (clamped, for SVG/CSS geometry).
pub fn percent(value: f64, end: f64) -> f64 {
    if end <= 0.0 {
        return 0.0;
    }
    (value / end * 100.0).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_like_kafka_defaults() {
        assert_eq!(bytes(1_073_741_824), "1 GiB");
        assert_eq!(bytes(1_048_576), "1 MiB");
        assert_eq!(bytes(900), "900 B");
        assert_eq!(bytes(253_290), "247.4 KiB");
        assert_eq!(fixed(12.3456, 3), "12.346");
        assert_eq!(fixed(0.05, 2), "0.05");
        assert_eq!(duration(604_800_000), "7 d");
        assert_eq!(duration(3_600_000), "1 h");
        assert_eq!(duration(90_500), "1 min 30 s");
        assert_eq!(grouped(368_500), "368\u{2009}500");
    }

    #[test]
    fn a_long_directory_keeps_its_ends_and_the_selection() {
        assert_eq!(strip_slots(3, 0, 10).len(), 3);
        let slots = strip_slots(1000, 500, 40);
        assert_eq!(slots[0], Slot::Segment(0));
        assert!(slots.contains(&Slot::Segment(500)));
        assert_eq!(*slots.last().unwrap(), Slot::Segment(999));
        assert!(slots.iter().any(|s| matches!(s, Slot::Gap { .. })));
        assert!(slots.len() < 60);
    }
}
