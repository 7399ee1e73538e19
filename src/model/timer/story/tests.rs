//! What a learner notices in each timer story: the answers' figures at the outcome, where the
//! key moments fall, what the captions say there, and the default's steady stream.

use super::story;
use crate::link::LinkState;
use crate::model::kernel::{Input, Moment, Salience, Salient};
use crate::model::scene::{LabScene, Run};
use crate::model::story::Caption;
use crate::model::timer::{Command, Fact, Fetcher, PurgatoryFact, TaskOrigin, TimerLab};
use crate::scenes::StoryReport;

fn report(preset: &str) -> StoryReport {
    let link = LinkState { scene: Some("timer".into()), preset: Some(preset.into()), ..Default::default() };
    (crate::scenes::find("timer").expect("the timer scene").story)(&link).expect("the preset opens")
}

fn run(preset: &str) -> Run<TimerLab> {
    Run::from_preset(TimerLab::presets().iter().find(|p| p.id == preset).expect("a preset")).expect("it runs")
}

/// The answer the result card shows at the outcome.
fn answer_at_outcome(preset: &str) -> String {
    report(preset).answer_at_outcome.expect("the outcome is on the tape")
}

fn caption_at(preset: &str, position: usize) -> String {
    let mut run = run(preset);
    run.history.seek(position);
    match story(Some(preset)).caption(&run.history) {
        Caption::Authored(message) => message.to_string(),
        other => panic!("no authored caption at {position}: {other:?}"),
    }
}

#[test]
fn single_wheel_fires_at_2_10_and_21_ms_and_task3_reuses_bucket_1() {
    assert_eq!(
        answer_at_outcome("single-wheel"),
        "task1: level 0 bucket 2 → fired at 2 ms; task2: level 0 bucket 10 → fired at 10 ms; \
         task3: level 0 bucket 1 → fired at 21 ms"
    );
    let r = report("single-wheel");
    assert_eq!(r.marks, vec![(2, Moment::Fire), (5, Moment::Fire), (6, Moment::Fire)]);
    assert!(caption_at("single-wheel", 4).contains("task3 expires at 21 ms, beyond the ring's 20 ms"));
    assert_eq!(r.speed, 0.01, "1 ms ticks: slow motion");
}

#[test]
fn hierarchy_350_waits_in_level_1_falls_into_level_0_at_340_ms_and_fires_at_350_ms() {
    assert_eq!(
        answer_at_outcome("hierarchy-350"),
        "task350: level 1 bucket 17 → level 0 bucket 10 at 340 ms → fired at 350 ms"
    );
    let r = report("hierarchy-350");
    assert_eq!(r.marks, vec![(2, Moment::Fall), (3, Moment::Fire)], "the fall is a key moment, then the fire");
    assert!(caption_at("hierarchy-350", 1).contains("level 1 bucket 17, which expires at 340 ms"));
    assert!(caption_at("hierarchy-350", 2).contains("10 ms to go fits level 0's 20 ms"));
    assert!(r.real_ms_to_outcome.expect("Play gets there") <= 20_000);
}

#[test]
fn third_wheel_7999_ms_falls_twice_and_8000_ms_fires_straight_from_the_fourth_wheel() {
    assert_eq!(
        answer_at_outcome("third-wheel"),
        "task7999: level 2 bucket 19 → level 1 bucket 19 at 7.6 s → level 0 bucket 19 at 7.98 s → fired at 7.999 s; \
         task8000: level 3 bucket 1 → fired at 8 s"
    );
    assert_eq!(caption_at("third-wheel", 2), "task7999 waits in level 2 bucket 19; task8000 in level 3 bucket 1.");
}

#[test]
fn purgatory_isr_completes_after_two_fetch_round_trips_and_its_timer_task_never_fires() {
    assert_eq!(
        answer_at_outcome("purgatory-isr"),
        "DelayedProduce #1 completed at 1.002 s, after 2 ms (HW 1, ISR 1,2,3), long before request.timeout.ms = 30 s: \
         its timer task was cancelled, not fired"
    );
    let r = report("purgatory-isr");
    assert_eq!((r.start, r.outcome), (1, Some(6)), "opens after the 1 s warm-up, answers at the HW move");
    assert!(caption_at("purgatory-isr", 2).contains("DelayedProduce #1 waits in level 3 bucket 3, due at 31 s"));
}

#[test]
fn stalled_follower_produce_expires_at_request_timeout_while_the_follower_is_still_in_the_isr() {
    let r = report("purgatory-stalled-follower");
    assert_eq!(
        r.answer_at_outcome.as_deref(),
        Some(
            "DelayedProduce #1 expired at 31 s after request.timeout.ms = 30 s with HW 0 < 1: the stalled broker-3 \
             still held the HW back from inside the ISR; it is still in the ISR (replica.lag.time.max.ms = 30 s)"
        )
    );
    assert!(r
        .answer_at_end
        .expect("an answer")
        .ends_with("it left the ISR only at 45 s (replica.lag.time.max.ms = 30 s)"));
    let moments: Vec<Moment> = r.marks.iter().map(|(_, m)| *m).collect();
    assert_eq!(moments, vec![Moment::Fault, Moment::Expiry, Moment::IsrShrink], "the timeout comes before the shrink");
    assert!(r.real_ms_to_outcome.expect("Play gets there") <= 20_000, "30 s of simulated time at {}×", r.speed);
    assert!(caption_at("purgatory-stalled-follower", 47)
        .starts_with("At 45 s the ISR check drops broker-3: ISR 1,2, HW 1."));
}

#[test]
fn crashed_follower_is_fenced_after_the_session_timeout_and_the_produce_completes_at_10_s() {
    assert_eq!(
        answer_at_outcome("purgatory-crashed-follower"),
        "DelayedProduce #1 completed at 10 s, after 9 s: the controller fenced broker-3 after \
         broker.session.timeout.ms = 9 s, the ISR shrank to 1,2 and the HW reached 1, before request.timeout.ms = 30 s"
    );
    let r = report("purgatory-crashed-follower");
    assert!(r.marks.contains(&(12, Moment::Fence)) && r.marks.contains(&(12, Moment::Fire)));
    assert!(caption_at("purgatory-crashed-follower", 2).contains("broker.session.timeout.ms = 9 s"));
}

#[test]
fn timer_default_play_starts_a_stream_of_broker_like_timeouts_that_fill_buckets_and_fire() {
    let mut run = Run::<TimerLab>::new(1, &[]).expect("the default scene");
    let command = TimerLab::workload(run.sim()).expect("nothing would happen without it");
    assert_eq!(TimerLab::encode_command(&command), "stream-tasks");
    assert_eq!(TimerLab::decode_command("stream-tasks"), Ok(Command::StartStream));
    run.history.push(Input::Command(command)).expect("the stream starts");
    assert!(TimerLab::workload(run.sim()).is_none(), "once it runs, Play needs nothing more");
    assert!(run.history.push(Input::Command(Command::StartStream)).is_err(), "it starts once");
    run.history.push(Input::Advance(2_000)).unwrap();
    let world = run.world();
    assert_eq!(world.stream_added(), Some(21), "one task every 100 ms, the first at once");
    let ops = world.ops();
    assert!(ops.wheel.fired >= 10 && ops.wheel.reinserts >= 10, "{ops:?}");
    assert_eq!(ops.wheel_levels, 4, "request.timeout.ms = 30 s reaches the fourth wheel");
    let answer = story(None).verdict(&run.history).answer.expect("the default always answers").to_string();
    assert!(answer.starts_with(&format!("{} tasks pending on 4 wheels;", world.pending_tasks().len())), "{answer}");
}

#[test]
fn the_stream_stays_out_of_the_timeline_while_sandbox_fires_falls_and_produce_timeouts_are_marked() {
    let stream = TaskOrigin::Stream { kind: crate::model::timer::StreamTask::FetchLike };
    let user = TaskOrigin::User { label: "a".into() };
    let fetch = TaskOrigin::DelayedFetch { fetcher: Fetcher::Consumer, fetch_offset: 0 };
    let ran = |origin: TaskOrigin| Fact::TaskRan { id: 1, origin, at_ms: 5 };
    assert_eq!(ran(user).salience(), Salience::Key(Moment::Fire));
    assert_eq!(ran(stream).salience(), Salience::Routine);
    let fell = Fact::TaskFell { id: 1, origin: fetch, from_level: 1, from_bucket: 2, at_ms: 3, level: 0, bucket: 4 };
    assert_eq!(fell.salience(), Salience::Routine, "a long poll's falls are routine");
    let expired =
        PurgatoryFact::ProduceExpired { request: 1, waited_ms: 30_000, high_watermark: 0, required_offset: 1 };
    assert_eq!(Fact::Purgatory(expired).salience(), Salience::Key(Moment::Expiry));
    let idle = PurgatoryFact::ConsumerFetchExpired { wait_ms: 500 };
    assert_eq!(Fact::Purgatory(idle).salience(), Salience::Routine);
}
