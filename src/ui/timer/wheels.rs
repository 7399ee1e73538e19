//! The timer's config (tickMs, wheelSize) with a rebuild form, the per-level clocks, and the
//! operation counts of the wheel beside a binary heap.

use leptos::prelude::*;

use super::html::row;
use crate::i18n::{t, tf};
use crate::link::LinkState;
use crate::markup::Html;
use crate::model::config::{Config, ConfigError};
use crate::model::kernel::Describe;
use crate::model::scene::LabScene;
use crate::model::timer::{LevelView, OpCounts, OpsView, TimerLab};
use crate::scenes;
use crate::ui::markup::{Host, Markup};
use crate::ui::session::{Session, Transport};
use crate::ui::url;

/// tickMs and wheelSize are constructor arguments of `SystemTimer`, so changing them builds a
/// new timer: the page reloads with them in the link, and the recorded actions replay on it.
#[component]
pub fn ConfigStrip(session: Session<TimerLab>) -> impl IntoView {
    let current = move || session.with(|run| (run.world().timer().tick_ms(), run.world().timer().wheel_size()));
    let (tick0, size0) = current();
    let tick = RwSignal::new(tick0.to_string());
    let size = RwSignal::new(size0.to_string());
    let rebuild = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let pairs = [("tickMs", tick.get_untracked()), ("wheelSize", size.get_untracked())];
        match relink(session, &pairs) {
            Ok(query) => {
                if let Some(window) = web_sys::window() {
                    let _ = window.location().set_href(&format!("?{query}"));
                }
            }
            Err(refused) => Transport::error(&session).set(Some(refused.message())),
        }
    };
    view! {
        <section class="timer-config" aria-labelledby="timer-config-title">
            <h2 id="timer-config-title">{t("timer.config")}</h2>
            <p class="config-line num" data-testid="timer-config">
                {move || {
                    let (tick, size) = current();
                    tf("timer.config.line", &[("tick", &tick.to_string()), ("size", &size.to_string()), ("interval", &(tick * size as u64).to_string())])
                }}
            </p>
            <form class="rebuild" on:submit=rebuild>
                <label>"tickMs"<input type="number" min="1" max="1000" size="5" prop:value=tick on:input=move |ev| tick.set(event_target_value(&ev))/></label>
                <label>"wheelSize"<input type="number" min="2" max="512" size="5" prop:value=size on:input=move |ev| size.set(event_target_value(&ev))/></label>
                <button type="submit">{t("timer.config.rebuild")}</button>
            </form>
            <p class="hint">{t("timer.config.hint")}</p>
        </section>
    }
}

/// The link of this run with new timer arguments (checked against the schema first).
fn relink(session: Session<TimerLab>, pairs: &[(&str, String)]) -> Result<String, ConfigError> {
    let mut check = Config::defaults(TimerLab::schema());
    for (name, value) in pairs {
        check.set(name, value.trim())?;
    }
    let mut link: LinkState = session.link(false);
    link.embed = LinkState::parse(&url::current_query(), &scenes::ids()).map(|l| l.embed).unwrap_or(false);
    link.preset = None;
    for (name, value) in pairs {
        link.config.retain(|(n, _)| n != name);
        link.config.push((name.to_string(), value.trim().to_string()));
    }
    Ok(link.to_query())
}

/// One row per level: its tick, span, and where its pointer (currentTime) is.
#[component]
pub fn WheelTable(session: Session<TimerLab>) -> impl IntoView {
    let levels = move || session.with(|run| run.world().levels());
    let clock = move || session.with(|run| run.sim().now_ms());
    view! {
        <section class="wheels" aria-labelledby="timer-wheels-title">
            <h2 id="timer-wheels-title">{t("timer.wheels")}</h2>
            <p class="clocks">
                {t("timer.wheels.clock")}" "<strong class="num" data-testid="kernel-clock">{move || format!("{} ms", clock())}</strong>
            </p>
            <p class="legend">{t("timer.wheels.note")}</p>
            <table data-testid="wheels">
                <thead><tr>
                    <th scope="col">{t("timer.wheels.level")}</th>
                    <th scope="col">"tickMs"</th>
                    <th scope="col">{t("timer.wheels.interval")}</th>
                    <th scope="col">{t("timer.wheels.current")}</th>
                    <th scope="col">{t("timer.wheels.bucket")}</th>
                    <th scope="col">{t("timer.wheels.tasks")}</th>
                </tr></thead>
                <Markup host=Host::Tbody html=Signal::derive(move || level_rows(&levels()))/>
            </table>
        </section>
    }
}

/// The same task stream through the wheel and through a binary-heap delay queue.
#[component]
pub fn OpsTable(session: Session<TimerLab>) -> impl IntoView {
    let ops = move || session.with(|run| run.world().ops());
    view! {
        <section class="ops" aria-labelledby="timer-ops-title">
            <h2 id="timer-ops-title">{t("timer.ops")}</h2>
            <p class="legend">{t("timer.ops.note")}</p>
            <table data-testid="ops">
                <thead><tr>
                    <th scope="col">{t("timer.ops.what")}</th>
                    <th scope="col" class="num">{t("timer.ops.wheel")}</th>
                    <th scope="col" class="num">{t("timer.ops.heap")}</th>
                </tr></thead>
                <Markup host=Host::Tbody html=Signal::derive(move || ops_rows(&ops()))/>
            </table>
        </section>
    }
}

/// One row per wheel level.
fn level_rows(levels: &[LevelView]) -> Html {
    let mut out = Html::new();
    for w in levels {
        let bucket = (w.current_time_ms / w.tick_ms) % w.wheel_size as u64;
        let tasks: usize = w.buckets.iter().map(|b| b.tasks.len()).sum();
        let cells = [
            ("num", w.tick_ms.to_string()),
            ("num", format!("{} ms", w.interval_ms)),
            ("num current", format!("{} ms", w.current_time_ms)),
            ("num", bucket.to_string()),
            ("num", tasks.to_string()),
        ];
        row(&mut out, &format!("wheel-{}", w.level), &format!("L{}", w.level), &cells);
    }
    out
}

type OpsRow = (&'static str, fn(&OpCounts) -> u64);

const OPS_ROWS: &[OpsRow] = &[
    ("timer.ops.inserts", |o| o.inserts),
    ("timer.ops.reinserts", |o| o.reinserts),
    ("timer.ops.expirations", |o| o.expirations),
    ("timer.ops.cancels", |o| o.cancels),
    ("timer.ops.fired", |o| o.fired),
    ("timer.ops.stale", |o| o.stale_pops),
    ("timer.ops.work", |o| o.work),
];

/// The wheel's and the heap's counts side by side, then their sizes.
fn ops_rows(ops: &OpsView) -> Html {
    let mut out = Html::new();
    for (key, get) in OPS_ROWS {
        row(&mut out, key, t(key), &[("num", get(&ops.wheel).to_string()), ("num", get(&ops.heap).to_string())]);
    }
    let sizes = [
        ("num", tf("timer.ops.levels", &[("count", &ops.wheel_levels.to_string())])),
        ("num", tf("timer.ops.entries", &[("count", &ops.heap_entries.to_string())])),
    ];
    row(&mut out, "size", t("timer.ops.size"), &sizes);
    out
}
