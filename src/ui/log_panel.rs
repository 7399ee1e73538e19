//! The event log panel: the newest lines, with time, who and what.

use leptos::prelude::*;

use super::transport::{format_clock, Shell};
use crate::i18n::t;

/// How many of the newest log lines are drawn (the model keeps them all).
const SHOWN: usize = 80;

#[component]
pub fn LogPanel(shell: Shell) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let entries = move || {
        let mut entries = shell.log_tail(SHOWN, &filter.get());
        entries.reverse();
        entries
    };
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
                        {move || {
                            let entries = entries();
                            if entries.is_empty() {
                                view! { <tr><td colspan="3" class="muted">{t("shell.log.empty")}</td></tr> }.into_any()
                            } else {
                                entries.into_iter().map(|e| view! {
                                    <tr>
                                        <td class="num">{format_clock(e.time_ms)}</td>
                                        <td class="actor">{e.actor}</td>
                                        <td>{e.text}</td>
                                    </tr>
                                }).collect_view().into_any()
                            }
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}
