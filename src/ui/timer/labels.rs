//! Where the rings' task labels go: in a gutter left or right of the wheel, stacked so that
//! no two overlap, each tied to its dot by a leader line (never over the rings' marks).

use super::geometry::{center, SIZE};
use crate::markup::Tenths;

/// Width of each gutter beside the wheel, in SVG units.
pub const GUTTER: f64 = 120.0;
/// The drawing's top and bottom edges (the bucket numbers fit inside).
pub const TOP: f64 = 6.0;
pub const BOTTOM: f64 = 494.0;
/// Height of one label line (the label font is 14 units, 17 presenting).
const LINE: f64 = 20.0;

/// The viewBox of the whole drawing: the wheel and its two gutters.
pub fn view_box() -> String {
    format!("{} {} {} {}", Tenths(-GUTTER), Tenths(TOP), Tenths(SIZE + 2.0 * GUTTER), Tenths(BOTTOM - TOP))
}

/// One placed label: its text's anchor point and alignment, and its leader line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// Index of the anchor it labels.
    pub index: usize,
    pub x: f64,
    /// The label line's vertical centre.
    pub y: f64,
    pub anchor: &'static str,
    pub from: (f64, f64),
    pub to: (f64, f64),
}

/// Places a label for each anchor (dot centres, most important first) in the gutter on its
/// side, as near its dot's height as the others allow. When a gutter is full, the least
/// important anchors go without a label (their dots keep their tooltip).
pub fn place(anchors: &[(f64, f64)]) -> Vec<Placed> {
    let mut placed = Vec::new();
    for left in [true, false] {
        let side: Vec<usize> = (0..anchors.len()).filter(|&i| (anchors[i].0 < center()) == left).collect();
        let mut kept: Vec<usize> = side.into_iter().take(capacity()).collect();
        crate::model::kernel::order::sort_by(&mut kept, |&a, &b| anchors[a].1.total_cmp(&anchors[b].1));
        let wanted: Vec<f64> = kept.iter().map(|&i| anchors[i].1).collect();
        for (&index, y) in kept.iter().zip(spread(&wanted)) {
            let (edge, x, anchor) = if left { (-2.0, -6.0, "end") } else { (SIZE + 2.0, SIZE + 6.0, "start") };
            placed.push(Placed { index, x, y, anchor, from: anchors[index], to: (edge, y) });
        }
    }
    placed
}

/// How many labels fit in one gutter.
fn capacity() -> usize {
    ((BOTTOM - TOP - LINE) / LINE).floor() as usize + 1
}

/// Label centres for wanted heights (sorted): each at least a line below the one above, all
/// inside the drawing.
fn spread(wanted: &[f64]) -> Vec<f64> {
    let (low, high) = (TOP + LINE / 2.0, BOTTOM - LINE / 2.0);
    let mut out: Vec<f64> = Vec::with_capacity(wanted.len());
    for &y in wanted {
        let floor = out.last().map_or(low, |above| above + LINE);
        out.push(y.clamp(low, high).max(floor));
    }
    let mut ceiling = high;
    for y in out.iter_mut().rev() {
        *y = y.min(ceiling);
        ceiling = *y - LINE;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_go_to_the_gutter_on_their_dots_side_and_never_overlap() {
        let anchors = [(100.0, 240.0), (110.0, 245.0), (400.0, 100.0), (120.0, 242.0)];
        let placed = place(&anchors);
        assert_eq!(placed.len(), 4);
        let mut left: Vec<f64> = placed.iter().filter(|p| p.anchor == "end").map(|p| p.y).collect();
        crate::model::kernel::order::sort_by(&mut left, f64::total_cmp);
        assert_eq!(left.len(), 3);
        assert!(left.windows(2).all(|w| w[1] - w[0] >= LINE - 1e-9), "{left:?}");
        let right = placed.iter().find(|p| p.index == 2).unwrap();
        assert_eq!((right.anchor, right.y), ("start", 100.0));
        assert!(right.x > SIZE && placed.iter().all(|p| p.x < SIZE || p.anchor == "start"));
    }

    #[test]
    fn a_full_gutter_keeps_the_most_important_labels_inside_the_drawing() {
        let anchors: Vec<(f64, f64)> = (0..60).map(|i| (50.0, 250.0 + f64::from(i % 3))).collect();
        let placed = place(&anchors);
        assert_eq!(placed.len(), capacity());
        assert!(placed.iter().all(|p| p.index < capacity()));
        assert!(placed.iter().all(|p| p.y >= TOP + LINE / 2.0 - 1e-9 && p.y <= BOTTOM - LINE / 2.0 + 1e-9));
    }
}
