//! Markup that is safe by construction. Scenes draw read-only panels and SVG as
//! one HTML string each (far less wasm than a typed view per element). An [`Html`]
//! can only be built by [`html!`](crate::html), whose template is a literal written by a
//! developer and whose every argument is escaped (text) or already [`Html`];
//! the UI's one `Markup` component is the only place that sets `inner_html`.

use std::fmt::{self, Write};

/// A fragment of HTML/SVG whose text parts were all escaped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Html(String);

impl Html {
    pub fn new() -> Self {
        Self::default()
    }

    /// The markup (for the `Markup` component).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Appends another fragment.
    pub fn push(&mut self, other: &Html) {
        self.0.push_str(&other.0);
    }

    /// Appends text, escaped.
    pub fn push_text(&mut self, text: &str) {
        escape_into(&mut self.0, text);
    }

    /// Text as a fragment, escaped.
    pub fn text(text: &str) -> Self {
        let mut html = Html::new();
        html.push_text(text);
        html
    }

    /// Appends a template (see [`html!`](crate::html)); prefer the macro.
    #[doc(hidden)]
    pub fn write_template(&mut self, args: fmt::Arguments<'_>) {
        let _ = self.0.write_fmt(args);
    }
}

impl FromIterator<Html> for Html {
    fn from_iter<I: IntoIterator<Item = Html>>(iter: I) -> Self {
        let mut out = Html::new();
        for part in iter {
            out.push(&part);
        }
        out
    }
}

/// How a value goes into markup: numbers as they are, text escaped, [`Html`] as is.
pub trait Render {
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

macro_rules! render_as_display {
    ($($t:ty),*) => {$(
        impl Render for $t {
            fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        }
    )*};
}

// No floats: a number with a fraction goes in through `Tenths` or `fixed`, so a page links no
// float formatting (several KB of wasm).
render_as_display!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, bool);

impl Render for str {
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(self.len());
        escape_into(&mut out, self);
        f.write_str(&out)
    }
}

impl Render for String {
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_str().render(f)
    }
}

impl Render for char {
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.encode_utf8(&mut [0; 4]).render(f)
    }
}

impl Render for Html {
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<T: Render + ?Sized> Render for &T {
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).render(f)
    }
}

/// Wraps an argument of [`html!`](crate::html) so `format_args!` renders it through [`Render`].
#[doc(hidden)]
pub struct Escaped<'a, T: Render + ?Sized>(pub &'a T);

impl<T: Render + ?Sized> fmt::Display for Escaped<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.render(f)
    }
}

/// Appends to an [`Html`] a literal template with positional `{}` holes, each
/// argument escaped by [`Render`]: `html!(out, "<b class='{}'>{}</b>", class, label)`.
/// Named captures (`{label}`) do not compile: the template reaches `format_args!`
/// through `concat!`, which turns implicit capture off, so nothing skips escaping.
/// Without a target, returns a new [`Html`]: `html!("<i>{}</i>", text)`.
#[macro_export]
macro_rules! html {
    ($template:literal $(, $arg:expr)* $(,)?) => {{
        let mut out = $crate::markup::Html::new();
        out.write_template(format_args!(concat!($template) $(, $crate::markup::Escaped(&$arg))*));
        out
    }};
    ($out:expr, $template:literal $(, $arg:expr)* $(,)?) => {
        $out.write_template(format_args!(concat!($template) $(, $crate::markup::Escaped(&$arg))*))
    };
}

/// Escapes `&`, `<`, `>`, `"` and `'` into `out`.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

/// `x` with `decimals` digits after the point (`fixed(12.3456, 3)` is `12.346`), for numbers
/// written into markup (SVG coordinates, CSS percentages). Rounded and written as `{:.N}`
/// would, by integer arithmetic: float formatting links several KB of wasm into a page.
pub fn fixed(x: f64, decimals: u32) -> String {
    let mut out = String::new();
    let _ = write_fixed(&mut out, x, decimals);
    out
}

/// A coordinate with one decimal, as `{:.1}` writes it, without float formatting: the form
/// the scenes' SVG numbers take (`html!(out, "x=\"{}\"", Tenths(x))`).
#[derive(Clone, Copy, Debug)]
pub struct Tenths(pub f64);

impl fmt::Display for Tenths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fixed(f, self.0, 1)
    }
}

impl Render for Tenths {
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fixed(f, self.0, 1)
    }
}

/// Sine and cosine of an angle given in turns (`0.25` is a quarter circle), for points drawn
/// on a circle. A short series, not `f64::sin`: std's sine links libm's range reduction into the
/// page (4.6 KB of wasm), and an angle in turns reduces exactly. Error below 1e-12, far under
/// the tenth of a unit that a coordinate keeps.
pub fn turn_sin_cos(turns: f64) -> (f64, f64) {
    let quarters = (turns - turns.floor()) * 4.0;
    let quadrant = quarters.floor();
    let rest = quarters - quadrant;
    // sin and cos of the angle within its quadrant, each series on at most an eighth of a turn.
    let (s, c) = if rest <= 0.5 {
        let x = rest * std::f64::consts::FRAC_PI_2;
        (series_sin(x), series_cos(x))
    } else {
        let x = (1.0 - rest) * std::f64::consts::FRAC_PI_2;
        (series_cos(x), series_sin(x))
    };
    match quadrant as u8 {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// Taylor series of sin on |x| ≤ π/4, to x¹³.
fn series_sin(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    for n in (2..=12).step_by(2) {
        term *= -x2 / f64::from(n * (n + 1));
        sum += term;
    }
    sum
}

/// Taylor series of cos on |x| ≤ π/4, to x¹⁴.
fn series_cos(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in (1..=13).step_by(2) {
        term *= -x2 / f64::from(n * (n + 1));
        sum += term;
    }
    sum
}

fn write_fixed(out: &mut impl fmt::Write, x: f64, decimals: u32) -> fmt::Result {
    let places = decimals.min(6);
    crate::model::kernel::write_decimal(out, crate::model::kernel::decimal_units(x, places), places as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_key_cannot_inject_markup() {
        let key = r#"<img src=x onerror="a('b')">&"#;
        let html = html!("<td title='{}'>{}</td>", key, key);
        let escaped = "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;";
        assert_eq!(html.as_str(), format!("<td title='{escaped}'>{escaped}</td>"));
    }

    #[test]
    fn numbers_keep_their_format_and_fragments_nest_unescaped() {
        let inner = html!("<b>{}</b>", "a&b");
        let mut out = Html::new();
        html!(out, "<g x='{}'>{}{}</g>", Tenths(2.24), inner, 7u32);
        assert_eq!(out.as_str(), "<g x='2.2'><b>a&amp;b</b>7</g>");
    }

    #[test]
    fn turn_sin_cos_matches_std_around_the_circle() {
        for step in -4000..=4000 {
            let turns = f64::from(step) / 997.0;
            let (s, c) = turn_sin_cos(turns);
            let a = turns * std::f64::consts::TAU;
            assert!((s - a.sin()).abs() < 1e-12, "sin at {turns} turns: {s} vs {}", a.sin());
            assert!((c - a.cos()).abs() < 1e-12, "cos at {turns} turns: {c} vs {}", a.cos());
        }
        // The compass points exactly: twelve, three, six and nine o'clock.
        assert_eq!(turn_sin_cos(0.0), (0.0, 1.0));
        assert_eq!(turn_sin_cos(0.25), (1.0, -0.0));
        assert_eq!(turn_sin_cos(0.5), (-0.0, -1.0));
        assert_eq!(turn_sin_cos(0.75), (-1.0, 0.0));
    }

    #[test]
    fn fixed_writes_what_float_formatting_writes() {
        assert_eq!(fixed(12.3456, 3), "12.346");
        assert_eq!(fixed(0.05, 2), "0.05");
        assert_eq!(fixed(-17.0, 0), "-17");
        assert_eq!(fixed(-8.25, 1), format!("{:.1}", -8.25));
        assert_eq!(fixed(1050.0, 1), "1050.0");
        for tenths in -2000..2000 {
            let x = f64::from(tenths) / 10.0;
            assert_eq!(fixed(x, 1), format!("{x:.1}"), "{x}");
            assert_eq!(Tenths(x + 0.04).to_string(), format!("{x:.1}"), "{x}");
        }
    }
}
