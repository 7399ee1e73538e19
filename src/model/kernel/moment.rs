//! How much a fact matters to a learner: routine lines (each append, each heartbeat) fold
//! into counts, notable ones show in the log, and key moments also mark the timeline.

use super::message::Key;

/// The kinds of event the timeline marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Moment {
    /// A fault was injected (crash, power failure, pause, cut, …) or healed.
    Fault,
    /// The controller fenced a broker (its session timed out).
    Fence,
    IsrShrink,
    IsrExpand,
    /// A partition got a new leader (or none).
    Election,
    /// Acknowledged or committed data is gone, or processed twice.
    Loss,
    RebalanceStart,
    RebalanceEnd,
    /// A timeout expired (session, poll interval, delayed operation).
    Expiry,
    /// A segment rolled.
    Roll,
    /// Data was deleted (retention, delete-records, segment files).
    Deletion,
    /// The log cleaner compacted.
    Cleaning,
    /// A timer task fired or a delayed operation completed.
    Fire,
    /// A timer task's coarse bucket expired and it fell into a finer wheel.
    Fall,
    /// A lookup, placement or other answer the scene exists to show.
    Answer,
}

crate::messages! {
    pub MOMENT_KEYS;
    MOMENT_FAULT = "moment.fault" => "fault";
    MOMENT_FENCE = "moment.fence" => "fenced";
    MOMENT_ISR_SHRINK = "moment.isr_shrink" => "ISR shrinks";
    MOMENT_ISR_EXPAND = "moment.isr_expand" => "ISR expands";
    MOMENT_ELECTION = "moment.election" => "leader election";
    MOMENT_LOSS = "moment.loss" => "data lost";
    MOMENT_REBALANCE_START = "moment.rebalance_start" => "rebalance starts";
    MOMENT_REBALANCE_END = "moment.rebalance_end" => "rebalance ends";
    MOMENT_EXPIRY = "moment.expiry" => "timeout expires";
    MOMENT_ROLL = "moment.roll" => "segment rolls";
    MOMENT_DELETION = "moment.deletion" => "deletion";
    MOMENT_CLEANING = "moment.cleaning" => "cleaning";
    MOMENT_FIRE = "moment.fire" => "fires";
    MOMENT_FALL = "moment.fall" => "falls to a finer wheel";
    MOMENT_ANSWER = "moment.answer" => "result";
}

/// Every moment in the enum's order, with its name's key and its marker token: the key's last
/// part, spelled out because the site's wasm knows keys by short ids (`catalog_key!`).
const MOMENTS: [(Moment, Key, &str); 15] = [
    (Moment::Fault, MOMENT_FAULT, "fault"),
    (Moment::Fence, MOMENT_FENCE, "fence"),
    (Moment::IsrShrink, MOMENT_ISR_SHRINK, "isr_shrink"),
    (Moment::IsrExpand, MOMENT_ISR_EXPAND, "isr_expand"),
    (Moment::Election, MOMENT_ELECTION, "election"),
    (Moment::Loss, MOMENT_LOSS, "loss"),
    (Moment::RebalanceStart, MOMENT_REBALANCE_START, "rebalance_start"),
    (Moment::RebalanceEnd, MOMENT_REBALANCE_END, "rebalance_end"),
    (Moment::Expiry, MOMENT_EXPIRY, "expiry"),
    (Moment::Roll, MOMENT_ROLL, "roll"),
    (Moment::Deletion, MOMENT_DELETION, "deletion"),
    (Moment::Cleaning, MOMENT_CLEANING, "cleaning"),
    (Moment::Fire, MOMENT_FIRE, "fire"),
    (Moment::Fall, MOMENT_FALL, "fall"),
    (Moment::Answer, MOMENT_ANSWER, "answer"),
];

impl Moment {
    /// Its name's catalog key.
    pub fn key(self) -> Key {
        MOMENTS[self as usize].1
    }

    /// A short token for styling the marker (`data-moment`): its key's last part.
    pub fn token(self) -> &'static str {
        MOMENTS[self as usize].2
    }
}

/// How much one fact matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Salience {
    /// Folded into a count in the default log view (an append, a heartbeat, a fetch).
    Routine,
    /// Shown in the default log view.
    Notable,
    /// Shown, and marked on the timeline.
    Key(Moment),
}

impl Salience {
    pub fn moment(self) -> Option<Moment> {
        match self {
            Salience::Key(moment) => Some(moment),
            _ => None,
        }
    }
}

/// What every scene's fact type says about itself.
pub trait Salient {
    fn salience(&self) -> Salience;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_moment_has_its_own_key_and_its_token_is_the_keys_last_part() {
        assert_eq!(MOMENTS.len(), MOMENT_KEYS.len());
        for (place, (moment, key, _)) in MOMENTS.into_iter().enumerate() {
            assert_eq!(moment as usize, place, "{moment:?} is out of the enum's order");
            assert_eq!(moment.key(), key);
            assert!(MOMENT_KEYS.contains(&key));
            assert_eq!(format!("moment.{}", moment.token()), key.id);
        }
    }
}
