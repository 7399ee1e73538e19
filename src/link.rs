//! The lab's state in a link: which scene, seed, config overrides, recorded
//! actions and position, so a copied URL reproduces exactly what was on screen.
//!
//! Pure text handling (no browser APIs), so it is tested natively.

use crate::i18n::Locale;
use crate::model::kernel::{Arg, Describe, Message};
use crate::model::scene::RunError;

/// Why a link cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LinkError {
    TooLong {
        max_bytes: usize,
    },
    NotPercentEncoded {
        parameter: String,
    },
    UnknownScene {
        scene: String,
        known: Vec<&'static str>,
    },
    BadSeed {
        text: String,
    },
    BadPosition {
        text: String,
    },
    /// The `c=` overrides are not `name:value` pairs.
    Config(RunError),
}

crate::messages! {
    pub LINK_KEYS;
    TOO_LONG = "link.long" => "the link is longer than {max, plural, one {# byte} other {# bytes}}";
    NOT_ENCODED = "link.encoding" => "parameter \"{parameter}\" is not valid percent-encoded text";
    UNKNOWN_SCENE = "link.scene.unknown" => "unknown scene \"{scene}\" (scenes: {known})";
    BAD_SEED = "link.seed" => "seed \"{text}\" is not a whole number from 0 to {max}";
    BAD_POSITION = "link.position" => "position t=\"{text}\" is not a whole number";
}

impl Describe for LinkError {
    fn message(&self) -> Message {
        match self {
            LinkError::TooLong { max_bytes } => Message::new(TOO_LONG).with("max", Arg::int(*max_bytes)),
            LinkError::NotPercentEncoded { parameter } => {
                Message::new(NOT_ENCODED).with("parameter", Arg::text(parameter.clone()))
            }
            LinkError::UnknownScene { scene, known } => Message::new(UNKNOWN_SCENE)
                .with("scene", Arg::text(scene.clone()))
                .with("known", Arg::text(known.join(", "))),
            LinkError::BadSeed { text } => Message::new(BAD_SEED)
                .with("text", Arg::text(text.clone()))
                .with("max", Arg::text(u64::MAX.to_string())),
            LinkError::BadPosition { text } => Message::new(BAD_POSITION).with("text", Arg::text(text.clone())),
            LinkError::Config(error) => error.message(),
        }
    }
}

/// What a link says. Absent parts mean "the default".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkState {
    pub scene: Option<String>,
    pub seed: Option<u64>,
    /// `(name, value)` config overrides in the order given.
    pub config: Vec<(String, String)>,
    /// The tape text (see `model::kernel::tape`).
    pub actions: String,
    /// How many recorded inputs are applied; `None` means all of them.
    pub position: Option<usize>,
    pub preset: Option<String>,
    pub embed: bool,
    /// The language the link asks for (`lang=es`); an unsupported tag is ignored.
    pub lang: Option<Locale>,
    /// The colour theme the link asks for (`theme=light|dark|auto`, for an embedding page);
    /// anything else is ignored.
    pub theme: Option<Theme>,
    /// Presenter mode (`present=1`): the stage fills the screen, type scales for a projector.
    pub present: bool,
}

/// A colour theme: the system's, or a fixed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub fn from_token(token: &str) -> Option<Self> {
        match token {
            "auto" | "system" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    pub fn token(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The next choice of the theme button: system → light → dark → system.
    pub fn next(self) -> Self {
        match self {
            Theme::Auto => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Auto,
        }
    }
}

/// The longest query the lab reads; longer ones are refused before parsing.
pub const MAX_QUERY_BYTES: usize = 64 * 1024;

impl LinkState {
    /// Reads a query string (with or without the leading `?`). Unknown parameters
    /// are ignored; a malformed known one is an error naming it.
    pub fn parse(query: &str, known_scenes: &[&'static str]) -> Result<Self, LinkError> {
        if query.len() > MAX_QUERY_BYTES {
            return Err(LinkError::TooLong { max_bytes: MAX_QUERY_BYTES });
        }
        let mut state = LinkState::default();
        for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (name, raw) = pair.split_once('=').unwrap_or((pair, ""));
            let value =
                percent_decode(raw).ok_or_else(|| LinkError::NotPercentEncoded { parameter: name.to_string() })?;
            state.read(name, value, known_scenes)?;
        }
        Ok(state)
    }

    fn read(&mut self, name: &str, value: String, known_scenes: &[&'static str]) -> Result<(), LinkError> {
        match name {
            "scene" => {
                if !known_scenes.contains(&value.as_str()) {
                    return Err(LinkError::UnknownScene { scene: value, known: known_scenes.to_vec() });
                }
                self.scene = Some(value);
            }
            "seed" => {
                let seed =
                    crate::model::kernel::parse_number(&value).map_err(|_| LinkError::BadSeed { text: value })?;
                self.seed = Some(seed);
            }
            "c" => self.config = crate::model::scene::parse_overrides(&value).map_err(LinkError::Config)?,
            "a" => self.actions = value,
            "t" => {
                let position =
                    crate::model::kernel::parse_number(&value).map_err(|_| LinkError::BadPosition { text: value })?;
                self.position = Some(position);
            }
            "preset" => self.preset = Some(value),
            "embed" => self.embed = matches!(value.as_str(), "1" | "true" | ""),
            "lang" => self.lang = Locale::from_tag(&value),
            "theme" => self.theme = Theme::from_token(&value),
            "present" => self.present = matches!(value.as_str(), "1" | "true" | ""),
            _ => {}
        }
        Ok(())
    }

    /// Writes the state back as a query string (without `?`), parts in a fixed order.
    pub fn to_query(&self) -> String {
        let mut parts = Vec::new();
        if let Some(scene) = &self.scene {
            parts.push(format!("scene={}", percent_encode(scene)));
        }
        if let Some(preset) = &self.preset {
            parts.push(format!("preset={}", percent_encode(preset)));
        }
        if let Some(seed) = self.seed {
            parts.push(format!("seed={seed}"));
        }
        if !self.config.is_empty() {
            let pairs: Vec<String> = self.config.iter().map(|(n, v)| format!("{n}:{v}")).collect();
            parts.push(format!("c={}", percent_encode(&pairs.join(","))));
        }
        if !self.actions.is_empty() {
            parts.push(format!("a={}", percent_encode(&self.actions)));
        }
        if let Some(position) = self.position {
            parts.push(format!("t={position}"));
        }
        if self.embed {
            parts.push("embed=1".to_string());
        }
        if let Some(lang) = self.lang {
            parts.push(format!("lang={}", lang.tag()));
        }
        if let Some(theme) = self.theme {
            parts.push(format!("theme={}", theme.token()));
        }
        if self.present {
            parts.push("present=1".to_string());
        }
        parts.join("&")
    }
}

fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~:,".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = text.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The site root's path for a page at `pathname` that sits `root` (`""` or `"../"`) below it.
pub fn root_path(pathname: &str, root: &str) -> String {
    let mut path = pathname.strip_suffix("index.html").unwrap_or(pathname).to_string();
    for _ in 0..root.matches("../").count() {
        let trimmed = path.trim_end_matches('/');
        path = match trimmed.rfind('/') {
            Some(cut) => trimmed[..=cut].to_string(),
            None => "/".to_string(),
        };
    }
    if path.is_empty() {
        path.push('/');
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENES: &[&str] = &["overview", "log"];

    #[test]
    fn a_link_round_trips() {
        let state = LinkState {
            scene: Some("overview".into()),
            seed: Some(42),
            config: vec![("partitions".into(), "12".into()), ("acks".into(), "1".into())],
            actions: "w100x5.kill-2".into(),
            position: Some(3),
            preset: None,
            embed: true,
            lang: Some(Locale::PtBr),
            theme: None,
            present: false,
        };
        let query = state.to_query();
        assert_eq!(query, "scene=overview&seed=42&c=partitions:12,acks:1&a=w100x5.kill-2&t=3&embed=1&lang=pt-BR");
        assert_eq!(LinkState::parse(&format!("?{query}"), SCENES).unwrap(), state);
    }

    #[test]
    fn malformed_parts_are_named_in_the_error() {
        assert_eq!(LinkState::parse("seed=abc", SCENES).unwrap_err(), LinkError::BadSeed { text: "abc".into() });
        assert_eq!(
            LinkState::parse("seed=abc", SCENES).unwrap_err().to_string(),
            format!("seed \"abc\" is not a whole number from 0 to {}", u64::MAX)
        );
        assert!(matches!(LinkState::parse("scene=nope", SCENES), Err(LinkError::UnknownScene { .. })));
        assert!(matches!(LinkState::parse("a=%E2%28", SCENES), Err(LinkError::NotPercentEncoded { .. })));
        assert!(LinkState::parse("a=%zz", SCENES).is_err());
        assert!(matches!(
            LinkState::parse("c=partitions", SCENES),
            Err(LinkError::Config(RunError::BadOverride { .. }))
        ));
        assert!(matches!(LinkState::parse("t=-1", SCENES), Err(LinkError::BadPosition { .. })));
        assert_eq!(
            LinkState::parse(&"x".repeat(MAX_QUERY_BYTES + 1), SCENES).unwrap_err(),
            LinkError::TooLong { max_bytes: MAX_QUERY_BYTES }
        );
    }

    #[test]
    fn a_language_the_lab_lacks_is_ignored() {
        assert_eq!(LinkState::parse("lang=zh", SCENES).unwrap().lang, Some(Locale::ZhCn));
        assert_eq!(LinkState::parse("lang=de", SCENES).unwrap().lang, None);
    }

    #[test]
    fn unknown_parameters_are_ignored() {
        let state = LinkState::parse("utm_source=mail&scene=log", SCENES).unwrap();
        assert_eq!(state.scene.as_deref(), Some("log"));
    }

    #[test]
    fn a_lesson_page_can_fix_the_theme_and_the_link_keeps_it() {
        let state = LinkState::parse("scene=log&embed=1&theme=dark", SCENES).unwrap();
        assert_eq!(state.theme, Some(Theme::Dark));
        assert_eq!(state.to_query(), "scene=log&embed=1&theme=dark");
        assert_eq!(LinkState::parse("theme=purple", SCENES).unwrap().theme, None, "an unknown theme is ignored");
        assert_eq!(Theme::Auto.next().next().next(), Theme::Auto, "the button cycles back to the system's theme");
    }

    #[test]
    fn a_list_value_keeps_its_comma_and_reopens() {
        let state = LinkState::parse("scene=log&c=cleanup.policy:compact,delete,segment.bytes:1048576", SCENES)
            .expect("a list value parses");
        let expected = [("cleanup.policy", "compact,delete"), ("segment.bytes", "1048576")];
        let pairs: Vec<(&str, &str)> = state.config.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(pairs, expected);
        let again = LinkState::parse(&state.to_query(), SCENES).expect("the written link reopens");
        assert_eq!(again.config, state.config);
        assert!(matches!(
            LinkState::parse("c=compact,delete", SCENES),
            Err(LinkError::Config(RunError::BadOverride { .. }))
        ));
    }

    #[test]
    fn a_scene_page_links_back_to_the_site_root() {
        assert_eq!(root_path("/", ""), "/");
        assert_eq!(root_path("/kafka-lab/", ""), "/kafka-lab/");
        assert_eq!(root_path("/kafka-lab/index.html", ""), "/kafka-lab/");
        assert_eq!(root_path("/kafka-lab/timer/", "../"), "/kafka-lab/");
        assert_eq!(root_path("/kafka-lab/timer/index.html", "../"), "/kafka-lab/");
        assert_eq!(root_path("/timer/", "../"), "/");
        assert_eq!(root_path("/timer", "../"), "/");
    }
}

crate::display_as_message!(LinkError);
