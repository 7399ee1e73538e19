//! The lab on the kernel: its events, the checks that refuse a command without touching
//! anything, and the producer, the network and the lag sampler.

use super::{
    Command, Event, GroupCtx, GroupLab, LagSample, Refusal, Request, Response, MAX_MEMBERS, MAX_MS_PER_RECORD,
    MAX_PARTITIONS, MAX_PAUSE_MS, MAX_SAMPLES, SAMPLE_EVERY_MS,
};
use crate::model::kernel::{Fault, Node, World};

impl GroupLab {
    fn network_delay_ms(&self, ctx: &mut GroupCtx) -> u64 {
        let base = self.settings.network_delay_ms;
        if base == 0 {
            0
        } else {
            ctx.random_between(base.div_ceil(2), base + base / 2)
        }
    }

    pub(super) fn send_to_coordinator(&self, member: u32, request: Request, ctx: &mut GroupCtx) {
        let incarnation = self.member(member).incarnation;
        let delay = self.network_delay_ms(ctx);
        ctx.schedule(delay, Event::ToCoordinator { member, incarnation, request });
    }

    pub(super) fn send_to_member(&self, member: u32, incarnation: u32, response: Response, ctx: &mut GroupCtx) {
        let delay = self.network_delay_ms(ctx);
        ctx.schedule(delay, Event::ToMember { member, incarnation, response });
    }

    fn produce(&mut self, ctx: &mut GroupCtx) {
        let partition = ctx.random_between(0, self.log_end.len() as u64 - 1) as usize;
        self.log_end[partition] += 1;
    }

    fn produce_gap_ms(&self, ctx: &mut GroupCtx) -> Option<u64> {
        let rate = self.settings.records_per_sec;
        if rate == 0 {
            return None;
        }
        let mean_us = 1_000_000 / rate;
        Some(ctx.random_between(mean_us / 2, mean_us + mean_us / 2).div_ceil(1000).max(1))
    }

    fn sample(&mut self, ctx: &mut GroupCtx) {
        for partition in 0..self.log_end.len() {
            let lag = self.lag(partition as u32);
            let history = &mut self.lag_history[partition];
            history.push(LagSample { time_ms: ctx.now_ms(), lag });
            if history.len() > MAX_SAMPLES {
                history.remove(0);
            }
        }
    }

    fn unknown_member(&self, index: u32) -> Option<Refusal> {
        let members = self.members.len() as u32;
        (index == 0 || index > members).then_some(Refusal::NoSuchMember { index, members })
    }

    fn not_running(&self, index: u32) -> Option<Refusal> {
        self.unknown_member(index).or_else(|| (!self.member(index).alive).then_some(Refusal::NotRunning { index }))
    }

    fn fault_refusal(&self, fault: Fault) -> Option<Refusal> {
        match fault {
            Fault::Crash(Node::Id(index)) => self.not_running(index),
            Fault::Restart(Node::Id(index)) => self
                .unknown_member(index)
                .or_else(|| self.member(index).alive.then_some(Refusal::AlreadyRunning { index })),
            Fault::Pause { node: Node::Id(index), duration_ms: Some(duration_ms) } => {
                self.not_running(index).or_else(|| {
                    (duration_ms == 0 || duration_ms > MAX_PAUSE_MS).then_some(Refusal::PauseDuration { duration_ms })
                })
            }
            Fault::Slow { node: Node::Id(index), delay_ms } => self.not_running(index).or_else(|| {
                (delay_ms > MAX_MS_PER_RECORD).then_some(Refusal::ProcessingTime { ms_per_record: delay_ms })
            }),
            _ => Some(Refusal::FaultNotModelled),
        }
    }

    /// Why `command` cannot run now, if it cannot.
    fn refusal(&self, command: &Command) -> Option<Refusal> {
        let partitions = self.log_end.len() as u32;
        match *command {
            Command::Fault(fault) => self.fault_refusal(fault),
            Command::Poison(partition) if partition >= partitions => {
                Some(Refusal::NoSuchPartition { partition, partitions })
            }
            Command::Poison(partition) => {
                self.poison.contains_key(&partition).then_some(Refusal::AlreadyPoisoned { partition })
            }
            Command::AddMembers(requested) => {
                let members = self.members.len() as u32;
                let total = members.checked_add(requested);
                (requested == 0 || total.is_none_or(|total| total > MAX_MEMBERS))
                    .then_some(Refusal::MemberCount { requested, members })
            }
            Command::Close(index) => self.not_running(index),
            Command::GrowPartitions(requested) => (requested <= partitions || requested > MAX_PARTITIONS)
                .then_some(Refusal::PartitionCount { requested, partitions }),
        }
    }
}

impl World for GroupLab {
    type Event = Event;
    type Command = Command;
    type Fact = super::Fact;
    type Refusal = Refusal;

    fn start(&mut self, ctx: &mut GroupCtx) {
        if let Some(gap) = self.produce_gap_ms(ctx) {
            ctx.schedule(gap, Event::Produce);
        }
        ctx.schedule(SAMPLE_EVERY_MS, Event::Sample);
        for index in 1..=self.members.len() as u32 {
            self.start_member(index, ctx);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut GroupCtx) {
        match event {
            Event::Produce => {
                self.produce(ctx);
                if let Some(gap) = self.produce_gap_ms(ctx) {
                    ctx.schedule(gap, Event::Produce);
                }
            }
            Event::Sample => {
                self.sample(ctx);
                ctx.schedule(SAMPLE_EVERY_MS, Event::Sample);
            }
            Event::ToCoordinator { member, incarnation, request } => self.on_request(member, incarnation, request, ctx),
            Event::SessionExpiry { member_id, deadline_ms } => self.on_session_expiry(&member_id, deadline_ms, ctx),
            Event::InitialDelay { rebalance, delay_ms, remaining_ms } => {
                self.on_initial_delay(rebalance, delay_ms, remaining_ms, ctx)
            }
            Event::JoinTimeout { rebalance } => self.on_join_timeout(rebalance, ctx),
            Event::SyncTimeout { generation } => self.on_sync_timeout(generation, ctx),
            other => self.on_member_event(other, ctx),
        }
    }

    fn check(&self, command: &Command, _ctx: &GroupCtx) -> Result<(), Refusal> {
        self.refusal(command).map_or(Ok(()), Err)
    }

    fn apply(&mut self, command: &Command, ctx: &mut GroupCtx) {
        debug_assert!(self.refusal(command).is_none(), "apply without check: {command:?}");
        match *command {
            Command::Fault(Fault::Crash(Node::Id(index))) => self.kill(index, ctx),
            Command::Fault(Fault::Restart(Node::Id(index))) => self.restart(index, ctx),
            Command::Fault(Fault::Pause { node: Node::Id(index), duration_ms: Some(duration_ms) }) => {
                self.pause(index, duration_ms, ctx)
            }
            Command::Fault(Fault::Slow { node: Node::Id(index), delay_ms }) => self.slow(index, delay_ms, ctx),
            Command::Fault(_) => {}
            Command::Poison(partition) => self.poison(partition, ctx),
            Command::AddMembers(count) => self.add_members(count, ctx),
            Command::Close(index) => self.close(index, ctx),
            Command::GrowPartitions(count) => self.grow(count, ctx),
        }
    }
}

/// No view looks for particular pending events in this scene.
impl crate::model::kernel::Watched for Event {}
