//! How the Partitioner scene reacts to commands and to its producer, sender and consumers.

use super::load::{produce_load, KeyDistribution};
use super::repartition::{check_partition_increase, expected_fraction_stayed, KeyMove, RepartitionAnalysis};
use super::views::AlterView;
use super::world::{
    Event, Partitioner, ProduceRound, SwitchView, TrackedRecord, CONSUMER_TICK_MS, MAX_RECORDS_PER_COMMAND, TOPIC,
};
use super::{partition_for_key, HOT_KEY};
use crate::model::kernel::Ctx;

impl Partitioner {
    pub(super) fn set_key(
        &mut self,
        bytes: &[u8],
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        self.key = Some(bytes.to_vec());
        let steps = self.key_steps().expect("key just set");
        ctx.log(
            "producer",
            format!(
                "key {}: murmur2 = {} (0x{}), toPositive = {}, % {} = partition {}",
                self.key_text().unwrap_or_default(),
                steps.murmur2,
                steps.murmur2_hex,
                steps.positive,
                steps.num_partitions,
                steps.partition
            ),
        );
        Ok(())
    }

    pub(super) fn alter(
        &mut self,
        partitions: u32,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        check_partition_increase(TOPIC, self.num_partitions, partitions)?;
        let max = 256;
        if partitions > max {
            return Err(format!("This lab draws at most {max} partitions."));
        }
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
        ctx.log(
            "controller",
            format!("{TOPIC}: partitions {from} → {partitions}; the existing records stay where they are"),
        );
        let mut text = format!(
            "new records of {} of {} keys ({:.1} %) now go to another partition",
            view.moved_keys,
            view.keys,
            100.0 * (1.0 - view.fraction_stayed)
        );
        if let (Some(key), Some(step)) = (self.key_text(), view.watched_key) {
            text.push_str(&format!("; {key}: {TOPIC}-{} → {TOPIC}-{}", step.from, step.to));
        }
        if self.workload.distribution == KeyDistribution::Megacorp {
            let hot = view.hot_key;
            text.push_str(&format!(
                "; {HOT_KEY}: {TOPIC}-{} → {TOPIC}-{}, still all in one partition",
                hot.from, hot.to
            ));
        }
        ctx.log("producer", text);
        self.alters.push(view);
        Ok(())
    }

    pub(super) fn set_distribution(
        &mut self,
        distribution: KeyDistribution,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        let composite = self.workload.composite_buckets.is_some();
        self.rebuild_workload(distribution, composite);
        ctx.log("producer", format!("key distribution: {}", distribution.name()));
        Ok(())
    }

    pub(super) fn set_composite(
        &mut self,
        on: bool,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        self.rebuild_workload(self.workload.distribution, on);
        let text = match self.workload.composite_buckets {
            Some(buckets) => {
                format!("hot key sent as {HOT_KEY}-<n % {buckets}>: {HOT_KEY}'s records are no longer in one order")
            }
            None => format!("hot key sent as {HOT_KEY}: all its records in one partition, in order"),
        };
        ctx.log("producer", text);
        Ok(())
    }

    fn rebuild_workload(&mut self, distribution: KeyDistribution, composite: bool) {
        self.workload = Self::workload_for(&self.config, distribution, composite);
        self.table = self.workload.partition_table(self.num_partitions);
    }

    pub(super) fn produce(
        &mut self,
        records: u64,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        if records == 0 || records > MAX_RECORDS_PER_COMMAND {
            return Err(format!("produce 1 to {MAX_RECORDS_PER_COMMAND} records at a time"));
        }
        let report = produce_load(&self.workload, &self.table, self.sequence, records, &mut Self::draw(ctx));
        self.sequence += records;
        for (log, (added, hot)) in
            self.logs.iter_mut().zip(report.records_per_partition.iter().zip(&report.hot_records_per_partition))
        {
            log.end_offset += added;
            log.hot_records += hot;
        }
        let offsets: Vec<String> =
            self.logs.iter().enumerate().map(|(p, log)| format!("{TOPIC}:{p}:{}", log.end_offset)).collect();
        ctx.log("producer", format!("sent {records} keyed records ({})", self.workload.distribution.name()));
        ctx.log("kafka-get-offsets", offsets.join(" "));
        self.rounds.push(ProduceRound {
            partitions: self.num_partitions,
            distribution: self.workload.distribution,
            composite: self.workload.composite_buckets.is_some(),
            records,
            report,
        });
        Ok(())
    }

    pub(super) fn send_tracked(
        &mut self,
        event: &str,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        let Some(key) = self.key.clone() else {
            return Err("Set a key first: the event is sent with the watched key.".into());
        };
        let partition = partition_for_key(&key, self.num_partitions);
        let log = &mut self.logs[partition as usize];
        let offset = log.end_offset;
        log.end_offset += 1;
        let key_text = self.key_text().unwrap_or_default();
        ctx.log("producer", format!("{key_text} {event} → {TOPIC}-{partition} at offset {offset}"));
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
        Ok(())
    }

    pub(super) fn start_unkeyed(
        &mut self,
        records: u32,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) -> Result<(), String> {
        if records == 0 || records > 100_000 {
            return Err("send 1 to 100000 records without key at a time".into());
        }
        if self.unkeyed_pending == 0 {
            ctx.schedule(0, Event::UnkeyedSend);
        }
        self.unkeyed_pending += records;
        Ok(())
    }

    pub(super) fn send_unkeyed(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let value_bytes = self.config.int("lab.value.bytes") as u32;
        let now_ms = ctx.now_ms();
        let outcome =
            self.accumulator.append(None, None, value_bytes, now_ms, self.num_partitions, &mut Self::random_int(ctx));
        self.logs[outcome.partition as usize].end_offset += 1;
        if let Some(switch) = outcome.switch {
            self.switches.push(SwitchView { at_ms: now_ms, switch });
            let next = if switch.to == switch.from {
                format!("drew {TOPIC}-{} again (the draw is uniform over all partitions)", switch.to)
            } else {
                format!("switching to {TOPIC}-{}", switch.to)
            };
            ctx.log(
                "producer",
                format!("sticky partitioner: {} B produced to {TOPIC}-{}, {next}", switch.produced_bytes, switch.from),
            );
        }
        if outcome.new_batch {
            ctx.log("producer", format!("new batch #{} for {TOPIC}-{}", outcome.batch_id, outcome.partition));
            ctx.schedule(self.accumulator.linger_ms(), Event::SenderWakeup);
        }
        self.run_sender(ctx);
        self.unkeyed_pending -= 1;
        if self.unkeyed_pending > 0 {
            let gap_ms = (1000 / self.config.int("lab.producer.records.per.sec") as u64).max(1);
            ctx.schedule(gap_ms, Event::UnkeyedSend);
        }
    }

    pub(super) fn run_sender(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let linger_ms = self.accumulator.linger_ms();
        for batch in self.accumulator.drain_ready(ctx.now_ms(), self.num_partitions) {
            let why = match batch.send_reason {
                Some(super::accumulator::SendReason::Linger) => format!("linger.ms={linger_ms} elapsed"),
                _ => "full".to_string(),
            };
            ctx.log(
                "sender",
                format!(
                    "batch #{} → {TOPIC}-{}: {} record(s), {} of {} B ({why})",
                    batch.id, batch.partition, batch.records, batch.size_bytes, batch.write_limit_bytes
                ),
            );
        }
    }

    /// Each partition's consumer processes its share of records for one tick, in offset order.
    pub(super) fn consume(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let rate = self.config.int("lab.consumer.records.per.sec") as u64;
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
        done.sort_unstable();
        for (at_ms, partition, index) in done {
            self.mark_processed(index, at_ms, partition, ctx);
        }
    }

    fn mark_processed(
        &mut self,
        index: usize,
        at_ms: u64,
        partition: u32,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) {
        let rank = self.processed_count;
        self.processed_count += 1;
        let record = &mut self.tracked[index];
        record.processed_ms = Some(at_ms);
        record.processed_rank = Some(rank);
        let (key, event, offset) = (record.key_text.clone(), record.event.clone(), record.offset);
        ctx.log(
            format!("consumer-{partition}"),
            format!("processed {key} {event} ({TOPIC}-{partition} offset {offset})"),
        );
        let overtaken: Vec<String> = self
            .tracked
            .iter()
            .take(index)
            .filter(|r| r.key_text == key && r.processed_ms.is_none())
            .map(|r| format!("{} (still in {TOPIC}-{})", r.event, r.partition))
            .collect();
        if !overtaken.is_empty() {
            ctx.log(
                format!("consumer-{partition}"),
                format!("order broken for {key}: {event} processed before {}", overtaken.join(", ")),
            );
        }
    }
}
