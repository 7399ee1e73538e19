//! Where the notebook lives in the browser (localStorage, shared by every page of the site),
//! and how a measured run becomes rows of the table.

use crate::i18n::{key, render_arg, t};
use crate::model::notebook::{Experiment, Measured};
use crate::notebook::{Notebook, NotebookError, Row};

const STORAGE_KEY: &str = "kafka-lab.notebook";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The notebook kept in this browser (empty if none); `Err` if what is kept cannot be read.
pub fn load() -> Result<Notebook, NotebookError> {
    match storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten()) {
        Some(text) => Notebook::from_text(&text),
        None => Ok(Notebook::default()),
    }
}

/// Keeps `notebook` in this browser (an empty one removes the entry).
pub fn save(notebook: &Notebook) {
    let Some(storage) = storage() else { return };
    let _ = if notebook.rows.is_empty() {
        storage.remove_item(STORAGE_KEY)
    } else {
        storage.set_item(STORAGE_KEY, &notebook.to_text())
    };
}

/// A Run-all figure's stable id: `preset/arg/nth`.
pub fn figure_id(preset: &str, pick: &crate::model::notebook::Pick) -> String {
    format!("{preset}/{}/{}", pick.arg, pick.nth)
}

/// The rows one measured run gives: one a figure, in the page's language.
pub fn rows_of(experiment: &Experiment, measured: &Measured) -> Vec<Row> {
    let config = crate::model::scene::parse_overrides(measured.config)
        .map(|pairs| pairs.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(","))
        .unwrap_or_default();
    measured
        .figures
        .iter()
        .map(|(pick, arg)| Row {
            experiment: t(experiment.title).to_string(),
            figure_id: figure_id(measured.preset, pick),
            scene: measured.scene.to_string(),
            preset: measured.preset.to_string(),
            config: config.clone(),
            seed: measured.seed,
            label: t(pick.label).to_string(),
            figure: arg.as_ref().map_or_else(|| t(key::RECORD_NEVER).to_string(), render_arg),
            link: measured.link().to_query(),
            note: String::new(),
        })
        .collect()
}

/// Why a notebook was refused, in the page's language.
pub fn explain(error: &NotebookError) -> String {
    use crate::i18n::tf;
    match error {
        NotebookError::Malformed { detail } => tf(key::RECORD_ERROR_MALFORMED, &[("detail", detail)]),
        NotebookError::NotANotebook => t(key::RECORD_ERROR_NOT_NOTEBOOK).to_string(),
        NotebookError::NewerVersion { found, supported } => {
            tf(key::RECORD_ERROR_NEWER, &[("found", &found.to_string()), ("supported", &supported.to_string())])
        }
        NotebookError::TooManyRows { count, max } => {
            tf(key::RECORD_ERROR_ROWS, &[("count", &count.to_string()), ("max", &max.to_string())])
        }
        NotebookError::FieldTooLong { row, max } => {
            tf(key::RECORD_ERROR_FIELD, &[("row", &row.to_string()), ("max", &max.to_string())])
        }
        NotebookError::BadLink { row, why } => tf(key::RECORD_ERROR_LINK, &[("row", &row.to_string()), ("why", why)]),
        NotebookError::TooLong { max_bytes } => tf(key::RECORD_ERROR_LONG, &[("max", &max_bytes.to_string())]),
    }
}
