//! The event log panel: the newest lines, with time, who and what.

use leptos::prelude::*;

use super::transport::{format_clock, Shell};
use crate::i18n::t;

/// How many of the newest log lines are drawn (the model keeps them all).
const SHOWN: usize = 80;

#[component]
pub fn LogPanel(shell: Shell) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    // A memo, and rows keyed by (index, time, text): a step adds one row, it does not redraw 80.
    let entries = Memo::new(move |_| {
        let mut entries = shell.log_tail(SHOWN, &filter.get());
        entries.reverse();
        entries
    });
    view! {
        <section class="log-panel" aria-labelledby="log-title">
            <div class="log-head">
                <h2 id="log-title">{t("shell.log.title")}</h2>
                <label>
                    {t("shell.log.filter")}
                    <input type="search" placeholder=t("shell.log.filter.hint") data-testid="log-filter"
                        on:input=move |ev| filter.set(event_target_value(&ev))/>
                </label>
            </div>
            <div class="log-scroll" tabindex="0">
                <table data-testid="event-log">
                    <thead><tr>
                        <th scope="col">{t("shell.log.time")}</th>
                        <th scope="col">{t("shell.log.actor")}</th>
                        <th scope="col">{t("shell.log.text")}</th>
                    </tr></thead>
                    <tbody>
                        <Show when=move || entries.with(|e| e.is_empty())>
                            <tr><td colspan="3" class="muted">{t("shell.log.empty")}</td></tr>
                        </Show>
                        <For each=move || entries.get()
                            key=|row| (row.index, row.time_ms, row.text.clone())
                            children=|e| view! {
                                <tr>
                                    <td class="num">{format_clock(e.time_ms)}</td>
                                    <td class="actor">{e.actor}</td>
                                    <td>{e.text}</td>
                                </tr>
                            }/>
                    </tbody>
                </table>
            </div>
        </section>
    }
}
