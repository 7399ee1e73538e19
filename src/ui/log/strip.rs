//! The partition directory as files on a strip, and the offset axis with the log start offset, HW and LEO.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use std::fmt::Write;

use super::format::{bytes, duration, esc, fixed, grouped, percent, strip_slots, Slot};
use super::{lookup_segment, Focus};
use crate::i18n::{t, tf};
use crate::model::log::views::{OffsetsView, SegmentFileView};
use crate::model::log::{LogLab, PARTITION, TOPIC};
use crate::ui::session::Session;

/// Most cards drawn before the strip compresses the middle into a gap.
const MAX_CARDS: usize = 160;

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
            "log.dir.summary",
            &[
                ("segments", &live.to_string()),
                ("deleted", &deleted.to_string()),
                ("size", &bytes(offsets.get().size_bytes)),
            ],
        )
    };
    let cards = move || {
        let list = files.get();
        let base = focus.base.get();
        let selected = list.iter().position(|f| f.base_offset == base).unwrap_or(0);
        let (found, now) = (found.get(), now.get());
        let mut html = String::new();
        for slot in strip_slots(list.len(), selected, MAX_CARDS) {
            match slot {
                Slot::Segment(i) => card(&mut html, &list[i], base, found == Some(list[i].base_offset), now),
                Slot::Gap { from, to } => {
                    let text = tf("log.dir.gap", &[("count", &(to - from + 1).to_string())]);
                    let _ = write!(html, "<div class=\"log-gap\" role=\"listitem\">{}</div>", esc(&text));
                }
            }
        }
        html
    };
    let strip = NodeRef::<leptos::html::Div>::new();
    let count = Memo::new(move |_| files.with(Vec::len));
    Effect::new(move |_| {
        (focus.base.get(), count.get());
        request_animation_frame(move || center_selected(strip));
    });
    view! {
        <section class="log-dir" aria-labelledby="log-dir-title">
            <h2 id="log-dir-title">{tf("log.dir.title", &[("dir", &format!("{TOPIC}-{PARTITION}/"))])}</h2>
            <p class="legend" data-testid="dir-summary">{summary}</p>
            <div class="log-strip" role="list" data-testid="strip" node_ref=strip on:click=move |ev| pick(&ev, focus) inner_html=cards></div>
            <OffsetAxis files=files offsets=offsets focus=focus/>
        </section>
    }
}

/// Scrolls the strip sideways so the focused segment's card is in the middle.
fn center_selected(strip: NodeRef<leptos::html::Div>) {
    let Some(strip) = strip.get_untracked() else { return };
    let Ok(Some(card)) = strip.query_selector(".log-card.selected") else { return };
    let Ok(card) = card.dyn_into::<web_sys::HtmlElement>() else { return };
    let left = card.offset_left() - (strip.client_width() - card.offset_width()) / 2;
    strip.set_scroll_left(left.max(0));
}

/// A click on a card (or Enter/Space on it) focuses its segment.
fn pick(ev: &leptos::ev::MouseEvent, focus: Focus) {
    let card = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("[data-base]").ok().flatten());
    if let Some(base) = card.and_then(|c| c.get_attribute("data-base")).and_then(|b| b.parse().ok()) {
        focus.chosen.set(Some(base));
    }
}

/// One segment's files as a card: names, sizes, index entries, offsets, age, badges.
fn card(html: &mut String, file: &SegmentFileView, focused: i64, found: bool, now_ms: i64) {
    let base = file.base_offset;
    let selected = base == focused;
    let classes = [(file.active, " active"), (file.deleted, " deleted"), (found, " found"), (selected, " selected")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, c)| *c)
        .collect::<String>();
    let range = if file.next_offset > base {
        format!("{} … {}", grouped(base), grouped(file.next_offset - 1))
    } else {
        t("log.dir.empty").to_string()
    };
    let suffix = if file.deleted { ".deleted" } else { "" };
    let entries = |n: usize| esc(&tf("log.dir.entries", &[("count", &n.to_string())]));
    let _ = write!(
        html,
        "<button role=\"listitem\" class=\"log-card{classes}\" aria-pressed=\"{selected}\" data-base=\"{base}\" data-testid=\"segment-{base:020}\">\
         <span class=\"log-file\"><b>{}</b></span><span class=\"log-size num\">{}</span>\
         <span class=\"log-file sub\">.index{suffix} · {}</span><span class=\"log-file sub\">.timeindex{suffix} · {}</span>\
         <span class=\"log-range num\">{range}</span>",
        esc(&file.log_file),
        bytes(u64::from(file.size_bytes)),
        entries(file.index_entries),
        entries(file.time_index_entries),
    );
    if file.batches > 0 {
        let age = duration((now_ms - file.largest_timestamp_ms).max(0));
        let _ = write!(html, "<span class=\"log-age\">{}</span>", esc(&tf("log.dir.newest", &[("age", &age)])));
    }
    let badges = [
        (file.deleted, "deleted", "log.dir.deleted"),
        (file.active && !file.deleted, "active", "log.dir.active"),
        (found, "found", "log.dir.found"),
    ];
    for (_, class, key) in badges.iter().filter(|(on, _, _)| *on) {
        let _ = write!(html, "<span class=\"log-badge {class}\">{}</span>", esc(t(key)));
    }
    html.push_str("</button>");
}

/// Offsets 0..LEO with each live segment as a block, the deleted range hatched, and the three markers.
#[component]
fn OffsetAxis(files: Memo<Vec<SegmentFileView>>, offsets: Memo<OffsetsView>, focus: Focus) -> impl IntoView {
    let end = move || offsets.get().log_end_offset.max(1) as f64;
    let blocks = move || {
        let end = end();
        let focused = focus.base.get();
        let mut html = format!(
            "<div class=\"log-gone\" style=\"width:{}%\"></div>",
            fixed(percent(offsets.get().log_start_offset as f64, end), 3)
        );
        for (i, f) in files.get().iter().filter(|f| !f.deleted).enumerate() {
            let left = percent(f.base_offset as f64, end);
            let width = (percent(f.next_offset as f64, end) - left).max(0.15);
            let odd = if i % 2 == 1 { " odd" } else { "" };
            let selected = if f.base_offset == focused { " selected" } else { "" };
            let _ = write!(
                html,
                "<div class=\"log-block{odd}{selected}\" style=\"left:{}%;width:{}%\"></div>",
                fixed(left, 3),
                fixed(width, 3)
            );
        }
        html
    };
    let marker = move |value: i64| {
        let at = percent(value as f64, end());
        format!("left:{}%;transform:translateX({})", fixed(at, 3), if at > 50.0 { "-100%" } else { "0" })
    };
    view! {
        <div class="log-axis" aria-hidden="true">
            <div inner_html=blocks></div>
            <div class="log-mark start" style=move || marker(offsets.get().log_start_offset)>{t("log.axis.start")}</div>
            <div class="log-mark end" style=move || marker(offsets.get().log_end_offset)>{t("log.axis.end")}</div>
        </div>
        <dl class="stats log-offsets">
            <div class="figure"><dt>{t("log.offsets.start")}</dt><dd class="num" data-testid="log-start-offset">{move || offsets.get().log_start_offset}</dd></div>
            <div class="figure"><dt>{t("log.offsets.hw")}</dt><dd class="num" data-testid="high-watermark">{move || offsets.get().high_watermark}</dd></div>
            <div class="figure"><dt>{t("log.offsets.leo")}</dt><dd class="num" data-testid="log-end-offset">{move || offsets.get().log_end_offset}</dd></div>
            <div class="figure"><dt>{t("log.offsets.records")}</dt><dd class="num">{move || offsets.get().records}</dd></div>
        </dl>
        <p class="legend">{t("log.axis.legend")}</p>
    }
}
