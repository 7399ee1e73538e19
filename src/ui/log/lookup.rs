//! Typing an offset or a timestamp and reading the lookup's phases (the stage); the same lookup
//! beside a dense index and a full scan (the panels).

use std::cmp::Ordering;

use leptos::prelude::*;

use super::format::{bytes, grouped};
use crate::html;
use crate::i18n::{key, render, t, tf};
use crate::markup::Html;
use crate::model::kernel::Describe;
use crate::model::log::{Command, IndexProbe, LogLab, LookupResult, OffsetLookup, ReadError, TimeLookup};
use crate::ui::markup::Markup;
use crate::ui::session::Session;

#[component]
pub fn LookupPanel(session: Session<LogLab>) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let bad = RwSignal::new(false);
    let send = move |by_time: bool| match text.get_untracked().trim().replace(['_', ' '], "").parse::<i64>() {
        Ok(value) => {
            bad.set(false);
            session.command(if by_time {
                Command::LookupTimestamp { timestamp_ms: value }
            } else {
                Command::LookupOffset { offset: value }
            });
        }
        Err(_) => bad.set(true),
    };
    let result = Memo::new(move |_| session.with(|run| run.world().last_lookup().cloned()));
    let markup = Signal::derive(move || match result.get() {
        None => html!("<p class=\"muted\">{}</p>", t(key::LOG_LOOKUP_NONE)),
        Some(LookupResult::Offset(Ok(found))) => offset_phases(&found),
        Some(LookupResult::Offset(Err(error))) => read_error(&error),
        Some(LookupResult::Timestamp(time)) => time_phases(&time),
    });
    view! {
        <section class="log-lookup" aria-labelledby="log-lookup-title">
            <h2 id="log-lookup-title">{t(key::LOG_LOOKUP_TITLE)}</h2>
            <form class="log-lookup-form" on:submit=move |ev| { ev.prevent_default(); send(false); }>
                <label>{t(key::LOG_LOOKUP_INPUT)}
                    <input type="text" inputmode="numeric" data-testid="lookup-input" prop:value=move || text.get()
                        on:input=move |ev| text.set(event_target_value(&ev))/>
                </label>
                <button type="submit" class="primary" data-testid="lookup-offset">{t(key::LOG_LOOKUP_OFFSET)}</button>
                <button type="button" data-testid="lookup-time" on:click=move |_| send(true)>{t(key::LOG_LOOKUP_TIME)}</button>
            </form>
            <Show when=move || bad.get()>
                <p class="log-warn" role="alert">{t(key::LOG_LOOKUP_NAN)}</p>
            </Show>
            <div aria-live="polite">
                <Markup html=markup testid="lookup-result"/>
            </div>
        </section>
    }
}

fn read_error(error: &ReadError) -> Html {
    html!(
        "<p class=\"log-warn\" data-testid=\"lookup-error\"><b>{}</b> {}</p>",
        error.exception().unwrap_or(""),
        render(&error.message())
    )
}

/// `368450< 368945>`: each probe's key and how it compares with the target.
fn probes_text(probes: &[IndexProbe]) -> String {
    probes
        .iter()
        .map(|p| {
            let sign = match p.ordering {
                Ordering::Less => "<",
                Ordering::Equal => "=",
                Ordering::Greater => ">",
            };
            format!("{}{sign}", p.key)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The phases as an ordered list whose steps appear one after the other (CSS, `--step`).
fn steps_html(summary: &str, steps: &[String]) -> Html {
    let items: Html = steps
        .iter()
        .enumerate()
        .map(|(i, text)| {
            html!(
                "<li class=\"log-step\" data-style=\"--step:{}\"><span class=\"log-step-n\">{}.</span> {}</li>",
                i + 1,
                i + 1,
                text
            )
        })
        .collect();
    html!(
        "<h3 data-testid=\"lookup-summary\">{}</h3><ol class=\"log-phases\" data-testid=\"lookup-phases\">{}</ol>",
        summary,
        items
    )
}

fn offset_phases(found: &OffsetLookup) -> Html {
    let target = found.target.to_string();
    let compared = found.segments_compared.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let steps = [
        tf(key::LOG_PHASE_SEGMENTS, &[("compared", &compared), ("file", &found.segment_file)]),
        tf(
            key::LOG_PHASE_INDEX,
            &[
                ("probes", &found.index_probes.len().to_string()),
                ("entries", &found.index_entries.to_string()),
                ("keys", &probes_text(&found.index_probes)),
                ("offset", &found.index_entry.0.to_string()),
                ("position", &found.index_entry.1.to_string()),
            ],
        ),
        tf(
            key::LOG_PHASE_SCAN,
            &[
                ("start", &found.scan.start_position.to_string()),
                ("batches", &found.scan.batches_read.to_string()),
                ("bytes", &found.scan.bytes_scanned.to_string()),
                ("offset", &found.found_offset.to_string()),
                ("position", &found.found_batch.position.to_string()),
                ("first", &found.found_batch.base_offset.to_string()),
                ("last", &found.found_batch.last_offset.to_string()),
            ],
        ),
    ];
    let position = found.found_batch.position.to_string();
    let summary =
        tf(key::LOG_LOOKUP_FOUND, &[("target", &target), ("file", &found.segment_file), ("position", &position)]);
    let mut out = steps_html(&summary, &steps);
    if found.found_offset != found.target {
        let gap = tf(key::LOG_LOOKUP_GAP, &[("target", &target), ("offset", &found.found_offset.to_string())]);
        html!(out, "<p class=\"legend\">{}</p>", gap);
    }
    out
}

/// The last offset lookup done three ways (the panels' worked numbers), once there is one.
#[component]
pub fn ComparePanel(session: Session<LogLab>) -> impl IntoView {
    let table = Memo::new(move |_| {
        session.with(|run| match run.world().last_lookup() {
            Some(LookupResult::Offset(Ok(found))) => Some(compare_table(found)),
            _ => None,
        })
    });
    let markup = Signal::derive(move || table.get().unwrap_or_default());
    view! {
        <Show when=move || table.with(Option::is_some)>
            <section class="log-compare-panel" aria-labelledby="log-compare-title">
                <h2 id="log-compare-title">{t(key::LOG_COMPARE_TITLE)}</h2>
                <Markup html=markup class="log-scroll" role="group" tabindex="0" label=Signal::stored(t(key::LOG_COMPARE_TITLE).to_string())/>
            </section>
        </Show>
    }
}

fn compare_table(found: &OffsetLookup) -> Html {
    let c = found.comparison;
    let kafka_steps = found.segments_compared.len() + found.index_probes.len() + found.scan.batches_read as usize;
    let rows = [
        (
            "kafka",
            t(key::LOG_COMPARE_SPARSE),
            tf(
                key::LOG_COMPARE_SPARSE_WORK,
                &[("steps", &kafka_steps.to_string()), ("bytes", &bytes(found.scan.bytes_scanned))],
            ),
            bytes(c.sparse_index_bytes),
        ),
        (
            "",
            t(key::LOG_COMPARE_DENSE),
            tf(key::LOG_COMPARE_DENSE_WORK, &[("probes", &c.dense_index_probes.to_string())]),
            bytes(c.dense_index_bytes),
        ),
        (
            "",
            t(key::LOG_COMPARE_SCAN),
            tf(
                key::LOG_COMPARE_SCAN_WORK,
                &[("batches", &grouped(c.full_scan_batches as i64)), ("bytes", &bytes(c.full_scan_bytes))],
            ),
            bytes(0),
        ),
    ];
    let body: Html = rows
        .iter()
        .map(|(class, how, work, memory)| {
            html!(
                "<tr class=\"{}\"><th scope=\"row\">{}</th><td>{}</td><td class=\"num\">{}</td></tr>",
                class,
                how,
                work,
                memory
            )
        })
        .collect();
    html!(
        "<table class=\"log-compare\" data-testid=\"lookup-compare\"><thead><tr><th scope=\"col\">{}</th>\
         <th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>{}</tbody></table>",
        t(key::LOG_COMPARE_WAY),
        t(key::LOG_COMPARE_WORK),
        t(key::LOG_COMPARE_MEMORY),
        body
    )
}

fn time_phases(time: &TimeLookup) -> Html {
    let target = time.target_ms.to_string();
    let checked =
        time.segments_checked.iter().map(|(b, ts)| format!("{b:020} (≤ {ts})")).collect::<Vec<_>>().join(", ");
    let Some(base) = time.segment_base_offset else {
        let step = tf(key::LOG_PHASE_TIME_SEGMENTS, &[("checked", &checked), ("file", "—")]);
        return steps_html(&tf(key::LOG_TIME_NONE, &[("target", &target)]), &[step]);
    };
    let file = format!("{base:020}.log");
    let summary = match time.found {
        Some((offset, ts)) => {
            tf(key::LOG_TIME_FOUND, &[("target", &target), ("offset", &offset.to_string()), ("ts", &ts.to_string())])
        }
        None => tf(key::LOG_TIME_NONE, &[("target", &target)]),
    };
    let found_text = time.found.map_or_else(|| "—".to_string(), |(o, ts)| format!("{o} (CreateTime {ts})"));
    let steps = [
        tf(key::LOG_PHASE_TIME_SEGMENTS, &[("checked", &checked), ("file", &file)]),
        tf(
            key::LOG_PHASE_TIME_INDEX,
            &[
                ("probes", &time.time_index_probes.len().to_string()),
                ("ts", &time.time_entry.0.to_string()),
                ("offset", &time.time_entry.1.to_string()),
            ],
        ),
        tf(
            key::LOG_PHASE_TIME_OFFSET,
            &[
                ("probes", &time.index_probes.len().to_string()),
                ("offset", &time.index_entry.0.to_string()),
                ("position", &time.index_entry.1.to_string()),
            ],
        ),
        tf(
            key::LOG_PHASE_TIME_SCAN,
            &[
                ("start", &time.scan.start_position.to_string()),
                ("batches", &time.scan.batches_read.to_string()),
                ("bytes", &time.scan.bytes_scanned.to_string()),
                ("records", &time.records_examined.to_string()),
                ("found", &found_text),
            ],
        ),
    ];
    steps_html(&summary, &steps)
}
