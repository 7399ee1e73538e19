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
use super::widgets::{Layout, SceneViews};
use crate::i18n::{key, t};
use crate::model::kernel::Describe;
use crate::model::replication::{node_actor, Node, Replication};
use wire::{Lane, WireLane, WireList, WireState};

/// The stage: the node cards between the wire's two lanes of messages, the details of the
/// messages, and each replica's log with HW and LEO. Below: the keys to the drawing, the
/// ledger, the partition's state, configuration and network links.
pub fn views<L: Layout>(session: Session<Replication>) -> SceneViews {
    let wire = WireState::new(session);
    let brokers = move || session.with(|run| run.world().brokers().len());
    // The columns' proportions and the lanes' width in SVG units, for the cards' grid.
    let columns =
        move || format!("--brokers: {}; --units: {}", brokers(), crate::markup::fixed(wire::total_width(brokers()), 0));
    SceneViews {
        intro: key::REPLICATION_INTRO,
        stage: view! {
            <div class="replication">
                <section class="rep-cluster" aria-labelledby="rep-cluster-title">
                    <h2 id="rep-cluster-title">{t(key::REPLICATION_CLUSTER)}</h2>
                    <div class="rep-scroll" tabindex="0" role="region" aria-label=t(key::REPLICATION_WIRE_LABEL)>
                        <div class="rep-columns" data-style=columns>
                            <WireLane session=session state=wire lane=Lane::Above/>
                            <brokers::NodeCards session=session/>
                            <WireLane session=session state=wire lane=Lane::Below/>
                        </div>
                    </div>
                    <div class="rep-notes">
                        <WireList state=wire/>
                        <brokers::NodeNotes session=session/>
                    </div>
                </section>
                <logs::LogGrid session=session/>
            </div>
        }
        .into_any(),
        panels: L::full(move || {
            view! {
                <div class="replication">
                    <div class="rep-key">
                        <p class="legend">{t(key::REPLICATION_CLUSTER_LEGEND)}</p>
                        <p class="legend">{t(key::REPLICATION_LOGS_LEGEND)}</p>
                    </div>
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
            .into_any()
        }),
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
