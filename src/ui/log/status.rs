//! Why retention did (or did not) delete, what the cleaner sees, and what the slow reader got wrong.

use leptos::prelude::*;

use super::format::{bytes, duration};
use crate::i18n::{t, tf};
use crate::model::log::views::RetentionView;
use crate::model::log::LogLab;
use crate::ui::session::Session;

fn limit_ms(ms: i64) -> String {
    if ms < 0 {
        t("log.cfg.unlimited").to_string()
    } else {
        duration(ms)
    }
}

/// The sentences under "Retention": what was deleted, and what retention.ms and the roll check compare.
fn retention_lines(r: &RetentionView, log_start_offset: i64) -> (String, String, String) {
    let verdict = if log_start_offset > 0 {
        tf("log.ret.deleted", &[("start", &log_start_offset.to_string()), ("last", &(log_start_offset - 1).to_string())])
    } else {
        t("log.ret.none_deleted").to_string()
    };
    let age = r.oldest_newest_record_age_ms.map_or_else(|| "—".to_string(), duration);
    let oldest = if !r.delete_policy {
        t("log.ret.no_delete_policy").to_string()
    } else {
        tf("log.ret.oldest", &[("age", &age), ("retention", &limit_ms(r.retention_ms))])
    };
    let open = r.active_open_ms.map_or_else(|| "—".to_string(), duration);
    let active = tf(
        "log.ret.active",
        &[
            ("size", &bytes(u64::from(r.active_size_bytes))),
            ("segment_bytes", &bytes(u64::from(r.segment_bytes))),
            ("open", &open),
            ("segment_ms", &limit_ms(r.segment_ms)),
            ("closed", &r.closed_segments.to_string()),
        ],
    );
    (verdict, oldest, active)
}

#[component]
pub fn StatusPanel(session: Session<LogLab>) -> impl IntoView {
    let lines = move || {
        session.with(|run| {
            let log = run.world().log();
            retention_lines(&log.retention_view(run.sim().now_ms() as i64), log.log_start_offset())
        })
    };
    let cleaner = move || session.with(|run| run.world().last_cleaner_check().copied());
    let reader = move || session.with(|run| run.world().reader_view());
    view! {
        <section class="log-status" aria-labelledby="log-status-title">
            <h2 id="log-status-title">{t("log.ret.title")}</h2>
            <p data-testid="retention-verdict"><b>{move || lines().0}</b></p>
            <p>{move || lines().1}</p>
            <p>{move || lines().2}</p>
            {move || cleaner().map(|c| view! {
                <h3>{t("log.clean.title")}</h3>
                <p data-testid="cleaner">{tf("log.clean.check", &[
                    ("ratio", &format!("{:.2}", c.dirty_ratio)),
                    ("dirty", &c.first_dirty_offset.to_string()),
                    ("uncleanable", &c.first_uncleanable_offset.to_string()),
                    ("verdict", t(if c.will_clean { "log.clean.will" } else { "log.clean.wont" })),
                ])}</p>
            })}
            {move || reader().map(|r| {
                let resurrected = r.resurrected_keys.iter().map(|k| format!("key-{k}")).collect::<Vec<_>>().join(", ");
                view! {
                    <h3>{t("log.reader.title")}</h3>
                    <p data-testid="reader">{tf("log.reader.progress", &[
                        ("position", &r.position.to_string()),
                        ("read", &r.records_read.to_string()),
                        ("keys", &r.keys_in_table.to_string()),
                        ("state", t(if r.caught_up { "log.reader.caught_up" } else { "log.reader.behind" })),
                    ])}</p>
                    {(!resurrected.is_empty()).then(|| view! {
                        <p class="log-warn" data-testid="resurrected">{tf("log.reader.resurrected", &[("keys", &resurrected)])}</p>
                    })}
                }
            })}
        </section>
    }
}
