//! Scene "Exactly once" (issue 16): the idempotent producer and transactions.

mod conformance;
pub mod core;

pub use conformance::{TxnError, TxnPartition};
