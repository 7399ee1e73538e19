//! The Partitioner scene's model: one topic, a producer that sends keyed records (the default
//! partitioner) and records without key (the sticky partitioner), one consumer per partition,
//! and `--alter --partitions` with what it does to a key's order.

use super::key::key_text;
use super::load::{KeyDistribution, Workload};
use super::{
    Accumulator, Brokers, Command, Event, Fact, PartitionLog, Partitioner, PartitionerCtx, Refusal, Settings,
    CONSUMER_TICK_MS, MAX_PARTITIONS, MAX_RECORDS_PER_COMMAND, MAX_STREAM_RECORDS_PER_SEC, MAX_UNKEYED_PER_COMMAND,
};
use crate::model::kernel::{Actor, World};

/// The controller's validation of a CreatePartitions request for the scene's topic
/// (`ReplicationControlManager.createPartitions`); reads no config.
pub fn check_partition_increase(current: u32, requested: u32) -> Result<(), Refusal> {
    if requested == current {
        return Err(Refusal::AlreadyHasPartitions { partitions: current });
    }
    if requested < current {
        return Err(Refusal::NotAnIncrease { current, requested });
    }
    Ok(())
}

impl Partitioner {
    pub fn new(settings: Settings) -> Self {
        let num_partitions = settings.partitions;
        let workload = Self::workload_for(&settings, settings.key_distribution, settings.composite_key);
        let table = workload.partition_table(num_partitions);
        let accumulator = Accumulator::new(
            settings.batch_size_bytes,
            settings.linger_ms,
            settings.adaptive_partitioning_enable,
            settings.availability_timeout_ms,
        );
        let slow = settings.slow_broker.map(|broker| (broker, settings.slow_broker_latency_ms));
        let brokers = Brokers::new(settings.brokers, slow, settings.max_in_flight_requests_per_connection);
        Self {
            settings,
            num_partitions,
            key: None,
            workload,
            table,
            logs: vec![PartitionLog::default(); num_partitions as usize],
            accumulator,
            brokers,
            busy: Default::default(),
            unavailable: Vec::new(),
            sequence: 0,
            unkeyed_pending: 0,
            rounds: Vec::new(),
            alters: Vec::new(),
            tracked: Vec::new(),
            switches: Vec::new(),
            processed_count: 0,
            stream_records_per_sec: 0,
        }
    }

    pub(super) fn workload_for(settings: &Settings, distribution: KeyDistribution, composite: bool) -> Workload {
        let buckets = composite.then_some(settings.composite_buckets);
        Workload::new(settings.key_prefix, settings.distinct_keys, distribution, settings.megacorp_percent, buckets)
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn num_partitions(&self) -> u32 {
        self.num_partitions
    }

    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    pub fn accumulator(&self) -> &Accumulator {
        &self.accumulator
    }

    pub fn brokers(&self) -> &Brokers {
        &self.brokers
    }

    /// Partitions the sticky partitioner leaves out now (partitioner.availability.timeout.ms).
    pub fn unavailable_partitions(&self) -> &[u32] {
        &self.unavailable
    }

    pub fn logs(&self) -> &[PartitionLog] {
        &self.logs
    }

    /// The steady keyed producer's rate, if it runs.
    pub fn stream_records_per_sec(&self) -> Option<u32> {
        (self.stream_records_per_sec > 0).then_some(self.stream_records_per_sec)
    }

    /// Whether a producer is still sending (the steady one, or records without key still due).
    pub fn producing(&self) -> bool {
        self.stream_records_per_sec > 0 || self.unkeyed_pending > 0
    }

    /// The watched key's bytes, if one is set.
    pub fn key(&self) -> Option<&[u8]> {
        self.key.as_deref()
    }

    /// The watched key as text (UTF-8 when it is, else `0x…`).
    pub fn key_text(&self) -> Option<String> {
        self.key.as_deref().map(key_text)
    }

    pub(super) fn draw(ctx: &mut PartitionerCtx) -> impl FnMut(u64, u64) -> u64 + '_ {
        move |low, high| ctx.random_between(low, high)
    }

    /// One `nextInt()` for the sticky partitioner, from the kernel's RNG.
    pub(super) fn random_int(ctx: &mut PartitionerCtx) -> impl FnMut() -> i32 + '_ {
        move || ctx.random_u64() as u32 as i32
    }

    /// Why `command` cannot run now, if it cannot.
    fn refusal(&self, command: &Command) -> Option<Refusal> {
        match command {
            Command::Alter(requested) => {
                check_partition_increase(self.num_partitions, *requested).err().or_else(|| {
                    (*requested > MAX_PARTITIONS)
                        .then_some(Refusal::TooManyPartitions { requested: *requested, max: MAX_PARTITIONS })
                })
            }
            Command::Produce(records) => {
                // Through the sticky partitioner every record is batched: a smaller burst keeps it cheap.
                let max = if self.settings.ignore_keys {
                    u64::from(MAX_UNKEYED_PER_COMMAND)
                } else {
                    MAX_RECORDS_PER_COMMAND
                };
                (*records == 0 || *records > max).then_some(Refusal::ProduceCount { records: *records, max })
            }
            Command::Send(_) => self.key.is_none().then_some(Refusal::NoKey),
            Command::ProduceUnkeyed(records) => (*records == 0 || *records > MAX_UNKEYED_PER_COMMAND)
                .then_some(Refusal::UnkeyedCount { records: *records, max: MAX_UNKEYED_PER_COMMAND }),
            Command::Stream(rate) => (*rate == 0 || *rate > MAX_STREAM_RECORDS_PER_SEC)
                .then_some(Refusal::StreamRate { records_per_sec: *rate, max: MAX_STREAM_RECORDS_PER_SEC }),
            Command::SetKey(_) | Command::Distribution(_) | Command::Composite(_) => None,
        }
    }
}

impl World for Partitioner {
    type Event = Event;
    type Command = Command;
    type Fact = Fact;
    type Refusal = Refusal;

    fn start(&mut self, ctx: &mut PartitionerCtx) {
        ctx.record(Actor::Controller, Fact::TopicCreated { partitions: self.num_partitions });
        if self.settings.consumer_records_per_sec > 0 {
            ctx.schedule(CONSUMER_TICK_MS, Event::ConsumerTick);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut PartitionerCtx) {
        match event {
            Event::UnkeyedSend => self.send_unkeyed(ctx),
            Event::SenderWakeup => self.run_sender(ctx),
            Event::KeyedSend => self.send_keyed(ctx),
            Event::ProduceResponse { broker, partitions } => self.on_produce_response(broker, &partitions, ctx),
            Event::ConsumerTick => {
                self.consume(ctx);
                ctx.schedule(CONSUMER_TICK_MS, Event::ConsumerTick);
            }
        }
    }

    fn check(&self, command: &Command, _ctx: &PartitionerCtx) -> Result<(), Refusal> {
        self.refusal(command).map_or(Ok(()), Err)
    }

    fn apply(&mut self, command: &Command, ctx: &mut PartitionerCtx) {
        debug_assert!(self.refusal(command).is_none(), "apply without check: {command:?}");
        match command {
            Command::SetKey(bytes) => self.set_key(bytes, ctx),
            Command::Alter(partitions) => self.alter(*partitions, ctx),
            Command::Distribution(distribution) => self.set_distribution(*distribution, ctx),
            Command::Composite(on) => self.set_composite(*on, ctx),
            Command::Produce(records) => self.produce(*records, ctx),
            Command::Send(event) => self.send_tracked(event, ctx),
            Command::ProduceUnkeyed(records) => self.start_unkeyed(*records, ctx),
            Command::Stream(rate) => self.start_stream(*rate, ctx),
        }
    }
}

/// No view looks for particular pending events in this scene.
impl crate::model::kernel::Watched for Event {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_or_smaller_counts_are_refused_with_the_controllers_words() {
        let same = check_partition_increase(12, 12).unwrap_err();
        assert_eq!(same, Refusal::AlreadyHasPartitions { partitions: 12 });
        assert_eq!(same.to_string(), "Topic already has 12 partition(s).");
        let shrink = check_partition_increase(12, 6).unwrap_err();
        assert_eq!(shrink, Refusal::NotAnIncrease { current: 12, requested: 6 });
        assert_eq!(shrink.to_string(), "The topic orders currently has 12 partition(s); 6 would not be an increase.");
        assert_eq!(check_partition_increase(12, 13), Ok(()));
    }
}
