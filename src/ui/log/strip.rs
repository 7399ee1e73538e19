//! The partition directory as files on a strip, and the offset axis with the log start offset, HW and LEO.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::format::{bytes, duration, grouped, percent, strip_slots, Slot};
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
            <div class="log-strip" role="list" data-testid="strip" node_ref=strip>
                {move || {
                    let list = files.get();
                    let selected = list.iter().position(|f| f.base_offset == focus.base.get()).unwrap_or(0);
                    strip_slots(list.len(), selected, MAX_CARDS)
                        .into_iter()
                        .map(|slot| match slot {
                            Slot::Segment(i) => card(list[i].clone(), focus, found.get() == Some(list[i].base_offset), now.get()).into_any(),
                            Slot::Gap { from, to } => view! {
                                <div class="log-gap" role="listitem">{tf("log.dir.gap", &[("count", &(to - from + 1).to_string())])}</div>
                            }.into_any(),
                        })
                        .collect_view()
                }}
            </div>
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

fn card(file: SegmentFileView, focus: Focus, found: bool, now_ms: i64) -> impl IntoView {
    let base = file.base_offset;
    let selected = move || focus.base.get() == base;
    let stem = format!("{base:020}");
    let range = if file.next_offset > base {
        format!("{} … {}", grouped(base), grouped(file.next_offset - 1))
    } else {
        t("log.dir.empty").to_string()
    };
    let badge = if file.deleted {
        Some(view! { <span class="log-badge deleted">{t("log.dir.deleted")}</span> })
    } else if file.active {
        Some(view! { <span class="log-badge active">{t("log.dir.active")}</span> })
    } else {
        None
    };
    let newest = (file.batches > 0)
        .then(|| tf("log.dir.newest", &[("age", &duration((now_ms - file.largest_timestamp_ms).max(0)))]));
    let suffix = if file.deleted { ".deleted" } else { "" };
    view! {
        <button role="listitem" class="log-card" class:active=file.active class:deleted=file.deleted class:found=found
            class:selected=selected aria-pressed=move || selected().to_string()
            data-testid=format!("segment-{stem}") on:click=move |_| focus.chosen.set(Some(base))>
            <span class="log-file"><b>{file.log_file.clone()}</b></span>
            <span class="log-size num">{bytes(u64::from(file.size_bytes))}</span>
            <span class="log-file sub">{format!(".index{suffix}")}" · "{tf("log.dir.entries", &[("count", &file.index_entries.to_string())])}</span>
            <span class="log-file sub">{format!(".timeindex{suffix}")}" · "{tf("log.dir.entries", &[("count", &file.time_index_entries.to_string())])}</span>
            <span class="log-range num">{range}</span>
            {newest.map(|text| view! { <span class="log-age">{text}</span> })}
            {badge}
            {found.then(|| view! { <span class="log-badge found">{t("log.dir.found")}</span> })}
        </button>
    }
}

/// Offsets 0..LEO with each live segment as a block, the deleted range hatched, and the three markers.
#[component]
fn OffsetAxis(files: Memo<Vec<SegmentFileView>>, offsets: Memo<OffsetsView>, focus: Focus) -> impl IntoView {
    let end = move || offsets.get().log_end_offset.max(1) as f64;
    let blocks = move || {
        let end = end();
        files
            .get()
            .into_iter()
            .filter(|f| !f.deleted)
            .enumerate()
            .map(|(i, f)| {
                let left = percent(f.base_offset as f64, end);
                let width = (percent(f.next_offset as f64, end) - left).max(0.15);
                let selected = f.base_offset == focus.base.get();
                let style = format!("left:{left:.3}%;width:{width:.3}%");
                view! { <div class="log-block" class:odd=i % 2 == 1 class:selected=selected style=style></div> }
            })
            .collect_view()
    };
    let gone = move || format!("width:{:.3}%", percent(offsets.get().log_start_offset as f64, end()));
    let marker = move |value: i64| {
        let at = percent(value as f64, end());
        format!("left:{at:.3}%;transform:translateX({})", if at > 50.0 { "-100%" } else { "0" })
    };
    view! {
        <div class="log-axis" aria-hidden="true">
            <div class="log-gone" style=gone></div>
            {blocks}
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
