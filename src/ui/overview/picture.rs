//! The overview's picture: the producer above, the brokers side by side, each holding its
//! partitions' replicas as tiles (★ leader, ✓ in the ISR, ✗ out of it) with their log end
//! offsets. Tiles whose role changed since the last step are ringed; the leaders that appended
//! records at this step show how many, under an arrow from the producer.

use leptos::prelude::*;

use crate::i18n::{key, t, tf};
use crate::model::cluster::{Cluster, Command, PartitionView};
use crate::model::kernel::{Fault, Node};
use crate::ui::keyed::keyed_rows;
use crate::ui::session::Session;
use crate::ui::widgets::Figure;

/// A replica's role as the controller has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Leader,
    Follower,
    Out,
}

impl Role {
    /// Symbol, css class, catalog key.
    fn marks(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Role::Leader => ("★", "leader", key::OVERVIEW_ROLE_LEADER),
            Role::Follower => ("✓", "follower", key::OVERVIEW_ROLE_FOLLOWER),
            Role::Out => ("✗", "out", key::OVERVIEW_ROLE_OUT),
        }
    }
}

/// One replica tile.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tile {
    partition: u32,
    role: Role,
    /// The partition's log end offset.
    leo: i64,
    /// Whether the tile shows `leo`: the leader's, and an in-sync follower's on a live broker
    /// (the model's ISR is caught up); nothing for a replica out of the ISR or on a dead broker.
    shows_leo: bool,
    /// Its role differs from the previous step's.
    changed: bool,
    /// Records this leader appended since the previous step.
    arrived: i64,
}

/// A broker box: its state in words (catalog key, css class) and its replicas.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BrokerBox {
    id: u32,
    alive: bool,
    state: (&'static str, &'static str),
    tiles: Vec<Tile>,
}

impl BrokerBox {
    fn arrived(&self) -> i64 {
        self.tiles.iter().map(|t| t.arrived).sum()
    }

    fn leads(&self) -> usize {
        self.tiles.iter().filter(|t| t.role == Role::Leader).count()
    }
}

fn role_of(p: &PartitionView, broker: u32) -> Role {
    if p.leader == Some(broker) {
        Role::Leader
    } else if p.isr.contains(&broker) {
        Role::Follower
    } else {
        Role::Out
    }
}

/// Which step of which run a picture shows: seed, position, tape length, virtual ms.
type Stamp = (u64, usize, usize, u64);

/// The boxes at the current step, compared with `prev` (the previous step's) for what changed.
fn boxes(cluster: &Cluster, prev: Option<&Vec<BrokerBox>>) -> Vec<BrokerBox> {
    let parts = cluster.partition_views();
    cluster
        .broker_views()
        .into_iter()
        .map(|b| {
            let before = prev.and_then(|all| all.iter().find(|x| x.id == b.id));
            let tiles = parts
                .iter()
                .filter(|p| p.replicas.contains(&b.id))
                .map(|p| {
                    let role = role_of(p, b.id);
                    let old = before.and_then(|x| x.tiles.iter().find(|t| t.partition == p.partition));
                    let leo = p.log_end_offset_of(b.id);
                    let grew = old.map_or(0, |t| (leo - t.leo).max(0));
                    Tile {
                        partition: p.partition,
                        role,
                        leo,
                        shows_leo: role == Role::Leader || b.serving,
                        changed: old.is_some_and(|t| t.role != role),
                        arrived: if role == Role::Leader { grew } else { 0 },
                    }
                })
                .collect();
            let state = match (b.alive, b.fenced, b.serving) {
                (true, _, true) => (key::OVERVIEW_BROKER_RUNNING, "up"),
                (true, _, false) => (key::OVERVIEW_BROKER_STARTING, "up"),
                (false, false, _) => (key::OVERVIEW_BROKER_CRASHED, "crashed"),
                (false, true, _) => (key::OVERVIEW_BROKER_FENCED, "fenced"),
            };
            BrokerBox { id: b.id, alive: b.alive, state, tiles }
        })
        .collect()
}

/// The picture: producer, arrows, broker boxes (keyed, so a focused button keeps focus).
#[component]
pub fn Picture(session: Session<Cluster>) -> impl IntoView {
    // Compared with the previous step's boxes; the same step shown again keeps its marks.
    let shown = Memo::new(move |prev: Option<&(Stamp, Vec<BrokerBox>)>| {
        session.with(|run| {
            let at = (run.seed, run.history.position(), run.history.tape().len(), run.sim().now_ms());
            match prev {
                Some((was, same)) if *was == at => (at, same.clone()),
                _ => (at, boxes(run.world(), prev.map(|(_, b)| b))),
            }
        })
    });
    let all = Memo::new(move |_| shown.with(|(_, b)| b.clone()));
    let ids = Memo::new(move |_| all.with(|b| b.iter().map(|x| x.id).collect::<Vec<_>>()));
    view! {
        <section class="ov-picture" aria-labelledby="brokers-title">
            <h2 id="brokers-title" class="sr-only">{t(key::OVERVIEW_BROKERS)}</h2>
            <Producer session=session/>
            <ul class="ov-brokers" role="list" data-style=move || format!("--n: {}", ids.with(Vec::len).max(1))>
                {keyed_rows(
                    move || ids.with(|ids| ids.iter().map(|&id| u64::from(id)).collect()),
                    move |id| view! { <BrokerBoxView id=id as u32 all=all session=session/> }.into_any(),
                )}
            </ul>
            <p class="legend">{t(key::OVERVIEW_LEGEND)}</p>
        </section>
    }
}

#[component]
fn Producer(session: Session<Cluster>) -> impl IntoView {
    let stats = move || session.with(|run| run.world().producer_stats());
    view! {
        <div class="ov-producer">
            <h3 id="producer-title">{t(key::OVERVIEW_PRODUCER)}</h3>
            <dl class="ov-stats" data-testid="producer-stats" aria-labelledby="producer-title">
                <Figure label=key::OVERVIEW_PRODUCER_SENT value=Signal::derive(move || stats().sent.to_string())/>
                <Figure label=key::OVERVIEW_PRODUCER_ACKED value=Signal::derive(move || stats().acknowledged.to_string())/>
                <Figure label=key::OVERVIEW_PRODUCER_WAITING value=Signal::derive(move || stats().waiting.to_string())/>
                <Figure label=key::OVERVIEW_PRODUCER_EXPIRED value=Signal::derive(move || stats().expired.to_string())/>
            </dl>
            <button on:click=move |_| session.command(Command::Produce { records: 100 })>{t(key::OVERVIEW_PRODUCE)}</button>
        </div>
    }
}

#[component]
fn BrokerBoxView(id: u32, all: Memo<Vec<BrokerBox>>, session: Session<Cluster>) -> impl IntoView {
    let id_text = id.to_string();
    let me = Memo::new(move |_| all.with(|b| b.iter().find(|x| x.id == id).cloned()));
    let alive = move || me.with(|b| b.as_ref().is_some_and(|b| b.alive));
    let state = move || me.with(|b| b.as_ref().map_or((key::OVERVIEW_BROKER_CRASHED, "crashed"), |b| b.state));
    let leads = move || me.with(|b| b.as_ref().map_or(0, BrokerBox::leads)).to_string();
    let arrived = move || me.with(|b| b.as_ref().map_or(0, BrokerBox::arrived));
    let partitions = move || me.with(|b| b.as_ref().map(|b| b.tiles.iter().map(|t| t.partition).collect::<Vec<_>>()));
    let kill_label = tf(key::OVERVIEW_BROKER_KILL, &[("id", &id_text)]);
    let restart_label = tf(key::OVERVIEW_BROKER_RESTART, &[("id", &id_text)]);
    // One button whose action and label follow the broker's state, so focus stays on it.
    let act = move |_| {
        let fault = if alive() { Fault::Crash(Node::Id(id)) } else { Fault::Restart(Node::Id(id)) };
        session.command(Command::Fault(fault));
    };
    view! {
        <li class="ov-broker" class:up=move || state().1 == "up" class:crashed=move || state().1 == "crashed"
            class:fenced=move || state().1 == "fenced" class:fed=move || { arrived() > 0 } data-testid=format!("broker-{id}")>
            {move || (arrived() > 0).then(|| view! { <div class="ov-inbox" aria-hidden="true">{format!("▼ +{}", arrived())}</div> })}
            <div class="ov-broker-head">
                <h3>{tf(key::OVERVIEW_BROKER_NAME, &[("id", &id_text)])}</h3>
                <p class="state">{move || t(state().0)}</p>
                <p class="leads">{move || tf(key::OVERVIEW_BROKER_LEADS, &[("count", &leads())])}</p>
            </div>
            <ul class="ov-tiles" role="list">
                {keyed_rows(
                    move || partitions().unwrap_or_default().into_iter().map(u64::from).collect(),
                    move |p| view! { <TileView broker=id partition=p as u32 me=me/> }.into_any(),
                )}
            </ul>
            <button class:danger=alive on:click=act data-testid=format!("action-broker-{id}")>
                {move || if alive() { kill_label.clone() } else { restart_label.clone() }}
            </button>
        </li>
    }
}

#[component]
fn TileView(broker: u32, partition: u32, me: Memo<Option<BrokerBox>>) -> impl IntoView {
    let tile = Memo::new(move |_| {
        me.with(|b| b.as_ref().and_then(|b| b.tiles.iter().find(|t| t.partition == partition).cloned()))
    });
    let role = move || tile.with(|t| t.as_ref().map_or(Role::Out, |t| t.role));
    let changed = move || tile.with(|t| t.as_ref().is_some_and(|t| t.changed));
    let arrived = move || tile.with(|t| t.as_ref().map_or(0, |t| t.arrived));
    let offset =
        move || tile.with(|t| t.as_ref().filter(|t| t.shows_leo).map_or("—".to_string(), |t| t.leo.to_string()));
    // Class toggles only (no class string): rewriting the string would drop the toggled ones.
    view! {
        <li class="ov-tile" class:leader=move || role() == Role::Leader class:follower=move || role() == Role::Follower
            class:out=move || role() == Role::Out class:changed=changed class:fed=move || { arrived() > 0 } title=move || t(role().marks().2)
            data-testid=format!("replica-{broker}-{partition}") data-role=move || role().marks().1>
            <span class="name">{format!("{}-{partition}", crate::model::TOPIC)}</span>
            <span class="sym" aria-hidden="true">{move || role().marks().0}</span>
            <span class="sr-only">{move || t(role().marks().2)}</span>
            {move || (arrived() > 0).then(|| view! {
                <span class="plus num" aria-hidden="true">{format!("+{}", arrived())}</span>
                <span class="sr-only">{tf(key::OVERVIEW_PICTURE_ARRIVED, &[("count", &arrived().to_string())])}</span>
            })}
            <span class="off num" data-testid="tile-leo">{offset}</span>
            {move || changed().then(|| view! { <span class="sr-only">{t(key::OVERVIEW_PICTURE_CHANGED)}</span> })}
        </li>
    }
}
