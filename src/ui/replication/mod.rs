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
use super::widgets::SceneIntro;
use crate::i18n::{key, t};
use crate::model::kernel::Describe;
use crate::model::replication::{node_actor, Node, Replication};

#[component]
pub fn ReplicationScene(session: Session<Replication>) -> impl IntoView {
    view! {
        <div class="replication">
            <SceneIntro session=session text=key::REPLICATION_INTRO/>
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
}

/// `broker-2`, `controller`, `producer`: a node as the event log names it.
fn node_name(node: Node) -> String {
    crate::i18n::render(&node_actor(node).message())
}

/// `broker-2`, the way Kafka's tools and the model's log name a broker.
fn broker_name(id: u32) -> String {
    node_name(Node::Id(id))
}
