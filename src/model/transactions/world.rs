//! The scene's world: building it, its reactions to events, and which commands it accepts.

use std::collections::BTreeMap;

use super::core::{Isolation, PartitionLog, TransactionCoordinator};
use super::{
    ClientState, Command, Consumer, Event, Fact, Processor, Refusal, Settings, TxnCtx, TxnLab, MAX_LOG_ENTRIES,
    MAX_RECORDS, OTHER_FIRST_RECORD, TRANSACTIONAL_ID,
};
use crate::model::kernel::{Actor, Fault, Node, World};

impl TxnLab {
    /// The scene a validated config describes.
    pub fn new(settings: Settings) -> Self {
        let consumer = |isolation| Consumer {
            isolation,
            position: 0,
            received: Vec::new(),
            record_ids: Vec::new(),
            seen: std::collections::BTreeSet::new(),
            peak_lag: 0,
        };
        Self {
            settings,
            log: PartitionLog::new(),
            coordinator: TransactionCoordinator::new(settings.transaction_max_timeout_ms),
            clients: Vec::new(),
            other: None,
            other_streaming: settings.other_records_per_sec > 0,
            consumers: vec![consumer(Isolation::ReadUncommitted), consumer(Isolation::ReadCommitted)],
            processor: settings.processor.then(Processor::default),
            sink: settings.db_sink.then(BTreeMap::new),
            record_offsets: BTreeMap::new(),
            next_record: 1,
            next_other_record: OTHER_FIRST_RECORD,
            next_request: 1,
            coordinator_cut: false,
            lose_next_answer: false,
            fail_next_request: false,
        }
    }

    /// The transactional id's history before this run: each earlier InitProducerId bumped its epoch.
    fn earlier_runs(&mut self, ctx: &mut TxnCtx) {
        let inits = self.settings.previous_inits;
        if !self.settings.transactional || inits == 0 {
            return;
        }
        let mut last = None;
        for _ in 0..inits {
            let timeout_ms = self.settings.transaction_timeout_ms;
            last = self.coordinator.init_producer_id(Some(TRANSACTIONAL_ID), timeout_ms, 0).ok();
        }
        if let Some((producer_id, epoch, _)) = last {
            ctx.record(Actor::Coordinator, Fact::EarlierRuns { inits, producer_id, epoch });
        }
    }

    /// Why `command` cannot run now, if it cannot.
    fn refusal(&self, command: &Command) -> Option<Refusal> {
        let app = &self.clients[self.current()];
        let running = app.state == ClientState::Running;
        match *command {
            Command::Produce { records } | Command::Process { records } if records == 0 || records > MAX_RECORDS => {
                Some(Refusal::RecordCount { records })
            }
            Command::Produce { records } | Command::Process { records } if self.log_full(records) => {
                Some(Refusal::LogFull { max: MAX_LOG_ENTRIES })
            }
            Command::Produce { .. } => (!running).then_some(Refusal::AppNotRunning),
            Command::Process { records } => {
                let processor = self.processor.as_ref();
                let left = self.settings.input_records.saturating_sub(processor.map_or(0, |p| p.position));
                if processor.is_none() {
                    Some(Refusal::NoProcessor)
                } else if !running {
                    Some(Refusal::AppNotRunning)
                } else {
                    (u64::from(records) > left).then_some(Refusal::InputExhausted { left })
                }
            }
            Command::Commit | Command::Abort => self.end_refusal(command, running),
            Command::LoseAck | Command::FailNext => None,
            Command::Stream => self.other_streaming.then_some(Refusal::StreamRunning),
            Command::Fault(fault) => self.fault_refusal(fault),
        }
    }

    /// Whether `records` more would take the partition past [`MAX_LOG_ENTRIES`].
    pub(super) fn log_full(&self, records: u32) -> bool {
        self.log.log_end_offset() + u64::from(records) > MAX_LOG_ENTRIES
    }

    fn end_refusal(&self, command: &Command, running: bool) -> Option<Refusal> {
        let app = &self.clients[self.current()];
        let plain_processor_commit = self.processor.is_some() && !app.transactional && *command == Command::Commit;
        if !running {
            Some(Refusal::AppNotRunning)
        } else if plain_processor_commit {
            None
        } else if !app.transactional {
            Some(Refusal::NotTransactional)
        } else if app.end_requested.is_some() {
            Some(Refusal::EndPending)
        } else {
            (!app.txn_open).then_some(Refusal::NoTransaction)
        }
    }

    fn fault_refusal(&self, fault: Fault) -> Option<Refusal> {
        let state = self.clients[self.current()].state;
        match fault {
            Fault::Crash(Node::Producer) => {
                matches!(state, ClientState::Crashed | ClientState::Fenced).then_some(Refusal::AlreadyDown)
            }
            Fault::Restart(Node::Producer) => (state == ClientState::Running).then_some(Refusal::AlreadyRunning),
            Fault::Pause { node: Node::Producer, .. } => {
                (state != ClientState::Running).then_some(Refusal::AppNotRunning)
            }
            Fault::Cut(Node::Producer, Node::Controller) => self.coordinator_cut.then_some(Refusal::AlreadyCut),
            Fault::Heal(Node::Producer, Node::Controller) => (!self.coordinator_cut).then_some(Refusal::NotCut),
            _ => Some(Refusal::FaultNotModelled),
        }
    }
}

impl World for TxnLab {
    type Event = Event;
    type Command = Command;
    type Fact = Fact;
    type Refusal = Refusal;

    fn start(&mut self, ctx: &mut TxnCtx) {
        self.earlier_runs(ctx);
        self.start_incarnation(ctx);
        if self.other_streaming {
            self.start_other(ctx);
        }
        ctx.schedule(self.settings.consumer_poll_ms, Event::ConsumerPoll);
        ctx.schedule(self.settings.abort_check_interval_ms, Event::AbortCheck);
    }

    fn handle(&mut self, event: Event, ctx: &mut TxnCtx) {
        if self.deferred_while_paused(&event) {
            return;
        }
        match event {
            Event::Drain(client) => self.drain(client, ctx),
            Event::ProduceArrives { client, batch, request } => self.produce_arrives(client, &batch, request, ctx),
            Event::ProduceAnswered { client, request, outcome } => self.answered(client, request, outcome, ctx),
            Event::MarkersArrive { transactional_id, markers, timed_out } => {
                self.markers_arrive(transactional_id, &markers, timed_out, ctx)
            }
            Event::AbortCheck => {
                self.abort_timed_out(ctx);
                ctx.schedule(self.settings.abort_check_interval_ms, Event::AbortCheck);
            }
            Event::ConsumerPoll => {
                self.poll_consumers(ctx);
                ctx.schedule(self.settings.consumer_poll_ms, Event::ConsumerPoll);
            }
            Event::OtherSend => self.other_send(ctx),
            Event::Resume(index) => self.resume(index, ctx),
        }
    }

    fn check(&self, command: &Command, _ctx: &TxnCtx) -> Result<(), Refusal> {
        self.refusal(command).map_or(Ok(()), Err)
    }

    fn apply(&mut self, command: &Command, ctx: &mut TxnCtx) {
        debug_assert!(self.refusal(command).is_none(), "apply without check: {command:?}");
        match *command {
            Command::Produce { records } => self.produce(records, ctx),
            Command::Process { records } => self.process(records, ctx),
            Command::Commit => self.request_end(true, ctx),
            Command::Abort => self.request_end(false, ctx),
            Command::LoseAck => self.lose_next_answer = true,
            Command::FailNext => self.fail_next_request = true,
            Command::Stream => {
                self.other_streaming = true;
                self.start_other(ctx);
            }
            Command::Fault(fault) => self.apply_fault(fault, ctx),
        }
    }
}

impl TxnLab {
    /// A paused client's events wait for it (its threads are stopped); true when deferred.
    fn deferred_while_paused(&mut self, event: &Event) -> bool {
        let client = match event {
            Event::Drain(client) | Event::ProduceAnswered { client, .. } => *client,
            _ => return false,
        };
        match self.client_mut(client) {
            Some(c) if c.state == ClientState::Paused => {
                c.deferred.push(event.clone());
                true
            }
            _ => false,
        }
    }
}
