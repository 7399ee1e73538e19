//! What every scene's model provides to the shell: its config schema, how it is
//! built from a config, how its commands read in a link, and its presets.

use crate::model::config::{Config, ConfigError, Property};
use crate::model::kernel::{
    decode_tape, encode_tape, Allowance, Arg, CommandCodec, Describe, History, Input, Message, Sim, TapeError,
    TokenError, World,
};

/// Why a run could not be built from a link or a preset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RunError {
    /// A config override Kafka would refuse.
    Config(ConfigError),
    /// An override that is not `name=value`.
    BadOverride { pair: String },
    /// The scene refuses this combination of configs (its own reason).
    Build(Message),
    /// The link's actions cannot be read.
    Tape(TapeError),
    /// Action `index` (from 1), written `token`, was refused by the scene.
    Action { index: usize, token: String, why: Message },
    /// `t=` points past the recorded actions.
    PastEnd { position: usize, len: usize },
    /// `preset=` names no preset of the scene.
    UnknownPreset { id: String, known: Vec<&'static str> },
}

crate::messages! {
    pub RUN_KEYS;
    RUN_BAD_OVERRIDE = "link.config.pair" => "config \"{pair}\" is not of the form name=value";
    RUN_ACTION = "link.action.refused" => "action {index} ({token}) failed: {why}";
    RUN_PAST_END = "link.position.past" => "position {position} is past the end of the recorded actions ({len})";
    RUN_UNKNOWN_PRESET = "link.preset.unknown" => "unknown preset \"{id}\" (presets: {known})";
    RUN_STOPPED = "link.stopped" => "{run} of {actions} actions replayed, up to {time} of virtual time";
    RUN_PLAY_LIMIT = "link.play.limit" => "the run reached {time} of virtual time and {events} events, as much as a link may hold";
}

/// What Play says when it stops at the work budget: the run holds as much as a link may ask
/// for (so the link of this screen reopens it), at `now_ms`.
pub fn play_limit_message(now_ms: u64, events_handled: u64) -> Message {
    Message::new(RUN_PLAY_LIMIT)
        .with("time", Arg::Duration(now_ms))
        .with("events", Arg::Count(i64::try_from(events_handled).unwrap_or(i64::MAX)))
}

impl Describe for Stopped {
    fn message(&self) -> Message {
        Message::new(RUN_STOPPED)
            .with("run", Arg::Count(self.actions_run as i64))
            .with("actions", Arg::Count(self.actions as i64))
            .with("time", Arg::Duration(self.at_ms))
    }
}

impl Describe for RunError {
    fn message(&self) -> Message {
        let nested = |m: Message| Arg::Message(Box::new(m));
        match self {
            RunError::Config(error) => error.message(),
            RunError::BadOverride { pair } => Message::new(RUN_BAD_OVERRIDE).with("pair", Arg::text(pair.clone())),
            RunError::Build(why) => why.clone(),
            RunError::Tape(error) => error.message(),
            RunError::Action { index, token, why } => Message::new(RUN_ACTION)
                .with("index", Arg::int(*index))
                .with("token", Arg::text(token.clone()))
                .with("why", nested(why.clone())),
            RunError::PastEnd { position, len } => {
                Message::new(RUN_PAST_END).with("position", Arg::int(*position)).with("len", Arg::int(*len))
            }
            RunError::UnknownPreset { id, known } => Message::new(RUN_UNKNOWN_PRESET)
                .with("id", Arg::text(id.clone()))
                .with("known", Arg::text(known.join(", "))),
        }
    }
}

impl From<ConfigError> for RunError {
    fn from(error: ConfigError) -> Self {
        RunError::Config(error)
    }
}

impl From<TapeError> for RunError {
    fn from(error: TapeError) -> Self {
        RunError::Tape(error)
    }
}

/// The seed a run starts with when the link names none.
pub const DEFAULT_SEED: u64 = 1;

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

    /// How a comparison labels the figures of this scene's answers (`model::notebook::labels`).
    const FIGURE_LABELS: &'static [crate::model::notebook::labels::Label];

    fn schema() -> &'static [Property];

    /// Builds the world for a validated config; rejects impossible combinations.
    fn build(config: &Config) -> Result<Self, Self::Refusal>;

    fn encode_command(command: &Self::Command) -> String;

    fn decode_command(token: &str) -> Result<Self::Command, TokenError>;

    fn presets() -> &'static [Preset] {
        &[]
    }

    /// The story a preset tells (`None`: the scene opened without a preset): where it opens,
    /// its captions, its result card and its speed.
    fn story(preset: Option<&str>) -> crate::model::story::Story<Self>;

    /// The steady workload Play starts on a run where nothing would happen (Kafka's defaults:
    /// a producer, a reader, tasks being added), or `None` when something already runs.
    fn workload(_sim: &Sim<Self>) -> Option<Self::Command> {
        None
    }
}

struct Codec<S>(std::marker::PhantomData<S>);

impl<S: LabScene> CommandCodec for Codec<S> {
    type Command = S::Command;
    fn encode(command: &S::Command) -> String {
        S::encode_command(command)
    }
    fn decode(token: &str) -> Result<S::Command, TokenError> {
        S::decode_command(token)
    }
}

/// A scene's run: seed, config, and its time-travelling history.
#[derive(Clone, Debug)]
pub struct Run<S: LabScene> {
    pub seed: u64,
    pub config: Config,
    pub history: History<S>,
    /// Set when the link asked for more work than [`REPLAY_EVENT_BUDGET`]: it was replayed
    /// as far as the budget goes.
    pub stopped: Option<Stopped>,
}

/// How much a link may ask the model to do when it opens: events handled (each recorded
/// input counts as [`INPUT_COST`] events too, for the history it keeps, and each event-log
/// line a command writes past its first [`INPUT_COST`] counts as one, since a command handles
/// no events). About a second
/// of work in the browser and, with the history's bounded snapshots, within the memory
/// budget; a link past it opens where the budget ran out, and says so. Play stops at the
/// same budget, so every link Play writes reopens.
pub const REPLAY_EVENT_BUDGET: u64 = 1_500_000;
/// The event log a link's run may write, in lines. Every line is kept for the whole run (the
/// log pane, the stories' answers), so it is a memory budget of its own: 1.2 million lines are
/// at most about 100 MB of wasm memory (the timing wheel writes about 80 bytes a line, more
/// than one line an event). A link reaching it stops as one over the event budget does.
pub const REPLAY_LOG_LINE_BUDGET: usize = 1_200_000;
/// What recording one input costs, in events.
pub const INPUT_COST: u64 = 50;

/// Where a link over the budget was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// The virtual time the run reached.
    pub at_ms: u64,
    /// How many of the link's actions ran (the last one perhaps only in part).
    pub actions_run: usize,
    /// How many actions the link named.
    pub actions: usize,
}

impl<S: LabScene> Run<S> {
    /// A fresh run with `overrides` (`name=value` pairs) applied in order.
    pub fn new(seed: u64, overrides: &[(String, String)]) -> Result<Self, RunError> {
        let mut config = Config::defaults(S::schema());
        for (name, value) in overrides {
            config.set(name, value)?;
        }
        let world = S::build(&config).map_err(|why| RunError::Build(why.message()))?;
        Ok(Self { seed, config, history: History::new(Sim::new(seed, world)), stopped: None })
    }

    /// Rebuilds a run from a link's parts: replays the tape, then seeks to `position`.
    pub fn restore(
        seed: u64,
        overrides: &[(String, String)],
        tape: &str,
        position: Option<usize>,
    ) -> Result<Self, RunError> {
        let mut run = Self::new(seed, overrides)?;
        let inputs = decode_tape::<S::Command, Codec<S>>(tape)?;
        let actions = inputs.len();
        let mut command_lines = 0;
        for (index, input) in inputs.into_iter().enumerate() {
            let token = token_of::<S>(&input);
            let spent = work(run.history.current().events_handled(), index, command_lines);
            let left = REPLAY_EVENT_BUDGET.saturating_sub(spent);
            let stop = |actions_run, at_ms| Some(Stopped { at_ms, actions_run, actions });
            if left == 0 || run.history.current().log().len() >= REPLAY_LOG_LINE_BUDGET {
                run.stopped = stop(index, run.history.current().now_ms());
                break;
            }
            let (is_command, lines_before) = (matches!(input, Input::Command(_)), run.history.current().log().len());
            let pushed = run.history.push_within(input, Allowance { events: left, log_len: REPLAY_LOG_LINE_BUDGET });
            if is_command {
                command_lines += extra_lines(run.history.current().log().len() - lines_before);
            }
            if let Some(at_ms) =
                pushed.map_err(|why| RunError::Action { index: index + 1, token, why: why.message() })?
            {
                run.stopped = stop(index + 1, at_ms);
                break;
            }
        }
        if let Some(position) = position {
            let len = run.history.tape().len();
            // A link stopped by the budget opens at its end; otherwise `t=` must be on the tape.
            if position > len && run.stopped.is_none() {
                return Err(RunError::PastEnd { position, len });
            }
            run.history.seek(position.min(len));
        }
        Ok(run)
    }

    /// A preset's run, built from its config and tape, at the end of the tape.
    pub fn from_preset(preset: &Preset) -> Result<Self, RunError> {
        let overrides = parse_overrides(preset.config)?;
        Self::restore(preset.seed, &overrides, preset.tape, None)
    }

    /// A preset's run opened where its story starts.
    pub fn preset_at_start(preset: &Preset) -> Result<Self, RunError> {
        let mut run = Self::from_preset(preset)?;
        let start = S::story(Some(preset.id)).start_position(&run.history);
        run.history.seek(start);
        Ok(run)
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

/// The budget's measure of a run: `events` handled, [`INPUT_COST`] per input, and the
/// event-log lines commands wrote.
fn work(events: u64, inputs: usize, command_lines: u64) -> u64 {
    events.saturating_add(INPUT_COST.saturating_mul(inputs as u64)).saturating_add(command_lines)
}

/// The event-log lines a command wrote beyond what its [`INPUT_COST`] already covers (so
/// ordinary commands, and the links written before lines counted, cost what they did).
fn extra_lines(lines: usize) -> u64 {
    (lines as u64).saturating_sub(INPUT_COST)
}

/// What Play may still do from `history`'s current position: the events the budget has left
/// and the log's line limit; `None` once either is spent.
pub fn budget_left<S: LabScene>(history: &History<S>) -> Option<Allowance> {
    let events = REPLAY_EVENT_BUDGET.saturating_sub(work_of(history));
    let lines_left = history.current().log().len() < REPLAY_LOG_LINE_BUDGET;
    (events > 0 && lines_left).then_some(Allowance { events, log_len: REPLAY_LOG_LINE_BUDGET })
}

/// What `history` has cost up to its current position, as [`REPLAY_EVENT_BUDGET`] counts it.
pub fn work_of<S: LabScene>(history: &History<S>) -> u64 {
    let command_lines = (0..history.position())
        .filter(|&i| matches!(history.tape()[i], Input::Command(_)))
        .map(|i| extra_lines(history.recorded_at(i + 1).len()))
        .sum();
    work(history.current().events_handled(), history.position(), command_lines)
}

/// An input as its link token (`s1`, `w250`, `kill-2`).
fn token_of<S: LabScene>(input: &Input<S::Command>) -> String {
    match input {
        Input::Step => "s1".into(),
        Input::Advance(ms) => format!("w{ms}"),
        Input::Command(command) => S::encode_command(command),
    }
}

/// Reads `name=value,name=value` (also `name:value`) into pairs.
pub fn parse_overrides(text: &str) -> Result<Vec<(String, String)>, RunError> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for piece in text.split(',').map(str::trim).filter(|piece| !piece.is_empty()) {
        match (piece.split_once(['=', ':']), pairs.last_mut()) {
            (Some((name, value)), _) => pairs.push((name.trim().to_string(), value.trim().to_string())),
            // A list value (`cleanup.policy:compact,delete`): the comma belongs to the value.
            (None, Some((_, value))) => {
                value.push(',');
                value.push_str(piece);
            }
            (None, None) => return Err(RunError::BadOverride { pair: piece.to_string() }),
        }
    }
    Ok(pairs)
}

crate::display_as_message!(RunError);
