//! Two runs side by side (`vs=` in a scene's link): the same scene, seed and recorded actions
//! (so the same fault schedule) under a second config, both stepped by the one transport, with
//! the figures that differ under the two result cards. "Compare with…" on a result card opens it.

use leptos::prelude::*;

use crate::i18n::{key, render_arg, t};
use crate::link::LinkState;
use crate::model::kernel::{Arg, Describe};
use crate::model::notebook::{difference_label, differences, Difference};
use crate::model::scene::parse_overrides;
use crate::model::story::Tick;
use crate::ui::session::{ConfigRow, LogRow, Session, Transport, UiScene};
use crate::ui::story::{Jump, MarkerView, StoryView};
use crate::ui::widgets::SceneViews;

/// The second config a link asks to compare with (`vs=acks:all,min.insync.replicas:2`).
pub(crate) fn requested(query: &str) -> Option<Result<Vec<(String, String)>, crate::model::scene::RunError>> {
    let raw = query.trim_start_matches('?').split('&').find_map(|p| p.strip_prefix("vs="))?;
    let text = crate::link::percent_decode(raw).unwrap_or_default();
    Some(parse_overrides(&text).and_then(|pairs| {
        if pairs.is_empty() {
            Err(crate::model::scene::RunError::BadOverride { pair: text })
        } else {
            Ok(pairs)
        }
    }))
}

/// `base` with `overrides` in force (a name already there takes the new value).
fn merged(base: &[(String, String)], overrides: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = base.to_vec();
    for (name, value) in overrides {
        match out.iter_mut().find(|(n, _)| n == name) {
            Some(pair) => pair.1 = value.clone(),
            None => out.push((name.clone(), value.clone())),
        }
    }
    out
}

/// Both runs: `left` is the link's, `right` the same under `vs`. The shell drives `left`;
/// `right` follows it to the same position on the same tape.
pub(crate) struct Pair<S: UiScene> {
    left: Session<S>,
    right: Session<S>,
}

impl<S: UiScene> Pair<S> {
    fn follow(&self) {
        let position = self.left.status().0;
        self.right.seek(position);
    }
}

impl<S: UiScene> Transport for Pair<S> {
    fn step(&self) {
        self.left.step();
        self.follow();
    }
    fn back(&self) {
        self.left.back();
        self.follow();
    }
    fn seek(&self, position: usize) {
        self.left.seek(position);
        self.follow();
    }
    fn advance(&self, duration_ms: u64) {
        self.left.advance(duration_ms);
        self.follow();
    }
    fn reset(&self, seed: u64) {
        self.left.reset(seed);
        self.right.reset(seed);
    }
    fn status(&self) -> (usize, usize, u64, u64) {
        self.left.status()
    }
    fn log_tail(&self, count: usize, filter: &str, all: bool) -> Vec<LogRow> {
        self.left.log_tail(count, filter, all)
    }
    fn story(&self) -> StoryView {
        self.left.story()
    }
    fn markers(&self) -> Vec<MarkerView> {
        self.left.markers()
    }
    fn events_handled(&self) -> u64 {
        self.left.events_handled()
    }
    fn story_speed(&self) -> f64 {
        self.left.story_speed()
    }
    fn play_begin(&self) {
        self.left.play_begin();
    }
    /// Play replays the shared tape on both sides and stops at its end (no live run past it:
    /// the comparison is of the same recorded schedule).
    fn play_tick(&self, speed: f64, max_events: u64) -> (Tick, u64) {
        let (position, len, _, _) = self.left.status();
        if position >= len {
            return (Tick::Ended, 0);
        }
        let (tick, handled) = self.left.play_tick(speed, max_events);
        self.follow();
        (tick, handled)
    }
    fn jump(&self, to: Jump) {
        self.left.jump(to);
        self.follow();
    }
    fn link(&self, embed: bool) -> LinkState {
        self.left.link(embed)
    }
    fn error(&self) -> RwSignal<Option<crate::model::kernel::Message>> {
        self.left.error()
    }
    fn config_rows(&self) -> Vec<ConfigRow> {
        self.left.config_rows()
    }
    fn reconfigure(&self, overrides: Vec<(String, String)>) {
        self.left.reconfigure(overrides);
    }
}

/// The comparison's bundle (`vs=` in the link, routed there by the pages' loader): the two runs
/// side by side, or, should `vs=` be unreadable, the link's run alone with the reason.
pub(crate) fn mount_compared<S: UiScene>(link: &LinkState, views: fn(Session<S>) -> SceneViews) -> crate::ui::Mounted {
    match requested(&crate::ui::url::current_query()) {
        Some(Ok(vs)) => mount(link, views, vs),
        refused => {
            let (session, error) = crate::ui::app::open::<S>(link);
            let error = error.or(refused.and_then(Result::err).map(|why| why.message()));
            crate::ui::app::mounted::<S, crate::ui::Full>(session, views, error)
        }
    }
}

/// Opens the link's run and its twin under `vs`, and lays them out side by side.
fn mount<S: UiScene>(
    link: &LinkState,
    views: fn(Session<S>) -> SceneViews,
    vs: Vec<(String, String)>,
) -> crate::ui::Mounted {
    let (left, error) = crate::ui::app::open::<S>(link);
    let opened = left.link(false);
    let twin = LinkState { config: merged(&opened.config, &vs), position: opened.position, ..opened.clone() };
    let (right, right_error) = crate::ui::app::open::<S>(&twin);
    let pair = std::sync::Arc::new(Pair { left, right });
    let picker = Some(view! { <crate::ui::widgets::PresetPicker session=left/> }.into_any());
    let names: Vec<String> = vs.iter().map(|(n, _)| n.clone()).collect();
    let stage = view! { <CompareView left=left right=right views=views names=names/> }.into_any();
    let stopped = left.with(|run| run.stopped.map(|s| s.message()));
    let views = SceneViews { intro: key::RECORD_COMPARE_INTRO, stage, panels: None };
    crate::ui::Mounted { shell: pair, picker, views, error: error.or(right_error), stopped }
}

/// `name=value` for each compared property, as the run has it.
fn side_config(rows: &[ConfigRow], names: &[String]) -> String {
    let pick = |name: &String| rows.iter().find(|r| r.name == name).map(|r| format!("{name}={}", r.value));
    names.iter().filter_map(pick).collect::<Vec<_>>().join(", ")
}

fn arg_text(arg: &Option<Arg>) -> String {
    arg.as_ref().map_or_else(|| "—".to_string(), render_arg)
}

#[component]
fn CompareView<S: UiScene>(
    left: Session<S>,
    right: Session<S>,
    views: fn(Session<S>) -> SceneViews,
    names: Vec<String>,
) -> impl IntoView {
    let answer = move |session: Session<S>| {
        let story = session.story_of();
        session.with(|run| story.verdict(&run.history).answer)
    };
    let diff = Memo::new(move |_| match (answer(left), answer(right)) {
        (Some(a), Some(b)) => Some(differences::<S>(&a, &b, &crate::i18n::template)),
        _ => None,
    });
    let side = move |session: Session<S>, testid: &'static str, names: Vec<String>| {
        let config = move || side_config(&session.config_rows(), &names);
        let shell: crate::ui::transport::Shell = std::sync::Arc::new(session);
        let record = view! { <crate::ui::notebook::record::Record shell=shell.clone()/> }.into_any();
        view! {
            <div class="compare-side" data-testid=testid>
                <p class="compare-config"><code translate="no">{config}</code></p>
                <crate::ui::story_bar::StoryBar shell=shell record=Some(record)/>
                <div class="picture">{views(session).stage}</div>
            </div>
        }
    };
    view! {
        <div class="compare-view" data-testid="compare">
            {side(left, "compare-left", names.clone())}
            {side(right, "compare-right", names)}
            <div class="compare-diff" role="status" data-testid="compare-diff">
                <strong>{t(key::RECORD_COMPARE_DIFF)}</strong>" "
                {move || match diff.get() {
                    None => t(key::RECORD_COMPARE_WAIT).into_any(),
                    Some(d) if d.is_empty() => t(key::RECORD_COMPARE_SAME).into_any(),
                    Some(d) => view! { <ul>{d.into_iter().map(difference_item::<S>).collect_view()}</ul> }.into_any(),
                }}
            </div>
        </div>
    }
}

/// One differing figure, named in the page's language (`tests/notebook_labels.rs`: every figure
/// of every scene's answers has a label), or by its argument's name should one lack it.
fn difference_item<S: UiScene>(d: Difference) -> impl IntoView {
    let name = match difference_label::<S>(&d) {
        Some(label) => view! { <span>{t(label)}</span> }.into_any(),
        None => view! { <code translate="no">{d.name}</code> }.into_any(),
    };
    view! { <li>{name}": "<b>{arg_text(&d.left)}</b>" → "<b>{arg_text(&d.right)}</b></li> }
}

/// The config a comparison suggests for a run: the other side of the lab's question.
fn suggestion(scene: &str, rows: &[ConfigRow]) -> String {
    let value = |name: &str| rows.iter().find(|r| r.name == name).map(|r| r.value.clone()).unwrap_or_default();
    match scene {
        "replication" if value("acks") == "1" => "acks=all,min.insync.replicas=2".into(),
        "replication" => "acks=1".into(),
        "groups" if value("partition.assignment.strategy").contains("Cooperative") => {
            "partition.assignment.strategy=org.apache.kafka.clients.consumer.RangeAssignor".into()
        }
        "groups" => "partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor".into(),
        "partitioner" if value("lab.composite.key") == "true" => "lab.composite.key=false".into(),
        "partitioner" => "lab.composite.key=true".into(),
        _ => rows.first().map(|r| format!("{}={}", r.name, r.value)).unwrap_or_default(),
    }
}

/// "Compare with…" on a result card: a second config (suggested), then the side-by-side page.
#[component]
pub fn CompareWith(shell: crate::ui::transport::Shell) -> impl IntoView {
    let open = RwSignal::new(false);
    let config = RwSignal::new(String::new());
    let shell = StoredValue::new(shell);
    let start = move |_| {
        let text = shell.with_value(|s| suggestion(s.link(false).scene.as_deref().unwrap_or(""), &s.config_rows()));
        config.set(text);
        open.set(true);
    };
    let go = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let link = shell.with_value(|s| LinkState { position: None, ..s.link(false) });
        let vs: String = config.get_untracked().replace('=', ":");
        let target = format!("{}?{}&vs={}", crate::ui::url::root(), link.to_query(), js_encode(&vs));
        if let Some(window) = web_sys::window() {
            let _ = window.location().set_href(&target);
        }
    };
    view! {
        <Show when=move || !open.get() fallback=move || view! {
            <form class="record-form" on:submit=go>
                <input type="text" data-testid="compare-config" aria-label=t(key::RECORD_COMPARE_CONFIG)
                    prop:value=move || config.get() on:input=move |ev| config.set(event_target_value(&ev))/>
                <button type="submit" data-testid="compare-open">{t(key::RECORD_COMPARE_OPEN)}</button>
                <button type="button" on:click=move |_| open.set(false)>{t(key::RECORD_CANCEL)}</button>
            </form>
        }>
            <button class="link-button" data-testid="compare-with" on:click=start>{t(key::RECORD_COMPARE)}</button>
        </Show>
    }
}

fn js_encode(text: &str) -> String {
    String::from(js_sys::encode_uri_component(text))
}
