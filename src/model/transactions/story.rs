//! The scene's stories: which facts are key moments, and what each preset shows.

use super::broker::is_fencing;
use super::story_retry as retry;
use super::story_say as say;
use super::story_txn as txn;
use super::{Fact, TxnLab};
use crate::model::kernel::{Message, Moment, Salience, Salient};
use crate::model::story::{Beat, Cue, Story};

pub use super::story_retry::RETRY_STORY_KEYS;
pub use super::story_say::STORY_KEYS;
pub use super::story_txn::TXN_STORY_KEYS;

impl Salient for Fact {
    fn salience(&self) -> Salience {
        match self {
            Fact::BatchSent { attempt: 1, .. }
            | Fact::Written { .. }
            | Fact::PartitionAdded { .. }
            | Fact::Fetched { duplicates: 0, .. }
            | Fact::RowsInserted { again: 0, .. }
            | Fact::CoordinatorUnreachable { .. } => Salience::Routine,
            Fact::EarlierRuns { .. }
            | Fact::ProducerIdAssigned { .. }
            | Fact::PlainProducer { .. }
            | Fact::BatchSent { .. }
            | Fact::DuplicateAnswered { .. }
            | Fact::Retrying { .. }
            | Fact::InitRetrying { .. }
            | Fact::GaveUp { .. }
            | Fact::EndTxn { .. }
            | Fact::Polled { .. }
            | Fact::OffsetsCommitted { .. }
            | Fact::OffsetsSentToTransaction { .. }
            | Fact::TransactionalOffsets { .. }
            | Fact::ResumedFromCommitted { .. }
            | Fact::StreamStarted { .. } => Salience::Notable,
            Fact::ProduceRefused { error, .. } | Fact::CoordinatorRefused { error, .. } if is_fencing(*error) => {
                Salience::Key(Moment::Fence)
            }
            Fact::ProduceRefused { .. } | Fact::CoordinatorRefused { .. } => Salience::Notable,
            Fact::OpenTransactionFenced { .. } | Fact::ClientFenced { .. } => Salience::Key(Moment::Fence),
            Fact::DuplicateWritten { .. }
            | Fact::Reordered { .. }
            | Fact::Fetched { .. }
            | Fact::RowsInserted { .. } => Salience::Key(Moment::Loss),
            Fact::MarkerWritten { .. } => Salience::Key(Moment::Answer),
            Fact::TransactionTimedOut { .. } => Salience::Key(Moment::Expiry),
            Fact::NotEnoughReplicas { .. }
            | Fact::ConnectionDropped { .. }
            | Fact::Crashed { .. }
            | Fact::Restarted { .. }
            | Fact::Paused { .. }
            | Fact::Resumed { .. }
            | Fact::CoordinatorCut
            | Fact::CoordinatorHealed => Salience::Key(Moment::Fault),
        }
    }
}

/// A beat that says a fixed text.
macro_rules! said {
    ($cue:expr, $key:expr) => {
        Beat { cue: $cue, say: |_| Message::new($key) }
    };
}

const ZOMBIE_BEATS: &[Beat<TxnLab>] = &[
    Beat { cue: Cue::Start, say: txn::zombie_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: txn::zombie_paused },
    Beat { cue: Cue::Nth(Moment::Fault, 2), say: txn::zombie_restarted },
    Beat { cue: Cue::Nth(Moment::Fence, 1), say: txn::zombie_fenced },
];

const HUNG_BEATS: &[Beat<TxnLab>] = &[
    Beat { cue: Cue::Start, say: txn::hung_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: txn::hung_stalled },
    Beat { cue: Cue::At(40), say: txn::hung_growing },
    Beat { cue: Cue::Nth(Moment::Expiry, 1), say: txn::hung_aborted },
];

const ABORTED_BEATS: &[Beat<TxnLab>] = &[
    Beat { cue: Cue::Start, say: txn::aborted_intro },
    Beat { cue: Cue::Nth(Moment::Answer, 2), say: txn::aborted_abort },
    said!(Cue::Nth(Moment::Answer, 3), txn::ABORTED_COMMIT),
];

const CRASH_BEATS: &[Beat<TxnLab>] = &[
    Beat { cue: Cue::Start, say: retry::crash_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: retry::crash_down },
    Beat { cue: Cue::Nth(Moment::Fault, 2), say: retry::crash_back },
    Beat { cue: Cue::Nth(Moment::Loss, 1), say: retry::crash_twice },
];

const EOS_BEATS: &[Beat<TxnLab>] = &[
    Beat { cue: Cue::Start, say: retry::crash_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: retry::crash_down },
    Beat { cue: Cue::Nth(Moment::Fence, 1), say: retry::crash_fenced },
    said!(Cue::Last(Moment::Answer), retry::CRASH_COMMITTED),
];

const DB_BEATS: &[Beat<TxnLab>] = &[
    Beat { cue: Cue::Start, say: retry::crash_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: retry::crash_down },
    Beat { cue: Cue::Nth(Moment::Fence, 1), say: retry::crash_fenced },
    Beat { cue: Cue::Nth(Moment::Loss, 1), say: retry::db_twice },
    said!(Cue::Last(Moment::Answer), retry::CRASH_COMMITTED),
];

const DUP_BEATS: &[Beat<TxnLab>] = &[
    said!(Cue::Start, retry::DUP_INTRO),
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: retry::dropped },
    Beat { cue: Cue::At(7), say: retry::dup_retry },
    Beat { cue: Cue::Nth(Moment::Loss, 1), say: retry::dup_written },
];

const REORDER_BEATS: &[Beat<TxnLab>] = &[
    Beat { cue: Cue::Start, say: retry::reorder_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: retry::reorder_failed },
    Beat { cue: Cue::At(8), say: retry::reorder_retry },
    Beat { cue: Cue::Nth(Moment::Loss, 1), say: retry::reorder_landed },
];

const IDEM_BEATS: &[Beat<TxnLab>] = &[
    Beat { cue: Cue::Start, say: retry::idem_intro },
    Beat { cue: Cue::Nth(Moment::Fault, 1), say: retry::dropped },
    Beat { cue: Cue::At(9), say: retry::idem_dedup },
    Beat { cue: Cue::Nth(Moment::Fault, 2), say: retry::idem_order },
    said!(Cue::At(19), retry::IDEM_DONE),
];

const ZOMBIE_FENCING: Story<TxnLab> = Story {
    start: Cue::At(5),
    speed: 1.0,
    question: |_| Message::new(txn::ZOMBIE_QUESTION),
    watch: |_| Message::new(txn::ZOMBIE_WATCH),
    outcome: Cue::Nth(Moment::Fence, 1),
    answer: txn::zombie_answer,
    beats: ZOMBIE_BEATS,
};

const HUNG_TRANSACTION: Story<TxnLab> = Story {
    start: Cue::At(3),
    speed: 10.0,
    question: |_| Message::new(txn::HUNG_QUESTION),
    watch: |_| Message::new(txn::HUNG_WATCH),
    outcome: Cue::Nth(Moment::Answer, 1),
    answer: txn::hung_answer,
    beats: HUNG_BEATS,
};

const ABORTED_RECORDS: Story<TxnLab> = Story {
    start: Cue::At(5),
    speed: 1.0,
    question: |_| Message::new(txn::ABORTED_QUESTION),
    watch: |_| Message::new(txn::ABORTED_WATCH),
    outcome: Cue::End,
    answer: txn::aborted_answer,
    beats: ABORTED_BEATS,
};

const CRASH_NO_TXN: Story<TxnLab> = Story {
    start: Cue::At(5),
    speed: 1.0,
    question: |_| Message::new(retry::CRASH_QUESTION),
    watch: |_| Message::new(retry::CRASH_WATCH),
    outcome: Cue::End,
    answer: retry::crash_no_txn_answer,
    beats: CRASH_BEATS,
};

const CRASH_EOS: Story<TxnLab> = Story {
    start: Cue::At(5),
    speed: 1.0,
    question: |_| Message::new(retry::CRASH_QUESTION),
    watch: |_| Message::new(retry::CRASH_WATCH),
    outcome: Cue::End,
    answer: retry::crash_eos_answer,
    beats: EOS_BEATS,
};

const EOS_DATABASE: Story<TxnLab> = Story {
    start: Cue::At(5),
    speed: 1.0,
    question: |_| Message::new(retry::DB_QUESTION),
    watch: |_| Message::new(retry::DB_WATCH),
    outcome: Cue::End,
    answer: retry::db_answer,
    beats: DB_BEATS,
};

const RETRY_DUPLICATE: Story<TxnLab> = Story {
    start: Cue::At(3),
    speed: 0.1,
    question: |_| Message::new(retry::DUP_QUESTION),
    watch: |_| Message::new(retry::DUP_WATCH),
    outcome: Cue::Nth(Moment::Loss, 2),
    answer: retry::dup_answer,
    beats: DUP_BEATS,
};

const RETRY_REORDER: Story<TxnLab> = Story {
    start: Cue::At(3),
    speed: 0.1,
    question: |_| Message::new(retry::REORDER_QUESTION),
    watch: |_| Message::new(retry::REORDER_WATCH),
    outcome: Cue::Nth(Moment::Loss, 1),
    answer: retry::reorder_answer,
    beats: REORDER_BEATS,
};

const IDEMPOTENT_RETRY: Story<TxnLab> = Story {
    start: Cue::At(3),
    speed: 0.25,
    question: |_| Message::new(retry::IDEM_QUESTION),
    watch: |_| Message::new(retry::IDEM_WATCH),
    outcome: Cue::At(19),
    answer: retry::idem_answer,
    beats: IDEM_BEATS,
};

const DEFAULT: Story<TxnLab> = Story {
    start: Cue::At(0),
    speed: 1.0,
    question: say::default_question,
    watch: say::default_watch,
    outcome: Cue::Start,
    answer: say::default_answer,
    beats: &[],
};

/// The scene's story for `preset` (`None`: the scene's default).
///
/// Each opens just before its moment: the GC pause (zombie), the stall (hung transaction), the
/// transaction to be aborted, the processing the crash interrupts, the lost or failed request.
/// The hung transaction plays at 10× (70 s of virtual time); the retries in slow motion.
pub fn story(preset: Option<&str>) -> Story<TxnLab> {
    match preset {
        Some("zombie-fencing") => ZOMBIE_FENCING,
        Some("hung-transaction") => HUNG_TRANSACTION,
        Some("aborted-records") => ABORTED_RECORDS,
        Some("crash-no-txn") => CRASH_NO_TXN,
        Some("crash-eos") => CRASH_EOS,
        Some("eos-database") => EOS_DATABASE,
        Some("retry-duplicate") => RETRY_DUPLICATE,
        Some("retry-reorder") => RETRY_REORDER,
        Some("idempotent-retry") => IDEMPOTENT_RETRY,
        _ => DEFAULT,
    }
}
