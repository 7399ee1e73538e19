//! Each replica's log as a row of offsets, aligned across replicas: cells coloured and
//! labelled by leader epoch, ▲HW and △LEO markers. Big logs show only their last offsets,
//! the older ones folded into one range cell per row (never one node per record).

use leptos::prelude::*;

use super::broker_name;
use crate::i18n::{t, tf};
use crate::model::replication::{RecordView, Replication, ReplicaView};
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

/// Runs of one leader epoch among `records[..upto]`: (epoch, first offset, count).
pub fn epoch_runs(records: &[RecordView], upto: usize) -> Vec<(i32, i64, usize)> {
    let mut runs: Vec<(i32, i64, usize)> = Vec::new();
    for r in records.iter().take(upto) {
        match runs.last_mut() {
            Some(run) if run.0 == r.leader_epoch => run.2 += 1,
            _ => runs.push((r.leader_epoch, r.offset, 1)),
        }
    }
    runs
}

fn epoch_class(epoch: i32) -> String {
    format!("epoch-{}", epoch.rem_euclid(EPOCH_CLASSES))
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

#[component]
pub fn LogGrid(session: Session<Replication>) -> impl IntoView {
    let data = move || session.with(|run| (run.world().replica_views(), run.world().partition().leader()));
    view! {
        <section aria-labelledby="rep-logs-title">
            <h2 id="rep-logs-title">{t("replication.logs")}</h2>
            <p class="legend">{t("replication.logs.legend")}</p>
            <div class="rep-scroll">
                {move || {
                    let (views, leader) = data();
                    let max_leo = views.iter().map(|v| v.log_end_offset).max().unwrap_or(0);
                    let (start, end) = window(max_leo);
                    let leader_records = leader.and_then(|l| views.iter().find(|v| v.broker == l)).map(|v| v.records.clone());
                    let style = format!("--cells: {}", end - start + 1);
                    view! {
                        <div class="log-grid" class:folded={start > 0} style=style data-testid="logs">
                            {header_row(start, end)}
                            {views.iter().map(|v| replica_row(v, leader == Some(v.broker), leader_records.as_deref(), start, end)).collect_view()}
                        </div>
                    }
                }}
            </div>
        </section>
    }
}

fn header_row(start: i64, end: i64) -> impl IntoView {
    view! {
        <div class="log-row head">
            <div class="who">{t("replication.logs.offset")}</div>
            {(start > 0).then(|| view! { <div class="fold">{format!("0–{}", start - 1)}</div> })}
            {(start..=end).map(|o| view! { <div class="slot num">{o}</div> }).collect_view()}
        </div>
    }
}

fn replica_row(v: &ReplicaView, is_leader: bool, leader: Option<&[RecordView]>, start: i64, end: i64) -> impl IntoView {
    let (hw, leo) = (v.high_watermark, v.log_end_offset);
    let star = if is_leader { " ★" } else { "" };
    let state = if !v.alive { t("replication.logs.down") } else { "" };
    let cells = (start..=end)
        .map(|o| {
            let record = v.records.get(o as usize).copied();
            let differs = match (record, leader.and_then(|l| l.get(o as usize))) {
                (Some(r), Some(l)) => !is_leader && r.record_id != l.record_id,
                _ => false,
            };
            slot(o, record, hw, leo, differs)
        })
        .collect_view();
    view! {
        <div class="log-row" class:down=!v.alive data-testid=format!("log-{}", v.broker)>
            <div class="who">
                <strong>{broker_name(v.broker)}{star}</strong>" "<span class="muted">{state}</span>
                <span class="num small">{format!("LEO {leo} · HW {hw}")}</span>
            </div>
            {(start > 0).then(|| fold_cell(v, start))}
            {cells}
        </div>
    }
}

fn slot(offset: i64, record: Option<RecordView>, hw: i64, leo: i64, differs: bool) -> impl IntoView {
    let mark = marker(offset, hw, leo);
    let body = match record {
        Some(r) => {
            let state = if r.below_high_watermark { t("replication.logs.committed") } else { t("replication.logs.uncommitted") };
            let title = tf(
                "replication.logs.cell",
                &[("offset", &offset.to_string()), ("record", &r.record_id.to_string()), ("epoch", &r.leader_epoch.to_string()), ("state", state)],
            );
            let class = format!("rec {}", epoch_class(r.leader_epoch));
            view! {
                <div class=class class:above-hw=!r.below_high_watermark class:differs=differs title=title>
                    <span class="id">{format!("#{}", r.record_id)}</span>
                    <span class="ep">{format!("e{}", r.leader_epoch)}{differs.then_some(" ≠")}</span>
                </div>
            }
            .into_any()
        }
        None if offset == leo => view! { <div class="rec next" title=t("replication.logs.next")></div> }.into_any(),
        None => view! { <div class="rec empty"></div> }.into_any(),
    };
    view! {
        <div class="slot" class:hw-edge=offset == hw>
            {body}
            <div class="mark">{mark}</div>
        </div>
    }
}

fn fold_cell(v: &ReplicaView, start: i64) -> impl IntoView {
    let folded = (v.log_end_offset.min(start)) as usize;
    let runs = epoch_runs(&v.records, folded);
    let chips = runs
        .into_iter()
        .map(|(epoch, first, count)| {
            let title = tf("replication.logs.run", &[("epoch", &epoch.to_string()), ("first", &first.to_string()), ("count", &count.to_string())]);
            view! { <span class=format!("chip {}", epoch_class(epoch)) title=title>{format!("e{epoch}×{count}")}</span> }
        })
        .collect_view();
    let mut marks = Vec::new();
    if v.high_watermark < start {
        marks.push(format!("▲HW {}", v.high_watermark));
    }
    if v.log_end_offset < start {
        marks.push(format!("△LEO {}", v.log_end_offset));
    }
    view! {
        <div class="fold">
            <div class="chips">{chips}</div>
            <div class="mark">{marks.join(" ")}</div>
        </div>
    }
}

