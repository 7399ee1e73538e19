//! What every scene's model provides to the shell: its config schema, how it is
//! built from a config, how its commands read in a link, and its presets.

use crate::model::config::{Config, Property};

/// The seed a run starts with when the link names none.
pub const DEFAULT_SEED: u64 = 1;
use crate::model::kernel::{decode_tape, encode_tape, CommandCodec, History, Input, Sim, World};

/// A one-click starting point from the course notes: config overrides plus recorded inputs.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Stable id used in links (`preset=...`).
    pub id: &'static str,
    /// Message-catalog key of its title.
    pub title_key: &'static str,
    /// `name=value` pairs, comma separated.
    pub config: &'static str,
    /// Tape text (see `kernel::tape`) replayed after start.
    pub tape: &'static str,
    pub seed: u64,
}

/// A scene's model as the shell drives it.
pub trait LabScene: World + 'static {
    /// The scene id in links (`scene=...`).
    const ID: &'static str;

    fn schema() -> &'static [Property];

    /// Builds the world for a validated config; rejects impossible combinations.
    fn build(config: &Config) -> Result<Self, String>;

    fn encode_command(command: &Self::Command) -> String;

    fn decode_command(token: &str) -> Result<Self::Command, String>;

    fn presets() -> &'static [Preset] {
        &[]
    }

    /// Virtual milliseconds that pass per real millisecond of Play at 1× (slow motion < 1).
    fn play_scale() -> f64 {
        1.0
    }
}

struct Codec<S>(std::marker::PhantomData<S>);

impl<S: LabScene> CommandCodec for Codec<S> {
    type Command = S::Command;
    fn encode(command: &S::Command) -> String {
        S::encode_command(command)
    }
    fn decode(token: &str) -> Result<S::Command, String> {
        S::decode_command(token)
    }
}

/// A scene's run: seed, config, and its time-travelling history.
#[derive(Clone, Debug)]
pub struct Run<S: LabScene> {
    pub seed: u64,
    pub config: Config,
    pub history: History<S>,
}

impl<S: LabScene> Run<S> {
    /// A fresh run with `overrides` (`name=value` pairs) applied in order.
    pub fn new(seed: u64, overrides: &[(String, String)]) -> Result<Self, String> {
        let mut config = Config::defaults(S::schema());
        for (name, value) in overrides {
            config.set(name, value)?;
        }
        let world = S::build(&config)?;
        Ok(Self { seed, config, history: History::new(Sim::new(seed, world)) })
    }

    /// Rebuilds a run from a link's parts: replays the tape, then seeks to `position`.
    pub fn restore(
        seed: u64,
        overrides: &[(String, String)],
        tape: &str,
        position: Option<usize>,
    ) -> Result<Self, String> {
        let mut run = Self::new(seed, overrides)?;
        let inputs = decode_tape::<S::Command, Codec<S>>(tape)?;
        for (index, input) in inputs.into_iter().enumerate() {
            let label = describe(&input);
            run.history.push(input).map_err(|why| format!("action {} ({label}) failed: {why}", index + 1))?;
        }
        if let Some(position) = position {
            if position > run.history.tape().len() {
                return Err(format!(
                    "position {position} is past the end of the recorded actions ({})",
                    run.history.tape().len()
                ));
            }
            run.history.seek(position);
        }
        Ok(run)
    }

    /// A preset's run, built from its config and tape.
    pub fn from_preset(preset: &Preset) -> Result<Self, String> {
        let overrides = parse_overrides(preset.config)?;
        Self::restore(preset.seed, &overrides, preset.tape, None)
    }

    pub fn tape_text(&self) -> String {
        encode_tape::<S::Command, Codec<S>>(self.history.tape())
    }

    pub fn sim(&self) -> &Sim<S> {
        self.history.current()
    }

    pub fn world(&self) -> &S {
        self.history.current().world()
    }
}

fn describe<C: std::fmt::Debug>(input: &Input<C>) -> String {
    match input {
        Input::Step => "step".into(),
        Input::Advance(ms) => format!("wait {ms} ms"),
        Input::Command(command) => format!("{command:?}"),
    }
}

/// Reads `name=value,name=value` (also `name:value`) into pairs.
pub fn parse_overrides(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            pair.split_once(['=', ':'])
                .map(|(name, value)| (name.trim().to_string(), value.trim().to_string()))
                .ok_or_else(|| format!("config \"{pair}\" is not of the form name=value"))
        })
        .collect()
}
