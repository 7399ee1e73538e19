//! The lab notebook page (`?scene=notebook`): seed 000's experiments as one table that "Run all"
//! fills with the figures the model measures here in the page, the runs the learner recorded
//! from scenes' result cards, and the ways to keep it: the browser, a link, Markdown, CSV, JSON.

pub(crate) mod compare;
mod exports;
pub(crate) mod record;
pub(crate) mod store;

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

use super::app::{Header, HelpDialog};
use crate::i18n::{key, t, tf};
use crate::model::notebook::{runs, EXPERIMENTS};
use crate::notebook::{Notebook, Row};

/// The page's state: the notebook shown, why something was refused, Run all's progress.
#[derive(Clone, Copy)]
pub(crate) struct Page {
    pub notebook: RwSignal<Notebook>,
    pub error: RwSignal<Option<String>>,
    /// (runs done, runs in all) while Run all works.
    pub progress: RwSignal<Option<(usize, usize)>>,
    /// The real ms the last Run all took.
    pub took_ms: RwSignal<Option<u64>>,
}

impl Page {
    /// Shows and keeps `notebook`.
    pub fn set(&self, notebook: Notebook) {
        store::save(&notebook);
        self.notebook.set(notebook);
    }
}

/// The page's notebook: a shared link's (`nb=`), else the one kept in this browser.
fn opening() -> (Notebook, Option<String>) {
    let query = super::url::current_query();
    let shared = query.trim_start_matches('?').split('&').find_map(|p| p.strip_prefix("nb="));
    let kept = || store::load().map_err(|e| store::explain(&e));
    match shared.map(Notebook::from_text) {
        Some(Ok(notebook)) => (notebook, None),
        Some(Err(why)) => (kept().unwrap_or_default(), Some(store::explain(&why))),
        None => match kept() {
            Ok(notebook) => (notebook, None),
            Err(why) => (Notebook::default(), Some(why)),
        },
    }
}

#[component]
pub fn NotebookPage() -> impl IntoView {
    let query = super::url::current_query();
    let link_theme = crate::link::LinkState::parse(&query, &crate::scenes::ids()).ok().and_then(|l| l.theme);
    let theme = RwSignal::new(super::theme::chosen(link_theme));
    super::theme::apply(theme.get_untracked());
    let help_open = RwSignal::new(false);
    let (notebook, error) = opening();
    let page = Page {
        notebook: RwSignal::new(notebook),
        error: RwSignal::new(error),
        progress: RwSignal::new(None),
        took_ms: RwSignal::new(None),
    };
    view! {
        <div class="app notebook">
            <Header current="notebook".to_string() help_open=help_open theme=theme/>
            <Show when=move || page.error.get().is_some()>
                <div class="banner" role="alert" data-testid="error-banner">
                    <span>{move || page.error.get().unwrap_or_default()}</span>
                    <button on:click=move |_| page.error.set(None)>{t(key::SHELL_DISMISS)}</button>
                </div>
            </Show>
            <main class="scene notebook-page" id="scene">
                <h2>{t(key::NOTEBOOK_HEADING)}</h2>
                <p class="prose">{t(key::NOTEBOOK_INTRO)}</p>
                <div class="notebook-tools">
                    <RunAll page=page/>
                </div>
                <Table page=page/>
                <exports::Exports page=page/>
            </main>
            <HelpDialog open=help_open/>
        </div>
    }
}

/// "Run all": each experiment's preset, one after another, yielding to the page in between so
/// the cells fill as the runs finish.
#[component]
fn RunAll(page: Page) -> impl IntoView {
    let total = runs().count();
    let start = move |_| {
        if page.progress.get_untracked().is_some() {
            return;
        }
        page.progress.set(Some((0, total)));
        let started_ms = now_ms();
        run_from(page, 0, Rc::new(RefCell::new(Vec::new())), started_ms);
    };
    let status = move || match (page.progress.get(), page.took_ms.get()) {
        (Some((done, total)), _) => {
            tf(key::NOTEBOOK_RUNNING, &[("done", &done.to_string()), ("total", &total.to_string())])
        }
        (None, Some(ms)) => tf(key::NOTEBOOK_RAN, &[("count", &total.to_string()), ("ms", &ms.to_string())]),
        (None, None) => String::new(),
    };
    view! {
        <button class="primary" data-testid="run-all" on:click=start
            disabled=move || page.progress.get().is_some()>{t(key::NOTEBOOK_RUN_ALL)}</button>
        <span class="run-status" role="status" data-testid="run-status"
            data-ms=move || page.took_ms.get().map(|ms| ms.to_string())>{status}</span>
    }
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Measures run `index` (in table order), puts its rows in, and schedules the next one.
fn run_from(page: Page, index: usize, done: Rc<RefCell<Vec<Row>>>, started_ms: f64) {
    let Some((experiment, spec)) = runs().nth(index) else {
        let rows = done.borrow().clone();
        page.set(page.notebook.get_untracked().with_run_all(rows));
        page.took_ms.set(Some((now_ms() - started_ms).round() as u64));
        page.progress.set(None);
        return;
    };
    match crate::model::notebook::measure(spec) {
        Ok(measured) => done.borrow_mut().extend(store::rows_of(experiment, &measured)),
        Err(why) => page.error.set(Some(crate::i18n::render(&crate::model::kernel::Describe::message(&why)))),
    }
    let shown = page.notebook.get_untracked().with_run_all(done.borrow().clone());
    page.notebook.set(shown);
    page.progress.set(Some((index + 1, runs().count())));
    gloo_timers::callback::Timeout::new(0, move || run_from(page, index + 1, done, started_ms)).forget();
}

/// The table's rows: every experiment figure (measured or waiting for Run all), then the
/// learner's recorded runs.
fn table_rows(notebook: &Notebook) -> Vec<(usize, Row)> {
    let mut out = Vec::new();
    for experiment in EXPERIMENTS {
        for spec in experiment.runs {
            for pick in spec.figures {
                let id = store::figure_id(spec.preset, pick);
                let row = notebook.rows.iter().position(|r| r.figure_id == id);
                let shown = row.map(|i| notebook.rows[i].clone()).unwrap_or_else(|| Row {
                    experiment: t(experiment.title).to_string(),
                    figure_id: id,
                    scene: spec.scene.to_string(),
                    preset: spec.preset.to_string(),
                    label: t(pick.label).to_string(),
                    link: format!("scene={}&preset={}", spec.scene, spec.preset),
                    ..Row::default()
                });
                out.push((row.unwrap_or(usize::MAX), shown));
            }
        }
    }
    let recorded = notebook.rows.iter().enumerate().filter(|(_, r)| r.figure_id.is_empty());
    out.extend(recorded.map(|(i, r)| (i, r.clone())));
    out
}

#[component]
fn Table(page: Page) -> impl IntoView {
    let rows = Memo::new(move |_| page.notebook.with(table_rows));
    let root = super::url::root();
    view! {
        <div class="table-scroll" tabindex="0" role="region" aria-label=t(key::NOTEBOOK_CAPTION)>
        <table class="notebook-table" data-testid="notebook-table">
            <caption>{t(key::NOTEBOOK_CAPTION)}</caption>
            <thead><tr>
                <th scope="col">{t(key::NOTEBOOK_COL_EXPERIMENT)}</th>
                <th scope="col">{t(key::NOTEBOOK_COL_RUN)}</th>
                <th scope="col">{t(key::NOTEBOOK_COL_FIGURE)}</th>
                <th scope="col">{t(key::NOTEBOOK_COL_VALUE)}</th>
                <th scope="col">{t(key::NOTEBOOK_COL_SEED)}</th>
                <th scope="col">{t(key::NOTEBOOK_COL_NOTE)}</th>
                <th scope="col">{t(key::NOTEBOOK_COL_LINK)}</th>
            </tr></thead>
            <tbody>
                {move || {
                    let all = rows.get();
                    let firsts: Vec<(bool, bool)> =
                        (0..all.len()).map(|n| (first_of_experiment(&all, n), first_of_run(&all, n))).collect();
                    all.into_iter().zip(firsts).map(|((stored, row), (first, run_first))| {
                        let root = root.clone();
                        view! { <TableRow page=page stored=stored row=row first=first run_first=run_first root=root/> }
                    }).collect_view()
                }}
            </tbody>
        </table>
        </div>
    }
}

/// Whether row `n` starts its experiment (its title shows once).
fn first_of_experiment(rows: &[(usize, Row)], n: usize) -> bool {
    n == 0 || rows[n - 1].1.experiment != rows[n].1.experiment || rows[n].1.experiment.is_empty()
}

/// Whether row `n` starts its run (its scene and preset show once; a recorded run always).
fn first_of_run(rows: &[(usize, Row)], n: usize) -> bool {
    n == 0 || rows[n].1.figure_id.is_empty() || rows[n - 1].1.preset != rows[n].1.preset
}

#[component]
fn TableRow(page: Page, stored: usize, row: Row, first: bool, run_first: bool, root: String) -> impl IntoView {
    let measured = stored != usize::MAX;
    let run = if row.preset.is_empty() { row.config.clone() } else { row.preset.clone() };
    let href = format!("{root}?{}", row.link);
    let note = row.note.clone();
    let set_note = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let mut notebook = page.notebook.get_untracked();
        if let Some(r) = notebook.rows.get_mut(stored) {
            r.note = text;
            page.set(notebook);
        }
    };
    let recorded = row.figure_id.is_empty() && measured;
    let remove = move |_| {
        let mut notebook = page.notebook.get_untracked();
        if stored < notebook.rows.len() {
            notebook.rows.remove(stored);
            page.set(notebook);
        }
    };
    let experiment = if row.experiment.is_empty() { t(key::NOTEBOOK_RECORDED).to_string() } else { row.experiment };
    view! {
        <tr data-figure=row.figure_id.clone() data-testid="notebook-row" class:measured=measured>
            <th scope="row" class="experiment">{first.then_some(experiment)}</th>
            <td class="run">{run_first.then(|| view! {
                <span class="scene-id">{row.scene.clone()}</span>" "<code translate="no">{run}</code>
            })}</td>
            <td class="label">{row.label.clone()}</td>
            <td class="value" data-testid="notebook-value">
                {if measured { row.figure.clone() } else { t(key::NOTEBOOK_NOT_RUN).to_string() }}
            </td>
            <td class="seed">{measured.then(|| row.seed.to_string())}</td>
            <td class="note">
                {measured.then(|| view! {
                    <input type="text" value=note aria-label=t(key::NOTEBOOK_COL_NOTE) on:change=set_note/>
                })}
            </td>
            <td class="open">
                <a href=href data-testid="notebook-open">{t(key::NOTEBOOK_OPEN)}</a>
                {recorded.then(|| view! {
                    " "<button class="remove" data-testid="notebook-remove" on:click=remove>{t(key::NOTEBOOK_REMOVE)}</button>
                })}
            </td>
        </tr>
    }
}
