//! The "Consumer groups" scene (classic protocol): Kafka's client-side assignors, the group
//! coordinator's state machine, members with a heartbeat thread and a poll loop, commits and lag.

pub mod assignor;
mod client;
mod client_flow;
mod coordinator;
mod faults;
mod ledger;
mod rebalance;
mod scene;
pub use scene::PRESETS;
mod schema;
mod views;

use std::collections::BTreeMap;

pub use coordinator::{Coordinator, GroupState};
pub use ledger::{Ledger, PartitionLedger};
pub use schema::{ASSIGNOR_CLASSES, GROUP_SCHEMA};
pub use views::{DescribeRow, LagSample, LaneSpan, MemberView, SpanKind, StopSpan};

use crate::model::config::Config;
use crate::model::kernel::Ctx;
use assignor::AssignorKind;
use client::Member;

/// The topic the scene's group consumes.
pub const TOPIC: &str = "orders";
/// Kafka's group id for the scene.
pub const GROUP_ID: &str = "lab-group";
/// How often lag is sampled for the chart.
pub const SAMPLE_EVERY_MS: u64 = 1000;
/// Lag samples kept per partition (15 minutes at one per second).
pub const MAX_SAMPLES: usize = 900;

/// A client → coordinator request (Kafka's JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    JoinGroup { member_id: Option<String>, instance_id: Option<String>, owned: Vec<u32>, generation: i32 },
    SyncGroup { member_id: String, generation: i32, assignments: Option<BTreeMap<String, Vec<u32>>> },
    Heartbeat { member_id: String, generation: i32 },
    LeaveGroup { member_id: String, reason: String },
    OffsetCommit { member_id: Option<String>, generation: i32, offsets: BTreeMap<u32, i64>, blocking: bool },
}

/// Kafka's error codes the group protocol returns here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    None,
    RebalanceInProgress,
    UnknownMemberId,
    IllegalGeneration,
}

impl ErrorCode {
    pub fn kafka_name(self) -> &'static str {
        match self {
            ErrorCode::None => "NONE",
            ErrorCode::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            ErrorCode::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            ErrorCode::IllegalGeneration => "ILLEGAL_GENERATION",
        }
    }
}

/// One member's subscription as the leader receives it in the JoinGroup response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberMetadata {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub owned: Vec<u32>,
    pub generation: i32,
}

/// A coordinator → client response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    Join { error: ErrorCode, member_id: String, generation: i32, leader: String, members: Vec<MemberMetadata> },
    Sync { error: ErrorCode, assignment: Vec<u32> },
    Heartbeat { error: ErrorCode },
    Commit { error: ErrorCode, offsets: BTreeMap<u32, i64>, blocking: bool },
}

/// The scene's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The steady producer appends one record.
    Produce,
    /// A request reaches the coordinator.
    ToCoordinator { member: u32, incarnation: u32, request: Request },
    /// A response reaches a member's process.
    ToMember { member: u32, incarnation: u32, response: Response },
    /// The member's heartbeat thread wakes up (`heartbeat.interval.ms`).
    HeartbeatTick { member: u32, incarnation: u32 },
    /// The member's processing thread calls `poll()`.
    Poll { member: u32, incarnation: u32 },
    /// The member finished processing the batch `poll()` returned.
    BatchDone { member: u32, incarnation: u32, batch: u64 },
    /// The member's worker thread finished one handed-off batch.
    WorkerDone { member: u32, incarnation: u32, batch: u64 },
    /// The leader's periodic metadata refresh (`metadata.max.age.ms`).
    MetadataRefresh { member: u32, incarnation: u32 },
    /// The coordinator's heartbeat deadline for a member (`session.timeout.ms`).
    SessionExpiry { member_id: String, deadline_ms: u64 },
    /// `group.initial.rebalance.delay.ms` elapsed for an empty group's first rebalance.
    InitialDelay { rebalance: u64, delay_ms: u64, remaining_ms: u64 },
    /// The rebalance timeout (`max.poll.interval.ms`) of a join phase.
    JoinTimeout { rebalance: u64 },
    /// The rebalance timeout of a sync phase.
    SyncTimeout { generation: i32 },
    /// Take a lag sample for the chart.
    Sample,
}

/// What a user can do to the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Crash a member process (kill -9).
    Kill(u32),
    /// Start a crashed or closed member again (same `group.instance.id` if static).
    Restart(u32),
    /// Freeze a member entirely (a stop-the-world GC pause) for this long.
    Pause { member: u32, duration_ms: u64 },
    /// Change a member's processing time per record.
    Slow { member: u32, ms_per_record: u64 },
    /// The next record on this partition is a poison pill that always fails processing.
    Poison(u32),
    /// Start this many new members.
    AddMembers(u32),
    /// Close a member cleanly (`consumer.close()`).
    Close(u32),
    /// Grow the topic to this many partitions (`kafka-topics --alter --partitions`).
    GrowPartitions(u32),
}

/// The whole consumer-groups model: one topic, a coordinator, members, a producer, a ledger.
#[derive(Clone, Debug)]
pub struct GroupLab {
    config: Config,
    assignor: AssignorKind,
    /// Log end offset per partition.
    log_end: Vec<i64>,
    /// Poison-pill offset per partition.
    poison: BTreeMap<u32, i64>,
    coordinator: Coordinator,
    members: Vec<Member>,
    ledger: Ledger,
    lag_history: Vec<Vec<LagSample>>,
    stops: Vec<StopSpan>,
}

impl GroupLab {
    /// Builds the lab a config describes; rejects impossible combinations with Kafka's message.
    pub fn new(config: Config) -> Result<Self, String> {
        let heartbeat_ms = config.int("heartbeat.interval.ms");
        let session_ms = config.int("session.timeout.ms");
        if heartbeat_ms >= session_ms {
            return Err("heartbeat.interval.ms must be set lower than session.timeout.ms".into());
        }
        let assignor = AssignorKind::from_config(config.str("partition.assignment.strategy"))
            .expect("schema lists only known assignors");
        let partitions = config.int("partitions") as usize;
        let members = (1..=config.int("lab.members") as u32).map(|i| Member::new(i, &config)).collect();
        Ok(Self {
            assignor,
            log_end: vec![config.int("lab.backlog.records.per.partition"); partitions],
            poison: BTreeMap::new(),
            coordinator: Coordinator::new(&config),
            members,
            ledger: Ledger::new(partitions),
            lag_history: vec![Vec::new(); partitions],
            stops: Vec::new(),
            config,
        })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn assignor(&self) -> AssignorKind {
        self.assignor
    }

    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    pub fn log_end_offsets(&self) -> &[i64] {
        &self.log_end
    }

    fn network_delay_ms(&self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> u64 {
        let base = self.config.int("lab.network.delay.ms") as u64;
        if base == 0 {
            0
        } else {
            ctx.random_between(base.div_ceil(2), base + base / 2)
        }
    }

    fn send_to_coordinator(&self, member: u32, request: Request, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let incarnation = self.member(member).incarnation;
        let delay = self.network_delay_ms(ctx);
        ctx.schedule(delay, Event::ToCoordinator { member, incarnation, request });
    }

    fn send_to_member(
        &self,
        member: u32,
        incarnation: u32,
        response: Response,
        ctx: &mut Ctx<Event, crate::model::kernel::Prose>,
    ) {
        let delay = self.network_delay_ms(ctx);
        ctx.schedule(delay, Event::ToMember { member, incarnation, response });
    }

    fn member(&self, index: u32) -> &Member {
        &self.members[(index - 1) as usize]
    }

    fn member_mut(&mut self, index: u32) -> &mut Member {
        &mut self.members[(index - 1) as usize]
    }

    fn produce(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        let partition = ctx.random_between(0, self.log_end.len() as u64 - 1) as usize;
        self.log_end[partition] += 1;
    }

    fn produce_gap_ms(&self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Option<u64> {
        let rate = self.config.int("lab.producer.records.per.sec") as u64;
        if rate == 0 {
            return None;
        }
        let mean_us = 1_000_000 / rate;
        Some(ctx.random_between(mean_us / 2, mean_us + mean_us / 2).div_ceil(1000).max(1))
    }

    fn sample(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        for partition in 0..self.log_end.len() {
            let lag = self.lag(partition as u32);
            let history = &mut self.lag_history[partition];
            history.push(LagSample { time_ms: ctx.now_ms(), lag });
            if history.len() > MAX_SAMPLES {
                history.remove(0);
            }
        }
    }

    /// Lag of a partition: log end offset − committed offset (the whole log if nothing committed).
    pub fn lag(&self, partition: u32) -> i64 {
        let committed = self.coordinator.committed(partition).unwrap_or(0);
        self.log_end[partition as usize] - committed
    }
}

impl crate::model::kernel::LegacyWorld for GroupLab {
    type Event = Event;
    type Command = Command;

    fn start(&mut self, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        if let Some(gap) = self.produce_gap_ms(ctx) {
            ctx.schedule(gap, Event::Produce);
        }
        ctx.schedule(SAMPLE_EVERY_MS, Event::Sample);
        for index in 1..=self.members.len() as u32 {
            self.start_member(index, ctx);
        }
    }

    fn handle(&mut self, event: Event, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) {
        match event {
            Event::Produce => {
                self.produce(ctx);
                if let Some(gap) = self.produce_gap_ms(ctx) {
                    ctx.schedule(gap, Event::Produce);
                }
            }
            Event::Sample => {
                self.sample(ctx);
                ctx.schedule(SAMPLE_EVERY_MS, Event::Sample);
            }
            Event::ToCoordinator { member, incarnation, request } => self.on_request(member, incarnation, request, ctx),
            Event::SessionExpiry { member_id, deadline_ms } => self.on_session_expiry(&member_id, deadline_ms, ctx),
            Event::InitialDelay { rebalance, delay_ms, remaining_ms } => {
                self.on_initial_delay(rebalance, delay_ms, remaining_ms, ctx)
            }
            Event::JoinTimeout { rebalance } => self.on_join_timeout(rebalance, ctx),
            Event::SyncTimeout { generation } => self.on_sync_timeout(generation, ctx),
            other => self.on_member_event(other, ctx),
        }
    }

    fn apply(&mut self, command: &Command, ctx: &mut Ctx<Event, crate::model::kernel::Prose>) -> Result<(), String> {
        self.apply_fault(command, ctx)
    }
}

crate::legacy_world!(GroupLab);
