//! The lab's state in a link: which scene, seed, config overrides, recorded
//! actions and position, so a copied URL reproduces exactly what was on screen.
//!
//! Pure text handling (no browser APIs), so it is tested natively.

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
}

/// The longest query the lab reads; longer ones are refused before parsing.
pub const MAX_QUERY_BYTES: usize = 64 * 1024;

impl LinkState {
    /// Reads a query string (with or without the leading `?`). Unknown parameters
    /// are ignored; a malformed known one is an error naming it.
    pub fn parse(query: &str, known_scenes: &[&str]) -> Result<Self, String> {
        if query.len() > MAX_QUERY_BYTES {
            return Err(format!("the link is longer than {MAX_QUERY_BYTES} bytes"));
        }
        let mut state = LinkState::default();
        for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (name, raw) = pair.split_once('=').unwrap_or((pair, ""));
            let value =
                percent_decode(raw).ok_or_else(|| format!("parameter \"{name}\" is not valid percent-encoded text"))?;
            state.read(name, value, known_scenes)?;
        }
        Ok(state)
    }

    fn read(&mut self, name: &str, value: String, known_scenes: &[&str]) -> Result<(), String> {
        match name {
            "scene" => {
                if !known_scenes.contains(&value.as_str()) {
                    return Err(format!("unknown scene \"{value}\" (scenes: {})", known_scenes.join(", ")));
                }
                self.scene = Some(value);
            }
            "seed" => {
                let seed = value
                    .parse()
                    .map_err(|_| format!("seed \"{value}\" is not a whole number from 0 to {}", u64::MAX))?;
                self.seed = Some(seed);
            }
            "c" => self.config = crate::model::scene::parse_overrides(&value).map_err(|e| e.to_string())?,
            "a" => self.actions = value,
            "t" => {
                let position = value.parse().map_err(|_| format!("position t=\"{value}\" is not a whole number"))?;
                self.position = Some(position);
            }
            "preset" => self.preset = Some(value),
            "embed" => self.embed = matches!(value.as_str(), "1" | "true" | ""),
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

fn percent_decode(text: &str) -> Option<String> {
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
        };
        let query = state.to_query();
        assert_eq!(query, "scene=overview&seed=42&c=partitions:12,acks:1&a=w100x5.kill-2&t=3&embed=1");
        assert_eq!(LinkState::parse(&format!("?{query}"), SCENES).unwrap(), state);
    }

    #[test]
    fn malformed_parts_are_named_in_the_error() {
        assert_eq!(
            LinkState::parse("seed=abc", SCENES).unwrap_err(),
            format!("seed \"abc\" is not a whole number from 0 to {}", u64::MAX)
        );
        assert!(LinkState::parse("scene=nope", SCENES).unwrap_err().starts_with("unknown scene \"nope\""));
        assert!(LinkState::parse("a=%E2%28", SCENES).unwrap_err().contains("percent-encoded"));
        assert!(LinkState::parse("a=%zz", SCENES).is_err());
        assert!(LinkState::parse("c=partitions", SCENES).unwrap_err().contains("name=value"));
        assert!(LinkState::parse(&"x".repeat(MAX_QUERY_BYTES + 1), SCENES).is_err());
    }

    #[test]
    fn unknown_parameters_are_ignored() {
        let state = LinkState::parse("utm_source=mail&scene=log", SCENES).unwrap();
        assert_eq!(state.scene.as_deref(), Some("log"));
    }
}
