//! The lab notebook as a document: its rows, how they are kept in the browser and shared in
//! a link (a compact text), and exported (Markdown, CSV, and JSON with a versioned schema that
//! imports back). Pure text handling, tested natively; the page is `ui/notebook`.

use serde::{Deserialize, Serialize};

/// The JSON schema's name and version. A file of a newer version is refused, not guessed at.
pub const FORMAT: &str = "kafka-lab-notebook";
pub const VERSION: u32 = 1;
/// The most rows a notebook keeps (a link or a file with more is refused).
pub const MAX_ROWS: usize = 200;
/// The longest text of one field (a note, a link).
pub const MAX_FIELD_BYTES: usize = 4096;

/// One row of the deliverable table: a figure a run measured.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The experiment's title as shown (empty for a run recorded from a scene).
    pub experiment: String,
    /// `preset/arg/nth` for a Run-all figure (what Run all replaces); empty for a recorded run.
    pub figure_id: String,
    pub scene: String,
    /// The preset the run started from (empty if none).
    pub preset: String,
    /// Config overrides, `name=value` pairs separated by commas.
    pub config: String,
    pub seed: u64,
    /// What the figure is.
    pub label: String,
    /// The figure, as the result card wrote it.
    pub figure: String,
    /// The scene link (a query without `?`) that opens the run at the figure's moment.
    pub link: String,
    /// The learner's note.
    pub note: String,
}

/// A notebook: its rows in table order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notebook {
    pub rows: Vec<Row>,
}

/// The JSON file: schema name, version, rows.
#[derive(Serialize, Deserialize)]
struct File {
    format: String,
    version: u32,
    rows: Vec<Row>,
}

/// Why a notebook file, link or stored text was refused (nothing changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotebookError {
    /// Not JSON, or not a notebook's shape; `detail` is the parser's words.
    Malformed {
        detail: String,
    },
    /// Another program's JSON.
    NotANotebook,
    /// Written by a newer Kafka Lab.
    NewerVersion {
        found: u64,
        supported: u32,
    },
    TooManyRows {
        count: usize,
        max: usize,
    },
    FieldTooLong {
        row: usize,
        max: usize,
    },
    /// A row's link does not open (`why`: the link's own error, in English).
    BadLink {
        row: usize,
        why: String,
    },
    /// The shared or stored text exceeds a link's length.
    TooLong {
        max_bytes: usize,
    },
}

impl Notebook {
    /// Puts Run all's rows in place: the rows of earlier Run-all figures go, the learner's stay
    /// after them.
    pub fn with_run_all(&self, measured: Vec<Row>) -> Notebook {
        let mut rows = measured;
        rows.extend(self.rows.iter().filter(|r| r.figure_id.is_empty()).cloned());
        Notebook { rows }
    }

    /// The rows Run all measured (in table order), then the learner's.
    pub fn recorded(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.figure_id.is_empty())
    }

    pub fn to_json(&self) -> String {
        let file = File { format: FORMAT.to_string(), version: VERSION, rows: self.rows.clone() };
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// Reads an exported file: the schema's name and version first, then every row checked.
    pub fn from_json(text: &str) -> Result<Notebook, NotebookError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| NotebookError::Malformed { detail: e.to_string() })?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(NotebookError::NotANotebook);
        }
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(found) if found > u64::from(VERSION) => {
                return Err(NotebookError::NewerVersion { found, supported: VERSION })
            }
            Some(_) => {}
            None => return Err(NotebookError::Malformed { detail: "\"version\" is not a whole number".into() }),
        }
        let file: File =
            serde_json::from_value(value).map_err(|e| NotebookError::Malformed { detail: e.to_string() })?;
        Notebook::checked(file.rows)
    }

    /// The notebook if every row is within the limits and its link opens.
    fn checked(rows: Vec<Row>) -> Result<Notebook, NotebookError> {
        if rows.len() > MAX_ROWS {
            return Err(NotebookError::TooManyRows { count: rows.len(), max: MAX_ROWS });
        }
        let scenes = known_scenes();
        for (index, row) in rows.iter().enumerate() {
            if fields(row).iter().any(|f| f.len() > MAX_FIELD_BYTES) {
                return Err(NotebookError::FieldTooLong { row: index + 1, max: MAX_FIELD_BYTES });
            }
            crate::link::LinkState::parse(&row.link, &scenes)
                .map_err(|why| NotebookError::BadLink { row: index + 1, why: why.to_string() })?;
        }
        Ok(Notebook { rows })
    }

    /// The compact text kept in the browser and put in a shared link: `1~row~row…`, each row's
    /// fields percent-encoded and separated by `!` (only URL-safe characters).
    pub fn to_text(&self) -> String {
        let mut out = VERSION.to_string();
        for row in &self.rows {
            out.push('~');
            let seed = row.seed.to_string();
            let mut parts = fields(row);
            parts.insert(5, &seed);
            out.push_str(&parts.iter().map(|f| encode(f)).collect::<Vec<_>>().join("!"));
        }
        out
    }

    /// Reads [`Notebook::to_text`]'s text back, refusing it whole if any part is wrong.
    pub fn from_text(text: &str) -> Result<Notebook, NotebookError> {
        let max_bytes = crate::link::MAX_QUERY_BYTES;
        if text.len() > max_bytes {
            return Err(NotebookError::TooLong { max_bytes });
        }
        let mut parts = text.split('~');
        let version = parts.next().unwrap_or("");
        match version.parse::<u64>() {
            Ok(found) if found > u64::from(VERSION) => {
                return Err(NotebookError::NewerVersion { found, supported: VERSION })
            }
            Ok(found) if found == u64::from(VERSION) => {}
            _ => return Err(NotebookError::NotANotebook),
        }
        let rows = parts.enumerate().map(|(i, row)| row_from_text(i + 1, row)).collect::<Result<Vec<_>, _>>()?;
        Notebook::checked(rows)
    }
}

/// A row's text fields in file order (the seed goes after `config`).
fn fields(row: &Row) -> Vec<&str> {
    vec![
        &row.experiment,
        &row.figure_id,
        &row.scene,
        &row.preset,
        &row.config,
        &row.label,
        &row.figure,
        &row.link,
        &row.note,
    ]
}

fn row_from_text(index: usize, text: &str) -> Result<Row, NotebookError> {
    let bad = |detail: &str| NotebookError::Malformed { detail: format!("row {index}: {detail}") };
    let parts: Vec<String> = text
        .split('!')
        .map(|f| crate::link::percent_decode(f).ok_or_else(|| bad("not percent-encoded text")))
        .collect::<Result<_, _>>()?;
    let [experiment, figure_id, scene, preset, config, seed, label, figure, link, note]: [String; 10] =
        parts.try_into().map_err(|_| bad("not 10 fields"))?;
    let seed = seed.parse().map_err(|_| bad("the seed is not a whole number"))?;
    Ok(Row { experiment, figure_id, scene, preset, config, seed, label, figure, link, note })
}

/// Percent-encodes all but letters, digits and `-_.:,` (so `~` and `!` stay separators).
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.:,".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn known_scenes() -> Vec<&'static str> {
    crate::scenes::ids()
}

/// The table's column headings, in the page's language.
pub struct Headings<'a> {
    pub experiment: &'a str,
    pub run: &'a str,
    pub figure: &'a str,
    pub value: &'a str,
    pub seed: &'a str,
    pub note: &'a str,
    pub link: &'a str,
}

impl Headings<'_> {
    fn all(&self) -> [&str; 7] {
        [self.experiment, self.run, self.figure, self.value, self.seed, self.note, self.link]
    }
}

/// A row's cells as the table shows them; `root` makes its link absolute.
fn cells(row: &Row, root: &str) -> [String; 7] {
    let run = match (row.preset.is_empty(), row.config.is_empty()) {
        (false, _) => format!("{} · {}", row.scene, row.preset),
        (true, false) => format!("{} · {}", row.scene, row.config),
        (true, true) => row.scene.clone(),
    };
    [
        row.experiment.clone(),
        run,
        row.label.clone(),
        row.figure.clone(),
        row.seed.to_string(),
        row.note.clone(),
        format!("{root}?{}", row.link),
    ]
}

/// The table in Markdown, ready to paste into a report.
pub fn to_markdown(notebook: &Notebook, headings: &Headings, root: &str) -> String {
    let escape = |text: &str| text.replace('\\', "\\\\").replace('|', "\\|").replace(['\n', '\r'], " ");
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    let heads: Vec<String> = headings.all().iter().map(|h| escape(h)).collect();
    let mut out = line(&heads);
    out.push_str(&line(&vec!["---".to_string(); heads.len()]));
    for row in &notebook.rows {
        let mut cells: Vec<String> = cells(row, root).iter().map(|c| escape(c)).collect();
        let url = cells.pop().unwrap_or_default();
        cells.push(format!("[{}](<{url}>)", escape(headings.link)));
        out.push_str(&line(&cells));
    }
    out
}

/// The table as CSV (RFC 4180: every field quoted, quotes doubled, CRLF line ends).
pub fn to_csv(notebook: &Notebook, headings: &Headings, root: &str) -> String {
    let quote = |text: &str| format!("\"{}\"", text.replace('"', "\"\""));
    let line = |cells: &[String]| cells.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",") + "\r\n";
    let heads: Vec<String> = headings.all().iter().map(|h| h.to_string()).collect();
    let mut out = line(&heads);
    for row in &notebook.rows {
        out.push_str(&line(&cells(row, root)));
    }
    out
}
