//! The focused segment: its `.log` bytes with the sparse `.index` as ticks, and `kafka-dump-log`
//! of its `.log`, `.index` and `.timeindex`, a page at a time.

use leptos::prelude::*;

use super::format::{bytes, fixed, percent};
use super::Focus;
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::log::views::{DumpBatchView, SegmentFileView};
use crate::model::log::{LogLab, LookupResult};
use crate::ui::markup::Markup;
use crate::ui::session::Session;

const PAGE: usize = 10;
const MAX_TICKS: usize = 160;

/// Where the last offset lookup went in a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LookupMarks {
    segment: i64,
    /// The index entry used: (offset, position).
    entry: (i64, u32),
    found_position: u32,
    found_size: u32,
}

fn lookup_marks(lookup: Option<&LookupResult>) -> Option<LookupMarks> {
    match lookup? {
        LookupResult::Offset(Ok(f)) => Some(LookupMarks {
            segment: f.segment_base_offset,
            entry: f.index_entry,
            found_position: f.found_batch.position,
            found_size: f.found_batch.size_bytes,
        }),
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
            Some(m) if m.segment == base => session.with(|run| {
                let log = run.world().log();
                let batch = log.batch_index_at(base, m.found_position).unwrap_or(0);
                let slot =
                    log.index_entries(base, 0, usize::MAX).iter().position(|e| e.offset == m.entry.0).unwrap_or(0);
                (batch, slot)
            }),
            _ => (0, 0),
        };
        batch_start.set(batch.saturating_sub(2));
        index_start.set(slot.saturating_sub(2));
    });
    view! {
        <section class="log-detail" aria-labelledby="log-detail-title">
            <h2 id="log-detail-title">{move || tf(key::LOG_DETAIL_TITLE, &[("stem", &format!("{:020}", focus.base.get()))])}</h2>
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
fn ByteBar(session: Session<LogLab>, file: SegmentFileView, marks: Memo<Option<LookupMarks>>) -> impl IntoView {
    let base = file.base_offset;
    let size = f64::from(file.size_bytes.max(1));
    let marks_html = Signal::derive(move || {
        let mut html = Html::new();
        for tick in session.with(|run| run.world().log().index_ticks(base, MAX_TICKS)) {
            let left = percent(f64::from(tick.position), size);
            html!(
                html,
                "<div class=\"log-tick\" data-style=\"left:{}%\" title=\"{} → {}\"></div>",
                fixed(left, 3),
                tick.offset,
                tick.position
            );
        }
        if let Some(m) = marks.get().filter(|m| m.segment == base) {
            let left = percent(f64::from(m.entry.1), size);
            let width = (percent(f64::from(m.found_position + m.found_size), size) - left).max(0.4);
            html!(
                html,
                "<div class=\"log-scan\" data-style=\"left:{}%;width:{}%\"></div>",
                fixed(left, 3),
                fixed(width, 3)
            );
        }
        html
    });
    let shown = file.index_entries.min(MAX_TICKS);
    let label = tf(key::LOG_DETAIL_BAR, &[("entries", &file.index_entries.to_string())]);
    view! {
        <Markup html=marks_html class="log-bytes" role="img" label=Signal::stored(label)/>
        <div class="log-bytes-scale num"><span>"0"</span><span>{format!("{} ({})", file.size_bytes, bytes(u64::from(file.size_bytes)))}</span></div>
        <p class="legend">{tf(key::LOG_DETAIL_LEGEND, &[("entries", &file.index_entries.to_string()), ("shown", &shown.to_string()), ("batches", &file.batches.to_string())])}</p>
    }
}

/// One `kafka-dump-log` line; each `name: value` field is kept whole where the line wraps.
fn dump_line(b: &DumpBatchView) -> Html {
    let mut fields = vec![
        format!("baseOffset: {}", b.base_offset),
        format!("lastOffset: {}", b.last_offset),
        format!("count: {}", b.count),
    ];
    // Kafka prints `deleteHorizonMs: OptionalLong.empty` on every line; the lab shows it only once set.
    if b.delete_horizon_ms >= 0 {
        fields.push(format!("deleteHorizonMs: OptionalLong[{}]", b.delete_horizon_ms));
    }
    fields.extend([
        format!("position: {}", b.position),
        format!("CreateTime: {}", b.create_time_ms),
        format!("size: {}", b.size_bytes),
        "magic: 2".to_string(),
    ]);
    fields
        .iter()
        .enumerate()
        .map(|(i, field)| html!("{}<span class=\"f\">{}</span>", if i == 0 { "" } else { " " }, field.as_str()))
        .collect()
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
            <button disabled=move || start.get() == 0 on:click=move |_| start.update(|s| *s = s.saturating_sub(PAGE))>{t(key::LOG_PAGE_PREV)}</button>
            <span class="num">{range}</span>
            <button disabled=move || { start.get() + PAGE >= total() } on:click=move |_| start.update(|s| *s += PAGE)>{t(key::LOG_PAGE_NEXT)}</button>
        </div>
    }
}

#[component]
fn BatchDump(
    session: Session<LogLab>,
    focus: Focus,
    file: Memo<Option<SegmentFileView>>,
    start: RwSignal<usize>,
    marks: Memo<Option<LookupMarks>>,
) -> impl IntoView {
    let total = move || file.get().map_or(0, |f| f.batches);
    let lines = Signal::derive(move || {
        let base = focus.base.get();
        let found = marks.get().filter(|m| m.segment == base).map(|m| m.found_position);
        let mut html = html!("<div class=\"log-line muted\">Log starting offset: {}</div>", base);
        for b in session.with(|run| run.world().log().dump_batches(base, start.get(), PAGE)) {
            if found == Some(b.position) {
                html!(html, "<div class=\"log-line hit\">{}{}</div>", dump_line(&b), t(key::LOG_DUMP_HIT));
            } else {
                html!(html, "<div class=\"log-line\">{}</div>", dump_line(&b));
            }
        }
        html
    });
    let log_file = move || file.get().map(|f| f.log_file).unwrap_or_default();
    view! {
        <div class="log-dump">
            <h3>{move || format!("kafka-dump-log --files {}", log_file())}</h3>
            {pager(start, total, key::LOG_PAGE_BATCHES)}
            // Its lines wrap between fields; the box is still reachable by Tab, named by its command.
            <Markup html=lines class="log-pre" testid="dump-log" role="region" tabindex="0"
                label=Signal::derive(move || format!("kafka-dump-log --files {}", log_file()))/>
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
    let index_file = move || file.get().map(|f| f.index_file).unwrap_or_default();
    let time_index_file = move || file.get().map(|f| f.time_index_file).unwrap_or_default();
    view! {
        <div class="log-dump">
            <h3>{move || format!("kafka-dump-log --files {}", index_file())}</h3>
            {pager(start, total, key::LOG_PAGE_ENTRIES)}
            <pre translate="no" class="log-pre" data-testid="dump-index" role="region" tabindex="0"
                aria-label=move || format!("kafka-dump-log --files {}", index_file())>{move || lines().0}</pre>
            <h3>{move || format!("kafka-dump-log --files {}", time_index_file())}</h3>
            <pre translate="no" class="log-pre" role="region" tabindex="0"
                aria-label=move || format!("kafka-dump-log --files {}", time_index_file())>{move || lines().1}</pre>
        </div>
    }
}
