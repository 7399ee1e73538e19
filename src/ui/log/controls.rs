//! The topic configs (`kafka-configs --alter`) and the actions: produce, tombstone, deleteRecords, a slow reader.

use leptos::prelude::*;

use super::format::{bytes, duration};
use crate::i18n::{key, t};
use crate::model::log::schema::{CLEANUP_POLICIES, DIRTY_RATIO_STEPS};
use crate::model::log::{Command, LogLab, LogSettings};
use crate::ui::session::Session;

/// (property, catalog key of its help, how its value reads).
const CONFIGS: &[(&str, &str, Unit)] = &[
    ("segment.bytes", key::LOG_CFG_SEGMENT_BYTES, Unit::Bytes(|s| i64::from(s.segment_bytes))),
    ("segment.ms", key::LOG_CFG_SEGMENT_MS, Unit::Ms(|s| s.segment_ms)),
    ("index.interval.bytes", key::LOG_CFG_INDEX_INTERVAL_BYTES, Unit::Bytes(|s| i64::from(s.index_interval_bytes))),
    ("retention.ms", key::LOG_CFG_RETENTION_MS, Unit::Ms(|s| s.retention_ms)),
    ("retention.bytes", key::LOG_CFG_RETENTION_BYTES, Unit::Bytes(|s| s.retention_bytes)),
    ("cleanup.policy", key::LOG_CFG_CLEANUP_POLICY, Unit::Choice(CLEANUP_POLICIES)),
    ("min.cleanable.dirty.ratio", key::LOG_CFG_DIRTY_RATIO, Unit::Choice(DIRTY_RATIO_STEPS)),
    ("delete.retention.ms", key::LOG_CFG_DELETE_RETENTION_MS, Unit::Ms(|s| s.delete_retention_ms)),
    ("min.compaction.lag.ms", key::LOG_CFG_MIN_COMPACTION_LAG_MS, Unit::Ms(|s| s.min_compaction_lag_ms)),
    ("max.compaction.lag.ms", key::LOG_CFG_MAX_COMPACTION_LAG_MS, Unit::Ms(|s| s.max_compaction_lag_ms)),
    ("max.message.bytes", key::LOG_CFG_MAX_MESSAGE_BYTES, Unit::Bytes(|s| i64::from(s.max_message_bytes))),
];

/// How a property's value reads beside its box: a size or a duration (read from the typed
/// settings), or one of a list of choices.
#[derive(Clone, Copy)]
enum Unit {
    Bytes(fn(&LogSettings) -> i64),
    Ms(fn(&LogSettings) -> i64),
    Choice(&'static [&'static str]),
}

fn readable(unit: Unit, settings: &LogSettings) -> String {
    let (value, is_bytes) = match unit {
        Unit::Bytes(value) => (value(settings), true),
        Unit::Ms(value) => (value(settings), false),
        Unit::Choice(_) => return String::new(),
    };
    match value {
        -1 | i64::MAX => t(key::LOG_CFG_UNLIMITED).to_string(),
        n if is_bytes && n >= 1024 => bytes(n as u64),
        n if !is_bytes && n >= 1000 => duration(n),
        _ => String::new(),
    }
}

#[component]
pub fn ConfigPanel(session: Session<LogLab>) -> impl IntoView {
    view! {
        <section class="log-configs" aria-labelledby="log-cfg-title">
            <h2 id="log-cfg-title">{t(key::LOG_CFG_TITLE)}</h2>
            <p class="legend">{t(key::LOG_CFG_HINT)}</p>
            <div class="log-cfg-rows">
                {CONFIGS.iter().map(|(name, help, unit)| config_row(session, name, help, *unit)).collect_view()}
            </div>
        </section>
    }
}

fn set(session: Session<LogLab>, name: &str, value: String) {
    session.command(Command::SetConfig { name: name.to_string(), value: value.trim().to_string() });
}

fn config_row(session: Session<LogLab>, name: &'static str, help: &'static str, unit: Unit) -> impl IntoView {
    let current = Memo::new(move |_| session.with(|run| run.world().config().display(name)));
    let id = format!("log-cfg-{}", name.replace('.', "-"));
    let control = match unit {
        Unit::Choice(options) => view! {
            <select id=id.clone() data-testid=id.clone() on:change=move |ev| set(session, name, event_target_value(&ev))>
                {options.iter().map(|o| view! { <option value=*o selected=move || current.get() == *o>{*o}</option> }).collect_view()}
            </select>
        }
        .into_any(),
        _ => {
            let text = RwSignal::new(current.get_untracked());
            Effect::new(move |_| text.set(current.get()));
            view! {
                <form class="log-inline" on:submit=move |ev| { ev.prevent_default(); set(session, name, text.get_untracked()); }>
                    <input id=id.clone() data-testid=id.clone() type="text" inputmode="numeric" size="12"
                        prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))/>
                    <button type="submit">{t(key::LOG_CFG_SET)}</button>
                </form>
            }
            .into_any()
        }
    };
    view! {
        <div class="log-cfg">
            <label for=id><code translate="no">{name}</code></label>
            {control}
            <span class="num muted">{move || session.with(|run| readable(unit, &run.world().settings().log))}</span>
            <p class="log-cfg-help">{t(help)}</p>
        </div>
    }
}

/// A labelled number box backed by a local signal.
fn number_box(label: &'static str, value: RwSignal<String>, testid: &'static str) -> impl IntoView {
    view! {
        <label class="log-field">{t(label)}
            <input type="text" inputmode="numeric" size="8" data-testid=testid prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))/>
        </label>
    }
}

fn parsed<T: std::str::FromStr>(value: RwSignal<String>) -> Option<T> {
    value.get_untracked().trim().replace('_', "").parse().ok()
}

#[component]
pub fn ActionPanel(session: Session<LogLab>) -> impl IntoView {
    let (records, keys, size) =
        (RwSignal::new("1000".to_string()), RwSignal::new("0".to_string()), RwSignal::new("1024".to_string()));
    let (key, before, pace) =
        (RwSignal::new("426".to_string()), RwSignal::new("-1".to_string()), RwSignal::new("5".to_string()));
    let bad = RwSignal::new(false);
    let send = move |command: Option<Command>| match command {
        Some(command) => {
            bad.set(false);
            session.command(command);
        }
        None => bad.set(true),
    };
    let produce = move |_| {
        send(
            (|| Some(Command::Produce { records: parsed(records)?, keys: parsed(keys)?, value_bytes: parsed(size)? }))(
            ),
        )
    };
    view! {
        <section class="log-actions" aria-labelledby="log-actions-title">
            <h2 id="log-actions-title">{t(key::LOG_ACT_TITLE)}</h2>
            <div class="log-act">
                {number_box(key::LOG_ACT_RECORDS, records, "produce-records")}
                {number_box(key::LOG_ACT_KEYS, keys, "produce-keys")}
                {number_box(key::LOG_ACT_BYTES, size, "produce-bytes")}
                <button class="primary" on:click=produce>{t(key::LOG_ACT_PRODUCE)}</button>
            </div>
            <div class="log-act">
                {number_box(key::LOG_ACT_KEY, key, "tombstone-key")}
                <button on:click=move |_| send(parsed(key).map(|key| Command::Tombstone { key }))>{t(key::LOG_ACT_TOMBSTONE)}</button>
            </div>
            <div class="log-act">
                {number_box(key::LOG_ACT_BEFORE, before, "delete-before")}
                <button class="danger" on:click=move |_| send(parsed(before).map(|before_offset| Command::DeleteRecords { before_offset }))>
                    {t(key::LOG_ACT_DELETE)}
                </button>
            </div>
            <div class="log-act">
                {number_box(key::LOG_ACT_PACE, pace, "reader-pace")}
                <button on:click=move |_| send(parsed(pace).map(|records_per_sec| Command::StartReader { records_per_sec }))>{t(key::LOG_ACT_READER)}</button>
            </div>
            <Show when=move || bad.get()>
                <p class="log-warn" role="alert">{t(key::LOG_ACT_NAN)}</p>
            </Show>
            <p class="legend">{t(key::LOG_ACT_HINT)}</p>
        </section>
    }
}
