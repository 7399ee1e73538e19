//! Pure geometry of the scene's drawings (no Leptos): dot grids per partition column,
//! column labels and the sticky timeline's time axis.

use std::fmt::Write;

use crate::html;
use crate::markup::{fixed, Html, Tenths};
use crate::model::partitioner::{SampledKey, TOPIC};

/// Width of every drawing's viewBox.
pub const WIDTH: f64 = 960.0;
/// Space above the dots (the watched key's marker) and below them (partition labels).
pub const TOP: f64 = 26.0;
pub const BOTTOM: f64 = 20.0;
const PITCH: f64 = 10.0;

/// One drawn key: where it sits now and whether its partition changed at the last alter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dot {
    pub index: u32,
    pub x: f64,
    pub y: f64,
    pub moved: bool,
}

pub fn column_width(partitions: u32) -> f64 {
    WIDTH / f64::from(partitions.max(1))
}

/// Centre of partition `p`'s column.
pub fn column_centre(p: u32, partitions: u32) -> f64 {
    (f64::from(p) + 0.5) * column_width(partitions)
}

/// Lays the sample out in columns of its `to` partition: keys that stayed first, then the
/// ones that moved in, each column a small grid. Returns the dots (sample order) and the height.
pub fn dot_layout(sample: &[SampledKey], partitions: u32) -> (Vec<Dot>, f64) {
    let width = column_width(partitions);
    let per_row = ((width - 2.0) / PITCH).floor().max(1.0) as usize;
    let pitch_x = if per_row == 1 { width.min(PITCH) } else { PITCH };
    let mut filled = vec![0usize; partitions as usize];
    let mut slots = vec![(0u32, 0usize); sample.len()];
    for pass_moved in [false, true] {
        for (i, key) in sample.iter().enumerate() {
            if key.step.moved() == pass_moved {
                let column = key.step.to.min(partitions - 1);
                slots[i] = (column, filled[column as usize]);
                filled[column as usize] += 1;
            }
        }
    }
    let rows = filled.iter().map(|n| n.div_ceil(per_row)).max().unwrap_or(0).max(1);
    let dots = sample
        .iter()
        .zip(slots)
        .map(|(key, (column, slot))| {
            let (row, col) = (slot / per_row, slot % per_row);
            let used = per_row.min(filled[column as usize]) as f64;
            let left = column_centre(column, partitions) - (used - 1.0) * pitch_x / 2.0;
            Dot {
                index: key.index,
                x: left + col as f64 * pitch_x,
                y: TOP + 5.0 + row as f64 * PITCH,
                moved: key.step.moved(),
            }
        })
        .collect();
    (dots, TOP + rows as f64 * PITCH + BOTTOM)
}

/// Which partitions get a label under their column (all of them when they fit).
pub fn labelled_partitions(partitions: u32) -> Vec<u32> {
    let every = partitions.div_ceil(24).max(1);
    (0..partitions).filter(|p| p % every == 0).collect()
}

/// The `d` of one `<path>` made of many rectangles or vertical lines: one element per class
/// instead of one per mark.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathData(String);

impl PathData {
    pub fn rect(&mut self, x: f64, y: f64, width: f64, height: f64) {
        let [x, y, width, height] = [x, y, width, height].map(|v| fixed(v, 2));
        let _ = write!(self.0, "M{x} {y}h{width}v{height}h-{width}Z");
    }

    pub fn vline(&mut self, x: f64, y1: f64, y2: f64) {
        let _ = write!(self.0, "M{} {}V{}", Tenths(x), Tenths(y1), Tenths(y2));
    }

    /// The path element, or nothing when no mark was added.
    pub fn element(&self, class: &str) -> Html {
        if self.0.is_empty() {
            return Html::new();
        }
        html!("<path class='{}' d='{}'/>", class, self.0.as_str())
    }
}

/// The population drawing's background: shaded partition columns (one path per shade), their
/// labels, and the watched key's marker above its column.
pub fn columns_markup(partitions: u32, height: f64, watched: Option<(u32, &str)>) -> Html {
    let width = column_width(partitions);
    let labels = labelled_partitions(partitions);
    let (mut even, mut odd) = (PathData::default(), PathData::default());
    let mut out = Html::new();
    for p in 0..partitions {
        let column = if p % 2 == 0 { &mut even } else { &mut odd };
        column.rect(f64::from(p) * width, TOP - 4.0, width, height - TOP - BOTTOM + 8.0);
    }
    out.push(&even.element("col even"));
    out.push(&odd.element("col"));
    for p in labels {
        html!(
            out,
            "<text class='col-label' x='{}' y='{}' text-anchor='middle'>{}</text>",
            Tenths(column_centre(p, partitions)),
            Tenths(height - 6.0),
            p
        );
    }
    if let Some((p, key)) = watched {
        let anchor = if p * 4 < partitions {
            "start"
        } else if p * 4 > partitions * 3 {
            "end"
        } else {
            "middle"
        };
        let x = column_centre(p, partitions);
        html!(
            out,
            "<text class='watched' x='{}' y='14' text-anchor='{}'>★ {} → {}-{}</text>\
             <line class='watched-line' x1='{}' x2='{}' y1='17' y2='{}'/>",
            Tenths(x),
            anchor,
            key,
            TOPIC,
            p,
            Tenths(x),
            Tenths(x),
            Tenths(TOP - 4.0)
        );
    }
    out
}

/// The sticky timeline's time axis: `[start, end]` ms onto `[left, WIDTH - 30]` px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAxis {
    pub start_ms: u64,
    pub end_ms: u64,
    pub left: f64,
}

impl TimeAxis {
    pub fn x(&self, ms: u64) -> f64 {
        let span = (self.end_ms.saturating_sub(self.start_ms)).max(1) as f64;
        self.left + (ms.saturating_sub(self.start_ms)) as f64 / span * (WIDTH - 30.0 - self.left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::partitioner::KeyMove;

    fn key(index: u32, from: u32, to: u32) -> SampledKey {
        SampledKey { index, step: KeyMove { from, to } }
    }

    #[test]
    fn dots_sit_in_their_partitions_column_stayers_first() {
        let sample = [key(0, 1, 3), key(1, 1, 1), key(2, 0, 0)];
        let (dots, height) = dot_layout(&sample, 4);
        let width = column_width(4);
        for (dot, key) in dots.iter().zip(&sample) {
            assert!(dot.x > f64::from(key.step.to) * width && dot.x < f64::from(key.step.to + 1) * width);
        }
        assert!(dots[0].moved && !dots[1].moved);
        assert!(height > TOP + BOTTOM);
    }

    #[test]
    fn many_partitions_label_a_subset() {
        assert_eq!(labelled_partitions(12).len(), 12);
        assert!(labelled_partitions(256).len() <= 24);
    }

    #[test]
    fn columns_are_one_path_per_shade_and_the_key_is_escaped() {
        let markup = columns_markup(4, 100.0, Some((1, "<b>&")));
        assert_eq!(markup.as_str().matches("<path").count(), 2);
        assert!(markup.as_str().contains("★ &lt;b&gt;&amp; → orders-1"), "{}", markup.as_str());
    }
}
