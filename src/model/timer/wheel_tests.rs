//! Boundary tests of the wheel's internals: location packing, deep hierarchies, the range end.

use super::wheel::{Timer, MAX_EXPIRATION_MS};

#[test]
fn the_largest_expiration_finds_a_level_even_with_two_buckets_per_wheel() {
    let mut timer = Timer::new(1, 2, 0);
    assert!(timer.add(1, MAX_EXPIRATION_MS));
    let (level, _) = timer.location(1).unwrap();
    assert_eq!(level, 62, "2^62 needs wheel spans 2, 4, ..., 2^63");
    assert_eq!(timer.level_count(), 63);
    assert!(timer.cancel(1));
}

#[test]
fn the_last_bucket_index_and_a_high_level_survive_packing() {
    let mut timer = Timer::new(1, super::MAX_WHEEL_SIZE, 0);
    let last = super::MAX_WHEEL_SIZE as u64 - 1;
    timer.add(1, last);
    assert_eq!(timer.location(1), Some((0, last as usize)));
    assert_eq!(timer.expiration_of(1), Some(last));
    assert_eq!(timer.advance_to(last), vec![1]);
}

#[test]
fn a_bucket_whose_tasks_were_all_cancelled_still_expires_empty_like_kafkas() {
    let mut timer = Timer::new(1, 20, 0);
    timer.add(1, 5);
    timer.cancel(1);
    assert_eq!(timer.next_expiration_ms(), Some(5), "the delay queue still holds the bucket");
    assert!(timer.advance_to(5).is_empty());
    assert_eq!(timer.ops().expirations, 1);
    assert_eq!(timer.next_expiration_ms(), None);
}
