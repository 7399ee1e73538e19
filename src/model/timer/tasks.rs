//! The timer tasks of the scene: Kafka's `SystemTimer` (the wheel), a binary heap fed the
//! same stream, and what each task id stands for.

use std::collections::BTreeMap;

use super::{Fact, HeapTimer, TaskOrigin, Timer, TimerCtx};
use crate::model::kernel::Actor;

/// The wheel, a heap fed the same stream, and the origin of every pending task.
#[derive(Clone, Debug)]
pub struct Tasks {
    pub(super) timer: Timer,
    pub(super) heap: HeapTimer,
    info: BTreeMap<u64, TaskOrigin>,
    /// Origins of the tasks the last expiration ran, so the UI can still label them.
    last_fired: BTreeMap<u64, TaskOrigin>,
    next_id: u64,
}

impl Tasks {
    pub(super) fn new(tick_ms: u64, wheel_size: usize) -> Self {
        let mut timer = Timer::new(tick_ms, wheel_size, 0);
        timer.set_tracing(true);
        let heap = HeapTimer::new(tick_ms, 0);
        Self { timer, heap, info: BTreeMap::new(), last_fired: BTreeMap::new(), next_id: 1 }
    }

    /// Adds a task expiring `delay_ms` from now. Returns its id and whether it was parked;
    /// when it was not (already expired) the caller runs it at once, as `SystemTimer` does.
    pub(super) fn schedule(&mut self, delay_ms: u64, origin: TaskOrigin, ctx: &mut TimerCtx) -> (u64, bool) {
        let id = self.next_id;
        self.next_id += 1;
        let expiration_ms = ctx.now_ms() + delay_ms;
        let parked = self.timer.add(id, expiration_ms);
        if parked {
            self.heap.add(id, expiration_ms);
            let (level, bucket) = self.timer.location(id).expect("just parked");
            ctx.record(Actor::Timer, Fact::TaskParked { id, origin: origin.clone(), expiration_ms, level, bucket });
            self.info.insert(id, origin);
        } else {
            let fact = Fact::TaskAlreadyExpired {
                id,
                origin,
                expiration_ms,
                current_time_ms: self.timer.current_time(),
                tick_ms: self.timer.tick_ms(),
            };
            ctx.record(Actor::Timer, fact);
        }
        (id, parked)
    }

    /// Cancels a pending task (an operation completed before its timeout); says where it was.
    pub(super) fn cancel(&mut self, id: u64, ctx: &mut TimerCtx) -> Option<(usize, usize)> {
        let (level, bucket) = self.timer.location(id)?;
        self.timer.cancel(id);
        self.heap.cancel(id);
        let origin = self.info.remove(&id).expect("every pending task has its info");
        ctx.record(Actor::Timer, Fact::TaskCancelled { id, origin, level, bucket });
        Some((level, bucket))
    }

    /// What a pending task, or one the last expiration ran, stands for.
    pub(super) fn origin(&self, id: u64) -> Option<&TaskOrigin> {
        self.info.get(&id).or_else(|| self.last_fired.get(&id))
    }

    /// What a pending task stands for.
    pub(super) fn pending_origin(&self, id: u64) -> Option<&TaskOrigin> {
        self.info.get(&id)
    }

    /// Remembers a task that ran without being parked (the last expiration is that one).
    pub(super) fn ran_at_once(&mut self, id: u64, origin: TaskOrigin) {
        self.last_fired.clear();
        self.last_fired.insert(id, origin);
    }

    /// Kafka's expiration reaper: expires every due bucket and returns the tasks that ran.
    pub(super) fn expire(&mut self, ctx: &mut TimerCtx) -> Vec<(u64, TaskOrigin)> {
        let mut fired = Vec::new();
        self.timer.expire_due(ctx.now_ms(), &mut fired);
        self.heap.advance_to(ctx.now_ms());
        for step in self.timer.last_moves() {
            if let Some((level, bucket)) = step.to {
                let fact = Fact::TaskFell {
                    id: step.id,
                    origin: self.info[&step.id].clone(),
                    from_level: step.from.0,
                    from_bucket: step.from.1,
                    at_ms: step.at_ms,
                    level,
                    bucket,
                };
                ctx.record(Actor::Timer, fact);
            }
        }
        self.last_fired.clear();
        fired
            .into_iter()
            .map(|id| {
                let origin = self.info.remove(&id).expect("every pending task has its info");
                self.last_fired.insert(id, origin.clone());
                (id, origin)
            })
            .collect()
    }
}
