//! Scene "Topic overview": brokers, partitions with leaders and ISRs, offsets growing.

mod partitions;
mod picture;

use leptos::prelude::*;

use super::session::Session;
use super::widgets::{Layout, SceneViews};
use crate::i18n::key;
use crate::model::cluster::Cluster;

/// The stage: the picture (producer, brokers and their replicas), with the partition table
/// beside it on a wide screen (below it on a narrow one); the describe output in the panels.
pub fn views<L: Layout>(session: Session<Cluster>) -> SceneViews {
    SceneViews {
        intro: key::OVERVIEW_INTRO,
        stage: view! {
            <div class="overview ov-stage">
                <picture::Picture session=session/>
                <partitions::PartitionTable session=session/>
            </div>
        }
        .into_any(),
        panels: L::full(move || {
            view! { <div class="overview"><partitions::Describe session=session/></div> }.into_any()
        }),
    }
}
