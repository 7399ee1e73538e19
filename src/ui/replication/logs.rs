//! Each replica's log as a row of offsets, aligned across replicas: cells coloured and
//! labelled by leader epoch, ▲HW and △LEO markers. Big logs show only their last offsets,
//! the older ones folded into one range cell per row (never one node per record). Each row
//! names its replica with LEO, HW and its leader-epoch-checkpoint. Read-only, so drawn as
//! markup from the replica views; the grid scrolls sideways in its own box when it is wider
//! than the page, opened at its newest offsets with the replica names kept in view.

use leptos::prelude::*;

use super::broker_name;
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::replication::{RecordView, ReplicaView, Replication};
use crate::ui::markup::PatchedMarkup;
use crate::ui::session::Session;

/// How many offsets are drawn as cells (the rest fold into a range).
pub const WINDOW: i64 = 18;
/// Epoch colours cycle through this many classes (`epoch-0` … `epoch-5`).
const EPOCH_CLASSES: i32 = 6;

/// The offsets drawn as cells, `start..=end`: up to the longest log's LEO (its next slot).
pub fn window(max_leo: i64) -> (i64, i64) {
    let end = max_leo.max(0);
    ((end + 1 - WINDOW).max(0), end)
}

fn epoch_class(epoch: i32) -> i32 {
    epoch.rem_euclid(EPOCH_CLASSES)
}

/// The marker under an offset: ▲ for the high watermark, △ for the log end offset.
pub fn marker(offset: i64, hw: i64, leo: i64) -> &'static str {
    match (offset == hw, offset == leo) {
        (true, true) => "▲HW △LEO",
        (true, false) => "▲HW",
        (false, true) => "△LEO",
        _ => "",
    }
}

/// The marker as markup, one line a mark (a cell is too narrow for both side by side).
fn marker_markup(offset: i64, hw: i64, leo: i64) -> Html {
    marker(offset, hw, leo).split(' ').filter(|m| !m.is_empty()).map(|m| html!("<span>{}</span>", m)).collect()
}

/// `e0→0 e1→3`: the leader-epoch-checkpoint, each epoch with the offset it starts at.
fn checkpoint_text(cache: &[(i32, i64)]) -> String {
    if cache.is_empty() {
        return "—".into();
    }
    cache.iter().map(|(e, o)| format!("e{e}→{o}")).collect::<Vec<_>>().join(" ")
}

/// Which cell of the head row the grid opens scrolled to (1-based, as `:nth-child` counts):
/// the lowest high watermark among the offsets drawn as cells, so every ▲HW there is in view
/// with as many of the newest offsets as fit (a HW in the fold is said by the fold).
pub fn first_hw_child(views: &[ReplicaView]) -> Option<usize> {
    let max_leo = views.iter().map(|v| v.log_end_offset).max().unwrap_or(0);
    let (start, _) = window(max_leo);
    let lowest = views.iter().map(|v| v.high_watermark).filter(|hw| *hw >= start).min()?;
    let fold = usize::from(start > 0);
    Some(2 + fold + (lowest - start) as usize)
}

fn grid_markup(views: &[ReplicaView], leader: Option<u32>) -> Html {
    let max_leo = views.iter().map(|v| v.log_end_offset).max().unwrap_or(0);
    let (start, end) = window(max_leo);
    let leader_view = leader.and_then(|l| views.iter().find(|v| v.broker == l));
    let class = if start > 0 { "log-grid folded" } else { "log-grid" };
    let mut head = html!("<div class=\"who\">{}</div>", t(key::REPLICATION_LOGS_OFFSET));
    if start > 0 {
        html!(head, "<div class=\"fold\">0–{}</div>", start - 1);
    }
    for o in start..=end {
        html!(head, "<div class=\"slot num\">{}</div>", o);
    }
    let mut rows = html!("<div class=\"log-row head\">{}</div>", head);
    for v in views {
        replica_row(&mut rows, v, leader == Some(v.broker), leader_view, start, end);
    }
    html!(
        "<div class=\"{}\" data-style=\"--cells: {}; --id-chars: {}\" data-testid=\"logs\">{}</div>",
        class,
        end - start + 1,
        widest_label(views, start, end),
        rows
    )
}

/// The characters of the widest label in a cell: a record's `#id` or the offset over it. The
/// cells widen for it (a run at 1,000 records a second reaches `#29964` in 30 s).
fn widest_label(views: &[ReplicaView], start: i64, end: i64) -> usize {
    let max_id = views.iter().flat_map(|v| (start..=end).filter_map(|o| v.record_at(o))).map(|r| r.record_id).max();
    let id_chars = max_id.map_or(0, |id| 1 + id.to_string().len());
    id_chars.max(end.to_string().len())
}

fn replica_row(out: &mut Html, v: &ReplicaView, is_leader: bool, leader: Option<&ReplicaView>, start: i64, end: i64) {
    let (hw, leo) = (v.high_watermark, v.log_end_offset);
    let star = if is_leader { " ★" } else { "" };
    let (class, state) = if v.alive { ("log-row", "") } else { ("log-row down", t(key::REPLICATION_LOGS_DOWN)) };
    let mut cells = html!(
        "<div class=\"who\"><span><strong>{}{}</strong> <span class=\"muted\">{}</span></span><span class=\"num small\">LEO {} · HW {}</span><span class=\"ckpt\" title=\"{}\"><span class=\"sr-only\">{} </span>{}</span></div>",
        broker_name(v.broker),
        star,
        state,
        leo,
        hw,
        t(key::REPLICATION_BROKER_CHECKPOINT_HINT),
        t(key::REPLICATION_BROKER_CHECKPOINT),
        checkpoint_text(&v.epoch_cache)
    );
    if start > 0 {
        fold_cell(&mut cells, v, start);
    }
    for o in start..=end {
        let record = v.record_at(o);
        let differs = match (record, leader.and_then(|l| l.record_at(o))) {
            (Some(r), Some(l)) => !is_leader && r.record_id != l.record_id,
            _ => false,
        };
        slot(&mut cells, o, record, hw, leo, differs);
    }
    html!(out, "<div class=\"{}\" data-testid=\"log-{}\">{}</div>", class, v.broker, cells);
}

fn record_cell(offset: i64, r: RecordView, differs: bool) -> Html {
    let state =
        if r.below_high_watermark { t(key::REPLICATION_LOGS_COMMITTED) } else { t(key::REPLICATION_LOGS_UNCOMMITTED) };
    let title = tf(
        key::REPLICATION_LOGS_CELL,
        &[
            ("offset", &offset.to_string()),
            ("record", &r.record_id.to_string()),
            ("epoch", &r.leader_epoch.to_string()),
            ("state", state),
        ],
    );
    let above = if r.below_high_watermark { "" } else { " above-hw" };
    let (diff_class, diff_mark) = if differs { (" differs", " ≠") } else { ("", "") };
    html!(
        "<div class=\"rec epoch-{}{}{}\" title=\"{}\"><span class=\"id\">#{}</span><span class=\"ep\">e{}{}</span></div>",
        epoch_class(r.leader_epoch),
        above,
        diff_class,
        title,
        r.record_id,
        r.leader_epoch,
        diff_mark
    )
}

fn slot(out: &mut Html, offset: i64, record: Option<RecordView>, hw: i64, leo: i64, differs: bool) {
    let class = if offset == hw { "slot hw-edge" } else { "slot" };
    let cell = match record {
        Some(r) => record_cell(offset, r, differs),
        None if offset == leo => html!("<div class=\"rec next\" title=\"{}\"></div>", t(key::REPLICATION_LOGS_NEXT)),
        None => html!("<div class=\"rec empty\"></div>"),
    };
    html!(out, "<div class=\"{}\">{}<div class=\"mark\">{}</div></div>", class, cell, marker_markup(offset, hw, leo));
}

fn fold_cell(out: &mut Html, v: &ReplicaView, start: i64) {
    let chips: Html = v
        .folded_runs
        .iter()
        .copied()
        .map(|(epoch, first, count)| {
            let title = tf(
                key::REPLICATION_LOGS_RUN,
                &[("epoch", &epoch.to_string()), ("first", &first.to_string()), ("count", &count.to_string())],
            );
            html!("<span class=\"chip epoch-{}\" title=\"{}\">e{}×{}</span>", epoch_class(epoch), title, epoch, count)
        })
        .collect();
    let mut mark = Html::new();
    if v.high_watermark < start {
        html!(mark, "<span>▲HW {}</span> ", v.high_watermark);
    }
    if v.log_end_offset < start {
        html!(mark, "<span>△LEO {}</span>", v.log_end_offset);
    }
    html!(out, "<div class=\"fold\"><div class=\"chips\">{}</div><div class=\"mark\">{}</div></div>", chips, mark);
}

#[component]
pub fn LogGrid(session: Session<Replication>) -> impl IntoView {
    let grid = Memo::new(move |_| {
        session.with(|run| {
            // Only the offsets drawn as cells are copied; the older ones come as epoch runs.
            let max_leo = run.world().replica_states().iter().map(|v| v.log_end_offset).max().unwrap_or(0);
            let views = run.world().replica_window(window(max_leo).0);
            (grid_markup(&views, run.world().partition().leader()), first_hw_child(&views))
        })
    });
    let markup = Signal::derive(move || grid.with(|(html, _)| html.clone()));
    let scroll = NodeRef::<leptos::html::Div>::new();
    // Whenever the grid changes, the newest offsets come into view, as far as the lowest HW
    // stays in view right of the replicas' names.
    Effect::new(move |_| {
        let child = grid.with(|(_, child)| *child);
        request_animation_frame(move || {
            if let Some(el) = scroll.get_untracked() {
                el.set_scroll_left(scroll_target(&el, child));
            }
        });
    });
    view! {
        <section class="rep-logs" aria-labelledby="rep-logs-title">
            <h2 id="rep-logs-title">{t(key::REPLICATION_LOGS)}</h2>
            // A group, not a region: the section around it is the landmark of that name.
            <div class="rep-scroll" node_ref=scroll tabindex="0" role="group" aria-label=t(key::REPLICATION_LOGS)>
                <PatchedMarkup html=markup/>
            </div>
        </section>
    }
}

/// The scroll position that shows the head row's `child` cell just right of the sticky names,
/// or the grid's end if that comes first.
fn scroll_target(el: &web_sys::HtmlElement, child: Option<usize>) -> i32 {
    use wasm_bindgen::JsCast;
    let end = el.scroll_width() - el.client_width();
    let cell = |selector: &str| {
        el.query_selector(selector).ok().flatten().and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok())
    };
    let names = cell(".log-row.head > .who").map_or(0, |w| w.offset_left() + w.offset_width());
    match child.and_then(|child| cell(&format!(".log-row.head > :nth-child({child})"))) {
        Some(hw) => (hw.offset_left() - names - 6).clamp(0, end.max(0)),
        None => end,
    }
}
