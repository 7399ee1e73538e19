//! The timer's config (tickMs, wheelSize) with a rebuild form, the per-level clocks, and the
//! operation counts of the wheel beside a binary heap.

use leptos::prelude::*;

use super::html::row;
use crate::i18n::{key, t, tf};
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
            <h2 id="timer-config-title">{t(key::TIMER_CONFIG)}</h2>
            <p class="config-line num" data-testid="timer-config">
                {move || {
                    let (tick, size) = current();
                    tf(key::TIMER_CONFIG_LINE, &[("tick", &tick.to_string()), ("size", &size.to_string()), ("interval", &(tick * size as u64).to_string())])
                }}
            </p>
            <form class="rebuild" on:submit=rebuild>
                <label>"tickMs"<input type="number" min="1" max="1000" size="5" prop:value=tick on:input=move |ev| tick.set(event_target_value(&ev))/></label>
                <label>"wheelSize"<input type="number" min="2" max="512" size="5" prop:value=size on:input=move |ev| size.set(event_target_value(&ev))/></label>
                <button type="submit">{t(key::TIMER_CONFIG_REBUILD)}</button>
            </form>
            <p class="hint">{t(key::TIMER_CONFIG_HINT)}</p>
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
            <h2 id="timer-wheels-title">{t(key::TIMER_WHEELS)}</h2>
            <p class="clocks">
                {t(key::TIMER_WHEELS_CLOCK)}" "<strong class="num" data-testid="kernel-clock">{move || format!("{} ms", clock())}</strong>
            </p>
            <p class="legend">{t(key::TIMER_WHEELS_NOTE)}</p>
            <table data-testid="wheels" tabindex="0" aria-labelledby="timer-wheels-title">
                <thead><tr>
                    <th scope="col">{t(key::TIMER_WHEELS_LEVEL)}</th>
                    <th scope="col">"tickMs"</th>
                    <th scope="col">{t(key::TIMER_WHEELS_INTERVAL)}</th>
                    <th scope="col">{t(key::TIMER_WHEELS_CURRENT)}</th>
                    <th scope="col">{t(key::TIMER_WHEELS_BUCKET)}</th>
                    <th scope="col">{t(key::TIMER_WHEELS_TASKS)}</th>
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
            <h2 id="timer-ops-title">{t(key::TIMER_OPS)}</h2>
            <p class="legend">{t(key::TIMER_OPS_NOTE)}</p>
            <table data-testid="ops">
                <thead><tr>
                    <th scope="col">{t(key::TIMER_OPS_WHAT)}</th>
                    <th scope="col" class="num">{t(key::TIMER_OPS_WHEEL)}</th>
                    <th scope="col" class="num">{t(key::TIMER_OPS_HEAP)}</th>
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
    (key::TIMER_OPS_INSERTS, |o| o.inserts),
    (key::TIMER_OPS_REINSERTS, |o| o.reinserts),
    (key::TIMER_OPS_EXPIRATIONS, |o| o.expirations),
    (key::TIMER_OPS_CANCELS, |o| o.cancels),
    (key::TIMER_OPS_FIRED, |o| o.fired),
    (key::TIMER_OPS_STALE, |o| o.stale_pops),
    (key::TIMER_OPS_WORK, |o| o.work),
];

/// The wheel's and the heap's counts side by side, then their sizes.
fn ops_rows(ops: &OpsView) -> Html {
    let mut out = Html::new();
    for (key, get) in OPS_ROWS {
        row(&mut out, key, t(key), &[("num", get(&ops.wheel).to_string()), ("num", get(&ops.heap).to_string())]);
    }
    let sizes = [
        ("num", tf(key::TIMER_OPS_LEVELS, &[("count", &ops.wheel_levels.to_string())])),
        ("num", tf(key::TIMER_OPS_ENTRIES, &[("count", &ops.heap_entries.to_string())])),
    ];
    row(&mut out, "size", t(key::TIMER_OPS_SIZE), &sizes);
    out
}
