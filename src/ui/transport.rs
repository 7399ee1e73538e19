//! The transport bar: play/pause, step, step back, speed, clock, timeline with its markers, reset.

use std::sync::Arc;

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use super::session::Transport;
use crate::i18n::{key, t, tf};

use crate::model::story::{next_tick_events, speed_text, Tick, PLAY_TICK_EVENTS, SPEEDS, TICK_MS};

pub type Shell = Arc<dyn Transport + Send + Sync>;

/// Play state shared by the bar and the keyboard.
#[derive(Clone, Copy)]
pub struct PlayState {
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    /// Set when Play stopped at the work budget (shown as a banner).
    pub limit: RwSignal<Option<crate::model::kernel::Message>>,
}

impl PlayState {
    /// Starts the Play timer when `playing` turns on; clears it when it turns off, when a
    /// recorded story reaches its end, or on unmount. The speed follows the story's.
    pub fn new(shell: Shell) -> Self {
        let speed = RwSignal::new(shell.story_speed());
        let state = Self { playing: RwSignal::new(false), speed, limit: RwSignal::new(None) };
        let limit = state.limit;
        let story_speed = {
            let shell = shell.clone();
            Memo::new(move |_| shell.story_speed())
        };
        Effect::new(move |_| speed.set(story_speed.get()));
        let timer: StoredValue<Option<Interval>, LocalStorage> = StoredValue::new_local(None);
        let playing = state.playing;
        Effect::new(move |was_playing: Option<bool>| {
            let now_playing = playing.get();
            timer.set_value(None);
            if now_playing {
                if was_playing != Some(true) {
                    shell.play_begin();
                }
                let shell = shell.clone();
                // Events a tick may handle, adapted to what this device does in TICK_WORK_MS.
                let mut allowance = PLAY_TICK_EVENTS;
                timer.set_value(Some(Interval::new(TICK_MS as u32, move || {
                    let started_ms = now_ms();
                    let (tick, handled) = shell.play_tick(speed.get_untracked(), allowance);
                    allowance = next_tick_events(allowance, handled, now_ms() - started_ms);
                    match tick {
                        Tick::Ended => playing.set(false),
                        Tick::Limit => {
                            playing.set(false);
                            limit.set(Some(crate::model::scene::play_limit_message(
                                shell.status().2,
                                shell.events_handled(),
                            )));
                        }
                        Tick::Moved | Tick::Held => {}
                    }
                })));
            }
            now_playing
        });
        on_cleanup(move || timer.set_value(None));
        state
    }
}

/// The page's clock in real ms (0 where there is none).
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Exact virtual time in seconds with milliseconds (`29.961 s`), in the locale's decimals.
pub fn format_clock(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    format!("{} {}", crate::i18n::current_locale().decimal(&text), t(key::SHELL_UNIT_S))
}

/// `0.1×`, `1×`, `60×` in the locale's decimals.
fn speed_label(speed: f64) -> String {
    format!("{}×", crate::i18n::current_locale().decimal(&speed_text(speed)))
}

#[component]
pub fn TransportBar(shell: Shell, play: PlayState, compact: bool) -> impl IntoView {
    let status = {
        let shell = shell.clone();
        move || shell.status()
    };
    let status = Signal::derive(status);
    let (s3, s4, s5) = (shell.clone(), shell.clone(), shell.clone());
    let tape_len = Memo::new(move |_| status.get().1);
    view! {
        // A labelled region (a landmark), not a toolbar: Tab moves between its controls.
        <section class="transport" id="transport" tabindex="-1" aria-label=t(key::SHELL_TRANSPORT_LABEL)>
            <Buttons shell=shell.clone() play=play/>
            <label class="speed">
                <span class="speed-word">{t(key::SHELL_SPEED)}</span>
                <select on:change=move |ev| {
                    // The option's value is the speed's text: found by text, never parsed as a float.
                    let value = event_target_value(&ev);
                    if let Some(&speed) = SPEEDS.iter().find(|s| speed_text(**s) == value) {
                        play.speed.set(speed);
                    }
                }>
                    {SPEEDS.iter().map(|s| view! {
                        <option value=speed_text(*s) prop:selected=move || play.speed.get() == *s>{speed_label(*s)}</option>
                    }).collect_view()}
                </select>
                <Show when=move || { play.speed.get() < 1.0 }>
                    <span class="slow" data-testid="slow-motion">{t(key::SHELL_SPEED_SLOW)}</span>
                </Show>
            </label>
            <span class="clock" aria-label=t(key::SHELL_CLOCK) data-testid="clock"
                data-ms=move || status.get().2.to_string()
                title=move || tf(key::SHELL_CLOCK_EXACT, &[("ms", &status.get().2.to_string())])>
                {move || crate::i18n::duration(status.get().2)}
            </span>
            <div class="timeline">
                <input type="range" class="scrubber" aria-label=t(key::SHELL_TIMELINE) min="0"
                    prop:max=move || status.get().1.to_string()
                    prop:value=move || status.get().0.to_string()
                    on:input=move |ev| {
                        if let Ok(position) = event_target_value(&ev).parse::<usize>() {
                            s3.seek(position);
                        }
                    }/>
                <super::story_bar::Markers shell=s5 tape_len=tape_len/>
            </div>
            <span class="position" data-testid="position" data-position=move || status.get().0.to_string()
                data-total=move || status.get().1.to_string()>
                <span class="word">{move || {
                    let (position, total, _, _) = status.get();
                    tf(key::SHELL_POSITION, &[("position", &position.to_string()), ("total", &total.to_string())])
                }}</span>
                <span class="icon" aria-hidden="true">{move || {
                    let (position, total, _, _) = status.get();
                    format!("{position}/{total}")
                }}</span>
            </span>
            <super::story_bar::MomentCounter shell=shell.clone() tape_len=tape_len
                position=Signal::derive(move || status.get().0)/>
            {(!compact).then(|| view! { <ResetButton shell=s4/> })}
        </section>
    }
}

/// Play/Pause, Back and Step: a word for screen readers and wide screens, an icon on a phone.
#[component]
fn Buttons(shell: Shell, play: PlayState) -> impl IntoView {
    let (s1, s2) = (shell.clone(), shell);
    view! {
        <button class="primary" on:click=move |_| play.playing.update(|p| *p = !*p)
            aria-pressed=move || play.playing.get().to_string()>
            <span class="icon" aria-hidden="true">{move || if play.playing.get() { "❚❚" } else { "▶" }}</span>
            <span class="word">{move || if play.playing.get() { t(key::SHELL_PAUSE) } else { t(key::SHELL_PLAY) }}</span>
        </button>
        <button on:click=move |_| s1.back() title=t(key::SHELL_BACK_HINT)>
            <span class="icon" aria-hidden="true">"◂"</span><span class="word">{t(key::SHELL_BACK)}</span>
        </button>
        <button on:click=move |_| s2.step() title=t(key::SHELL_STEP_HINT)>
            <span class="icon" aria-hidden="true">"▸"</span><span class="word">{t(key::SHELL_STEP)}</span>
        </button>
    }
}

/// Starts the same config and seed again from an empty tape.
#[component]
fn ResetButton(shell: Shell) -> impl IntoView {
    view! {
        <button on:click=move |_| {
            let seed = shell.link(false).seed.unwrap_or(0);
            shell.reset(seed);
        } title=t(key::SHELL_RESET_HINT)>
            <span class="icon" aria-hidden="true">"↺"</span><span class="word">{t(key::SHELL_RESET)}</span>
        </button>
    }
}
