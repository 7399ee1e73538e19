//! Scene "Exactly once": the idempotent producer and transactions (KIP-98). The stage: the
//! output partition's log with its control markers, LSO and HW; the producer incarnations
//! with their id, epoch and next sequence; the coordinator's transactions; a read_uncommitted
//! and a read_committed consumer side by side; for consume–transform–produce, the processor
//! and the database it writes to. The views draw only the model's `TxnView`.

mod actions;
mod consumers;
mod coordinator;
mod pipeline;
mod producers;
mod strip;

use std::sync::Arc;

use leptos::prelude::*;

use super::session::Session;
use super::widgets::{Layout, SceneViews};
use crate::i18n::{key, t};
use crate::model::transactions::{TxnLab, TxnView};

/// Producer incarnations cycle through this many colours (`p-0` … `p-5`).
const PRODUCER_COLOURS: usize = 6;

/// The css class of the producer incarnation at `index` (its colour in cells and cards).
pub fn producer_class(index: usize) -> String {
    format!("p-{}", index % PRODUCER_COLOURS)
}

/// Which step of which run the data shows: seed, position, tape length, virtual ms.
type Stamp = (u64, usize, usize, u64);

/// The scene's view at the current step, computed once per change for every part of the stage.
#[derive(Clone, Debug)]
pub struct TxnData {
    stamp: Stamp,
    pub view: Arc<TxnView>,
    pub now_ms: u64,
}

impl PartialEq for TxnData {
    fn eq(&self, other: &Self) -> bool {
        self.stamp == other.stamp && (Arc::ptr_eq(&self.view, &other.view) || self.view == other.view)
    }
}

fn data(session: Session<TxnLab>) -> Memo<TxnData> {
    Memo::new(move |_| {
        session.with(|run| {
            let now_ms = run.sim().now_ms();
            let stamp = (run.seed, run.history.position(), run.history.tape().len(), now_ms);
            TxnData { stamp, view: Arc::new(run.world().view()), now_ms }
        })
    })
}

/// The stage: the log across the top; under it the producers, the coordinator and the two
/// consumers; the processor and its database when the preset has them.
pub fn views<L: Layout>(session: Session<TxnLab>) -> SceneViews {
    let data = data(session);
    // The Faults fold's open state, kept across steps and incarnations (the app's card changes).
    let faults_open = RwSignal::new(false);
    SceneViews {
        intro: key::TRANSACTIONS_INTRO,
        stage: view! {
            <div class="transactions">
                <strip::LogStrip data=data/>
                <div class="tx-row">
                    <producers::Producers data=data session=session faults_open=faults_open/>
                    <coordinator::Coordinator data=data/>
                </div>
                <consumers::Consumers data=data/>
                <pipeline::Pipeline data=data session=session faults_open=faults_open/>
            </div>
        }
        .into_any(),
        panels: L::full(move || {
            view! {
                <div class="transactions">
                    // Only prose: presenter mode folds the heading with its legends.
                    <section class="tx-legend prose" aria-labelledby="tx-legend-title">
                        <h2 id="tx-legend-title">{t(key::TRANSACTIONS_LEGEND_TITLE)}</h2>
                        <p class="legend">{t(key::TRANSACTIONS_LEGEND_LOG)}</p>
                        <p class="legend">{t(key::TRANSACTIONS_LEGEND_PRODUCERS)}</p>
                        <p class="legend">{t(key::TRANSACTIONS_LEGEND_CONSUMERS)}</p>
                    </section>
                </div>
            }
            .into_any()
        }),
    }
}
