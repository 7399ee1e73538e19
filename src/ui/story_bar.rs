//! The top of every scene: the result card (the story's question and, once reached, the
//! model's answer), the caption saying what just happened, and the timeline's markers.

use leptos::prelude::*;

use super::markup::{Host, Markup};
use super::story::{Jump, MarkerView};
use super::transport::Shell;
use crate::html;
use crate::i18n::{key, t};
use crate::markup::Html;

/// `record`: the result card's notebook buttons (none in an embed's bundle, which never shows them).
#[component]
pub fn StoryBar(shell: Shell, record: Option<AnyView>) -> impl IntoView {
    let story = {
        let shell = shell.clone();
        Memo::new(move |_| shell.story())
    };
    let question = Signal::derive(move || story.with(|s| s.question.clone()));
    let answer = Signal::derive(move || story.with(|s| s.answer.clone()));
    let caption = Signal::derive(move || story.with(|s| s.caption.clone()));
    let reached = move || story.with(|s| s.reached);
    let when = move || story.with(|s| s.caption_ms.map(crate::i18n::duration));
    view! {
        <div class="story">
        <section class="result-card" class:reached=reached data-testid="result-card"
            aria-labelledby="result-question">
            <h2 id="result-question" class="question"><Markup html=question host=Host::Span class="question-text"/></h2>
            <p class="answer-line">
                <span class="answer-label">
                    {move || if reached() { t(key::SHELL_RESULT_ANSWER) } else { "" }}
                </span>
                <Markup html=answer host=Host::Span class="answer" testid="result-answer"/>
            </p>
            {record}
        </section>
        <p class="caption" class:authored=move || story.with(|s| s.authored) aria-live="polite"
            data-testid="caption">
            <span class="sr-only">{t(key::SHELL_CAPTION)}</span>
            <Show when=move || when().is_some()>
                <span class="caption-time">{move || when().unwrap_or_default()}</span>
            </Show>
            <Markup html=caption host=Host::Span class="caption-text" testid="caption-text"/>
        </p>
        </div>
    }
}

/// Markers over the scrubber: one button per key moment, placed at its position on the tape.
/// Drawn as one piece of markup (redrawn when the tape grows, not on every step) with one click
/// handler for all of them: a keyed list of buttons costs every page several KB of wasm.
#[component]
pub fn Markers(shell: Shell, tape_len: Memo<usize>) -> impl IntoView {
    let html = {
        let shell = shell.clone();
        Memo::new(move |_| {
            tape_len.track();
            markers_html(&shell.markers())
        })
    };
    let seek = Callback::new(move |ev: leptos::ev::MouseEvent| {
        if let Some(position) = clicked_position(&ev) {
            shell.seek(position);
        }
    });
    let label = Signal::derive(|| t(key::SHELL_MARKERS).to_string());
    view! { <Markup html=html class="markers" role="group" label=label testid="markers" on_click=seek/> }
}

/// The markers' buttons. Out of the Tab order (the keys [ and ] reach every marker, and the
/// caption then says what happened), so the transport stays a few Tab stops long.
fn markers_html(markers: &[MarkerView]) -> Html {
    let mut out = Html::new();
    for m in markers {
        html!(
            out,
            "<button class=\"marker\" data-moment=\"{}\" data-position=\"{}\" data-style=\"{}\" data-label=\"{}\" \
             aria-label=\"{}\" tabindex=\"-1\"></button>",
            m.kind,
            m.position,
            marker_left(m.position, m.of).as_str(),
            m.label.as_str(),
            m.label.as_str()
        );
    }
    out
}

/// The position of the marker a click landed on (`None`: the click was beside every marker).
fn clicked_position(ev: &leptos::ev::MouseEvent) -> Option<usize> {
    use wasm_bindgen::JsCast;
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    target.closest(".marker").ok()??.get_attribute("data-position")?.parse().ok()
}

/// The keys for the markers, as the help dialog lists them.
pub fn jump_for(key_name: &str) -> Option<Jump> {
    match key_name {
        "[" => Some(Jump::PrevMark),
        "]" => Some(Jump::NextMark),
        "Home" => Some(Jump::Home),
        "End" => Some(Jump::End),
        _ => None,
    }
}

/// Presenter mode's slide counter: how many of the story's key moments are behind us.
#[component]
pub fn MomentCounter(shell: Shell, tape_len: Memo<usize>, position: Signal<usize>) -> impl IntoView {
    let marks = Memo::new(move |_| {
        tape_len.track();
        shell.markers().iter().map(|m| m.position).collect::<Vec<_>>()
    });
    let text = move || {
        let here = position.get();
        let (passed, count) = marks.with(|m| (m.iter().filter(|p| **p <= here).count(), m.len()));
        crate::i18n::tf(key::SHELL_MOMENT_COUNT, &[("index", &passed.to_string()), ("count", &count.to_string())])
    };
    view! {
        <Show when=move || marks.with(|m| !m.is_empty())>
            <span class="moments" data-testid="moments">{text}</span>
        </Show>
    }
}

/// `left: 37.500%`: where a marker sits on the timeline, in thousandths of a percent, by
/// integer arithmetic (float formatting would link several KB of wasm into every page).
fn marker_left(position: usize, of: usize) -> String {
    let of = of.max(1) as u64;
    let thousandths = (position as u64 * 100_000 + of / 2) / of;
    let mut left = String::from("left: ");
    let _ = crate::model::kernel::write_decimal(&mut left, i64::try_from(thousandths).unwrap_or(i64::MAX), 3);
    left.push('%');
    left
}
