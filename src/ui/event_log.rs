//! The event log panel: the newest lines, with time, who and what.

use leptos::prelude::*;

use super::markup::{Host, Markup};
use crate::html;
use crate::markup::Html;

use super::transport::{format_clock, Shell};
use crate::i18n::{key, t};

/// How many of the newest log lines are drawn (the model keeps them all).
const SHOWN: usize = 80;

#[component]
pub fn LogPanel(shell: Shell) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let all = RwSignal::new(false);
    // The rows as one piece of markup, not a keyed list: the log reads newest first, so each
    // step inserts rows at the top, and the keyed list moved every row below them (all 80 rows
    // removed and inserted again a step, 6 of groups' 15 ms of script). The markup changes only
    // when a row does; a row's text is rendered once (`story::RenderedLines`).
    let rows = Memo::new(move |_| {
        let entries = shell.log_tail(SHOWN, &filter.get(), all.get());
        let mut out = Html::new();
        if entries.is_empty() {
            html!(out, r#"<tr><td colspan="3" class="muted">{}</td></tr>"#, t(key::SHELL_LOG_EMPTY));
        }
        for row in entries.iter().rev() {
            let class = match (row.now, row.folded > 0) {
                (true, true) => "now folded",
                (true, false) => "now",
                (false, true) => "folded",
                (false, false) => "",
            };
            html!(
                out,
                r#"<tr class="{}"><td class="num">{}</td><td class="actor">{}</td><td>{}</td></tr>"#,
                class,
                format_clock(row.time_ms),
                row.actor,
                row.html,
            );
        }
        out
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
                    <Markup html=rows host=Host::Tbody/>
                </table>
            </div>
        </section>
    }
}
