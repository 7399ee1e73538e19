//! A long run keeps a fixed number of snapshots (issue 18's memory budget), and thinning them
//! changes how long a seek takes, never what it shows: every position opens the state a
//! straight replay of the tape reaches, in every scene.

use kafka_lab::model::kernel::{Input, MAX_SNAPSHOTS, SNAPSHOT_EVERY};
use kafka_lab::model::scene::{LabScene, Run};
use kafka_lab::model::{cluster, group, log, partitioner, replication, timer};

/// A digest of a value's whole `Debug` text (the log scene's model prints 27 MB).
fn digest(value: &impl std::fmt::Debug) -> u64 {
    struct Digest(std::collections::hash_map::DefaultHasher);
    impl std::fmt::Write for Digest {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            std::hash::Hasher::write(&mut self.0, text.as_bytes());
            Ok(())
        }
    }
    let mut digest = Digest(std::collections::hash_map::DefaultHasher::new());
    std::fmt::write(&mut digest, format_args!("{value:?}")).expect("Debug never fails");
    std::hash::Hasher::finish(&digest.0)
}

/// Everything a learner could see at a position: the clock, the work done, the event log's
/// fingerprint and length, the whole model and its pending events.
fn state_of<S: LabScene + std::fmt::Debug>(run: &Run<S>) -> (u64, u64, u64, usize, u64, u64) {
    let sim = run.sim();
    (sim.now_ms(), sim.events_handled(), sim.trace_hash(), sim.log().len(), digest(sim.world()), digest(sim.queue()))
}

/// A Play-like tape long enough to be thinned: the scene's workload, then waits and steps.
fn long_run<S: LabScene>(inputs: usize) -> Run<S> {
    let mut run = Run::<S>::new(7, &[]).expect("the defaults are valid");
    if let Some(command) = S::workload(run.sim()) {
        run.history.push(Input::Command(command)).expect("the workload starts");
    }
    for i in 0..inputs {
        let input = if i % 5 == 0 { Input::Step } else { Input::Advance(100 + (i as u64 * 37) % 400) };
        run.history.push(input).expect("waits and steps never fail");
    }
    run
}

/// Positions spread over the tape, in a scrambled order (a fixed generator: the test repeats).
fn targets(len: usize, random: usize) -> Vec<usize> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut picks: Vec<usize> = (0..random)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % (len as u64 + 1)) as usize
        })
        .collect();
    picks.extend([0, SNAPSHOT_EVERY - 1, len / 2, len - 1, len]);
    picks
}

/// `random` positions plus the edges; the log scene's model is large, so it checks fewer.
fn seeks_match_a_straight_replay<S: LabScene + std::fmt::Debug>(random: usize) {
    let inputs = SNAPSHOT_EVERY * (MAX_SNAPSHOTS + 12);
    let mut run = long_run::<S>(inputs);
    let len = run.history.tape().len();
    let kept = run.history.snapshot_positions();
    assert!(kept.len() <= MAX_SNAPSHOTS, "{}: {} snapshots kept", S::ID, kept.len());
    let picks = targets(len, random);
    let mut sorted = picks.clone();
    sorted.sort_unstable();
    // One straight replay of the tape from a fresh run, noting the state at each target.
    let mut straight = Run::<S>::new(7, &[]).expect("the defaults are valid");
    let mut expected = Vec::new();
    for &target in &sorted {
        while straight.history.position() < target {
            let input = run.history.tape()[straight.history.position()].clone();
            straight.history.push(input).expect("the tape replays");
        }
        expected.push((target, state_of(&straight)));
    }
    for &target in &picks {
        run.history.seek(target);
        let want = &expected.iter().find(|(at, _)| *at == target).expect("noted").1;
        assert_eq!(&state_of(&run), want, "{}: seek to {target} of {len}", S::ID);
    }
    assert!(run.history.snapshot_positions().len() <= MAX_SNAPSHOTS, "seeking stays within the budget");
}

#[test]
fn seeking_anywhere_in_a_thinned_overview_history_matches_a_straight_replay() {
    seeks_match_a_straight_replay::<cluster::Cluster>(24);
}

#[test]
fn seeking_anywhere_in_a_thinned_log_history_matches_a_straight_replay() {
    seeks_match_a_straight_replay::<log::LogLab>(1);
}

#[test]
fn seeking_anywhere_in_a_thinned_replication_history_matches_a_straight_replay() {
    seeks_match_a_straight_replay::<replication::Replication>(24);
}

#[test]
fn seeking_anywhere_in_a_thinned_groups_history_matches_a_straight_replay() {
    seeks_match_a_straight_replay::<group::GroupLab>(24);
}

#[test]
fn seeking_anywhere_in_a_thinned_partitioner_history_matches_a_straight_replay() {
    seeks_match_a_straight_replay::<partitioner::Partitioner>(24);
}

#[test]
fn seeking_anywhere_in_a_thinned_timer_history_matches_a_straight_replay() {
    seeks_match_a_straight_replay::<timer::TimerLab>(24);
}

#[test]
fn a_long_run_keeps_the_start_the_latest_and_spread_snapshots_within_the_budget() {
    let run = long_run::<cluster::Cluster>(SNAPSHOT_EVERY * MAX_SNAPSHOTS * 4);
    let kept = run.history.snapshot_positions();
    let len = run.history.tape().len();
    assert!(kept.len() <= MAX_SNAPSHOTS, "{} kept", kept.len());
    assert_eq!(kept[0], 0, "the start is kept");
    assert!(len - kept[kept.len() - 1] < SNAPSHOT_EVERY, "the latest is near the end: {kept:?} of {len}");
    let widest = kept.windows(2).map(|w| w[1] - w[0]).max().expect("several kept");
    assert!(widest <= 4 * len / MAX_SNAPSHOTS, "no stretch is left far wider than the rest: {kept:?}");
}

#[test]
fn stepping_back_one_input_at_a_time_through_a_thinned_history_shows_each_earlier_state() {
    let mut run = long_run::<cluster::Cluster>(SNAPSHOT_EVERY * (MAX_SNAPSHOTS + 4));
    let len = run.history.tape().len();
    let from = len / 3;
    let mut straight = Run::<cluster::Cluster>::new(7, &[]).expect("the defaults are valid");
    let mut expected = Vec::new();
    for input in &run.history.tape()[..from] {
        straight.history.push(input.clone()).expect("the tape replays");
        expected.push(state_of(&straight));
    }
    run.history.seek(from);
    for position in (from - 300..from).rev() {
        run.history.step_back();
        assert_eq!(run.history.position(), position);
        assert_eq!(state_of(&run), expected[position - 1], "back to {position}");
    }
}

#[test]
fn a_new_action_after_seeking_back_in_a_thinned_history_replays_like_a_fresh_tape() {
    let mut run = long_run::<cluster::Cluster>(SNAPSHOT_EVERY * (MAX_SNAPSHOTS + 4));
    let cut = run.history.tape().len() / 2 + 3;
    run.history.seek(cut);
    run.history.push(Input::Command(cluster::Command::Produce { records: 50 })).expect("a produce runs");
    for _ in 0..SNAPSHOT_EVERY * 3 {
        run.history.push(Input::Advance(250)).expect("waits never fail");
    }
    let fresh = Run::<cluster::Cluster>::restore(7, &[], &run.tape_text(), None).expect("the written tape reopens");
    let end = run.history.tape().len();
    for target in [end, cut, cut + 1, cut + SNAPSHOT_EVERY + 5, 17, end - 1] {
        let mut reopened = fresh.clone();
        reopened.history.seek(target);
        run.history.seek(target);
        assert_eq!(state_of(&run), state_of(&reopened), "seek to {target}");
    }
}
