//! Pure geometry of the rings: level 0 innermost, bucket 0 at twelve o'clock, clockwise.

use crate::markup::{turn_sin_cos, Tenths};

/// Side of the square drawing, in SVG units.
pub const SIZE: f64 = 500.0;
const CENTER: f64 = SIZE / 2.0;
/// The hole in the middle (where the clocks are written).
const INNER: f64 = 58.0;
/// The outermost ring's edge; the bucket numbers go outside it.
const OUTER: f64 = 212.0;

/// The rings of `levels` wheels of `wheel_size` buckets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rings {
    pub levels: usize,
    pub wheel_size: usize,
}

impl Rings {
    pub fn width(&self) -> f64 {
        (OUTER - INNER) / self.levels.max(1) as f64
    }

    /// Inner and outer radius of a level's ring.
    pub fn radii(&self, level: usize) -> (f64, f64) {
        let r0 = INNER + level as f64 * self.width();
        (r0, r0 + self.width())
    }

    /// Angle of a bucket's start edge (fractional buckets allowed), in turns from twelve o'clock.
    pub fn angle(&self, bucket: f64) -> f64 {
        bucket / self.wheel_size as f64
    }

    /// The centre of slot `slot` of `count` dots stacked along the radius of a bucket.
    pub fn dot(&self, level: usize, bucket: usize, slot: usize, count: usize) -> (f64, f64) {
        let (r0, _) = self.radii(level);
        let r = r0 + self.width() * (slot as f64 + 1.0) / (count as f64 + 1.0);
        point(r, self.angle(bucket as f64 + 0.5))
    }

    /// Radius of a task dot, so that a few fit in a ring.
    pub fn dot_radius(&self) -> f64 {
        (self.width() / 6.0).clamp(2.5, 6.0)
    }

    /// One annular sector: bucket `bucket` of `level`.
    pub fn sector(&self, level: usize, bucket: usize) -> String {
        let (r0, r1) = self.radii(level);
        let (a0, a1) = (self.angle(bucket as f64), self.angle(bucket as f64 + 1.0));
        let large = u8::from(a1 - a0 > 0.5);
        let (p0, p1, p2, p3) = (point(r1, a0), point(r1, a1), point(r0, a1), point(r0, a0));
        format!(
            "M{} {}A{r1} {r1} 0 {large} 1 {} {}L{} {}A{r0} {r0} 0 {large} 0 {} {}Z",
            Tenths(p0.0),
            Tenths(p0.1),
            Tenths(p1.0),
            Tenths(p1.1),
            Tenths(p2.0),
            Tenths(p2.1),
            Tenths(p3.0),
            Tenths(p3.1),
            r1 = Tenths(r1),
            r0 = Tenths(r0)
        )
    }

    /// Every bucket edge of every ring as one path (cheap even for 512 buckets).
    pub fn spokes(&self) -> String {
        let mut d = String::new();
        for level in 0..self.levels {
            let (r0, r1) = self.radii(level);
            for bucket in 0..self.wheel_size {
                let a = self.angle(bucket as f64);
                let (p, q) = (point(r0, a), point(r1, a));
                d.push_str(&format!("M{} {}L{} {}", Tenths(p.0), Tenths(p.1), Tenths(q.0), Tenths(q.1)));
            }
        }
        d
    }

    /// The pointer of a level: a radial hand across its ring at the start of the current bucket.
    pub fn pointer(&self, level: usize, bucket: usize) -> ((f64, f64), (f64, f64)) {
        let (r0, r1) = self.radii(level);
        let a = self.angle(bucket as f64);
        (point(r0 - 2.0, a), point(r1 + 2.0, a))
    }

    /// Which buckets get a number outside the rings (all when they fit, else every k-th).
    pub fn labelled(&self, bucket: usize) -> bool {
        bucket.is_multiple_of(self.wheel_size.div_ceil(24).max(1))
    }

    /// Where a bucket's number goes.
    pub fn label_at(&self, bucket: usize) -> (f64, f64) {
        point(OUTER + 16.0, self.angle(bucket as f64 + 0.5))
    }
}

pub fn center() -> f64 {
    CENTER
}

/// A point at radius `r` and angle `a` (turns clockwise from twelve o'clock).
pub fn point(r: f64, a: f64) -> (f64, f64) {
    let (sin, cos) = turn_sin_cos(a);
    (CENTER + r * sin, CENTER - r * cos)
}
