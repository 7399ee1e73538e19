//! The scene's commands, on the newest incarnation of the app (the only one a learner drives:
//! an older one acts on its own when it wakes up): produce N records, commit or abort the
//! transaction — or, in the consume–transform–produce presets, process N input records and
//! commit — and, folded under "Faults", what breaks it: a GC pause, kill, restart (a new
//! incarnation: InitProducerId), the next produce response lost, the next batch failed, the
//! link to the coordinator cut or healed. Buttons are rebuilt only when the state they depend
//! on changes, so a focused button keeps its focus while the run moves on.

use leptos::prelude::*;

use super::TxnData;
use crate::i18n::{key, t};
use crate::model::kernel::{Fault, Node};
use crate::model::transactions::{ClientState, Command, Fact, TxnLab, OTHER_LABEL};
use crate::ui::session::Session;

/// Length of the GC pause the button injects, in ms (longer than the coordinator needs to
/// fence: the zombie wakes after its successor started).
const PAUSE_MS: u64 = 20_000;

/// What the buttons depend on: the app's state, whether it is transactional, whether it is a
/// processor, whether its link to the coordinator is cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Controls {
    state: ClientState,
    transactional: bool,
    processor: bool,
    cut: bool,
}

/// The index of the newest incarnation of the app among the producers (the other producer,
/// when it runs, is listed after it).
pub fn newest_app(d: &TxnData) -> Option<usize> {
    d.view.producers.iter().rposition(|p| p.label != OTHER_LABEL)
}

fn controls(d: &TxnData, cut: bool) -> Option<Controls> {
    let p = d.view.producers.get(newest_app(d)?)?;
    Some(Controls { state: p.state, transactional: p.transactional, processor: d.view.processor.is_some(), cut })
}

/// Whether the app's link to the coordinator is cut: the last cut or heal in the event log.
fn link_cut(session: Session<TxnLab>) -> bool {
    session.with(|run| {
        run.sim()
            .log()
            .iter()
            .rev()
            .find_map(|e| match e.fact {
                Fact::CoordinatorCut => Some(true),
                Fact::CoordinatorHealed => Some(false),
                _ => None,
            })
            .unwrap_or(false)
    })
}

/// The controls of the app, for the card at `index` (`None` for any other card).
pub fn controls_for(data: Memo<TxnData>, session: Session<TxnLab>, index: Option<usize>) -> Memo<Option<Controls>> {
    let cut = Memo::new(move |_| link_cut(session));
    Memo::new(move |_| {
        data.with(|d| {
            let mine = match index {
                Some(i) => newest_app(d) == Some(i) && d.view.processor.is_none(),
                None => d.view.processor.is_some(),
            };
            if mine {
                controls(d, cut.get())
            } else {
                None
            }
        })
    })
}

fn button(label: &'static str, class: &'static str, testid: &'static str, run: impl Fn() + 'static) -> AnyView {
    view! { <button class=class data-testid=testid on:click=move |_| run()>{t(label)}</button> }.into_any()
}

/// The main verbs: produce (or process) N, commit, abort.
fn verbs(session: Session<TxnLab>, (transactional, processor): VerbKind) -> AnyView {
    let count = RwSignal::new(String::from(if processor { "5" } else { "1" }));
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // An unreadable count is sent as 0, so the model refuses it and says why.
        let records = count.get_untracked().trim().parse::<u32>().unwrap_or(0);
        session.command(if processor { Command::Process { records } } else { Command::Produce { records } });
    };
    let (verb, verb_label) = if processor {
        (key::TRANSACTIONS_ACTION_PROCESS, key::TRANSACTIONS_ACTION_PROCESS_COUNT)
    } else {
        (key::TRANSACTIONS_ACTION_PRODUCE, key::TRANSACTIONS_ACTION_PRODUCE_COUNT)
    };
    let commit = transactional || processor;
    view! {
        <form class="tx-actions" on:submit=send>
            <input type="number" min="1" max="1000" prop:value=move || count.get() aria-label=t(verb_label)
                data-testid="action-count" on:input=move |ev| count.set(event_target_value(&ev))/>
            <button type="submit" class="primary" data-testid="action-produce">{t(verb)}</button>
            {commit.then(|| button(key::TRANSACTIONS_ACTION_COMMIT, "", "action-commit", move || session.command(Command::Commit)))}
            {transactional.then(|| button(key::TRANSACTIONS_ACTION_ABORT, "", "action-abort", move || session.command(Command::Abort)))}
        </form>
    }
    .into_any()
}

/// One fault button, present while `shown` holds (a memo: the button is built once each time
/// it appears, so a focused one keeps its focus while the run moves on).
fn fault_button(
    shown: Memo<bool>,
    label: &'static str,
    class: &'static str,
    testid: &'static str,
    run: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    move || shown.get().then(|| button(label, class, testid, run))
}

/// The faults, folded: what breaks the app, its requests or its link to the coordinator. The
/// fold is built once while the app is up and its open state lives in `open` (shared by every
/// card), so stepping, a state change or a new incarnation never closes it.
fn faults(session: Session<TxnLab>, controls: Memo<Option<Controls>>, open: RwSignal<bool>) -> impl IntoView {
    let fault = move |f: Fault| move || session.command(Command::Fault(f));
    let when = move |test: fn(Controls) -> bool| Memo::new(move |_| controls.get().is_some_and(test));
    let running = when(|c| c.state == ClientState::Running);
    let alive = when(|c| matches!(c.state, ClientState::Running | ClientState::Paused));
    let stopped = when(|c| c.state != ClientState::Running);
    let cut = when(|c| c.transactional && c.cut);
    let healed = when(|c| c.transactional && !c.cut);
    let fold = NodeRef::<leptos::html::Details>::new();
    let toggled = move |_| {
        if let Some(el) = fold.get_untracked() {
            open.set(el.open());
        }
    };
    view! {
        <details class="tx-faults" node_ref=fold prop:open=move || open.get() on:toggle=toggled data-testid="faults">
            <summary>{t(key::TRANSACTIONS_ACTION_FAULTS)}</summary>
            <div class="tx-actions">
                {fault_button(running, key::TRANSACTIONS_ACTION_PAUSE, "", "action-pause",
                    fault(Fault::Pause { node: Node::Producer, duration_ms: Some(PAUSE_MS) }))}
                {fault_button(alive, key::TRANSACTIONS_ACTION_KILL, "danger", "action-kill", fault(Fault::Crash(Node::Producer)))}
                {fault_button(stopped, key::TRANSACTIONS_ACTION_RESTART, "primary", "action-restart",
                    fault(Fault::Restart(Node::Producer)))}
                {button(key::TRANSACTIONS_ACTION_LOSE_ACK, "", "action-lose-ack", move || session.command(Command::LoseAck))}
                {button(key::TRANSACTIONS_ACTION_FAIL_NEXT, "", "action-fail-next", move || session.command(Command::FailNext))}
                {fault_button(cut, key::TRANSACTIONS_ACTION_HEAL, "", "action-heal", fault(Fault::Heal(Node::Producer, Node::Controller)))}
                {fault_button(healed, key::TRANSACTIONS_ACTION_CUT, "", "action-cut", fault(Fault::Cut(Node::Producer, Node::Controller)))}
            </div>
        </details>
    }
}

/// What the verbs depend on: whether the app is transactional and whether it is a processor.
type VerbKind = (bool, bool);

/// The app's buttons: its verbs while it runs, a restart once it is down, the faults while it
/// is up. Each part is rebuilt only when what it shows changes.
#[component]
pub fn AppActions(
    session: Session<TxnLab>,
    controls: Memo<Option<Controls>>,
    faults_open: RwSignal<bool>,
) -> impl IntoView {
    let down = Memo::new(move |_| {
        controls.get().is_some_and(|c| matches!(c.state, ClientState::Crashed | ClientState::Fenced))
    });
    let up = Memo::new(move |_| controls.get().is_some() && !down.get());
    // A paused app takes no command (its threads are stopped): only the faults.
    let verbs_kind = Memo::new(move |_| {
        controls.get().filter(|c| c.state == ClientState::Running).map(|c| (c.transactional, c.processor))
    });
    let restart = move || session.command(Command::Fault(Fault::Restart(Node::Producer)));
    view! {
        <Show when=move || down.get()>
            <div class="tx-actions">{button(key::TRANSACTIONS_ACTION_RESTART, "primary", "action-restart", restart)}</div>
        </Show>
        <Show when=move || up.get()>
            <div class="tx-controls">
                {move || verbs_kind.get().map(|kind: VerbKind| verbs(session, kind))}
                {faults(session, controls, faults_open)}
            </div>
        </Show>
    }
}

/// The processor's buttons (the consume–transform–produce presets drive the app from here).
#[component]
pub fn ProcessorActions(data: Memo<TxnData>, session: Session<TxnLab>, faults_open: RwSignal<bool>) -> impl IntoView {
    let controls = controls_for(data, session, None);
    view! { <AppActions session=session controls=controls faults_open=faults_open/> }
}
