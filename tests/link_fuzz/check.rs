//! What must hold for every link: it is read or refused without a panic, its run stays within
//! the work budget, and the link the lab writes for that run reopens to the same state.

use kafka_lab::link::{LinkState, MAX_QUERY_BYTES};
use kafka_lab::model::kernel::{MAX_EVENTS_AT_ONE_INSTANT, MAX_TAPE_INPUTS};
use kafka_lab::model::scene::{LabScene, Run, RunError, REPLAY_EVENT_BUDGET};
use kafka_lab::model::{
    cluster::Cluster, group::GroupLab, log::LogLab, partitioner::Partitioner, replication::Replication,
    timer::TimerLab, transactions::TxnLab,
};
use kafka_lab::scenes::{self, open_run};

/// Every scene the fuzz drives (a test checks it is the registry's list).
pub const SCENE_IDS: &[&str] = &["overview", "log", "replication", "groups", "partitioner", "timer", "transactions"];

/// What one link did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    /// The link was read (not refused by the parser).
    pub parsed: bool,
    /// The run opened (not refused by the scene).
    pub opened: bool,
    /// The budget stopped it.
    pub stopped: bool,
    /// Events the run handled (its work).
    pub events: u64,
    /// Why the scene refused it (`RunError`'s kind), if it did.
    pub refused: Option<&'static str>,
}

/// Reads, opens and reopens one link; `Err` says which promise it broke.
pub fn check_link(query: &str, default_scene: &str) -> Result<Outcome, String> {
    let ids = scenes::ids();
    let Ok(link) = LinkState::parse(query, &ids) else {
        return Ok(Outcome::default());
    };
    let written = link.to_query();
    match LinkState::parse(&written, &ids) {
        Ok(again) if again == link => {}
        Ok(again) => return Err(format!("the link writer changed it: {written:?} reads as {again:?}, not {link:?}")),
        Err(why) => return Err(format!("the link writer's {written:?} does not read back: {why}")),
    }
    let outcome = match link.scene.as_deref().unwrap_or(default_scene) {
        "overview" => open_and_reopen::<Cluster>(&link),
        "log" => open_and_reopen::<LogLab>(&link),
        "replication" => open_and_reopen::<Replication>(&link),
        "groups" => open_and_reopen::<GroupLab>(&link),
        "partitioner" => open_and_reopen::<Partitioner>(&link),
        "timer" => open_and_reopen::<TimerLab>(&link),
        "transactions" => open_and_reopen::<TxnLab>(&link),
        other => Err(format!("scene {other:?} is not in the fuzz's list")),
    }?;
    Ok(Outcome { parsed: true, ..outcome })
}

/// The link the lab writes for `run` (as the shell's `Session::link` does).
pub fn written_link<S: LabScene>(run: &Run<S>, opened: &LinkState) -> LinkState {
    let position = run.history.position();
    LinkState {
        scene: Some(S::ID.to_string()),
        seed: Some(run.seed),
        config: run.config.overrides().into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
        actions: run.tape_text(),
        position: (position < run.history.tape().len()).then_some(position),
        preset: opened.preset.clone(),
        ..opened.clone()
    }
}

fn open_and_reopen<S: LabScene>(link: &LinkState) -> Result<Outcome, String> {
    let run = match open_run::<S>(link) {
        Ok(run) => run,
        Err(why) => return Ok(Outcome { refused: Some(kind(&why)), ..Outcome::default() }),
    };
    let (sim, history) = (run.sim(), &run.history);
    let at_end = history.position() == history.tape().len();
    let events = sim.events_handled();
    // A run past its budget stops between two instants; one instant may still hold a burst.
    if at_end && events > REPLAY_EVENT_BUDGET + MAX_EVENTS_AT_ONE_INSTANT {
        return Err(format!("{events} events handled, over the budget of {REPLAY_EVENT_BUDGET}"));
    }
    if history.tape().len() > MAX_TAPE_INPUTS {
        return Err(format!("{} inputs recorded, over {MAX_TAPE_INPUTS}", history.tape().len()));
    }
    if let (Some(stopped), true) = (run.stopped, at_end) {
        if stopped.at_ms != sim.now_ms() {
            return Err(format!("stopped says {} ms but the clock shows {} ms", stopped.at_ms, sim.now_ms()));
        }
    }
    let query = written_link(&run, link).to_query();
    if query.len() > MAX_QUERY_BYTES {
        return Err(format!("the lab writes a link of {} bytes, which it refuses to reopen", query.len()));
    }
    let reread = LinkState::parse(&query, &scenes::ids()).map_err(|why| format!("written {query:?}: {why}"))?;
    let again = open_run::<S>(&reread).map_err(|why| format!("written {query:?} does not reopen: {why}"))?;
    let state = |run: &Run<S>| (run.sim().now_ms(), run.sim().trace_hash(), run.history.position());
    if state(&again) != state(&run) || again.tape_text() != run.tape_text() {
        return Err(format!(
            "written {query:?} reopens to (clock, trace, position) {:?}, not {:?}",
            state(&again),
            state(&run)
        ));
    }
    if again.stopped.is_some() {
        return Err(format!("written {query:?} is stopped by the budget again: {:?}", again.stopped));
    }
    Ok(Outcome { parsed: true, opened: true, stopped: run.stopped.is_some(), events, refused: None })
}

fn kind(why: &RunError) -> &'static str {
    match why {
        RunError::Config(_) => "config",
        RunError::BadOverride { .. } => "override",
        RunError::Build(_) => "build",
        RunError::Tape(_) => "tape",
        RunError::Action { .. } => "action",
        RunError::PastEnd { .. } => "past end",
        RunError::UnknownPreset { .. } => "preset",
    }
}
