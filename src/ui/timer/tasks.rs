//! The sandbox: add a task, advance the clock, what the last expiration did, the pending list.

use leptos::prelude::*;

use crate::html;
use crate::i18n::{key, render, t, tf};
use crate::model::kernel::Describe;
use crate::model::timer::{Command, MoveView, PendingTaskView, TimerLab};
use crate::ui::keyed::keyed_rows;
use crate::ui::markup::Markup;
use crate::ui::session::{Session, Transport};

/// The pending list shows at most this many rows (the rings summarise the rest).
const MAX_ROWS: usize = 100;

/// Adds a task, and the two ways to let time pass: one tick, or to the next bucket expiration.
#[component]
pub fn Controls(session: Session<TimerLab>) -> impl IntoView {
    let delay = RwSignal::new("120".to_string());
    let label = RwSignal::new("task".to_string());
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = delay.get_untracked();
        match text.trim().parse::<u64>() {
            Ok(delay_ms) => {
                session.command(Command::AddTask { delay_ms, label: label.get_untracked().trim().to_string() })
            }
            Err(_) => Transport::error(&session).set(Some(
                crate::i18n::message(key::TIMER_ADD_BAD_DELAY).with("text", crate::model::kernel::Arg::text(text)),
            )),
        }
    };
    // Advancing records a wait; in the past of the timeline, Step/Play replay the recording instead.
    let at_end = move || {
        let (position, total, _, _) = Transport::status(&session);
        position == total
    };
    let tick_ms = move || session.with(|run| run.world().timer().tick_ms());
    let next = move || session.with(|run| run.world().next_bucket_expiration_ms().map(|at| (at, run.sim().now_ms())));
    let advance_tick = move |_| session.advance(tick_ms());
    let advance_next = move |_| {
        if let Some((at, now)) = next() {
            session.advance(at.saturating_sub(now).max(1));
        }
    };
    view! {
        <section class="controls" aria-labelledby="timer-controls-title">
            <h2 id="timer-controls-title">{t(key::TIMER_CONTROLS)}</h2>
            <form class="add-task" on:submit=add>
                <label>{t(key::TIMER_ADD_DELAY)}
                    <input type="number" min="0" step="1" size="7" data-testid="add-delay" prop:value=delay
                        on:input=move |ev| delay.set(event_target_value(&ev))/>
                </label>
                <label>{t(key::TIMER_ADD_LABEL)}
                    <input type="text" size="9" maxlength="24" data-testid="add-label" prop:value=label
                        on:input=move |ev| label.set(event_target_value(&ev))/>
                </label>
                <button type="submit" class="primary">{t(key::TIMER_ADD)}</button>
            </form>
            // In the past of the timeline the wait buttons would only be disabled: the note
            // saying why stands in their place (adding a task starts a new future, and brings them back).
            <Show when=at_end fallback=|| view! { <p class="hint warn">{t(key::TIMER_ADVANCE_PAST)}</p> }>
                <div class="advance">
                    <button on:click=advance_tick data-testid="advance-tick">
                        {move || tf(key::TIMER_ADVANCE_TICK, &[("tick", &tick_ms().to_string())])}
                    </button>
                    <button on:click=advance_next disabled=move || next().is_none() data-testid="advance-next">
                        {move || match next() {
                            Some((at, _)) => tf(key::TIMER_ADVANCE_NEXT, &[("at", &at.to_string())]),
                            None => t(key::TIMER_ADVANCE_NONE).to_string(),
                        }}
                    </button>
                </div>
            </Show>
        </section>
    }
}

/// The last bucket expiration: which tasks fell into a finer ring and which ran.
#[component]
pub fn WhatHappened(session: Session<TimerLab>) -> impl IntoView {
    let markup = move || {
        let moves = session.with(|run| run.world().last_moves());
        let Some(first) = moves.first() else {
            return html!(r#"<p class="muted">{}</p>"#, t(key::TIMER_HAPPENED_NONE));
        };
        // A bounded box (a cascade can move many tasks), reachable and scrollable by keyboard.
        let mut out = html!(
            r#"<p class="muted">{}</p><div class="scroll-box" tabindex="0" role="region" aria-label="{}"><ul class="moves" data-testid="moves">"#,
            tf(key::TIMER_HAPPENED_AT, &[("at", &first.step.at_ms.to_string())]),
            t(key::TIMER_HAPPENED)
        );
        for m in &moves {
            let (class, symbol, text) = move_line(m);
            html!(
                out,
                r#"<li class="{}"><span class="symbol" aria-hidden="true">{}</span> {}</li>"#,
                class,
                symbol,
                text
            );
        }
        html!(out, "</ul></div>");
        out
    };
    view! {
        <section class="happened" aria-labelledby="timer-happened-title" aria-live="polite">
            <h2 id="timer-happened-title">{t(key::TIMER_HAPPENED)}</h2>
            <Markup html=Signal::derive(markup)/>
        </section>
    }
}

/// css class, symbol and sentence of one move.
fn move_line(m: &MoveView) -> (&'static str, &'static str, String) {
    let (level, bucket) = m.step.from;
    let args = |extra: &[(&'static str, String)]| {
        let mut all = vec![
            ("id", m.step.id.to_string()),
            (
                "origin",
                m.origin
                    .as_ref()
                    .map_or_else(|| t(key::TIMER_HAPPENED_CANCELLED).to_string(), |o| render(&o.message())),
            ),
            ("expiration", m.step.expiration_ms.to_string()),
            ("level", level.to_string()),
            ("bucket", bucket.to_string()),
            ("at", m.step.at_ms.to_string()),
        ];
        all.extend_from_slice(extra);
        all
    };
    match m.step.to {
        Some((to_level, to_bucket)) => {
            let all = args(&[("to_level", to_level.to_string()), ("to_bucket", to_bucket.to_string())]);
            ("fell", "↘", fill(key::TIMER_HAPPENED_FELL, &all))
        }
        None => ("ran", "✓", fill(key::TIMER_HAPPENED_RAN, &args(&[]))),
    }
}

fn fill(key: &'static str, args: &[(&'static str, String)]) -> String {
    let pairs: Vec<(&str, &str)> = args.iter().map(|(n, v)| (*n, v.as_str())).collect();
    tf(key, &pairs)
}

/// A row of the pending list: the task, and whether the user may cancel it.
#[derive(Clone, Debug, PartialEq)]
struct PendingRow {
    task: PendingTaskView,
    sandbox: bool,
}

/// The rows shown, how many tasks are pending in all, and the kernel clock.
type Listing = (Vec<PendingRow>, usize, u64);

/// Every pending task with its (level, bucket), soonest first; sandbox tasks can be cancelled.
/// Rows are kept by task id, so a Cancel button keeps its focus while the list changes.
#[component]
pub fn PendingList(session: Session<TimerLab>) -> impl IntoView {
    let listing: Memo<Listing> = Memo::new(move |_| {
        session.with(|run| {
            let world = run.world();
            let pending = world.pending_tasks();
            let total = pending.len();
            let rows = pending
                .into_iter()
                .take(MAX_ROWS)
                .map(|task| PendingRow { sandbox: world.is_sandbox_task(task.id), task })
                .collect();
            (rows, total, run.sim().now_ms())
        })
    });
    let empty = move || {
        listing.with(|(rows, _, _)| rows.is_empty()).then(|| {
            view! { <tr><td colspan="5" class="muted">{t(key::TIMER_PENDING_NONE)}</td></tr> }
        })
    };
    let more = move || {
        let (shown, total) = listing.with(|(rows, total, _)| (rows.len(), *total));
        (total > shown).then(|| {
            let text = tf(key::TIMER_PENDING_MORE, &[("count", &(total - shown).to_string())]);
            view! { <tr><td colspan="5" class="muted">{text}</td></tr> }
        })
    };
    view! {
        <section class="pending" aria-labelledby="timer-pending-title">
            <h2 id="timer-pending-title">{t(key::TIMER_PENDING)}</h2>
            <div class="scroll-box" tabindex="0" role="region" aria-labelledby="timer-pending-title">
            <table data-testid="pending">
                <thead><tr>
                    <th scope="col">{t(key::TIMER_PENDING_TASK)}</th>
                    <th scope="col">{t(key::TIMER_PENDING_ORIGIN)}</th>
                    <th scope="col">{t(key::TIMER_PENDING_EXPIRATION)}</th>
                    <th scope="col">{t(key::TIMER_PENDING_LOCATION)}</th>
                    <th scope="col">{t(key::TIMER_PENDING_ACTION)}</th>
                </tr></thead>
                <tbody>
                    {keyed_rows(
                        move || listing.with(|(rows, _, _)| rows.iter().map(|row| row.task.id).collect()),
                        move |id| {
                            let row = listing.with_untracked(|(rows, _, _)| rows.iter().find(|row| row.task.id == id).cloned());
                            row.map(|row| pending_row(session, row, listing).into_any()).unwrap_or_else(|| ().into_any())
                        },
                    )}
                    {empty}
                    {more}
                </tbody>
            </table>
            </div>
        </section>
    }
}

/// One pending task; its place in the wheel and its time to go follow the listing.
fn pending_row(session: Session<TimerLab>, first: PendingRow, listing: Memo<Listing>) -> impl IntoView {
    let id = first.task.id;
    let expiration_ms = first.task.expiration_ms;
    let action = if first.sandbox {
        let text = tf(key::TIMER_CANCEL, &[("id", &id.to_string())]);
        view! { <button on:click=move |_| session.command(Command::CancelTask(id))>{text}</button> }.into_any()
    } else {
        view! { <span class="muted">{t(key::TIMER_PENDING_BROKER)}</span> }.into_any()
    };
    let place = move || {
        listing.with(|(rows, _, _)| {
            rows.iter().find(|row| row.task.id == id).map(|row| {
                tf(
                    key::TIMER_LOCATION,
                    &[("level", &row.task.level.to_string()), ("bucket", &row.task.bucket.to_string())],
                )
            })
        })
    };
    let due = move || {
        let now = listing.with(|(_, _, now)| *now);
        tf(key::TIMER_PENDING_IN, &[("ms", &expiration_ms.saturating_sub(now).to_string())])
    };
    view! {
        <tr data-testid=format!("pending-{id}")>
            <td class="num">{format!("#{id}")}</td>
            <td>{render(&first.task.origin.message())}</td>
            <td class="num">{format!("{expiration_ms} ms")}" "<span class="muted">{due}</span></td>
            <td class="num" data-testid="location">{place}</td>
            <td>{action}</td>
        </tr>
    }
}
