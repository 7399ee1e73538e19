//! The output partition's log as a row of cells, offset above each: data records filled with
//! their producer incarnation's colour and marked by their transaction's fate (✓ committed,
//! … open, ✗ aborted: hatched and struck), control records drawn as COMMIT / ABORT markers.
//! Under the cells, the last stable offset and the high watermark as labelled edges, and when
//! they differ, the bracket between them that read_committed may not read yet.
//! Long logs draw a window: the newest offsets, and the LSO's neighbourhood when it lags far
//! behind, the rest folded into counted ranges (never one node per record). Read-only, so
//! drawn as markup; the strip scrolls in its own box, opened at its newest cells.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{producer_class, TxnData};
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::transactions::core::RecordStatus;
use crate::model::transactions::{EntryView, TxnView};
use crate::ui::markup::Markup;

/// How many of the newest offsets are drawn as cells.
pub const NEWEST: u64 = 16;
/// How many cells from the LSO on are drawn when it lags behind the newest ones.
const AT_LSO: u64 = 4;

/// One slot of the drawn strip: an offset as a cell, or a folded range `from..=to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Cell(u64),
    Fold { from: u64, to: u64 },
}

/// The slots drawn for a log of `leo` offsets (plus the empty slot at the LEO) with its LSO.
pub fn slots(leo: u64, lso: u64) -> Vec<Slot> {
    let newest = (leo + 1).saturating_sub(NEWEST);
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    if lso < newest {
        // The LSO's neighbourhood (one committed offset before it, a few after), then the newest.
        let from = lso.saturating_sub(1);
        let to = (lso + AT_LSO - 1).min(leo);
        ranges.push((from, to));
        ranges.push((newest.max(to + 1), leo));
    } else {
        ranges.push((newest, leo));
    }
    let mut out = Vec::new();
    let mut next = 0;
    for (from, to) in ranges {
        if from > to {
            continue;
        }
        // A fold stands for two offsets or more; a single one is drawn as it is.
        match from - next {
            0 => {}
            1 => out.push(Slot::Cell(next)),
            _ => out.push(Slot::Fold { from: next, to: from - 1 }),
        }
        out.extend((from..=to).map(Slot::Cell));
        next = to + 1;
    }
    out
}

/// The entry at `offset` (the log's entries are in offset order).
pub fn entry_at(entries: &[EntryView], offset: u64) -> Option<&EntryView> {
    entries.binary_search_by_key(&offset, |e| e.offset).ok().map(|i| &entries[i])
}

/// Css class, mark and catalog key of a record's status.
pub fn status_marks(status: RecordStatus) -> (&'static str, &'static str, &'static str) {
    match status {
        RecordStatus::Plain => ("plain", "", key::TRANSACTIONS_STATUS_PLAIN),
        RecordStatus::Open => ("open", "…", key::TRANSACTIONS_STATUS_OPEN),
        RecordStatus::Committed => ("committed", "✓", key::TRANSACTIONS_STATUS_COMMITTED),
        RecordStatus::Aborted => ("aborted", "✗", key::TRANSACTIONS_STATUS_ABORTED),
        RecordStatus::Control { commit: true } => ("control commit", "", key::TRANSACTIONS_STATUS_COMMIT_MARKER),
        RecordStatus::Control { commit: false } => ("control abort", "", key::TRANSACTIONS_STATUS_ABORT_MARKER),
    }
}

/// " held" for an offset read_committed cannot read yet (from the LSO up to the HW).
fn held(v: &TxnView, offset: u64) -> &'static str {
    if v.last_stable_offset <= offset && offset < v.high_watermark {
        " held"
    } else {
        ""
    }
}

fn data_cell(out: &mut Html, e: &EntryView, v: &TxnView) {
    let (class, mark, status_key) = status_marks(e.status);
    let who = e.producer.and_then(|i| v.producers.get(i));
    let incarnation = e.producer.map_or_else(|| "p-none".to_string(), producer_class);
    let record = e.record_id.map_or_else(|| "—".to_string(), |id| format!("#{id}"));
    let (epoch, seq) = (who.map_or(0, |p| p.epoch), e.sequence.map_or_else(|| "—".into(), |s| s.to_string()));
    let title = tf(
        key::TRANSACTIONS_CELL,
        &[
            ("offset", &e.offset.to_string()),
            ("record", &record),
            ("producer", &who.map_or_else(|| "—".to_string(), |p| p.producer_id.to_string())),
            ("epoch", &epoch.to_string()),
            ("sequence", &seq),
            ("status", t(status_key)),
        ],
    );
    let dup = match e.duplicate_of {
        Some(first) => html!(
            "<span class=\"dup\" aria-hidden=\"true\">2×</span><span class=\"sr-only\">{}</span>",
            tf(key::TRANSACTIONS_CELL_DUPLICATE, &[("offset", &first.to_string())])
        ),
        None => Html::new(),
    };
    let dup_class = if e.duplicate_of.is_some() { " duplicate" } else { "" };
    html!(
        out,
        "<li class=\"cell rec {} {}{}{}\" data-offset=\"{}\" data-status=\"{}\" title=\"{}\"><span class=\"off\">{}</span><span class=\"box\"><span class=\"id\">{}</span><span class=\"st\"><span aria-hidden=\"true\">{}</span><span class=\"sr-only\">{}</span>{}</span></span></li>",
        incarnation,
        class,
        dup_class,
        held(v, e.offset),
        e.offset,
        class,
        title,
        e.offset,
        record,
        mark,
        t(status_key),
        dup
    );
}

fn marker_cell(out: &mut Html, e: &EntryView, commit: bool, held: &str) {
    let (word, status_key) = if commit {
        ("COMMIT", key::TRANSACTIONS_STATUS_COMMIT_MARKER)
    } else {
        ("ABORT", key::TRANSACTIONS_STATUS_ABORT_MARKER)
    };
    let title = tf(key::TRANSACTIONS_MARKER_CELL, &[("offset", &e.offset.to_string()), ("marker", word)]);
    let class = if commit { "commit" } else { "abort" };
    html!(
        out,
        "<li class=\"cell control {}{}\" data-offset=\"{}\" data-status=\"control-{}\" title=\"{}\"><span class=\"off\">{}</span><span class=\"box\"><span class=\"word\" translate=\"no\">{}</span><span class=\"sr-only\">{}</span></span></li>",
        class,
        held,
        e.offset,
        class,
        title,
        e.offset,
        word,
        t(status_key)
    );
}

/// A folded range: how many records, and how many of them aborted or are control markers.
fn fold_cell(out: &mut Html, v: &TxnView, from: u64, to: u64) {
    let inside = v.entries.iter().filter(|e| e.offset >= from && e.offset <= to);
    let (mut aborted, mut markers, mut open) = (0u64, 0u64, 0u64);
    for e in inside {
        match e.status {
            RecordStatus::Aborted => aborted += 1,
            RecordStatus::Control { .. } => markers += 1,
            RecordStatus::Open => open += 1,
            _ => {}
        }
    }
    let count = to - from + 1;
    let title = tf(
        key::TRANSACTIONS_FOLD,
        &[
            ("from", &from.to_string()),
            ("to", &to.to_string()),
            ("count", &count.to_string()),
            ("aborted", &aborted.to_string()),
            ("open", &open.to_string()),
            ("markers", &markers.to_string()),
        ],
    );
    let held = if v.last_stable_offset <= from && to < v.high_watermark { " held" } else { "" };
    html!(
        out,
        "<li class=\"cell fold{}\" title=\"{}\"><span class=\"off\">{}–{}</span><span class=\"box\"><span aria-hidden=\"true\">⋯ {}</span><span class=\"sr-only\">{}</span></span></li>",
        held,
        title,
        from,
        to,
        count,
        title
    );
}

/// The slot at the log end offset: where the next record goes.
fn next_cell(out: &mut Html, leo: u64) {
    html!(
        out,
        "<li class=\"cell next\" data-offset=\"{}\" title=\"{}\"><span class=\"off\">{}</span><span class=\"box\"></span></li>",
        leo,
        t(key::TRANSACTIONS_NEXT_SLOT),
        leo
    );
}

/// The grid column (1-based) of `offset` among `slots`, or of the fold that holds it.
fn column_of(slots: &[Slot], offset: u64) -> usize {
    slots
        .iter()
        .position(|s| match *s {
            Slot::Cell(o) => o == offset,
            Slot::Fold { from, to } => from <= offset && offset <= to,
        })
        .map_or(slots.len(), |i| i + 1)
}

/// The edges under the cells: LSO and HW, and the bracket between them.
fn edges(out: &mut Html, v: &TxnView, slots: &[Slot]) {
    let (lso, hw) = (v.last_stable_offset, v.high_watermark);
    let (lso_col, hw_col) = (column_of(slots, lso), column_of(slots, hw));
    if lso == hw {
        html!(
            out,
            "<li class=\"edge both\" data-style=\"grid-column: {}\" data-testid=\"lso-hw\"><span class=\"tick\">▲</span><span class=\"label\">LSO = HW <span class=\"num\">{}</span></span></li>",
            hw_col,
            hw
        );
        return;
    }
    html!(
        out,
        "<li class=\"gap\" data-style=\"grid-column: {} / {}\" data-testid=\"lso-gap\"><span class=\"label\">{}</span></li>",
        lso_col,
        hw_col.max(lso_col + 1),
        tf(key::TRANSACTIONS_GAP, &[("count", &(hw - lso).to_string())])
    );
    // Each label reads rightwards from its edge; the LSO's reads leftwards when the HW's is too
    // close to leave it room.
    let lso_side = if hw_col - lso_col < 3 { " to-left" } else { "" };
    for (class, side, name, at, col) in [("lso", lso_side, "LSO", lso, lso_col), ("hw", "", "HW", hw, hw_col)] {
        html!(
            out,
            "<li class=\"edge {}{}\" data-style=\"grid-column: {}\" data-testid=\"{}-edge\"><span class=\"tick\">▲</span><span class=\"label\">{} <span class=\"num\">{}</span></span></li>",
            class,
            side,
            col,
            class,
            name,
            at
        );
    }
}

/// The grid's columns: a fold is wider than a cell (it names a range).
fn columns(slots: &[Slot]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run = 0;
    for slot in slots {
        match slot {
            Slot::Cell(_) => run += 1,
            Slot::Fold { .. } => {
                if run > 0 {
                    parts.push(format!("repeat({run}, var(--cell))"));
                    run = 0;
                }
                parts.push("var(--fold)".into());
            }
        }
    }
    if run > 0 {
        parts.push(format!("repeat({run}, var(--cell))"));
    }
    parts.join(" ")
}

/// The whole strip as markup.
pub fn strip_markup(v: &TxnView) -> Html {
    let (leo, lso, hw) = (v.log_end_offset, v.last_stable_offset, v.high_watermark);
    debug_assert!(lso <= hw && hw <= leo, "LSO ≤ HW ≤ LEO");
    let slots = slots(leo, lso);
    let mut cells = Html::new();
    for slot in &slots {
        match *slot {
            Slot::Fold { from, to } => fold_cell(&mut cells, v, from, to),
            Slot::Cell(o) if o == leo => next_cell(&mut cells, leo),
            Slot::Cell(o) => match entry_at(&v.entries, o) {
                Some(e) => match e.status {
                    RecordStatus::Control { commit } => marker_cell(&mut cells, e, commit, held(v, o)),
                    _ => data_cell(&mut cells, e, v),
                },
                None => next_cell(&mut cells, o),
            },
        }
    }
    let mut under = Html::new();
    edges(&mut under, v, &slots);
    html!(
        "<div class=\"tx-grid\" data-style=\"--cols: {}\"><ol class=\"cells\" aria-label=\"{}\">{}</ol><ul class=\"edges\" aria-label=\"{}\">{}</ul></div>",
        columns(&slots),
        t(key::TRANSACTIONS_LOG_CELLS),
        cells,
        t(key::TRANSACTIONS_LOG_EDGES),
        under
    )
}

/// Room kept left of the LSO's edge and label when the strip is scrolled, in px.
const LSO_MARGIN_PX: i32 = 8;

/// Where the strip's box scrolls to: its end (the newest cells), unless that hides the LSO's
/// edge or label; then the LSO's leftmost mark at the box's left side, with a margin.
fn opening_scroll(scroller: &web_sys::HtmlDivElement) -> i32 {
    let newest = scroller.scroll_width() - scroller.client_width();
    let edge = scroller.query_selector("[data-testid=lso-edge], [data-testid=lso-hw]").ok().flatten();
    let Some(edge) = edge.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) else { return newest };
    // The edge is positioned, so its tick and label are placed relative to it (the label may
    // read leftwards, to a negative offset).
    let children = edge.children();
    let leftmost = (0..children.length())
        .filter_map(|i| children.item(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|child| child.offset_left())
        .fold(0, i32::min);
    newest.min(edge.offset_left() + leftmost - LSO_MARGIN_PX).max(0)
}

/// The strip's section: its title with the three offsets, the scrolling box, the key.
#[component]
pub fn LogStrip(data: Memo<TxnData>) -> impl IntoView {
    let markup = Signal::derive(move || data.with(|d| strip_markup(&d.view)));
    let title = move || data.with(|d| format!("{}-0", d.view.topic));
    let figures = move || {
        data.with(|d| {
            let v = &d.view;
            tf(
                key::TRANSACTIONS_LOG_FIGURES,
                &[
                    ("leo", &v.log_end_offset.to_string()),
                    ("hw", &v.high_watermark.to_string()),
                    ("lso", &v.last_stable_offset.to_string()),
                ],
            )
        })
    };
    let scroll = NodeRef::<leptos::html::Div>::new();
    // Whenever the strip changes, its newest cells come into view, as far as the LSO's edge, its
    // label and the first cell it holds back stay in view (the bracket's words stay in view
    // while the bracket does: they stick to the box's left side).
    Effect::new(move |_| {
        markup.track();
        request_animation_frame(move || {
            if let Some(el) = scroll.get_untracked() {
                el.set_scroll_left(opening_scroll(&el));
            }
        });
    });
    view! {
        <section class="tx-log" aria-labelledby="tx-log-title">
            <div class="tx-head">
                <h2 id="tx-log-title"><span translate="no">{title}</span>" "<span class="muted">{t(key::TRANSACTIONS_LOG)}</span></h2>
                <p class="figures num" data-testid="log-figures">{figures}</p>
            </div>
            <div class="tx-scroll" node_ref=scroll tabindex="0" role="group" aria-label=t(key::TRANSACTIONS_LOG)>
                <Markup html=markup testid="txn-log"/>
            </div>
            <p class="legend tx-key">{t(key::TRANSACTIONS_LOG_KEY)}</p>
        </section>
    }
}
