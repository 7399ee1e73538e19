//! Kafka's hierarchical timing wheel as a plain data structure: rounding, placement,
//! overflow wheels, cascading, ring reuse, cancel, and exact firing against a naive reference.

use std::collections::BTreeMap;

use kafka_lab::model::timer::{DelayQueue, HeapTimer, Move, TaskOrigin, Timer};

/// The plain wheel knows no origins: every task is an unlabelled user task here.
fn unlabelled(_: u64) -> TaskOrigin {
    TaskOrigin::User { label: String::new() }
}

/// A small deterministic generator for the property tests (splitmix64).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

#[test]
fn start_time_is_rounded_down_to_a_multiple_of_tick_ms() {
    let mut timer = Timer::new(10, 20, 1234);
    assert_eq!(timer.current_time(), 1230);
    assert!(timer.add(1, 1265));
    assert!(timer.advance_to(1259).is_empty());
    assert_eq!(timer.current_time(), 1230, "no bucket expired yet");
    assert_eq!(timer.advance_to(1268), vec![1]);
    assert_eq!(timer.current_time(), 1260, "the clock moved to the bucket's expiration, a whole tick");
}

/// Kafka: `SystemTimer.advanceClock` moves the wheels only to the expiration of a bucket
/// polled from the delay queue (`TimingWheel.advanceClock(bucket.getExpiration())`).
#[test]
fn the_clock_moves_only_when_a_bucket_expires_never_to_an_idle_now() {
    let mut timer = Timer::new(1, 20, 0);
    assert!(timer.advance_to(500).is_empty());
    assert_eq!(timer.current_time(), 0, "an empty timer's clock stays where it was");
    assert!(timer.add(1, 515), "515 ≥ 0 + 1: parked, though its time has already come");
    assert_eq!(timer.location(1), Some((2, 1)), "placed from the clock at 0: third wheel, tick 400");
    assert!(timer.add(2, 3));
    assert_eq!(timer.advance_to(600), vec![2, 1], "both buckets were due; they expire in order");
    assert_eq!(timer.current_time(), 515, "the clock stopped at the last bucket expired");
    assert!(timer.advance_to(10_000).is_empty());
    assert_eq!(timer.current_time(), 515);
}

#[test]
fn a_task_before_current_time_plus_one_tick_is_already_expired_and_not_parked() {
    let mut timer = Timer::new(10, 20, 1230);
    assert!(!timer.add(1, 1239), "1239 < 1230 + 10: the caller runs it now");
    assert_eq!(timer.location(1), None);
    assert!(timer.add(2, 1240));
    assert_eq!(timer.location(2), Some((0, 4)), "bucket (1240 / 10) % 20 = 4");
    assert!(!timer.add(3, 5), "an expiration in the past runs now");
    assert_eq!(timer.pending(), 1);
}

#[test]
fn a_task_within_the_interval_goes_to_bucket_expiration_over_tick_modulo_wheel_size() {
    let mut timer = Timer::new(1, 20, 0);
    assert!(timer.add(1, 1));
    assert!(timer.add(2, 19));
    assert_eq!(timer.location(1), Some((0, 1)));
    assert_eq!(timer.location(2), Some((0, 19)));
    assert_eq!(timer.level_count(), 1, "no overflow wheel is needed yet");
    let ring = &timer.levels_view(unlabelled)[0];
    assert_eq!((ring.tick_ms, ring.interval_ms), (1, 20));
    assert_eq!(ring.buckets[19].expiration_ms, Some(19));
    assert_eq!(ring.buckets[19].tasks[0].id, 2);
}

#[test]
fn past_the_interval_an_overflow_wheel_is_created_with_tick_equal_to_the_interval_below() {
    let mut timer = Timer::new(1, 20, 0);
    timer.add(0, 7);
    assert_eq!(timer.advance_to(7), vec![0], "the bucket at 7 moves the clock to 7");
    assert!(timer.add(1, 27), "27 ≥ currentTime 7 + interval 20");
    assert_eq!(timer.level_count(), 2);
    let levels = timer.levels_view(unlabelled);
    assert_eq!((levels[1].tick_ms, levels[1].interval_ms), (20, 400));
    assert_eq!(levels[1].current_time_ms, 0, "startMs 7 rounded down to the new tick of 20");
    assert_eq!(timer.location(1), Some((1, 1)));
    assert_eq!(levels[1].buckets[1].expiration_ms, Some(20));
}

#[test]
fn task_at_350ms_starts_in_the_second_wheel_and_falls_into_the_first() {
    let mut timer = Timer::new(1, 20, 0);
    timer.set_tracing(true);
    assert!(timer.add(350, 350));
    assert_eq!(timer.location(350), Some((1, 17)), "350 < 400: second wheel, bucket 350 / 20 = 17");
    assert_eq!(timer.next_expiration_ms(), Some(340));
    assert!(timer.advance_to(339).is_empty());
    assert_eq!(timer.location(350), Some((1, 17)));
    assert!(timer.advance_to(340).is_empty());
    assert_eq!(timer.location(350), Some((0, 10)), "from level 1 bucket 17 into level 0 bucket 350 % 20");
    assert_eq!(
        timer.last_moves(),
        &[Move { id: 350, expiration_ms: 350, at_ms: 340, from: (1, 17), to: Some((0, 10)) }]
    );
    assert!(timer.advance_to(349).is_empty());
    assert_eq!(timer.advance_to(350), vec![350]);
    assert_eq!(timer.last_moves()[0].to, None, "the last move is the run");
}

#[test]
fn a_task_beyond_400ms_needs_the_third_wheel_and_from_8000ms_a_fourth() {
    let mut timer = Timer::new(1, 20, 0);
    timer.set_tracing(true);
    timer.add(1, 7999);
    timer.add(2, 8000);
    assert_eq!(timer.location(1), Some((2, 19)), "third wheel: tick 400, interval 8000");
    assert_eq!(timer.location(2), Some((3, 1)), "8000 is not < 0 + 8000: fourth wheel, tick 8000");
    let levels = timer.levels_view(unlabelled);
    assert_eq!((levels[2].tick_ms, levels[2].interval_ms), (400, 8000));
    assert_eq!((levels[3].tick_ms, levels[3].interval_ms), (8000, 160_000));
    let mut path = vec![timer.location(1).unwrap()];
    for now_ms in 1..=8000 {
        let fired = timer.advance_to(now_ms);
        if let Some(location) = timer.location(1) {
            if path.last() != Some(&location) {
                path.push(location);
            }
        }
        if fired.contains(&1) {
            assert_eq!(now_ms, 7999);
        }
        if fired.contains(&2) {
            assert_eq!(now_ms, 8000);
        }
    }
    assert_eq!(path, vec![(2, 19), (1, 19), (0, 19)], "7999 cascades 2 → 1 → 0");
    assert_eq!(timer.pending(), 0);
}

#[test]
fn seed_single_wheel_8ms_at_current_time_2_lands_in_slot_10_and_19ms_wraps_to_slot_1() {
    let mut timer = Timer::new(1, 20, 0);
    assert!(timer.add(1, 2));
    assert_eq!(timer.location(1), Some((0, 2)));
    assert_eq!(timer.advance_to(2), vec![1]);
    assert_eq!(timer.current_time(), 2);
    assert!(timer.add(2, 2 + 8));
    assert!(timer.add(3, 2 + 19));
    assert_eq!(timer.location(2), Some((0, 10)));
    assert_eq!(timer.location(3), Some((0, 1)), "21 % 20: the ring wraps round");
}

#[test]
fn an_expired_bucket_is_reused_for_a_later_round_with_a_new_expiration() {
    let mut timer = Timer::new(1, 20, 0);
    timer.add(1, 1);
    assert_eq!(timer.levels_view(unlabelled)[0].buckets[1].expiration_ms, Some(1));
    assert_eq!(timer.advance_to(1), vec![1]);
    assert_eq!(timer.levels_view(unlabelled)[0].buckets[1].expiration_ms, None, "flushed: no round");
    timer.add(2, 21);
    assert_eq!(timer.location(2), Some((1, 1)), "at currentTime 1, 21 is not < 1 + 20: overflow");
    timer.cancel(2);
    timer.add(3, 2);
    assert_eq!(timer.advance_to(2), vec![3], "a bucket at 2 moves the clock to 2");
    timer.add(2, 21);
    assert_eq!(timer.location(2), Some((0, 1)));
    assert_eq!(timer.levels_view(unlabelled)[0].buckets[1].expiration_ms, Some(21));
    assert!(timer.advance_to(20).is_empty());
    assert_eq!(timer.advance_to(21), vec![2]);
}

#[test]
fn a_cancelled_task_never_fires_and_cancelling_twice_says_so() {
    let mut timer = Timer::new(1, 20, 0);
    for id in 1..=3 {
        timer.add(id, 100);
    }
    assert!(timer.cancel(2));
    assert!(!timer.cancel(2));
    assert!(!timer.cancel(99));
    assert_eq!(timer.location(2), None);
    assert_eq!(timer.pending(), 2);
    assert_eq!(timer.advance_to(100), vec![1, 3]);
    assert_eq!(timer.ops().cancels, 1);
    assert!(!timer.cancel(1), "a task that ran cannot be cancelled");
}

#[test]
fn adding_a_pending_id_again_moves_it() {
    let mut timer = Timer::new(1, 20, 0);
    timer.add(7, 5);
    timer.add(7, 12);
    assert_eq!(timer.location(7), Some((0, 12)));
    assert_eq!(timer.pending(), 1);
    assert!(timer.advance_to(11).is_empty());
    assert_eq!(timer.advance_to(12), vec![7]);
}

#[test]
fn ids_far_beyond_the_dense_index_work_the_same() {
    let mut timer = Timer::new(1, 20, 0);
    let id = 1 << 40;
    timer.add(id, 500);
    assert_eq!(timer.location(id), Some((2, 1)));
    assert!(timer.cancel(id));
    assert!(timer.advance_to(1000).is_empty());
}

/// Drives a timer and a naive reference with the same random adds, cancels and advances;
/// every task must fire exactly when its tick is reached (at tick 1: at its expiration).
fn check_against_reference(tick_ms: u64, wheel_size: usize, seed: u64) {
    let mut draw = Draw(seed);
    let mut timer = Timer::new(tick_ms, wheel_size, 0);
    let mut reference: BTreeMap<u64, u64> = BTreeMap::new();
    let mut now_ms = 0;
    let mut next_id = 0;
    for _ in 0..4000 {
        match draw.below(10) {
            0..=5 => {
                let span_ms = [30, 500, 20_000][draw.below(3) as usize];
                let expiration_ms = now_ms + draw.below(span_ms);
                next_id += 1;
                let due_now = expiration_ms < timer.current_time() + tick_ms;
                assert_eq!(timer.add(next_id, expiration_ms), !due_now, "add at {now_ms} for {expiration_ms}");
                if !due_now {
                    reference.insert(next_id, expiration_ms);
                }
            }
            6 => {
                let id = draw.below(next_id + 2);
                assert_eq!(timer.cancel(id), reference.remove(&id).is_some(), "cancel {id}");
            }
            _ => {
                now_ms += draw.below(3 * tick_ms + 40);
                let fired = timer.advance_to(now_ms);
                let tick_start_ms = now_ms - now_ms % tick_ms;
                let mut expected: Vec<u64> =
                    reference.iter().filter(|(_, e)| **e < tick_start_ms + tick_ms).map(|(id, _)| *id).collect();
                let mut got = fired.clone();
                got.sort_unstable();
                expected.sort_unstable();
                assert_eq!(got, expected, "fired set at {now_ms} (tick {tick_ms}, size {wheel_size})");
                let expirations: Vec<u64> = fired.iter().map(|id| reference[id]).collect();
                assert!(expirations.windows(2).all(|w| w[0] / tick_ms <= w[1] / tick_ms), "firing order by tick");
                for id in &fired {
                    reference.remove(id);
                }
            }
        }
        assert_eq!(timer.pending(), reference.len());
    }
}

#[test]
fn at_tick_1_no_task_fires_early_or_late_against_a_naive_reference() {
    for (wheel_size, seed) in [(20, 1), (2, 2), (3, 3), (8, 4), (64, 5), (20, 6)] {
        check_against_reference(1, wheel_size, seed);
    }
}

#[test]
fn with_a_coarser_tick_a_task_runs_once_its_tick_starts_never_later() {
    for (tick_ms, wheel_size, seed) in [(7, 20, 11), (20, 5, 12), (3, 2, 13)] {
        check_against_reference(tick_ms, wheel_size, seed);
    }
}

#[test]
fn a_binary_heap_fed_the_same_stream_fires_the_same_tasks_but_walks_more_levels() {
    let mut draw = Draw(99);
    let mut wheel = Timer::new(1, 20, 0);
    let mut heap = HeapTimer::new(1, 0);
    let mut id = 0;
    for now_ms in 0..20_000u64 {
        for _ in 0..3 {
            id += 1;
            let expiration_ms = now_ms + 1 + draw.below(30_000);
            assert_eq!(DelayQueue::add(&mut wheel, id, expiration_ms), DelayQueue::add(&mut heap, id, expiration_ms));
            if draw.below(4) != 0 {
                assert!(wheel.cancel(id) && heap.cancel(id), "most operations complete before their timeout");
            }
        }
        let (mut from_wheel, mut from_heap) = (Vec::new(), Vec::new());
        wheel.advance_into(now_ms, &mut from_wheel);
        heap.advance_into(now_ms, &mut from_heap);
        from_wheel.sort_unstable();
        from_heap.sort_unstable();
        assert_eq!(from_wheel, from_heap, "at {now_ms}");
    }
    assert_eq!(wheel.ops().fired, heap.ops().fired);
    assert!(wheel.ops().reinserts > 0, "long timeouts cascade down the wheels");
    assert!(heap.ops().stale_pops > 0, "the heap drops cancelled entries only when they reach the top");
    assert!(heap.ops().work > 2 * wheel.ops().work, "wheel {:?} heap {:?}", wheel.ops(), heap.ops());
}
