//! The partition directory as files on a strip, and the offset axis with the log start offset, HW and LEO.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::format::{bytes, duration, fixed, grouped, percent, strip_slots, Slot};
use super::{lookup_segment, Focus};
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::log::views::{OffsetsView, SegmentFileView};
use crate::model::log::{LogLab, PARTITION, TOPIC};
use crate::ui::markup::{Host, Markup};
use crate::ui::session::Session;

/// Most cards drawn before the strip compresses the middle into a gap.
const MAX_CARDS: usize = 160;

/// What identifies a slot of the strip across redraws: a segment's file set, or a gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum SlotKey {
    Segment { base_offset: i64, deleted: bool },
    Gap { from: usize, to: usize },
}

/// One segment's card as drawn now.
#[derive(Clone, Debug, PartialEq)]
struct Card {
    file: SegmentFileView,
    selected: bool,
    found: bool,
    /// Age of the newest record, when the segment holds any batch.
    age_ms: Option<i64>,
}

/// The strip's slots in order, with each segment's card.
fn strip_items(
    files: &[SegmentFileView],
    focused: i64,
    found: Option<i64>,
    now_ms: i64,
) -> Vec<(SlotKey, Option<Card>)> {
    let selected = files.iter().position(|f| f.base_offset == focused).unwrap_or(0);
    strip_slots(files.len(), selected, MAX_CARDS)
        .into_iter()
        .map(|slot| match slot {
            Slot::Segment(i) => {
                let file = &files[i];
                let key = SlotKey::Segment { base_offset: file.base_offset, deleted: file.deleted };
                let card = Card {
                    selected: file.base_offset == focused,
                    found: found == Some(file.base_offset),
                    age_ms: (file.batches > 0).then(|| (now_ms - file.largest_timestamp_ms).max(0)),
                    file: file.clone(),
                };
                (key, Some(card))
            }
            Slot::Gap { from, to } => (SlotKey::Gap { from, to }, None),
        })
        .collect()
}

#[component]
pub fn Directory(session: Session<LogLab>, focus: Focus) -> impl IntoView {
    let files = Memo::new(move |_| session.with(|run| run.world().log().segment_files()));
    let offsets = Memo::new(move |_| session.with(|run| run.world().log().offsets_view()));
    let found = Memo::new(move |_| session.with(|run| lookup_segment(run.world().last_lookup())));
    let now = Memo::new(move |_| session.with(|run| run.sim().now_ms() as i64));
    let summary = move || {
        let list = files.get();
        let live = list.iter().filter(|f| !f.deleted).count();
        let deleted = list.len() - live;
        tf(
            key::LOG_DIR_SUMMARY,
            &[
                ("segments", &live.to_string()),
                ("deleted", &deleted.to_string()),
                ("size", &bytes(offsets.get().size_bytes)),
            ],
        )
    };
    let items = Memo::new(move |_| files.with(|list| strip_items(list, focus.base.get(), found.get(), now.get())));
    let keys = Memo::new(move |_| items.with(|items| items.iter().map(|(key, _)| *key).collect::<Vec<_>>()));
    let strip = NodeRef::<leptos::html::Ul>::new();
    let count = Memo::new(move |_| files.with(Vec::len));
    Effect::new(move |_| {
        focus.base.track();
        count.track();
        request_animation_frame(move || reveal_selected(strip));
    });
    view! {
        <section class="log-dir" aria-labelledby="log-dir-title">
            <h2 id="log-dir-title">{tf(key::LOG_DIR_TITLE, &[("dir", &format!("{TOPIC}-{PARTITION}/"))])}</h2>
            <p class="legend" data-testid="dir-summary">{summary}</p>
            <ul class="log-strip" role="list" data-testid="strip" node_ref=strip>
                <For each=move || keys.get() key=|key| *key children=move |key| slot_view(key, items, focus)/>
            </ul>
            <OffsetAxis files=files offsets=offsets focus=focus/>
        </section>
    }
}

/// Scrolls the strip sideways so the focused segment's card is wholly in view and the strip
/// starts at a card's edge (no card cut at the left): from the start when the card fits there,
/// else from the first card from which it fits. Near the end of the strip, room is added after
/// the last card so that this position can be scrolled to.
fn reveal_selected(strip: NodeRef<leptos::html::Ul>) {
    let Some(strip) = strip.get_untracked() else { return };
    // Through the CSSOM: the page's policy refuses style attributes.
    let _ = web_sys::HtmlElement::style(&strip).remove_property("padding-right");
    let Ok(Some(card)) = strip.query_selector(".log-card.selected") else { return };
    let Some(item) = card.parent_element().and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
    let right = item.offset_left() + item.offset_width();
    let width = strip.client_width();
    let left_of = |el: &web_sys::Element| el.dyn_ref::<web_sys::HtmlElement>().map_or(0, |h| h.offset_left());
    let start = strip.first_element_child().map_or(0, |first| left_of(&first));
    let mut left = 0;
    let mut next = strip.first_element_child();
    while let Some(el) = next {
        let at = left_of(&el);
        if right - at <= width || at >= item.offset_left() {
            left = at - start;
            break;
        }
        next = el.next_element_sibling();
    }
    let short = left - (strip.scroll_width() - width);
    if short > 0 {
        let _ = web_sys::HtmlElement::style(&strip).set_property("padding-right", &format!("{}px", short + start));
    }
    strip.set_scroll_left(left.max(0));
}

fn slot_view(key: SlotKey, items: Memo<Vec<(SlotKey, Option<Card>)>>, focus: Focus) -> AnyView {
    match key {
        SlotKey::Gap { from, to } => {
            let text = tf(key::LOG_DIR_GAP, &[("count", &(to - from + 1).to_string())]);
            view! { <li class="log-gap">{text}</li> }.into_any()
        }
        SlotKey::Segment { base_offset, .. } => {
            let card = Memo::new(move |_| {
                items.with(|items| items.iter().find(|(k, _)| *k == key).and_then(|(_, card)| card.clone()))
            });
            view! { <SegmentCard base=base_offset card=card focus=focus/> }.into_any()
        }
    }
}

/// The card's classes: `log-card` plus its states.
fn card_class(card: &Card) -> String {
    let states = [
        (card.file.active, " active"),
        (card.file.deleted, " deleted"),
        (card.found, " found"),
        (card.selected, " selected"),
    ];
    let mut class = "log-card".to_string();
    class.extend(states.iter().filter(|(on, _)| *on).map(|(_, c)| *c));
    class
}

fn range_text(card: &Card) -> String {
    let (base, next) = (card.file.base_offset, card.file.next_offset);
    if next > base {
        format!("{} … {}", grouped(base), grouped(next - 1))
    } else {
        t(key::LOG_DIR_EMPTY).to_string()
    }
}

/// `.index · 66 entries` (with `.deleted` once renamed).
fn index_text(extension: &str, deleted: bool, entries: usize) -> String {
    let suffix = if deleted { ".deleted" } else { "" };
    format!("{extension}{suffix} · {}", tf(key::LOG_DIR_ENTRIES, &[("count", &entries.to_string())]))
}

/// One segment's card: a toggle button (focusable, keyed by its file set) that focuses its segment.
/// It shows names, sizes, index entries, offsets, age and badges: read-only text, drawn as one
/// markup inside the button, so a card costs three reactive bindings, not a dozen (a step that
/// rolls 100 segments built 100 cards in ~110 ms).
#[component]
fn SegmentCard(base: i64, card: Memo<Option<Card>>, focus: Focus) -> impl IntoView {
    let class = move || card.with(|c| c.as_ref().map(card_class).unwrap_or_default());
    let pressed = move || card.with(|c| c.as_ref().is_some_and(|c| c.selected)).to_string();
    let body = Signal::derive(move || card.with(|c| c.as_ref().map(card_markup).unwrap_or_default()));
    let testid = format!("segment-{base:020}");
    view! {
        <li class="log-strip-item">
            <button type="button" class=class aria-pressed=pressed data-base=base data-testid=testid
                on:click=move |_| focus.chosen.set(Some(base))>
                <Markup html=body host=Host::Span class="log-card-body"/>
            </button>
        </li>
    }
}

/// A card's text: file name, size, index entries, offsets, then age and badges.
fn card_markup(c: &Card) -> Html {
    let f = &c.file;
    let mut out = html!(
        r#"<span class="log-file"><b>{}</b></span><span class="log-size num">{}</span><span class="log-file sub">{}</span><span class="log-file sub">{}</span><span class="log-range num">{}</span>"#,
        f.log_file,
        bytes(u64::from(f.size_bytes)),
        index_text(".index", f.deleted, f.index_entries),
        index_text(".timeindex", f.deleted, f.time_index_entries),
        range_text(c)
    );
    if let Some(age_ms) = c.age_ms {
        html!(out, r#"<span class="log-age">{}</span>"#, tf(key::LOG_DIR_NEWEST, &[("age", &duration(age_ms))]));
    }
    let badges = [
        (f.deleted, "deleted", key::LOG_DIR_DELETED),
        (f.active && !f.deleted, "active", key::LOG_DIR_ACTIVE),
        (c.found, "found", key::LOG_DIR_FOUND),
    ];
    for (_, class, text) in badges.into_iter().filter(|(on, ..)| *on) {
        html!(out, r#"<span class="log-badge {}">{}</span>"#, class, t(text));
    }
    out
}

/// Offsets 0..LEO with each live segment as a block, the deleted range hatched, and the three markers.
#[component]
fn OffsetAxis(files: Memo<Vec<SegmentFileView>>, offsets: Memo<OffsetsView>, focus: Focus) -> impl IntoView {
    let end = move || offsets.get().log_end_offset.max(1) as f64;
    let blocks = Signal::derive(move || {
        let end = end();
        let focused = focus.base.get();
        let gone = percent(offsets.get().log_start_offset as f64, end);
        let mut html = html!("<div class=\"log-gone\" data-style=\"width:{}%\"></div>", fixed(gone, 3));
        for (i, f) in files.get().iter().filter(|f| !f.deleted).enumerate() {
            let left = percent(f.base_offset as f64, end);
            let width = (percent(f.next_offset as f64, end) - left).max(0.15);
            let odd = if i % 2 == 1 { " odd" } else { "" };
            let selected = if f.base_offset == focused { " selected" } else { "" };
            html!(
                html,
                "<div class=\"log-block{}{}\" data-style=\"left:{}%;width:{}%\"></div>",
                odd,
                selected,
                fixed(left, 3),
                fixed(width, 3)
            );
        }
        html
    });
    let marker = move |value: i64| {
        let at = percent(value as f64, end());
        format!("left:{}%;transform:translateX({})", fixed(at, 3), if at > 50.0 { "-100%" } else { "0" })
    };
    view! {
        <div class="log-axis" aria-hidden="true">
            <Markup html=blocks/>
            <div class="log-mark start" data-style=move || marker(offsets.get().log_start_offset)>{t(key::LOG_AXIS_START)}</div>
            <div class="log-mark end" data-style=move || marker(offsets.get().log_end_offset)>{t(key::LOG_AXIS_END)}</div>
        </div>
        <dl class="stats log-offsets">
            <div class="figure"><dt>{t(key::LOG_OFFSETS_START)}</dt><dd class="num" data-testid="log-start-offset">{move || offsets.get().log_start_offset}</dd></div>
            <div class="figure"><dt>{t(key::LOG_OFFSETS_HW)}</dt><dd class="num" data-testid="high-watermark">{move || offsets.get().high_watermark}</dd></div>
            <div class="figure"><dt>{t(key::LOG_OFFSETS_LEO)}</dt><dd class="num" data-testid="log-end-offset">{move || offsets.get().log_end_offset}</dd></div>
            <div class="figure"><dt>{t(key::LOG_OFFSETS_RECORDS)}</dt><dd class="num">{move || offsets.get().records}</dd></div>
        </dl>
    }
}
