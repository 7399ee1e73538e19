//! The focused segment: its `.log` bytes with the sparse `.index` as ticks, and `kafka-dump-log`
//! of its `.log`, `.index` and `.timeindex`, a page at a time.

use leptos::prelude::*;

use std::fmt::Write;

use super::format::{bytes, esc, fixed, percent};
use super::Focus;
use crate::i18n::{t, tf};
use crate::model::log::views::{DumpBatchView, SegmentFileView};
use crate::model::log::{LogLab, LookupResult};
use crate::ui::session::Session;

const PAGE: usize = 10;
const MAX_TICKS: usize = 160;

/// Where the last offset lookup went in a segment: (segment, index entry position, found batch position, found batch size).
fn lookup_marks(lookup: Option<&LookupResult>) -> Option<(i64, i64, u32, u32, u32)> {
    match lookup? {
        LookupResult::Offset(Ok(f)) => Some((
            f.segment_base_offset,
            f.index_entry.0,
            f.index_entry.1,
            f.found_batch.position,
            f.found_batch.size_bytes,
        )),
        _ => None,
    }
}

#[component]
pub fn SegmentDetail(session: Session<LogLab>, focus: Focus) -> impl IntoView {
    let file = Memo::new(move |_| {
        let base = focus.base.get();
        session.with(|run| run.world().log().segment_files().into_iter().find(|f| f.base_offset == base))
    });
    let marks = Memo::new(move |_| session.with(|run| lookup_marks(run.world().last_lookup())));
    let batch_start = RwSignal::new(0usize);
    let index_start = RwSignal::new(0usize);
    // A new focus or a new lookup pages the dumps to the lookup's batch and index entry.
    Effect::new(move |_| {
        let base = focus.base.get();
        let (batch, slot) = match marks.get() {
            Some((segment, entry_offset, _, found_position, _)) if segment == base => session.with(|run| {
                let log = run.world().log();
                let batch = log.batch_index_at(base, found_position).unwrap_or(0);
                let slot =
                    log.index_entries(base, 0, usize::MAX).iter().position(|e| e.offset == entry_offset).unwrap_or(0);
                (batch, slot)
            }),
            _ => (0, 0),
        };
        batch_start.set(batch.saturating_sub(2));
        index_start.set(slot.saturating_sub(2));
    });
    view! {
        <section class="log-detail" aria-labelledby="log-detail-title">
            <h2 id="log-detail-title">{move || tf("log.detail.title", &[("stem", &format!("{:020}", focus.base.get()))])}</h2>
            {move || file.get().map(|f| view! { <ByteBar session=session file=f marks=marks/> })}
            <div class="log-dumps">
                <BatchDump session=session focus=focus file=file start=batch_start marks=marks/>
                <IndexDump session=session focus=focus file=file start=index_start/>
            </div>
        </section>
    }
}

/// The `.log` as a byte axis; each `.index` entry is a tick at its position.
#[component]
fn ByteBar(
    session: Session<LogLab>,
    file: SegmentFileView,
    marks: Memo<Option<(i64, i64, u32, u32, u32)>>,
) -> impl IntoView {
    let base = file.base_offset;
    let size = f64::from(file.size_bytes.max(1));
    let marks_html = move || {
        let mut html = String::new();
        for tick in session.with(|run| run.world().log().index_ticks(base, MAX_TICKS)) {
            let left = percent(f64::from(tick.position), size);
            let _ = write!(
                html,
                "<div class=\"log-tick\" style=\"left:{}%\" title=\"{} → {}\"></div>",
                fixed(left, 3),
                tick.offset,
                tick.position
            );
        }
        if let Some((_, _, entry, found, found_size)) = marks.get().filter(|m| m.0 == base) {
            let left = percent(f64::from(entry), size);
            let width = (percent(f64::from(found + found_size), size) - left).max(0.4);
            let _ = write!(
                html,
                "<div class=\"log-scan\" style=\"left:{}%;width:{}%\"></div>",
                fixed(left, 3),
                fixed(width, 3)
            );
        }
        html
    };
    let shown = file.index_entries.min(MAX_TICKS);
    view! {
        <div class="log-bytes" role="img" aria-label=tf("log.detail.bar", &[("entries", &file.index_entries.to_string())]) inner_html=marks_html></div>
        <div class="log-bytes-scale num"><span>"0"</span><span>{format!("{} ({})", file.size_bytes, bytes(u64::from(file.size_bytes)))}</span></div>
        <p class="legend">{tf("log.detail.legend", &[("entries", &file.index_entries.to_string()), ("shown", &shown.to_string()), ("batches", &file.batches.to_string())])}</p>
    }
}

fn dump_line(b: &DumpBatchView) -> String {
    // Kafka prints `deleteHorizonMs: OptionalLong.empty` on every line; the lab shows it only once set.
    let horizon = if b.delete_horizon_ms >= 0 {
        format!(" deleteHorizonMs: OptionalLong[{}]", b.delete_horizon_ms)
    } else {
        String::new()
    };
    format!(
        "baseOffset: {} lastOffset: {} count: {}{horizon} position: {} CreateTime: {} size: {} magic: 2",
        b.base_offset, b.last_offset, b.count, b.position, b.create_time_ms, b.size_bytes
    )
}

/// `◂ previous`, `batches 1–10 of 66`, `next ▸`.
fn pager(
    start: RwSignal<usize>,
    total: impl Fn() -> usize + Copy + Send + Sync + 'static,
    what: &'static str,
) -> impl IntoView {
    let range = move || {
        let total = total();
        let first = start.get().min(total);
        tf(
            what,
            &[
                ("from", &(first + 1).min(total).to_string()),
                ("to", &(first + PAGE).min(total).to_string()),
                ("total", &total.to_string()),
            ],
        )
    };
    view! {
        <div class="log-pager">
            <button disabled=move || start.get() == 0 on:click=move |_| start.update(|s| *s = s.saturating_sub(PAGE))>{t("log.page.prev")}</button>
            <span class="num">{range}</span>
            <button disabled=move || { start.get() + PAGE >= total() } on:click=move |_| start.update(|s| *s += PAGE)>{t("log.page.next")}</button>
        </div>
    }
}

#[component]
fn BatchDump(
    session: Session<LogLab>,
    focus: Focus,
    file: Memo<Option<SegmentFileView>>,
    start: RwSignal<usize>,
    marks: Memo<Option<(i64, i64, u32, u32, u32)>>,
) -> impl IntoView {
    let total = move || file.get().map_or(0, |f| f.batches);
    let lines = move || {
        let base = focus.base.get();
        let found = marks.get().filter(|m| m.0 == base).map(|m| m.3);
        let mut html = format!("<div class=\"log-line muted\">Log starting offset: {base}</div>");
        for b in session.with(|run| run.world().log().dump_batches(base, start.get(), PAGE)) {
            let hit = found == Some(b.position);
            let (class, note) = if hit { (" hit", esc(t("log.dump.hit"))) } else { ("", String::new()) };
            let _ = write!(html, "<div class=\"log-line{class}\">{}{note}</div>", dump_line(&b));
        }
        html
    };
    view! {
        <div class="log-dump">
            <h3>{move || format!("kafka-dump-log --files {}", file.get().map(|f| f.log_file).unwrap_or_default())}</h3>
            {pager(start, total, "log.page.batches")}
            <div class="log-pre" data-testid="dump-log" inner_html=lines></div>
        </div>
    }
}

#[component]
fn IndexDump(
    session: Session<LogLab>,
    focus: Focus,
    file: Memo<Option<SegmentFileView>>,
    start: RwSignal<usize>,
) -> impl IntoView {
    let total = move || file.get().map_or(0, |f| f.index_entries);
    let lines = move || {
        let base = focus.base.get();
        let (entries, times) = session.with(|run| {
            let log = run.world().log();
            (log.index_entries(base, start.get(), PAGE), log.time_index_entries(base, start.get(), PAGE))
        });
        let offsets =
            entries.iter().map(|e| format!("offset: {} position: {}", e.offset, e.position)).collect::<Vec<_>>();
        let times = times.iter().map(|(ts, o)| format!("timestamp: {ts} offset: {o}")).collect::<Vec<_>>();
        (offsets.join("\n"), times.join("\n"))
    };
    let name = move |ext: &str| file.get().map(|f| f.log_file.replacen(".log", ext, 1)).unwrap_or_default();
    view! {
        <div class="log-dump">
            <h3>{move || format!("kafka-dump-log --files {}", name(".index"))}</h3>
            {pager(start, total, "log.page.entries")}
            <pre class="log-pre" data-testid="dump-index">{move || lines().0}</pre>
            <h3>{move || format!("kafka-dump-log --files {}", name(".timeindex"))}</h3>
            <pre class="log-pre">{move || lines().1}</pre>
        </div>
    }
}
