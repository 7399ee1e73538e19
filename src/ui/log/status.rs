//! Why retention did (or did not) delete, what the cleaner sees, and what the slow reader got wrong.

use leptos::prelude::*;

use super::format::{bytes, duration, fixed};
use crate::html;
use crate::i18n::{key, t, tf};
use crate::markup::Html;
use crate::model::log::views::RetentionView;
use crate::model::log::LogLab;
use crate::ui::markup::Markup;
use crate::ui::session::Session;

fn limit_ms(ms: i64) -> String {
    if ms < 0 {
        t(key::LOG_CFG_UNLIMITED).to_string()
    } else {
        duration(ms)
    }
}

/// The sentences under "Retention": what was deleted, and what retention.ms and the roll check compare.
fn retention_lines(r: &RetentionView, log_start_offset: i64) -> (String, String, String) {
    let verdict = if log_start_offset > 0 {
        tf(
            key::LOG_RET_DELETED,
            &[("start", &log_start_offset.to_string()), ("last", &(log_start_offset - 1).to_string())],
        )
    } else {
        t(key::LOG_RET_NONE_DELETED).to_string()
    };
    let age = r.oldest_newest_record_age_ms.map_or_else(|| "—".to_string(), duration);
    let oldest = if !r.delete_policy {
        t(key::LOG_RET_NO_DELETE_POLICY).to_string()
    } else {
        tf(key::LOG_RET_OLDEST, &[("age", &age), ("retention", &limit_ms(r.retention_ms))])
    };
    let open = r.active_open_ms.map_or_else(|| "—".to_string(), duration);
    let active = tf(
        key::LOG_RET_ACTIVE,
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

/// The cleaner's and the reader's paragraphs (only while the topic compacts / a reader runs).
fn cleaner_and_reader(lab: &LogLab) -> Html {
    let mut html = Html::new();
    if let Some(c) = lab.last_cleaner_check() {
        let verdict = t(match (c.will_clean, c.dirty_ratio > lab.log().settings().min_cleanable_dirty_ratio) {
            (true, true) => key::LOG_CLEAN_WILL,
            (true, false) => key::LOG_CLEAN_FORCED,
            (false, _) => key::LOG_CLEAN_WONT,
        });
        let text = tf(
            key::LOG_CLEAN_CHECK,
            &[
                ("ratio", &fixed(c.dirty_ratio, 2)),
                ("dirty", &c.first_dirty_offset.to_string()),
                ("uncleanable", &c.first_uncleanable_offset.to_string()),
                ("verdict", verdict),
            ],
        );
        html!(html, "<h3>{}</h3><p data-testid=\"cleaner\">{}</p>", t(key::LOG_CLEAN_TITLE), text);
    }
    if let Some(r) = lab.reader_view() {
        let state = t(if r.caught_up { key::LOG_READER_CAUGHT_UP } else { key::LOG_READER_BEHIND });
        let text = tf(
            key::LOG_READER_PROGRESS,
            &[
                ("position", &r.position.to_string()),
                ("read", &r.records_read.to_string()),
                ("keys", &r.keys_in_table.to_string()),
                ("state", state),
            ],
        );
        html!(html, "<h3>{}</h3><p data-testid=\"reader\">{}</p>", t(key::LOG_READER_TITLE), text);
        if !r.resurrected_keys.is_empty() {
            let keys = r.resurrected_keys.iter().map(|k| format!("key-{k}")).collect::<Vec<_>>().join(", ");
            let text = tf(key::LOG_READER_RESURRECTED, &[("keys", &keys)]);
            html!(html, "<p class=\"log-warn\" data-testid=\"resurrected\">{}</p>", text);
        }
    }
    html
}

#[component]
pub fn StatusPanel(session: Session<LogLab>) -> impl IntoView {
    let html = Signal::derive(move || {
        session.with(|run| {
            let lab = run.world();
            let log = lab.log();
            let (verdict, oldest, active) =
                retention_lines(&log.retention_view(run.sim().now_ms() as i64), log.log_start_offset());
            html!(
                "<p data-testid=\"retention-verdict\"><b>{}</b></p><p>{}</p><p>{}</p>{}",
                verdict,
                oldest,
                active,
                cleaner_and_reader(lab)
            )
        })
    });
    view! {
        <section class="log-status" aria-labelledby="log-status-title">
            <h2 id="log-status-title">{t(key::LOG_RET_TITLE)}</h2>
            <Markup html=html/>
        </section>
    }
}
