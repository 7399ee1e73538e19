//! The log scene's world: one partition, a producer, the broker's retention task,
//! the log cleaner thread and a slow table reader, on the kernel's virtual clock.

use super::cleaner::CleanerCheck;
use super::lookup::{OffsetLookup, ReadError, TimeLookup};
use super::partition::{LogSettings, NewRecord, PartitionLog, PARTITION, TOPIC};
use super::producer::{Burst, Producer};
use super::reader::TableReader;
use super::record::{key_text, NULL_VALUE};
use super::segment::RollReason;
use crate::model::config::Config;
use crate::model::kernel::Ctx;

/// Retention, cleaner and lookup reporting: what the log does on its own schedule.
mod housekeeping;

/// The scene's events (Kafka's scheduler tasks and the lab's producer and reader).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The producer sends its planned batch.
    SendBatch,
    /// The low-traffic producer's next single record (`lab.trickle.interval.ms`).
    Trickle,
    /// LogManager's `kafka-log-retention` task (`log.retention.check.interval.ms`).
    RetentionCheck,
    /// One pass of the log cleaner thread (`log.cleaner.backoff.ms` when idle).
    CleanerPass,
    /// The `delete-file` task removing `.deleted` files (`file.delete.delay.ms`).
    DeleteFiles,
    /// The table reader's next second of reading.
    ReaderTick,
}

/// What a learner can do in the scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Produce `records` records with keys from `keys` distinct keys (0 = no key) and `value_bytes` values.
    Produce {
        records: u32,
        keys: u32,
        value_bytes: u32,
    },
    /// A record with `key` and a null value.
    Tombstone {
        key: u32,
    },
    /// `kafka-configs --alter --add-config name=value`.
    SetConfig {
        name: String,
        value: String,
    },
    /// `kafka-delete-records` up to `before_offset` (-1 = the high watermark).
    DeleteRecords {
        before_offset: i64,
    },
    LookupOffset {
        offset: i64,
    },
    LookupTimestamp {
        timestamp_ms: i64,
    },
    /// Start a consumer rebuilding a table from the log start, `records_per_sec` records a second.
    StartReader {
        records_per_sec: u32,
    },
}

/// The last lookup, kept for the UI to animate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LookupResult {
    Offset(Result<OffsetLookup, ReadError>),
    Timestamp(TimeLookup),
}

/// The whole log scene; reads every property of [`super::LOG_SCHEMA`].
#[derive(Clone, Debug)]
pub struct LogLab {
    pub(super) config: Config,
    pub(super) log: PartitionLog,
    pub(super) producer: Producer,
    pub(super) reader: Option<TableReader>,
    pub(super) last_lookup: Option<LookupResult>,
    pub(super) last_cleaner_check: Option<CleanerCheck>,
    pub(super) trickle_sent: u64,
}

const MAX_PRODUCE: u32 = 2_000_000;

impl LogLab {
    pub fn new(config: Config) -> Self {
        let log = PartitionLog::new(LogSettings::from_config(&config), 0);
        Self {
            config,
            log,
            producer: Producer::default(),
            reader: None,
            last_lookup: None,
            last_cleaner_check: None,
            trickle_sent: 0,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn log(&self) -> &PartitionLog {
        &self.log
    }

    pub fn last_lookup(&self) -> Option<&LookupResult> {
        self.last_lookup.as_ref()
    }

    pub fn last_cleaner_check(&self) -> Option<&CleanerCheck> {
        self.last_cleaner_check.as_ref()
    }

    pub fn reader(&self) -> Option<&TableReader> {
        self.reader.as_ref()
    }

    /// True while a produce burst is still sending.
    pub fn producing(&self) -> bool {
        !self.producer.bursts.is_empty()
    }

    fn append(&mut self, records: &[NewRecord], ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let info = self.log.append(records, ctx.now_ms() as i64);
        if let Some(reason) = info.rolled {
            let why = match reason {
                RollReason::Size => format!("segment.bytes={} would be exceeded", self.log.settings().segment_bytes),
                RollReason::Time => {
                    format!("segment.ms={} has passed since the segment's first record", self.log.settings().segment_ms)
                }
                RollReason::IndexFull => {
                    format!("an index reached segment.index.bytes={}", self.log.settings().segment_index_bytes)
                }
                RollReason::OffsetOverflow => "offsets no longer fit 4 bytes relative to the base offset".to_string(),
            };
            ctx.log(
                format!("{TOPIC}-{PARTITION}"),
                format!("Rolled new log segment at offset {} ({why})", info.base_offset),
            );
        }
    }

    fn schedule_next_batch(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let batch_size = self.config.int("batch.size") as u32;
        let Some(burst) = self.producer.bursts.front() else {
            return;
        };
        self.producer.pending = burst.plan_batch(batch_size);
        let last_ms = self.producer.pending.last().map_or(0, |r| r.timestamp_ms) as u64;
        ctx.schedule(last_ms.saturating_sub(ctx.now_ms()), Event::SendBatch);
    }

    fn send_batch(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let records = std::mem::take(&mut self.producer.pending);
        if records.is_empty() {
            return;
        }
        self.append(&records, ctx);
        self.producer.records_sent += records.len() as u64;
        let burst = self.producer.bursts.front_mut().expect("a pending batch belongs to a burst");
        burst.sent += records.len() as u32;
        if burst.is_done() {
            let done = self.producer.bursts.pop_front().expect("front burst");
            ctx.log(
                "producer",
                format!(
                    "sent {} records of {} B ({}); LEO is now {}",
                    done.total,
                    done.value_bytes,
                    keys_text(done.keys),
                    self.log.log_end_offset()
                ),
            );
            if let Some(next) = self.producer.bursts.front_mut() {
                next.start_us = ctx.now_ms() * 1000;
            }
        }
        self.schedule_next_batch(ctx);
    }

    fn produce(
        &mut self,
        records: u32,
        keys: u32,
        value_bytes: u32,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        if records == 0 || records > MAX_PRODUCE {
            return Err(format!("Produce takes 1 to {MAX_PRODUCE} records, not {records}."));
        }
        if keys == 0 && self.log.rejects_null_keys() {
            return Err(PartitionLog::null_key_error());
        }
        if value_bytes > 1_048_588 {
            return Err(format!(
                "The message is {value_bytes} bytes when serialized which is larger than 1048588, which is the value of the max.message.bytes configuration."
            ));
        }
        let burst = Burst {
            total: records,
            sent: 0,
            keys,
            value_bytes,
            seed: ctx.random_u64(),
            start_us: ctx.now_ms() * 1000,
            records_per_sec: self.config.int("lab.producer.records.per.sec") as u64,
        };
        self.producer.bursts.push_back(burst);
        if self.producer.bursts.len() == 1 {
            self.schedule_next_batch(ctx);
        }
        Ok(())
    }

    fn set_config(
        &mut self,
        name: &str,
        value: &str,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        if name == "min.cleanable.dirty.ratio" {
            super::schema::check_dirty_ratio(value)?;
        }
        let mut config = self.config.clone();
        config.set(name, value).map_err(|e| e.to_string())?;
        self.config = config;
        self.log.set_settings(LogSettings::from_config(&self.config));
        ctx.log("kafka-configs", format!("Completed updating config for topic {TOPIC}: {name}={value}"));
        if name == "lab.trickle.interval.ms" {
            ctx.cancel_where(|e| *e == Event::Trickle);
            self.schedule_trickle(ctx);
        }
        Ok(())
    }

    fn schedule_trickle(&self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let interval_ms = self.config.int("lab.trickle.interval.ms") as u64;
        if interval_ms > 0 {
            ctx.schedule(interval_ms, Event::Trickle);
        }
    }
}

fn keys_text(keys: u32) -> String {
    if keys == 0 {
        "no key".to_string()
    } else {
        format!("keys key-0..key-{}", keys - 1)
    }
}

impl crate::model::kernel::LegacyWorld for LogLab {
    type Event = Event;
    type Command = Command;

    fn start(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        ctx.schedule(self.config.int("log.initial.task.delay.ms") as u64, Event::RetentionCheck);
        ctx.schedule(self.config.int("log.cleaner.backoff.ms") as u64, Event::CleanerPass);
        self.schedule_trickle(ctx);
    }

    fn handle(&mut self, event: Event, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let now_ms = ctx.now_ms() as i64;
        match event {
            Event::SendBatch => self.send_batch(ctx),
            Event::Trickle => {
                let key = (self.trickle_sent % 100) as u32;
                self.trickle_sent += 1;
                self.append(&[NewRecord { key_id: key, value_bytes: 100, timestamp_ms: now_ms }], ctx);
                self.schedule_trickle(ctx);
            }
            Event::RetentionCheck => {
                if !self.log.settings().compact {
                    let deletions = self.log.delete_old_segments(now_ms);
                    self.log_deletions(&deletions, ctx);
                }
                ctx.schedule(self.config.int("log.retention.check.interval.ms") as u64, Event::RetentionCheck);
            }
            Event::CleanerPass => self.cleaner_pass(ctx),
            Event::DeleteFiles => {
                for base in self.log.remove_deleted_files(now_ms) {
                    ctx.log(
                        format!("{TOPIC}-{PARTITION}"),
                        format!("Deleted log, index and time index files of segment {base:020}"),
                    );
                }
            }
            Event::ReaderTick => {
                if let Some(reader) = &mut self.reader {
                    reader.poll(&self.log);
                    ctx.schedule(1000, Event::ReaderTick);
                }
            }
        }
    }

    fn apply(&mut self, command: &Command, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        let now_ms = ctx.now_ms() as i64;
        match command {
            Command::Produce { records, keys, value_bytes } => self.produce(*records, *keys, *value_bytes, ctx),
            Command::Tombstone { key } => {
                self.append(&[NewRecord { key_id: *key, value_bytes: NULL_VALUE, timestamp_ms: now_ms }], ctx);
                ctx.log(
                    "producer",
                    format!("sent a tombstone for {} at offset {}", key_text(*key), self.log.log_end_offset() - 1),
                );
                Ok(())
            }
            Command::SetConfig { name, value } => self.set_config(name, value, ctx),
            Command::DeleteRecords { before_offset } => {
                let start = self.log.delete_records(*before_offset)?;
                ctx.log("kafka-delete-records", format!("{TOPIC}-{PARTITION}: low_watermark {start}"));
                Ok(())
            }
            Command::LookupOffset { offset } => {
                let result = LookupResult::Offset(self.log.lookup_offset(*offset));
                self.lookup(result, ctx);
                Ok(())
            }
            Command::LookupTimestamp { timestamp_ms } => {
                let result = LookupResult::Timestamp(self.log.lookup_timestamp(*timestamp_ms));
                self.lookup(result, ctx);
                Ok(())
            }
            Command::StartReader { records_per_sec } => {
                if *records_per_sec == 0 {
                    return Err("The reader needs a pace of at least 1 record per second.".into());
                }
                let replacing = self.reader.is_some();
                self.reader = Some(TableReader::new(self.log.log_start_offset(), *records_per_sec));
                if !replacing {
                    ctx.schedule(1000, Event::ReaderTick);
                }
                ctx.log(
                    "reader",
                    format!(
                        "started rebuilding its table from offset {} at {records_per_sec} records/s",
                        self.log.log_start_offset()
                    ),
                );
                Ok(())
            }
        }
    }
}

crate::legacy_world!(LogLab);
