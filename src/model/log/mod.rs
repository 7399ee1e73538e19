//! The "Log & index" scene's model: a partition as a directory of segments with
//! sparse offset and time indexes, lookups phase by phase, retention and compaction,
//! following Kafka's storage layer (`UnifiedLog`, `LocalLog`, `LogSegment`,
//! `OffsetIndex`, `TimeIndex`, `LogCleaner`).

mod chunked;
pub mod cleaner;
pub mod index;
pub mod lookup;
pub mod memory;
pub mod partition;
pub mod producer;
pub mod reader;
pub mod record;
pub mod retention;
mod scene;
pub mod schema;
pub mod segment;
pub mod views;
mod world;

pub use cleaner::{CleanerCheck, Cleaning};
pub use index::{IndexError, IndexProbe, IndexSearch, OffsetIndex, TimeIndex};
pub use lookup::{LookupComparison, OffsetLookup, ReadError, ScanPhase, ScannedBatch, TimeLookup};
pub use memory::{memory_report, MemoryReport};
pub use partition::{AppendInfo, LogSettings, NewRecord, PartitionLog, PARTITION, TOPIC};
pub use retention::{Deletion, DeletionReason};
pub use scene::WALKTHROUGH_SEGMENT_BYTES;
pub use schema::LOG_SCHEMA;
pub use segment::{RollReason, Segment};
pub use world::{Command, Event, LogLab, LookupResult};
