//! The story as the shell shows it: the result card, the caption, the timeline's markers and
//! the event log's rows, rendered through the catalog from the model's typed story.

use crate::i18n::{render, render_html, Locale};
use crate::markup::Html;
use crate::model::kernel::{Describe, History, Message, Salience, Salient};
use crate::model::scene::LabScene;
use crate::model::story::{Caption, Story};

use super::session::LogRow;

/// The result card and the caption at the current step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoryView {
    pub question: Html,
    /// The answer once the story reached it, else what to watch for.
    pub answer: Html,
    pub reached: bool,
    pub caption: Html,
    /// The caption is the story's own words (not a log line).
    pub authored: bool,
    /// The simulated ms of the fact the caption shows (`None` for authored words).
    pub caption_ms: Option<u64>,
}

/// One marker on the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerView {
    pub position: usize,
    /// `Moment::token` (for styling).
    pub kind: &'static str,
    /// The tape's length it was placed on.
    pub of: usize,
    /// "fenced · 12 s · fenced broker-1: no heartbeat …".
    pub label: String,
}

/// Where a jump goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jump {
    Home,
    End,
    PrevMark,
    NextMark,
}

/// The most markers drawn (a long run keeps its first ones; the keys still reach every one).
const MAX_MARKERS: usize = 160;

pub fn story_view<S: LabScene>(story: &Story<S>, history: &History<S>) -> StoryView {
    let verdict = story.verdict(history);
    let (answer, reached) = match &verdict.answer {
        Some(answer) => (render_html(answer), true),
        None => (render_html(&verdict.watch), false),
    };
    let (caption, authored, caption_ms) = match story.caption(history) {
        Caption::Authored(message) => (render_html(&message), true, None),
        Caption::Fact { actor, fact, time_ms } => {
            let mut html = Html::new();
            crate::html!(html, "<span class=\"who\">{}</span> ", render(&actor));
            html.push(&render_html(&fact));
            (html, false, Some(time_ms))
        }
        Caption::Idle => (render_html(&crate::i18n::message(crate::i18n::key::SHELL_CAPTION_IDLE)), true, None),
    };
    StoryView { question: render_html(&verdict.question), answer, reached, caption, authored, caption_ms }
}

/// The key moments the model logged, and the story's authored captions where no moment is.
pub fn marker_views<S: LabScene>(story: &Story<S>, history: &History<S>) -> Vec<MarkerView> {
    let mut out = moment_markers(history);
    let of = history.tape().len();
    for (position, _) in story.beat_positions(history) {
        if position > 0 && !out.iter().any(|m| m.position == position) {
            let label = crate::i18n::tf(crate::i18n::key::SHELL_MARKER_BEAT, &[("step", &position.to_string())]);
            out.push(MarkerView { position, kind: "beat", of, label });
        }
    }
    crate::model::kernel::order::sort_by_key(&mut out, |m| m.position);
    out
}

/// One marker per position: styled by its first moment, labelled with each of them (the
/// first few; a fence, its ISR shrinks and elections land on the same step).
fn moment_markers<S: LabScene>(history: &History<S>) -> Vec<MarkerView> {
    const LINES_PER_MARKER: usize = 4;
    let mut out: Vec<MarkerView> = Vec::new();
    let mut lines_here = 0;
    for (position, mark) in history.marks() {
        let line = format!(
            "{} · {} · {}",
            render(&crate::model::kernel::Message::new(mark.moment.key())),
            crate::i18n::duration(mark.time_ms),
            render(&mark.fact)
        );
        if let Some(last) = out.last_mut().filter(|last| last.position == position) {
            lines_here += 1;
            match lines_here.cmp(&LINES_PER_MARKER) {
                std::cmp::Ordering::Less => last.label = format!("{}\n{line}", last.label),
                std::cmp::Ordering::Equal => last.label.push_str("\n…"),
                std::cmp::Ordering::Greater => {}
            }
            continue;
        }
        if out.len() == MAX_MARKERS {
            break;
        }
        lines_here = 0;
        out.push(MarkerView { position, kind: mark.moment.token(), of: history.tape().len(), label: line });
    }
    out
}

pub fn jump_target<S: LabScene>(story: &Story<S>, history: &History<S>, to: Jump) -> usize {
    let here = history.position();
    let beats = story.beat_positions(history).into_iter().map(|(p, _)| p);
    let mut positions: Vec<usize> = history.marks().map(|(p, _)| p).chain(beats).collect();
    crate::model::kernel::order::sort(&mut positions);
    positions.dedup();
    let mut marks = positions.into_iter();
    match to {
        Jump::Home => {
            let start = story.start_position(history);
            if here > start {
                start
            } else {
                0
            }
        }
        Jump::End => history.tape().len(),
        Jump::NextMark => marks.find(|&p| p > here).unwrap_or(here),
        Jump::PrevMark => marks.rfind(|&p| p < here).unwrap_or(0),
    }
}

/// How far back the folded view looks for lines to show.
const SCAN_LIMIT: usize = 20_000;

/// The newest `count` rows, newest last. With a filter every matching line shows; otherwise,
/// unless `all`, each run of routine lines becomes one row counting them.
pub fn log_rows<S: LabScene>(
    history: &History<S>,
    count: usize,
    filter: &str,
    all: bool,
    rendered: &mut RenderedLines,
) -> Vec<LogRow> {
    let filter = lowercase(filter.trim());
    let log = history.current().log();
    let now = history.recorded_at(history.position());
    let mut rows: Vec<LogRow> = Vec::new();
    let mut folded = 0usize;
    let mut folded_at = None;
    let oldest = log.len().saturating_sub(SCAN_LIMIT);
    for index in (oldest..log.len()).rev() {
        if rows.len() >= count {
            break;
        }
        let Some(entry) = log.get(index) else { continue };
        let routine = entry.fact.salience() == Salience::Routine;
        if filter.is_empty() && !all && routine {
            folded += 1;
            folded_at.get_or_insert((index, entry.time_ms));
            continue;
        }
        flush_fold(&mut rows, &mut folded, &mut folded_at, &now);
        let line = rendered.line(index, entry.actor.message(), entry.fact.message());
        let matches =
            filter.is_empty() || lowercase(&line.actor).contains(&filter) || lowercase(&line.text).contains(&filter);
        if matches {
            rows.push(LogRow {
                time_ms: entry.time_ms,
                actor: line.actor.clone(),
                html: line.html.clone(),
                now: now.contains(&index),
                folded: 0,
            });
        }
    }
    if rows.len() < count {
        flush_fold(&mut rows, &mut folded, &mut folded_at, &now);
    }
    rendered.finish();
    rows.reverse();
    rows
}

/// The event log's lines as last rendered, by log index, so that a step renders through the
/// catalog only the lines that are new (or whose message differs: after a seek back and another
/// input, the same index can hold another line), not all 80 drawn (groups' rebalance loop:
/// 7 of a step's 19 ms of script went to rendering the log again).
#[derive(Default)]
pub struct RenderedLines {
    locale: Option<Locale>,
    /// The previous call's lines, oldest first (so the newest is popped first).
    previous: Vec<RenderedLine>,
    /// This call's lines so far, newest first.
    current: Vec<RenderedLine>,
}

struct RenderedLine {
    index: usize,
    actor_message: Message,
    fact_message: Message,
    actor: String,
    text: String,
    html: Html,
}

impl RenderedLines {
    /// The line at `index` with these messages (asked newest first): the previous rendering if
    /// it is the same line in the same language, else a new one.
    fn line(&mut self, index: usize, actor_message: Message, fact_message: Message) -> &RenderedLine {
        let locale = crate::i18n::current_locale();
        if self.locale != Some(locale) {
            self.locale = Some(locale);
            self.previous.clear();
        }
        while self.previous.last().is_some_and(|line| line.index > index) {
            self.previous.pop();
        }
        let same = |line: &RenderedLine| {
            line.index == index && line.actor_message == actor_message && line.fact_message == fact_message
        };
        let line = match self.previous.pop_if(|line| same(line)) {
            Some(line) => line,
            None => RenderedLine {
                index,
                actor: render(&actor_message),
                text: render(&fact_message),
                html: render_html(&fact_message),
                actor_message,
                fact_message,
            },
        };
        self.current.push(line);
        self.current.last().expect("a line was just pushed")
    }

    /// Keeps this call's lines for the next call.
    fn finish(&mut self) {
        self.previous = std::mem::take(&mut self.current);
        self.previous.reverse();
    }
}

/// `text` in lower case, as `str::to_lowercase` gives it (Unicode's default mapping, so a filter
/// matches `Líder` and `LÍDER` alike). In the browser the mapping comes from JavaScript's
/// `toLowerCase`, the same mapping: the Rust one links Unicode's case table, about 9 KB gzip of
/// every page (measured with scripts/size). ASCII text, most lines, never leaves wasm.
fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    #[cfg(target_arch = "wasm32")]
    return js_sys::JsString::from(text).to_lower_case().into();
    #[cfg(not(target_arch = "wasm32"))]
    text.to_lowercase()
}

/// Ends a run of routine lines: one row that counts them (newest line's index and time).
fn flush_fold(rows: &mut Vec<LogRow>, folded: &mut usize, at: &mut Option<(usize, u64)>, now: &std::ops::Range<usize>) {
    if let Some((index, time_ms)) = at.take() {
        let text = crate::i18n::tf(crate::i18n::key::SHELL_LOG_FOLDED, &[("count", &folded.to_string())]);
        let mut html = Html::new();
        html.push_text(&text);
        let newest_now = now.contains(&index);
        rows.push(LogRow { time_ms, actor: String::new(), html, now: newest_now, folded: *folded });
        *folded = 0;
    }
}
