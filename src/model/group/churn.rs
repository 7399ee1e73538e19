//! How unsettled the group is: rebalances started, generations per minute, time without a
//! stable assignment, and whether members keep being pushed out and rejoining (a rebalance loop).

use super::{GroupLab, GroupState};

/// One involuntary departure: the member's poll timeout expired, or the coordinator expired its session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Departure {
    pub time_ms: u64,
    /// The member process (`C1` is 1).
    pub member: u32,
}

/// The group's rebalance figures up to a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Churn {
    /// Rebalances the coordinator started (entries into PreparingRebalance), the first join included.
    pub rebalances: u32,
    pub generation: i32,
    /// Simulated time so far.
    pub elapsed_ms: u64,
    /// Of that, time the group was not Stable (nobody had a settled assignment).
    pub unstable_ms: u64,
    /// Involuntary departures so far (poll timeouts and expired sessions).
    pub departures: u32,
    /// A member was pushed out and rejoined at least twice, the last time recently.
    pub looping: bool,
}

impl Churn {
    /// Generations per minute, in tenths (`57` is 5.7).
    pub fn generations_per_minute_tenths(&self) -> i64 {
        if self.elapsed_ms == 0 {
            return 0;
        }
        i64::from(self.generation.max(0)) * 600_000 / self.elapsed_ms as i64
    }
}

impl GroupLab {
    pub(super) fn record_departure(&mut self, member: u32, time_ms: u64) {
        self.departures.push(Departure { time_ms, member });
    }

    /// Every involuntary departure so far, oldest first.
    pub fn departures(&self) -> &[Departure] {
        &self.departures
    }

    /// How far back a second departure of the same member still counts as a loop: two rounds of
    /// the longer of the two timeouts that push members out.
    fn loop_window_ms(&self) -> u64 {
        2 * self.settings.max_poll_interval_ms.max(self.settings.session_timeout_ms)
    }

    /// The rebalance figures at `now_ms`, from the coordinator's state transitions.
    pub fn churn(&self, now_ms: u64) -> Churn {
        let transitions = &self.coordinator.transitions;
        let rebalances = transitions.iter().filter(|(_, s, _)| *s == GroupState::PreparingRebalance).count();
        let first_join_ms = transitions.iter().find(|(_, s, _)| *s != GroupState::Empty).map(|(at, _, _)| *at);
        let mut unstable_ms = 0;
        for (i, (from, state, _)) in transitions.iter().enumerate() {
            let to = transitions.get(i + 1).map_or(now_ms, |next| next.0).min(now_ms);
            let counted = first_join_ms.is_some_and(|first| *from >= first) && *state != GroupState::Stable;
            if counted && to > *from {
                unstable_ms += to - from;
            }
        }
        let recent = now_ms.saturating_sub(self.loop_window_ms());
        let looping = self.departures.iter().rev().take_while(|d| d.time_ms >= recent).any(|last| {
            self.departures.iter().filter(|d| d.member == last.member && d.time_ms <= last.time_ms).count() >= 2
        });
        Churn {
            rebalances: rebalances as u32,
            generation: self.coordinator.generation,
            elapsed_ms: now_ms,
            unstable_ms,
            departures: self.departures.len() as u32,
            looping,
        }
    }
}
