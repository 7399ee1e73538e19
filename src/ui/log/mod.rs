//! Scene "Log & index": the partition directory, the sparse index, lookups phase by phase,
//! `kafka-dump-log`, configs, retention and compaction. Reads `LogLab` views, sends its commands.

mod controls;
mod dump;
mod format;
mod lookup;
mod status;
mod strip;

use leptos::prelude::*;

use super::session::Session;
use super::widgets::{Layout, SceneViews};
use crate::i18n::{key, t};
use crate::model::log::{LogLab, LookupResult};

/// Which segment the detail panels show: the one clicked, else the last lookup's, else the active one.
#[derive(Clone, Copy)]
pub struct Focus {
    pub chosen: RwSignal<Option<i64>>,
    pub base: Memo<i64>,
}

impl Focus {
    fn new(session: Session<LogLab>) -> Self {
        let chosen = RwSignal::new(None::<i64>);
        let base = Memo::new(move |_| {
            let pick = chosen.get();
            session.with(|run| {
                let files = run.world().log().segment_files();
                if let Some(base) = pick.filter(|b| files.iter().any(|f| f.base_offset == *b)) {
                    return base;
                }
                lookup_segment(run.world().last_lookup())
                    .filter(|b| files.iter().any(|f| f.base_offset == *b))
                    .unwrap_or_else(|| run.world().log().active_segment().base_offset())
            })
        });
        Self { chosen, base }
    }
}

/// The segment a lookup ended in, if it found one.
pub fn lookup_segment(lookup: Option<&LookupResult>) -> Option<i64> {
    match lookup? {
        LookupResult::Offset(Ok(found)) => Some(found.segment_base_offset),
        LookupResult::Offset(Err(_)) => None,
        LookupResult::Timestamp(time) => time.segment_base_offset,
    }
}

/// The stage: the partition directory and the lookup walk, side by side on a wide screen;
/// below, the keys to the drawing, the lookup's comparison, the dump, configs and actions.
pub fn views<L: Layout>(session: Session<LogLab>) -> SceneViews {
    let focus = Focus::new(session);
    SceneViews {
        intro: key::LOG_INTRO,
        stage: view! {
            <div class="log-lab log-stage">
                <strip::Directory session=session focus=focus/>
                <lookup::LookupPanel session=session/>
            </div>
        }
        .into_any(),
        panels: L::full(move || {
            view! {
                <div class="log-lab">
                    <div class="log-key">
                        <p class="legend">{t(key::LOG_LEGEND)}</p>
                        <p class="legend">{t(key::LOG_AXIS_LEGEND)}</p>
                        <p class="legend">{t(key::LOG_LOOKUP_HINT)}</p>
                    </div>
                    <lookup::ComparePanel session=session/>
                    <dump::SegmentDetail session=session focus=focus/>
                    <div class="log-columns">
                        <controls::ConfigPanel session=session/>
                        <div>
                            <status::StatusPanel session=session/>
                            <controls::ActionPanel session=session/>
                        </div>
                    </div>
                </div>
            }
            .into_any()
        }),
    }
}
