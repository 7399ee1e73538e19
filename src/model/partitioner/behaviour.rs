//! How the Partitioner scene reacts to commands and to its producer, sender and consumers.

use super::load::{produce_load, KeyChoice, KeyDistribution, LoadReport};
use super::repartition::{expected_fraction_stayed, KeyMove, RepartitionAnalysis};
use super::{
    partition_for_key, AlterView, Event, Fact, Overtaken, Partitioner, PartitionerCtx, ProduceRound, TrackedRecord,
    CONSUMER_TICK_MS, HOT_KEY,
};
use crate::model::kernel::Actor;

impl Partitioner {
    pub(super) fn set_key(&mut self, bytes: &[u8], ctx: &mut PartitionerCtx) {
        self.key = Some(bytes.to_vec());
        ctx.record(Actor::Producer, Fact::KeyHashed { key: bytes.to_vec(), partitions: self.num_partitions });
    }

    pub(super) fn alter(&mut self, partitions: u32, ctx: &mut PartitionerCtx) {
        let from = self.num_partitions;
        let population = self.workload.population();
        let analysis = RepartitionAnalysis::new(population.iter().map(|k| k.as_bytes()), from, partitions);
        let moved_of =
            |key: &[u8]| KeyMove { from: partition_for_key(key, from), to: partition_for_key(key, partitions) };
        let view = AlterView {
            at_ms: ctx.now_ms(),
            from_partitions: from,
            to_partitions: partitions,
            keys: analysis.keys(),
            moved_keys: analysis.moved_keys,
            fraction_stayed: analysis.fraction_stayed(),
            expected_fraction_stayed: expected_fraction_stayed(from, partitions),
            watched_key: self.key.as_deref().map(moved_of),
            hot_key: moved_of(HOT_KEY.as_bytes()),
        };
        self.num_partitions = partitions;
        self.logs.resize(partitions as usize, Default::default());
        self.table = self.workload.partition_table(partitions);
        self.accumulator.on_partition_count_change();
        ctx.record(Actor::Controller, Fact::PartitionsAdded { from, to: partitions });
        let watched = self.key.clone().zip(view.watched_key);
        let hot = (self.workload.distribution == KeyDistribution::Megacorp).then_some(view.hot_key);
        let (moved_keys, keys) = (view.moved_keys as u64, view.keys as u64);
        ctx.record(Actor::Producer, Fact::KeysRemapped { moved_keys, keys, watched, hot });
        self.alters.push(view);
    }

    pub(super) fn set_distribution(&mut self, distribution: KeyDistribution, ctx: &mut PartitionerCtx) {
        let composite = self.workload.composite_buckets.is_some();
        self.rebuild_workload(distribution, composite);
        ctx.record(Actor::Producer, Fact::DistributionSet { distribution });
    }

    pub(super) fn set_composite(&mut self, on: bool, ctx: &mut PartitionerCtx) {
        self.rebuild_workload(self.workload.distribution, on);
        ctx.record(Actor::Producer, Fact::CompositeSet { buckets: self.workload.composite_buckets });
    }

    fn rebuild_workload(&mut self, distribution: KeyDistribution, composite: bool) {
        self.workload = Self::workload_for(&self.settings, distribution, composite);
        self.table = self.workload.partition_table(self.num_partitions);
    }

    pub(super) fn produce(&mut self, records: u64, ctx: &mut PartitionerCtx) {
        let report = if self.settings.ignore_keys {
            self.produce_sticky(records, ctx)
        } else {
            let report = produce_load(&self.workload, &self.table, self.sequence, records, &mut Self::draw(ctx));
            self.sequence += records;
            for (log, added) in self.logs.iter_mut().zip(&report.records_per_partition) {
                log.end_offset += added;
            }
            report
        };
        for (log, hot) in self.logs.iter_mut().zip(&report.hot_records_per_partition) {
            log.hot_records += hot;
        }
        let distribution = self.workload.distribution;
        ctx.record(Actor::Producer, Fact::KeyedSent { records, distribution });
        let offsets = self.logs.iter().map(|log| log.end_offset).collect();
        ctx.record(Actor::Tool("kafka-get-offsets"), Fact::EndOffsets { offsets });
        self.rounds.push(ProduceRound {
            partitions: self.num_partitions,
            distribution,
            composite: self.workload.composite_buckets.is_some(),
            records,
            report,
        });
    }

    /// A keyed burst with `partitioner.ignore.keys`: each record through the sticky partitioner.
    fn produce_sticky(&mut self, records: u64, ctx: &mut PartitionerCtx) -> LoadReport {
        let n = self.num_partitions as usize;
        let mut report = LoadReport { records_per_partition: vec![0; n], hot_records_per_partition: vec![0; n] };
        for _ in 0..records {
            let choice = self.workload.choose(self.sequence, &mut Self::draw(ctx));
            self.sequence += 1;
            let key_bytes = self.workload.key_text(choice).len() as u32;
            let (partition, _) = self.append_sticky(Some(key_bytes), ctx);
            report.records_per_partition[partition as usize] += 1;
            report.hot_records_per_partition[partition as usize] += u64::from(matches!(choice, KeyChoice::Hot { .. }));
        }
        report
    }

    pub(super) fn send_tracked(&mut self, event: &str, ctx: &mut PartitionerCtx) {
        let Some(key) = self.key.clone() else {
            debug_assert!(false, "check refuses a tracked event without a key");
            return;
        };
        let (partition, offset) = self.append_keyed(&key, partition_for_key(&key, self.num_partitions), ctx);
        let key_text = self.key_text().unwrap_or_default();
        ctx.record(Actor::Producer, Fact::TrackedSent { key, event: event.to_string(), partition, offset });
        self.tracked.push(TrackedRecord {
            key_text,
            event: event.to_string(),
            partition,
            offset,
            partitions_at_send: self.num_partitions,
            produced_ms: ctx.now_ms(),
            processed_ms: None,
            processed_rank: None,
        });
    }

    /// Kafka: `KafkaProducer.partition`. A keyed record goes to its key's partition (written at once:
    /// the lab batches only what the sticky partitioner places), unless `partitioner.ignore.keys`
    /// sends it through the sticky partitioner like a record without key.
    fn append_keyed(&mut self, key: &[u8], key_partition: u32, ctx: &mut PartitionerCtx) -> (u32, u64) {
        if self.settings.ignore_keys {
            return self.append_sticky(Some(key.len() as u32), ctx);
        }
        let log = &mut self.logs[key_partition as usize];
        log.end_offset += 1;
        (key_partition, log.end_offset - 1)
    }

    /// Starts the steady keyed producer (or changes its rate while it runs).
    pub(super) fn start_stream(&mut self, records_per_sec: u32, ctx: &mut PartitionerCtx) {
        let running = self.stream_records_per_sec > 0;
        self.stream_records_per_sec = records_per_sec;
        ctx.record(Actor::Producer, Fact::StreamStarted { records_per_sec });
        if !running {
            ctx.schedule(0, Event::KeyedSend);
        }
    }

    /// One `KafkaProducer.send()` of a keyed record: the key's partition is
    /// `BuiltInPartitioner.partitionForKey` (murmur2 of its bytes, modulo the partition count).
    pub(super) fn send_keyed(&mut self, ctx: &mut PartitionerCtx) {
        let choice = self.workload.choose(self.sequence, &mut Self::draw(ctx));
        self.sequence += 1;
        let key = self.workload.key_text(choice);
        let (partition, offset) = self.append_keyed(key.as_bytes(), self.table.partition(choice), ctx);
        self.logs[partition as usize].hot_records += u64::from(matches!(choice, KeyChoice::Hot { .. }));
        ctx.record(Actor::Producer, Fact::KeyedRecordSent { key, partition, offset });
        let gap_ms = (1000 / u64::from(self.stream_records_per_sec.max(1))).max(1);
        ctx.schedule(gap_ms, Event::KeyedSend);
    }

    pub(super) fn start_unkeyed(&mut self, records: u32, ctx: &mut PartitionerCtx) {
        if self.unkeyed_pending == 0 {
            ctx.schedule(0, Event::UnkeyedSend);
        }
        self.unkeyed_pending += records;
    }

    pub(super) fn send_unkeyed(&mut self, ctx: &mut PartitionerCtx) {
        self.append_sticky(None, ctx);
        self.unkeyed_pending -= 1;
        if self.unkeyed_pending > 0 {
            let gap_ms = (1000 / self.settings.producer_records_per_sec.max(1)).max(1);
            ctx.schedule(gap_ms, Event::UnkeyedSend);
        }
    }

    /// Each partition's consumer processes its share of records for one tick, in offset order.
    pub(super) fn consume(&mut self, ctx: &mut PartitionerCtx) {
        let rate = self.settings.consumer_records_per_sec;
        let tick = ctx.now_ms() / CONSUMER_TICK_MS;
        let quota = rate * tick * CONSUMER_TICK_MS / 1000 - rate * (tick - 1) * CONSUMER_TICK_MS / 1000;
        let tick_start_ms = ctx.now_ms() - CONSUMER_TICK_MS;
        let mut done: Vec<(u64, u32, usize)> = Vec::new();
        for (partition, log) in self.logs.iter_mut().enumerate() {
            let until = (log.position + quota).min(log.end_offset);
            for (index, record) in self.tracked.iter().enumerate() {
                if record.partition as usize == partition && (log.position..until).contains(&record.offset) {
                    let slot = record.offset - log.position + 1;
                    done.push((tick_start_ms + slot * CONSUMER_TICK_MS / quota.max(1), partition as u32, index));
                }
            }
            log.position = until;
            debug_assert!(log.position <= log.end_offset, "a consumer cannot pass the log end offset");
        }
        crate::model::kernel::order::sort(&mut done);
        for (at_ms, partition, index) in done {
            self.mark_processed(index, at_ms, partition, ctx);
        }
    }

    fn mark_processed(&mut self, index: usize, at_ms: u64, partition: u32, ctx: &mut PartitionerCtx) {
        let rank = self.processed_count;
        self.processed_count += 1;
        let record = &mut self.tracked[index];
        record.processed_ms = Some(at_ms);
        record.processed_rank = Some(rank);
        let (key, event, offset) = (record.key_text.clone(), record.event.clone(), record.offset);
        let consumer = Actor::Consumer(Some(partition));
        ctx.record(consumer.clone(), Fact::Processed { key: key.clone(), event: event.clone(), partition, offset });
        let overtaken: Vec<Overtaken> = self
            .tracked
            .iter()
            .take(index)
            .filter(|r| r.key_text == key && r.processed_ms.is_none())
            .map(|r| Overtaken { event: r.event.clone(), partition: r.partition })
            .collect();
        if !overtaken.is_empty() {
            ctx.record(consumer, Fact::OrderBroken { key, event, overtaken });
        }
    }
}
