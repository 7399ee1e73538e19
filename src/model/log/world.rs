//! The log scene's world: one partition, a producer, the broker's retention task,
//! the log cleaner thread and a slow table reader, on the kernel's virtual clock.

use super::producer::{largest_batch_bytes, Burst};
use super::reader::TableReader;
use super::record::{estimate_batch_size_upper_bound, NULL_KEY, NULL_VALUE};
use super::schema::{check_compaction_lags, check_dirty_ratio, DIRTY_RATIO};
use super::segment::RollReason;
use super::{
    Command, Event, Fact, LogCtx, LogLab, LookupResult, NewRecord, Refusal, RollCause, Settings, KAFKA_CONFIGS,
    KAFKA_DELETE_RECORDS, MAX_PRODUCE_RECORDS, PARTITION_LOG, TABLE_READER,
};
use crate::model::kernel::{Actor, World};

/// The property whose change reschedules the trickle producer.
const TRICKLE_INTERVAL: &str = "lab.trickle.interval.ms";

impl LogLab {
    fn append(&mut self, records: &[NewRecord], ctx: &mut LogCtx) {
        let info = self.log.append(records, ctx.now_ms() as i64);
        if let Some(reason) = info.rolled {
            let settings = self.log.settings();
            let cause = match reason {
                RollReason::Size => RollCause::Size { segment_bytes: settings.segment_bytes },
                RollReason::Time => RollCause::Time { segment_ms: settings.segment_ms },
                RollReason::IndexFull => RollCause::IndexFull { segment_index_bytes: settings.segment_index_bytes },
                RollReason::OffsetOverflow => RollCause::OffsetOverflow,
            };
            ctx.record(PARTITION_LOG, Fact::SegmentRolled { base_offset: info.base_offset, cause });
        }
    }

    fn schedule_next_batch(&mut self, ctx: &mut LogCtx) {
        let Some(burst) = self.producer.bursts.front() else {
            return;
        };
        self.producer.pending = burst.plan_batch(self.settings.batch_size_bytes);
        let last_ms = self.producer.pending.last().map_or(0, |r| r.timestamp_ms) as u64;
        ctx.schedule(last_ms.saturating_sub(ctx.now_ms()), Event::SendBatch);
    }

    fn send_batch(&mut self, ctx: &mut LogCtx) {
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
            let fact = Fact::BurstSent {
                records: done.total,
                value_bytes: done.value_bytes,
                keys: done.keys,
                log_end_offset: self.log.log_end_offset(),
            };
            ctx.record(Actor::Producer, fact);
            if let Some(next) = self.producer.bursts.front_mut() {
                next.start_us = ctx.now_ms() * 1000;
            }
        }
        self.schedule_next_batch(ctx);
    }

    fn produce(&mut self, records: u32, keys: u32, value_bytes: u32, ctx: &mut LogCtx) {
        let burst = Burst {
            total: records,
            sent: 0,
            keys,
            value_bytes,
            seed: ctx.random_u64(),
            start_us: ctx.now_ms() * 1000,
            records_per_sec: self.settings.records_per_sec,
        };
        self.producer.bursts.push_back(burst);
        if self.producer.bursts.len() == 1 {
            self.schedule_next_batch(ctx);
        }
    }

    /// The steady producer: one burst of [`MAX_PRODUCE_RECORDS`] at the producer's pace.
    fn start_producer(&mut self, keys: u32, value_bytes: u32, ctx: &mut LogCtx) {
        let fact = Fact::ProducerStarted {
            records_per_sec: self.settings.records_per_sec,
            value_bytes,
            keys,
            max_records: MAX_PRODUCE_RECORDS,
        };
        ctx.record(Actor::Producer, fact);
        self.produce(MAX_PRODUCE_RECORDS, keys, value_bytes, ctx);
    }

    fn set_config(&mut self, name: &str, value: &str, ctx: &mut LogCtx) {
        let applied = self.config.set(name, value);
        debug_assert!(applied.is_ok(), "set_config without check: {applied:?}");
        self.settings = Settings::from_config(&self.config);
        self.log.set_settings(self.settings.log.clone());
        ctx.record(KAFKA_CONFIGS, Fact::ConfigUpdated { name: name.to_string(), value: value.to_string() });
        if name == TRICKLE_INTERVAL {
            ctx.cancel_where(|e| *e == Event::Trickle);
            self.schedule_trickle(ctx);
        }
    }

    fn schedule_trickle(&self, ctx: &mut LogCtx) {
        if self.settings.trickle_interval_ms > 0 {
            ctx.schedule(self.settings.trickle_interval_ms, Event::Trickle);
        }
    }

    fn trickle(&mut self, ctx: &mut LogCtx) {
        let key = (self.trickle_sent % 100) as u32;
        self.trickle_sent += 1;
        self.append(&[NewRecord { key_id: key, value_bytes: 100, timestamp_ms: ctx.now_ms() as i64 }], ctx);
        self.schedule_trickle(ctx);
    }

    fn start_reader(&mut self, records_per_sec: u32, ctx: &mut LogCtx) {
        let replacing = self.reader.is_some();
        let from_offset = self.log.log_start_offset();
        self.reader = Some(TableReader::new(from_offset, records_per_sec));
        if !replacing {
            ctx.schedule(1000, Event::ReaderTick);
        }
        ctx.record(TABLE_READER, Fact::ReaderStarted { from_offset, records_per_sec });
    }

    /// Why `command` cannot run now, if it cannot.
    fn refusal(&self, command: &Command) -> Option<Refusal> {
        match command {
            Command::Produce { records, keys, value_bytes } => self.produce_refusal(*records, *keys, *value_bytes),
            Command::StartProducer { keys, value_bytes } => {
                self.produce_refusal(MAX_PRODUCE_RECORDS, *keys, *value_bytes)
            }
            Command::SetConfig { name, value } => self.config_refusal(name, value),
            Command::DeleteRecords { before_offset } => {
                self.log.check_delete_records(*before_offset).err().map(Refusal::DeleteRecords)
            }
            Command::StartReader { records_per_sec: 0 } => Some(Refusal::ReaderPace),
            Command::Tombstone { .. }
            | Command::LookupOffset { .. }
            | Command::LookupTimestamp { .. }
            | Command::StartReader { .. } => None,
        }
    }

    /// In Kafka's order: the producer's own size check (`KafkaProducer.ensureValidRecordSize`), then
    /// the broker's batch size (`UnifiedLog.analyzeAndValidateRecords`), then its key check (`LogValidator`).
    fn produce_refusal(&self, records: u32, keys: u32, value_bytes: u32) -> Option<Refusal> {
        if records == 0 || records > MAX_PRODUCE_RECORDS {
            return Some(Refusal::ProduceCount { records, max: MAX_PRODUCE_RECORDS });
        }
        let longest_key = if keys == 0 { NULL_KEY } else { keys - 1 };
        let size_bytes = estimate_batch_size_upper_bound(longest_key, value_bytes);
        let max_request_size = self.settings.max_request_size_bytes;
        if size_bytes > max_request_size {
            return Some(Refusal::RecordTooLarge { size_bytes, max_request_size });
        }
        if i64::from(size_bytes) > self.settings.buffer_memory_bytes {
            return Some(Refusal::RecordTooLargeForBuffer { size_bytes });
        }
        let burst = Burst {
            total: records,
            sent: 0,
            keys,
            value_bytes,
            seed: 0,
            start_us: 0,
            records_per_sec: self.settings.records_per_sec,
        };
        let max_message_bytes = self.log.settings().max_message_bytes;
        let batch_bytes = largest_batch_bytes(&burst, self.settings.batch_size_bytes, max_message_bytes);
        if batch_bytes > max_message_bytes {
            Some(Refusal::MessageTooLarge { batch_bytes, max_message_bytes })
        } else if keys == 0 && self.log.rejects_null_keys() {
            Some(Refusal::NullKeyOnCompactedTopic)
        } else {
            None
        }
    }

    fn config_refusal(&self, name: &str, value: &str) -> Option<Refusal> {
        if name == DIRTY_RATIO {
            if let Err(refusal) = check_dirty_ratio(value) {
                return Some(refusal);
            }
        }
        let mut next = self.config.clone();
        match next.set(name, value) {
            Err(error) => Some(Refusal::Config(error)),
            Ok(_) => check_compaction_lags(&next).err(),
        }
    }
}

impl World for LogLab {
    type Event = Event;
    type Command = Command;
    type Fact = Fact;
    type Refusal = Refusal;

    fn start(&mut self, ctx: &mut LogCtx) {
        ctx.schedule(self.settings.initial_task_delay_ms, Event::RetentionCheck);
        ctx.schedule(self.settings.cleaner_backoff_ms, Event::CleanerPass);
        self.schedule_trickle(ctx);
    }

    fn handle(&mut self, event: Event, ctx: &mut LogCtx) {
        let now_ms = ctx.now_ms() as i64;
        match event {
            Event::SendBatch => self.send_batch(ctx),
            Event::Trickle => self.trickle(ctx),
            Event::RetentionCheck => {
                if !self.log.settings().compact {
                    let deletions = self.log.delete_old_segments(now_ms);
                    self.record_deletions(&deletions, ctx);
                    self.report_held_back(now_ms, ctx);
                }
                ctx.schedule(self.settings.retention_check_interval_ms, Event::RetentionCheck);
            }
            Event::CleanerPass => self.cleaner_pass(ctx),
            Event::DeleteFiles => {
                for base_offset in self.log.remove_deleted_files(now_ms) {
                    ctx.record(PARTITION_LOG, Fact::SegmentFilesRemoved { base_offset });
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

    fn check(&self, command: &Command, _ctx: &LogCtx) -> Result<(), Refusal> {
        self.refusal(command).map_or(Ok(()), Err)
    }

    fn apply(&mut self, command: &Command, ctx: &mut LogCtx) {
        debug_assert!(self.refusal(command).is_none(), "apply without check: {command:?}");
        let now_ms = ctx.now_ms() as i64;
        match command {
            Command::Produce { records, keys, value_bytes } => self.produce(*records, *keys, *value_bytes, ctx),
            Command::Tombstone { key } => {
                self.append(&[NewRecord { key_id: *key, value_bytes: NULL_VALUE, timestamp_ms: now_ms }], ctx);
                ctx.record(Actor::Producer, Fact::TombstoneSent { key: *key, offset: self.log.log_end_offset() - 1 });
            }
            Command::SetConfig { name, value } => self.set_config(name, value, ctx),
            Command::DeleteRecords { before_offset } => {
                let low_watermark = self.log.delete_records(*before_offset);
                ctx.record(KAFKA_DELETE_RECORDS, Fact::RecordsDeleted { low_watermark });
            }
            Command::LookupOffset { offset } => {
                let result = LookupResult::Offset(self.log.lookup_offset(*offset));
                self.lookup(result, ctx);
            }
            Command::LookupTimestamp { timestamp_ms } => {
                let result = LookupResult::Timestamp(self.log.lookup_timestamp(*timestamp_ms));
                self.lookup(result, ctx);
            }
            Command::StartReader { records_per_sec } => self.start_reader(*records_per_sec, ctx),
            Command::StartProducer { keys, value_bytes } => self.start_producer(*keys, *value_bytes, ctx),
        }
    }
}

/// No view looks for particular pending events in this scene.
impl crate::model::kernel::Watched for Event {}
