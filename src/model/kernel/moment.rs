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

impl Moment {
    /// Its name's catalog key.
    pub fn key(self) -> Key {
        match self {
            Moment::Fault => MOMENT_FAULT,
            Moment::Fence => MOMENT_FENCE,
            Moment::IsrShrink => MOMENT_ISR_SHRINK,
            Moment::IsrExpand => MOMENT_ISR_EXPAND,
            Moment::Election => MOMENT_ELECTION,
            Moment::Loss => MOMENT_LOSS,
            Moment::RebalanceStart => MOMENT_REBALANCE_START,
            Moment::RebalanceEnd => MOMENT_REBALANCE_END,
            Moment::Expiry => MOMENT_EXPIRY,
            Moment::Roll => MOMENT_ROLL,
            Moment::Deletion => MOMENT_DELETION,
            Moment::Cleaning => MOMENT_CLEANING,
            Moment::Fire => MOMENT_FIRE,
            Moment::Fall => MOMENT_FALL,
            Moment::Answer => MOMENT_ANSWER,
        }
    }

    /// A short token for styling the marker (`data-moment`): its key's last part. Spelled out,
    /// because the site's wasm knows keys by short ids (`catalog_key!`).
    pub fn token(self) -> &'static str {
        match self {
            Moment::Fault => "fault",
            Moment::Fence => "fence",
            Moment::IsrShrink => "isr_shrink",
            Moment::IsrExpand => "isr_expand",
            Moment::Election => "election",
            Moment::Loss => "loss",
            Moment::RebalanceStart => "rebalance_start",
            Moment::RebalanceEnd => "rebalance_end",
            Moment::Expiry => "expiry",
            Moment::Roll => "roll",
            Moment::Deletion => "deletion",
            Moment::Cleaning => "cleaning",
            Moment::Fire => "fire",
            Moment::Fall => "fall",
            Moment::Answer => "answer",
        }
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
    fn a_moments_token_is_its_keys_last_part() {
        use Moment::*;
        let all = [
            Fault,
            Fence,
            IsrShrink,
            IsrExpand,
            Election,
            Loss,
            RebalanceStart,
            RebalanceEnd,
            Expiry,
            Roll,
            Deletion,
            Cleaning,
            Fire,
            Fall,
            Answer,
        ];
        assert_eq!(all.len(), MOMENT_KEYS.len());
        for moment in all {
            assert_eq!(format!("moment.{}", moment.token()), moment.key().id);
        }
    }
}
