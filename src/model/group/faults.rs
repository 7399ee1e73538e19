//! The scene's commands: crash, restart, pause, slow down, poison, add/close members, grow the topic.

use super::client::Member;
use super::views::SpanKind;
use super::{Command, Event, GroupLab, Request, TOPIC};
use crate::model::kernel::Ctx;

/// The most members a lab group may have.
pub const MAX_MEMBERS: usize = 32;

impl GroupLab {
    fn check_member(&self, index: u32) -> Result<(), String> {
        if index == 0 || index as usize > self.members.len() {
            return Err(format!("There is no member C{index}: this group has C1 to C{}.", self.members.len()));
        }
        Ok(())
    }

    fn check_alive(&self, index: u32) -> Result<(), String> {
        self.check_member(index)?;
        if !self.member(index).alive {
            return Err(format!("C{index} is not running."));
        }
        Ok(())
    }

    pub(super) fn apply_fault(
        &mut self,
        command: &Command,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        match *command {
            Command::Kill(index) => self.check_alive(index).map(|_| self.kill(index, ctx)),
            Command::Restart(index) => {
                self.check_member(index)?;
                if self.member(index).alive {
                    return Err(format!("C{index} is already running."));
                }
                self.restart(index, ctx);
                Ok(())
            }
            Command::Pause { member, duration_ms } => {
                self.check_alive(member)?;
                if duration_ms == 0 || duration_ms > 3_600_000 {
                    return Err("a pause lasts 1 to 3600000 ms".into());
                }
                self.pause(member, duration_ms, ctx);
                Ok(())
            }
            Command::Slow { member, ms_per_record } => {
                self.check_alive(member)?;
                if ms_per_record > 600_000 {
                    return Err("processing time per record is 0 to 600000 ms".into());
                }
                let m = self.member_mut(member);
                m.ms_per_record = ms_per_record;
                ctx.log(m.name(), format!("processing now takes {ms_per_record} ms per record"));
                Ok(())
            }
            Command::Poison(partition) => self.poison(partition, ctx),
            Command::AddMembers(count) => self.add_members(count, ctx),
            Command::Close(index) => self.check_alive(index).map(|_| self.close(index, ctx)),
            Command::GrowPartitions(count) => self.grow(count, ctx),
        }
    }

    fn kill(&mut self, index: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let now = ctx.now_ms();
        if let Some(batch) = self.member_mut(index).batch.take() {
            let done = now.saturating_sub(batch.started_ms) / batch.ms_per_record.max(1);
            self.process_batch(index, &batch, Some(done), ctx);
        }
        if let Some(batch) = self.member_mut(index).worker_busy.take() {
            let done = now.saturating_sub(batch.started_ms) / batch.ms_per_record.max(1);
            self.process_batch(index, &batch, Some(done), ctx);
        }
        let incarnation = self.member(index).incarnation;
        ctx.cancel_where(|e| matches!(e, Event::Poll { member, incarnation: i } | Event::HeartbeatTick { member, incarnation: i } if *member == index && *i == incarnation));
        let m = self.member_mut(index);
        m.alive = false;
        m.span(SpanKind::Dead, now, u64::MAX);
        ctx.log(m.name(), "crashed (kill -9): no LeaveGroup, its heartbeats stop");
    }

    fn reset_client(m: &mut Member) {
        m.member_id = None;
        m.generation = -1;
        m.phase = super::client::ClientPhase::Unjoined;
        m.is_leader = false;
        m.assigned.clear();
        m.previous_assignment.clear();
        m.positions.clear();
        m.needs_rejoin = false;
        m.batch = None;
        m.worker_queue.clear();
        m.worker_busy = None;
        m.blocked_in_poll = false;
        m.stop_started_ms = None;
        m.paused_until_ms = 0;
    }

    fn restart(&mut self, index: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        m.close_span(SpanKind::Dead, now);
        Self::reset_client(m);
        self.start_member(index, ctx);
    }

    fn pause(&mut self, index: u32, duration_ms: u64, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let now = ctx.now_ms();
        let m = self.member_mut(index);
        m.paused_until_ms = m.paused_until_ms.max(now) + duration_ms;
        m.span(SpanKind::Paused, now, m.paused_until_ms);
        let incarnation = m.incarnation;
        // Work in progress resumes after the pause: shift its completion by the pause.
        for batch in [m.batch.as_mut(), m.worker_busy.as_mut()].into_iter().flatten() {
            batch.started_ms += duration_ms;
        }
        let shifted: Vec<(u64, Event)> =
            [m.batch.as_ref().map(|b| (b, true)), m.worker_busy.as_ref().map(|b| (b, false))]
                .into_iter()
                .flatten()
                .map(|(b, foreground)| {
                    let at = b.started_ms + b.duration_ms();
                    let event = if foreground {
                        Event::BatchDone { member: index, incarnation, batch: b.seq }
                    } else {
                        Event::WorkerDone { member: index, incarnation, batch: b.seq }
                    };
                    (at, event)
                })
                .collect();
        ctx.cancel_where(
            |e| matches!(e, Event::BatchDone { member, .. } | Event::WorkerDone { member, .. } if *member == index),
        );
        for (at, event) in shifted {
            ctx.schedule(at.saturating_sub(now), event);
        }
        ctx.log(
            self.member(index).name(),
            format!("stop-the-world pause for {duration_ms} ms: heartbeat and processing threads frozen"),
        );
    }

    fn poison(&mut self, partition: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        if partition as usize >= self.log_end.len() {
            return Err(format!(
                "There is no partition {TOPIC}-{partition}: the topic has {} partitions.",
                self.log_end.len()
            ));
        }
        if self.poison.contains_key(&partition) {
            return Err(format!("{TOPIC}-{partition} already holds a poison pill."));
        }
        let offset = self.log_end[partition as usize];
        self.log_end[partition as usize] += 1;
        self.poison.insert(partition, offset);
        ctx.log(
            "producer",
            format!("appended a poison pill to {TOPIC}-{partition} at offset {offset}: processing it always fails"),
        );
        Ok(())
    }

    fn add_members(&mut self, count: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        if count == 0 || self.members.len() + count as usize > MAX_MEMBERS {
            return Err(format!("A lab group holds at most {MAX_MEMBERS} members; it has {}.", self.members.len()));
        }
        for _ in 0..count {
            let index = self.members.len() as u32 + 1;
            self.members.push(Member::new(index, &self.config));
            self.start_member(index, ctx);
        }
        Ok(())
    }

    /// `consumer.close()`: commits if auto-commit is on, and a dynamic member sends LeaveGroup
    /// (a static member does not, so its partitions wait for `session.timeout.ms`).
    fn close(&mut self, index: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let now = ctx.now_ms();
        if self.config.bool("enable.auto.commit") && self.member(index).member_id.is_some() {
            self.commit_positions(index, false, ctx);
        }
        let m = self.member(index);
        if let (Some(member_id), None) = (m.member_id.clone(), &m.instance_id) {
            self.send_to_coordinator(
                index,
                Request::LeaveGroup { member_id, reason: "the consumer is being closed".into() },
                ctx,
            );
        }
        let m = self.member_mut(index);
        m.alive = false;
        m.closed = true;
        m.span(SpanKind::Dead, now, u64::MAX);
        ctx.log(m.name(), "closed cleanly (consumer.close())");
    }

    fn grow(&mut self, count: u32, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        let current = self.log_end.len() as u32;
        if count <= current || count > 48 {
            return Err(format!(
                "The topic {TOPIC} has {current} partitions; it can only grow (up to 48), not to {count}."
            ));
        }
        self.log_end.resize(count as usize, 0);
        self.ledger.grow(count as usize);
        self.lag_history.resize(count as usize, Vec::new());
        ctx.log(
            "controller",
            format!("kafka-topics --alter --partitions {count}: {TOPIC} grew from {current} to {count} partitions"),
        );
        Ok(())
    }
}
