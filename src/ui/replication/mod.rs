//! Scene "Replication": one partition's leader and followers, the fetch protocol with
//! LEO and high watermark, the ISR, acks × min.insync.replicas, elections and leader epochs.

mod brokers;
mod ledger;
mod links;
mod logs;
mod panels;
mod wire;

use leptos::prelude::*;

use super::session::Session;
use super::widgets::SceneViews;
use crate::i18n::{key, t};
use crate::model::kernel::Describe;
use crate::model::replication::{node_actor, Node, Replication};

/// The stage: messages on the wire between the nodes, and each replica's log with HW and LEO;
/// below, the ledger, the partition's state, configuration and network links.
pub fn views(session: Session<Replication>) -> SceneViews {
    SceneViews {
        intro: key::REPLICATION_INTRO,
        stage: view! {
            <div class="replication">
                <section aria-labelledby="rep-cluster-title">
                    <h2 id="rep-cluster-title">{t(key::REPLICATION_CLUSTER)}</h2>
                    <p class="legend">{t(key::REPLICATION_CLUSTER_LEGEND)}</p>
                    <div class="rep-scroll">
                        <wire::Wire session=session/>
                        <brokers::NodeCards session=session/>
                    </div>
                    <wire::WireList session=session/>
                </section>
                <logs::LogGrid session=session/>
            </div>
        }
        .into_any(),
        panels: view! {
            <div class="replication">
                <div class="rep-panels">
                    <ledger::LedgerPanel session=session/>
                    <panels::PartitionPanel session=session/>
                </div>
                <div class="rep-panels">
                    <panels::ConfigPanel session=session/>
                    <links::LinksPanel session=session/>
                </div>
            </div>
        }
        .into_any(),
    }
}

/// `broker-2`, `controller`, `producer`: a node as the event log names it.
fn node_name(node: Node) -> String {
    crate::i18n::render(&node_actor(node).message())
}

/// `broker-2`, the way Kafka's tools and the model's log name a broker.
fn broker_name(id: u32) -> String {
    node_name(Node::Id(id))
}
