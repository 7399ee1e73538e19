//! The event log panel: the newest lines, with time, who and what.

use leptos::prelude::*;

use super::markup::Markup;

use super::transport::{format_clock, Shell};
use crate::i18n::{key, t};

/// How many of the newest log lines are drawn (the model keeps them all).
const SHOWN: usize = 80;

#[component]
pub fn LogPanel(shell: Shell) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let all = RwSignal::new(false);
    // A memo, and rows keyed by (index, text, fold, now): a step adds one row, it does not redraw 80.
    let entries = Memo::new(move |_| {
        let mut entries = shell.log_tail(SHOWN, &filter.get(), all.get());
        entries.reverse();
        entries
    });
    view! {
        <section class="log-panel" aria-labelledby="log-title">
            <div class="log-head">
                <h2 id="log-title">{t(key::SHELL_LOG_TITLE)}</h2>
                <label>
                    <input type="checkbox" data-testid="log-all" prop:checked=move || all.get()
                        on:change=move |ev| all.set(event_target_checked(&ev))/>
                    {t(key::SHELL_LOG_ALL)}
                </label>
                <label>
                    {t(key::SHELL_LOG_FILTER)}
                    <input type="search" placeholder=t(key::SHELL_LOG_FILTER_HINT) data-testid="log-filter"
                        on:input=move |ev| filter.set(event_target_value(&ev))/>
                </label>
            </div>
            <div class="log-scroll" tabindex="0">
                <table data-testid="event-log">
                    <thead><tr>
                        <th scope="col">{t(key::SHELL_LOG_TIME)}</th>
                        <th scope="col">{t(key::SHELL_LOG_ACTOR)}</th>
                        <th scope="col">{t(key::SHELL_LOG_TEXT)}</th>
                    </tr></thead>
                    <tbody>
                        <Show when=move || entries.with(|e| e.is_empty())>
                            <tr><td colspan="3" class="muted">{t(key::SHELL_LOG_EMPTY)}</td></tr>
                        </Show>
                        <For each=move || entries.get()
                            key=|row| (row.index, row.text.clone(), row.folded, row.now)
                            children=|e| view! {
                                <tr class:now=e.now class:folded={e.folded > 0}>
                                    <td class="num">{format_clock(e.time_ms)}</td>
                                    <td class="actor">{e.actor}</td>
                                    <td><Markup html=Signal::stored(e.html)/></td>
                                </tr>
                            }/>
                    </tbody>
                </table>
            </div>
        </section>
    }
}
