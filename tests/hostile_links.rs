//! Links that ask for too much work open anyway: replay stops at the work budget
//! (`REPLAY_EVENT_BUDGET`), between two instants, says where, and the link the lab then
//! writes reopens to exactly that state. Reproducers from issue 18's adversarial run.

use kafka_lab::link::LinkState;
use kafka_lab::model::scene::{LabScene, Run, Stopped};
use kafka_lab::model::{cluster::Cluster, group::GroupLab, replication::Replication, timer::TimerLab};

fn open<S: LabScene>(query: &str) -> Run<S> {
    let link = LinkState::parse(query, &kafka_lab::scenes::ids()).expect("the link parses");
    kafka_lab::scenes::open_run::<S>(&link).expect("the link opens")
}

/// Opens `query`, expects the budget to stop it, and reopens the tape the lab would write.
fn stops_and_reopens_the_same<S: LabScene>(query: &str) -> Stopped {
    let run = open::<S>(query);
    let stopped = run.stopped.unwrap_or_else(|| panic!("{query}: expected the work budget to stop it"));
    assert_eq!(stopped.at_ms, run.sim().now_ms(), "{query}: the banner names the time on screen");
    let overrides: Vec<(String, String)> =
        run.config.overrides().into_iter().map(|(n, v)| (n.to_string(), v)).collect();
    let again = Run::<S>::restore(run.seed, &overrides, &run.tape_text(), None).expect("the written link reopens");
    assert_eq!(again.stopped, None, "{query}: the written link is within the budget");
    assert_eq!(again.sim().now_ms(), run.sim().now_ms(), "{query}: same clock");
    assert_eq!(again.sim().trace_hash(), run.sim().trace_hash(), "{query}: same events");
    stopped
}

#[test]
fn a_busy_producer_for_an_hour_stops_at_the_budget_and_reopens_there() {
    let stopped = stops_and_reopens_the_same::<Cluster>(
        "?scene=overview&c=lab.producer.records.per.sec:1000,lab.producer.distinct.keys:100000&a=w3600000",
    );
    assert!(stopped.at_ms > 0 && stopped.at_ms < 3_600_000);
    assert_eq!((stopped.actions_run, stopped.actions), (1, 1), "the one wait ran in part");
}

#[test]
fn one_ms_heartbeats_for_an_hour_stop_at_the_budget() {
    stops_and_reopens_the_same::<GroupLab>("?scene=groups&c=heartbeat.interval.ms:1&a=w3600000");
}

#[test]
fn two_hundred_thousand_waits_stop_part_way_through_the_list() {
    let stopped = stops_and_reopens_the_same::<Cluster>("?scene=overview&a=w1000x200000");
    assert!(stopped.actions_run < stopped.actions, "{stopped:?}");
    assert_eq!(stopped.actions, 200_000);
}

#[test]
fn a_purgatory_with_zero_waits_stops_at_the_budget() {
    stops_and_reopens_the_same::<TimerLab>(
        "?scene=timer&c=lab.purgatory:true,replica.fetch.wait.max.ms:0,fetch.max.wait.ms:0&a=w3600000",
    );
}

#[test]
fn a_one_ms_replica_lag_no_longer_loops_at_one_instant() {
    // Before: the isr-expiration task rescheduled itself every 1 / 2 = 0 ms and time never moved.
    // replica.fetch.wait.max.ms:0 too, as KafkaConfig requires it ≤ replica.lag.time.max.ms.
    let run =
        open::<Replication>("?scene=replication&c=replica.lag.time.max.ms:1,replica.fetch.wait.max.ms:0&a=w60000");
    assert_eq!(run.stopped, None);
    assert_eq!(run.sim().now_ms(), 60_000);
}

#[test]
fn an_ordinary_link_is_never_stopped() {
    let run = open::<Cluster>("?scene=overview&a=w1000x600");
    assert_eq!(run.stopped, None);
    assert_eq!(run.sim().now_ms(), 600_000);
}

#[test]
fn a_list_config_value_the_lab_writes_reopens() {
    // cleanup.policy is a LIST: the comma in "compact,delete" is the value's, not a new pair.
    let run = open::<kafka_lab::model::log::LogLab>("?scene=log&c=cleanup.policy:compact,delete");
    let overrides = run.config.overrides();
    assert!(
        overrides.iter().any(|(name, value)| *name == "cleanup.policy" && value == "compact,delete"),
        "{overrides:?}"
    );
}
