//! Faults on the application (`p`: crash, restart, pause, stall) and on its link to the
//! transaction coordinator (`cut-p-c`, `heal-p-c`). A restart while the old incarnation is
//! only paused leaves it alive: a zombie that wakes up later with its old epoch.

use super::{ClientId, ClientState, Event, Fact, TxnCtx, TxnLab};
use crate::model::kernel::{Actor, Fault};

impl TxnLab {
    pub(super) fn apply_fault(&mut self, fault: Fault, ctx: &mut TxnCtx) {
        let index = self.current();
        match fault {
            Fault::Crash(_) => {
                let client = &mut self.clients[index];
                client.state = ClientState::Crashed;
                client.queue.clear();
                client.in_flight.clear();
                client.deferred.clear();
                let fact = Fact::Crashed { label: client.label, epoch: client.epoch };
                ctx.record(Actor::Producer, fact);
            }
            Fault::Restart(_) => {
                let incarnation = self.clients.len() as u32 + 1;
                ctx.record(Actor::Producer, Fact::Restarted { incarnation });
                self.start_incarnation(ctx);
                self.processor_restarts(ctx);
            }
            Fault::Pause { duration_ms, .. } => {
                let client = &mut self.clients[index];
                client.state = ClientState::Paused;
                client.paused_until_ms = duration_ms.map(|ms| ctx.now_ms() + ms);
                ctx.record(Actor::Producer, Fact::Paused { duration_ms });
                if let Some(ms) = duration_ms {
                    ctx.schedule(ms, Event::Resume(index));
                }
            }
            Fault::Cut(..) => {
                self.coordinator_cut = true;
                ctx.record(Actor::Network, Fact::CoordinatorCut);
            }
            Fault::Heal(..) => {
                self.coordinator_cut = false;
                ctx.record(Actor::Network, Fact::CoordinatorHealed);
                ctx.schedule(0, Event::Drain(ClientId::App(index)));
            }
            Fault::PowerFail(_) | Fault::Slow { .. } => {}
        }
    }

    /// A paused incarnation wakes up and handles what reached it meanwhile.
    pub(super) fn resume(&mut self, index: usize, ctx: &mut TxnCtx) {
        let Some(client) = self.clients.get_mut(index).filter(|c| c.state == ClientState::Paused) else { return };
        client.state = ClientState::Running;
        client.paused_until_ms = None;
        let deferred = std::mem::take(&mut client.deferred);
        ctx.record(Actor::Producer, Fact::Resumed { label: client.label, epoch: client.epoch });
        for event in deferred {
            ctx.schedule(0, event);
        }
        ctx.schedule(0, Event::Drain(ClientId::App(index)));
    }
}
