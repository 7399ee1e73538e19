//! The app shell: reads the link, opens the scene it names, and lays out
//! navigation, the scene, the transport bar and the event log.

use std::sync::Arc;

use leptos::prelude::*;

use super::event_log::LogPanel;
use super::keyboard::{self, KeyAction};
use super::session::Session;
use super::transport::{PlayState, Shell, TransportBar};
use super::widgets::{About, Layout, PresetPicker, SceneViews};
use super::{embed, url};
use crate::i18n::{key, render, t, tf};
use crate::link::LinkState;
use crate::model::kernel::{Describe, Message};
use crate::model::scene::Run;
use crate::scenes::{self, SCENES};

/// The seed a run starts with when the link names none.
pub use crate::model::scene::DEFAULT_SEED;

/// The shell around the bundle's scene; `mount` opens it from the link. `L`: what the bundle
/// holds (an embed's bundle, [`super::widgets::Stage`], has no header, menu or panels).
pub fn app<L: Layout>(mount: fn(&LinkState) -> Mounted) -> impl IntoView {
    let query = url::current_query();
    let ids = scenes::ids();
    let embed = L::EMBED_ONLY || url::is_embed(&query);
    let (link, mut link_error) = match LinkState::parse(&query, &ids) {
        Ok(link) => (link, None),
        Err(why) => (LinkState::default(), Some(why.message())),
    };
    let theme = RwSignal::new(super::theme::chosen(link.theme));
    super::theme::apply(theme.get_untracked());
    let scene = super::bundle_id().to_string();
    let Mounted { shell, picker, views, error, stopped } = mount(&link);
    link_error = link_error.or(error);
    let stopped = RwSignal::new(stopped);
    let play = PlayState::new(shell.clone());
    let help_open = RwSignal::new(false);
    let present = RwSignal::new(link.present);
    install_keyboard(shell.clone(), play, help_open, present);
    keep_url_current(shell.clone(), play, embed, present);
    if embed {
        embed::post_height_on_resize();
    }
    let link_error = RwSignal::new(link_error);
    let SceneViews { intro, stage, panels } = views;
    let record = L::unless_embed(embed, || view! { <super::notebook::record::Record shell=shell.clone()/> }.into_any());
    let panels = L::unless_embed(embed, || {
        view! {
            <div class="panels">
                <About text=intro/>
                {panels}
                <super::config_panel::ConfigPanel shell=shell.clone()/>
                <LogPanel shell=shell.clone()/>
            </div>
        }
    });
    view! {
        <div class="app" class:embed=embed class:present=move || present.get()>
            // Fixed for the page's life: a plain option, not a reactive `Show`.
            {L::unless_embed(embed, || view! { <Header current=scene.clone() help_open=help_open theme=theme/> })}
            <Banner message=link_error.into() template=key::SHELL_LINK_ERROR dismiss=link_error/>
            <Banner message=stopped.into() template=key::SHELL_LINK_STOPPED dismiss=stopped/>
            <Banner message=play.limit.into() template=key::SHELL_PLAY_LIMIT dismiss=play.limit/>
            <Banner message=shell.error().into() template=key::SHELL_COMMAND_ERROR dismiss=shell.error()/>
            <main class="scene" id="scene">
                <div class="stage" data-testid="stage">
                    <div class="stage-head">
                        <super::story_bar::StoryBar shell=shell.clone() record=record/>
                        {picker.filter(|_| !embed)}
                    </div>
                    <TransportBar shell=shell.clone() play=play compact=embed/>
                    <div class="picture" data-testid="picture">{stage}</div>
                </div>
                {panels}
            </main>
            <Footer shell=shell.clone() embed=embed/>
            <HelpDialog open=help_open/>
        </div>
    }
}

/// A mounted scene: the shell's handle, its preset menu, its views, and why the link was refused.
pub struct Mounted {
    pub(crate) shell: Shell,
    /// The preset menu (`None` in an embed's bundle).
    pub(crate) picker: Option<AnyView>,
    pub(crate) views: SceneViews,
    pub(crate) error: Option<Message>,
    /// Why the link opened only part of the way (it asked for more work than the budget).
    pub(crate) stopped: Option<Message>,
}

/// Opens scene `S` from the link and builds its views (called from the registry; a link with
/// `vs=` opens in the comparison's bundle, `notebook::compare::mount_compared`).
pub(crate) fn mount<S, L>(link: &LinkState, views: fn(Session<S>) -> SceneViews) -> Mounted
where
    S: super::session::UiScene,
    L: Layout,
{
    let (session, error) = open::<S>(link);
    mounted::<S, L>(session, views, error)
}

/// The mounted scene for an opened session.
pub(crate) fn mounted<S, L>(session: Session<S>, views: fn(Session<S>) -> SceneViews, error: Option<Message>) -> Mounted
where
    S: super::session::UiScene,
    L: Layout,
{
    let stopped = session.with(|run| run.stopped.map(|s| s.message()));
    let picker = L::full(|| view! { <PresetPicker session=session/> }.into_any());
    Mounted { shell: Arc::new(session) as Shell, picker, views: views(session), error, stopped }
}

/// Builds a scene's run from the link; on any problem, says why and starts from defaults.
pub(crate) fn open<S>(link: &LinkState) -> (Session<S>, Option<Message>)
where
    S: super::session::UiScene,
{
    let result = scenes::open_run::<S>(link);
    match result {
        Ok(run) => (Session::new(run, link.preset.clone()), None),
        Err(why) => {
            let run = Run::new(DEFAULT_SEED, &[]).expect("the default config is valid");
            (Session::new(run, None), Some(why.message()))
        }
    }
}

fn install_keyboard(shell: Shell, play: PlayState, help_open: RwSignal<bool>, present: RwSignal<bool>) {
    keyboard::listen(move |action| match action {
        KeyAction::TogglePlay => play.playing.update(|p| *p = !*p),
        KeyAction::Step => shell.step(),
        KeyAction::Back => shell.back(),
        KeyAction::ToggleHelp => help_open.update(|o| *o = !*o),
        KeyAction::CloseHelp => help_open.set(false),
        KeyAction::TogglePresent => present.update(|on| *on = !*on),
        KeyAction::Jump(to) => shell.jump(to),
    });
}

/// Keeps the address bar naming the state on screen, so a copied or bookmarked link reproduces
/// it: once the run rests (a pause, an idle moment) and when the page is hidden, not on every
/// step — each rewrite costs the browser a dozen ms, which Play would pay at every frame.
fn keep_url_current(shell: Shell, play: PlayState, embed: bool, present: RwSignal<bool>) {
    url::flush_on_page_hide();
    Effect::new(move |_| {
        super::present::apply(present.get());
        let link = shell.link(embed);
        if play.playing.get() {
            url::hold(link);
        } else {
            url::schedule(link);
        }
    });
}

#[component]
pub(super) fn Header(current: String, help_open: RwSignal<bool>, theme: RwSignal<crate::link::Theme>) -> impl IntoView {
    let toggle_theme = move |_| {
        let next = theme.get_untracked().next();
        theme.set(next);
        super::theme::choose(next);
    };
    let theme_label = move || {
        let name = |t: crate::link::Theme| crate::i18n::t(theme_key(t)).to_string();
        let current = theme.get();
        tf(key::SHELL_THEME_TOGGLE, &[("theme", &name(current)), ("next", &name(current.next()))])
    };
    // On a phone the scene names scroll in one row: bring the current one into view.
    let nav = NodeRef::<leptos::html::Nav>::new();
    Effect::new(move |_| {
        use wasm_bindgen::JsCast;
        let Some(nav) = nav.get() else { return };
        let here = nav.query_selector("[aria-current]").ok().flatten();
        if let Some(here) = here.and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
            let nav_el: &web_sys::HtmlElement = &nav;
            nav_el.set_scroll_left(here.offset_left() - nav_el.offset_left() - 24);
        }
    });
    view! {
        <a class="skip-link" href="#transport">{t(key::SHELL_SKIP_TO_TRANSPORT)}</a>
        <header class="top">
            <div class="brand">
                <h1>{t(key::SHELL_TITLE)}</h1>
                <p class="tagline">{t(key::SHELL_TAGLINE)}</p>
            </div>
            <nav aria-label=t(key::SHELL_NAV_LABEL) node_ref=nav>
                {SCENES.iter().map(|scene| {
                    let here = scene.id == current;
                    view! {
                        <a href=url::scene_link(scene.id) aria-current=if here { Some("page") } else { None }>{t(scene.title_key)}</a>
                    }
                }).collect_view()}
                <a href=url::scene_link("notebook") aria-current=(current == "notebook").then_some("page")>{t(key::SHELL_NAV_NOTEBOOK)}</a>
            </nav>
            <div class="tools">
                <LanguageMenu/>
                <button on:click=toggle_theme title=theme_label aria-label=theme_label data-testid="theme"
                    data-theme=move || theme.get().token()>"◐"</button>
                <button on:click=move |_| help_open.set(true) title=t(key::SHELL_HELP_OPEN) aria-label=t(key::SHELL_HELP_OPEN)>"?"</button>
            </div>
        </header>
    }
}

/// The language menu: the five locales by their own names; a choice is remembered and
/// reopens the same state in that language.
#[component]
fn LanguageMenu() -> impl IntoView {
    let current = crate::i18n::current_locale();
    view! {
        <label class="language">
            <span class="sr-only">{t(key::SHELL_LANGUAGE)}</span>
            <select data-testid="language" aria-label=t(key::SHELL_LANGUAGE) on:change=move |ev| {
                if let Some(locale) = crate::i18n::Locale::from_tag(&event_target_value(&ev)) {
                    super::language::switch_to(locale);
                }
            }>
                {crate::i18n::LOCALES.iter().map(|locale| view! {
                    <option value=locale.tag() lang=locale.tag() selected=*locale == current>{locale.native_name()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

fn theme_key(theme: crate::link::Theme) -> &'static str {
    match theme {
        crate::link::Theme::Auto => key::SHELL_THEME_AUTO,
        crate::link::Theme::Light => key::SHELL_THEME_LIGHT,
        crate::link::Theme::Dark => key::SHELL_THEME_DARK,
    }
}

#[component]
fn Banner(
    message: Signal<Option<Message>>,
    template: &'static str,
    dismiss: RwSignal<Option<Message>>,
) -> impl IntoView {
    view! {
        <Show when=move || message.get().is_some()>
            <div class="banner" role="alert" data-testid="error-banner">
                <span>{move || tf(template, &[("why", &message.get().map(|m| render(&m)).unwrap_or_default())])}</span>
                <button on:click=move |_| dismiss.set(None)>{t(key::SHELL_DISMISS)}</button>
            </div>
        </Show>
    }
}

#[component]
fn Footer(shell: Shell, embed: bool) -> impl IntoView {
    let copied = RwSignal::new(false);
    let open_full = {
        let shell = shell.clone();
        move || url::absolute(&shell.link(false))
    };
    let copy = {
        let shell = shell.clone();
        move |_| {
            copy_to_clipboard(&url::absolute(&shell.link(false)));
            copied.set(true);
        }
    };
    let hash = move || format!("{:016x}", shell.status().3);
    view! {
        <footer class="status">
            <button on:click=copy>{move || if copied.get() { t(key::SHELL_COPIED) } else { t(key::SHELL_COPY_LINK) }}</button>
            {embed.then(|| view! { <a href=open_full target="_blank" rel="noopener">{t(key::SHELL_OPEN_FULL)}</a> })}
            <span class="trace">{t(key::SHELL_TRACE)}" "<code translate="no" data-testid="trace-hash">{hash}</code></span>
        </footer>
    }
}

fn copy_to_clipboard(text: &str) {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else { return };
    let navigator = window.navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else { return };
    let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into()) else { return };
    if let Some(write) = write.dyn_ref::<js_sys::Function>() {
        let _ = write.call1(&clipboard, &text.into());
    }
}

/// The help dialog's list of keys (markup: a typed view of its 28 elements weighs a KB of wasm).
fn help_keys() -> crate::markup::Html {
    use crate::html;
    let mut out = html!("<dt><kbd>Space</kbd></dt><dd>{}</dd>", t(key::SHELL_HELP_SPACE));
    html!(out, "<dt><kbd>→</kbd></dt><dd>{}</dd>", t(key::SHELL_HELP_RIGHT));
    html!(out, "<dt><kbd>←</kbd></dt><dd>{}</dd>", t(key::SHELL_HELP_LEFT));
    html!(out, "<dt><kbd>[</kbd> <kbd>]</kbd></dt><dd>{}</dd>", t(key::SHELL_HELP_MARKS));
    html!(out, "<dt><kbd>Home</kbd> <kbd>End</kbd></dt><dd>{}</dd>", t(key::SHELL_HELP_ENDS));
    html!(out, "<dt><kbd>p</kbd></dt><dd>{}</dd>", t(key::SHELL_HELP_PRESENT));
    html!(out, "<dt><kbd>?</kbd></dt><dd>{}</dd>", t(key::SHELL_HELP_QUESTION));
    out
}

#[component]
pub(super) fn HelpDialog(open: RwSignal<bool>) -> impl IntoView {
    view! {
        <Show when=move || open.get()>
            <div class="dialog-backdrop" on:click=move |_| open.set(false)>
                <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title"
                    on:click=|ev| ev.stop_propagation()>
                    <h2 id="help-title">{t(key::SHELL_HELP_TITLE)}</h2>
                    <super::markup::Markup html=help_keys() host=super::markup::Host::Dl class="keys"/>
                    <button on:click=move |_| open.set(false) autofocus>{t(key::SHELL_HELP_CLOSE)}</button>
                </div>
            </div>
        </Show>
    }
}
