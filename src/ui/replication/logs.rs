//! Each replica's log as a row of offsets, aligned across replicas: cells coloured and
//! labelled by leader epoch, ▲HW and △LEO markers. Big logs show only their last offsets,
//! the older ones folded into one range cell per row (never one node per record).
//! Read-only, so drawn as markup from the replica views.

use std::fmt::Write;

use leptos::prelude::*;

use super::{broker_name, esc};
use crate::i18n::{t, tf};
use crate::model::replication::{RecordView, ReplicaView, Replication};
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

fn grid_markup(views: &[ReplicaView], leader: Option<u32>) -> String {
    let max_leo = views.iter().map(|v| v.log_end_offset).max().unwrap_or(0);
    let (start, end) = window(max_leo);
    let leader_records = leader.and_then(|l| views.iter().find(|v| v.broker == l)).map(|v| v.records.as_slice());
    let folded = if start > 0 { " folded" } else { "" };
    let mut out = format!(r#"<div class="log-grid{folded}" style="--cells: {}" data-testid="logs">"#, end - start + 1);
    let _ = write!(out, r#"<div class="log-row head"><div class="who">{}</div>"#, esc(t("replication.logs.offset")));
    if start > 0 {
        let _ = write!(out, r#"<div class="fold">0–{}</div>"#, start - 1);
    }
    for o in start..=end {
        let _ = write!(out, r#"<div class="slot num">{o}</div>"#);
    }
    out.push_str("</div>");
    for v in views {
        replica_row(&mut out, v, leader == Some(v.broker), leader_records, start, end);
    }
    out.push_str("</div>");
    out
}

fn replica_row(
    out: &mut String,
    v: &ReplicaView,
    is_leader: bool,
    leader: Option<&[RecordView]>,
    start: i64,
    end: i64,
) {
    let (hw, leo) = (v.high_watermark, v.log_end_offset);
    let star = if is_leader { " ★" } else { "" };
    let (down, state) = if v.alive { ("", "") } else { (" down", t("replication.logs.down")) };
    let _ = write!(
        out,
        r#"<div class="log-row{down}" data-testid="log-{}"><div class="who"><strong>{}{star}</strong> <span class="muted">{state}</span><span class="num small">LEO {leo} · HW {hw}</span></div>"#,
        v.broker,
        broker_name(v.broker)
    );
    if start > 0 {
        fold_cell(out, v, start);
    }
    for o in start..=end {
        let record = v.records.get(o as usize).copied();
        let differs = match (record, leader.and_then(|l| l.get(o as usize))) {
            (Some(r), Some(l)) => !is_leader && r.record_id != l.record_id,
            _ => false,
        };
        slot(out, o, record, hw, leo, differs);
    }
    out.push_str("</div>");
}

fn slot(out: &mut String, offset: i64, record: Option<RecordView>, hw: i64, leo: i64, differs: bool) {
    let edge = if offset == hw { " hw-edge" } else { "" };
    let _ = write!(out, r#"<div class="slot{edge}">"#);
    match record {
        Some(r) => {
            let state = if r.below_high_watermark {
                t("replication.logs.committed")
            } else {
                t("replication.logs.uncommitted")
            };
            let title = tf(
                "replication.logs.cell",
                &[
                    ("offset", &offset.to_string()),
                    ("record", &r.record_id.to_string()),
                    ("epoch", &r.leader_epoch.to_string()),
                    ("state", state),
                ],
            );
            let above = if r.below_high_watermark { "" } else { " above-hw" };
            let (diff_class, diff_mark) = if differs { (" differs", " ≠") } else { ("", "") };
            let _ = write!(
                out,
                r#"<div class="rec epoch-{}{above}{diff_class}" title="{}"><span class="id">#{}</span><span class="ep">e{}{diff_mark}</span></div>"#,
                epoch_class(r.leader_epoch),
                esc(&title),
                r.record_id,
                r.leader_epoch
            );
        }
        None if offset == leo => {
            let _ = write!(out, r#"<div class="rec next" title="{}"></div>"#, esc(t("replication.logs.next")));
        }
        None => out.push_str(r#"<div class="rec empty"></div>"#),
    }
    let _ = write!(out, r#"<div class="mark">{}</div></div>"#, marker(offset, hw, leo));
}

fn fold_cell(out: &mut String, v: &ReplicaView, start: i64) {
    out.push_str(r#"<div class="fold"><div class="chips">"#);
    for (epoch, first, count) in epoch_runs(&v.records, v.log_end_offset.min(start) as usize) {
        let title = tf(
            "replication.logs.run",
            &[("epoch", &epoch.to_string()), ("first", &first.to_string()), ("count", &count.to_string())],
        );
        let _ = write!(
            out,
            r#"<span class="chip epoch-{}" title="{}">e{epoch}×{count}</span>"#,
            epoch_class(epoch),
            esc(&title)
        );
    }
    out.push_str(r#"</div><div class="mark">"#);
    if v.high_watermark < start {
        let _ = write!(out, "▲HW {} ", v.high_watermark);
    }
    if v.log_end_offset < start {
        let _ = write!(out, "△LEO {}", v.log_end_offset);
    }
    out.push_str("</div></div>");
}

#[component]
pub fn LogGrid(session: Session<Replication>) -> impl IntoView {
    let markup =
        move || session.with(|run| grid_markup(&run.world().replica_views(), run.world().partition().leader()));
    view! {
        <section aria-labelledby="rep-logs-title">
            <h2 id="rep-logs-title">{t("replication.logs")}</h2>
            <p class="legend">{t("replication.logs.legend")}</p>
            <div class="rep-scroll" inner_html=markup></div>
        </section>
    }
}
