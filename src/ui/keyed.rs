//! One keyed list for the scenes' rows that a number names (broker cards, message slots, links,
//! partitions, producers, timer tasks…).
//!
//! Leptos' `<For>` is compiled once per place it is used: its diffing and its rows' build and
//! rebuild code are generic over the items, the key and the row's view. Those lists go through
//! [`keyed_rows`], whose one `<For>` has fixed types (`u64` keys, erased rows), so a bundle
//! carries that code once: 1.3-5.6 KB gzip less on the pages with several lists (scripts/size:
//! replication page 228.1 -> 224.7 KB of wasm, timer page 214.6 -> 210.8). Three lists keep their
//! own `<For>`: the log's segments and gaps and the partitioner's load rows (keyed by more than a
//! number; a load row by what it shows, so a changed row is rebuilt), and the groups scene's lane
//! labels (its bundles' only list, where this one measured 0.2 KB larger).

use std::sync::Arc;

use leptos::prelude::*;

/// The keys of a list's rows, read reactively (in order).
type RowKeys = Arc<dyn Fn() -> Vec<u64> + Send + Sync>;
/// A row's view, built once for its key; it stays (and keeps focus) while the key does.
type RowView = Arc<dyn Fn(u64) -> AnyView + Send + Sync>;

/// Rows keyed by a number: a row is built when its key appears, moved when the order changes
/// and dropped when its key goes; a row that stays is not rebuilt. `keys` is read reactively;
/// `row` builds the view of one key.
pub fn keyed_rows(
    keys: impl Fn() -> Vec<u64> + Send + Sync + 'static,
    row: impl Fn(u64) -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    erased(Arc::new(keys), Arc::new(row))
}

/// The one `<For>`: its types do not depend on the caller's closures.
fn erased(keys: RowKeys, row: RowView) -> impl IntoView {
    view! { <For each=move || keys() key=|k: &u64| *k children=move |k| row(k)/> }
}
