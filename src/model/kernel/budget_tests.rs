//! The kernel's work limits at their boundaries, on a toy world: a tick that reschedules
//! itself every `period_ms` (0 for a model that never lets time move), logging `lines` lines
//! a tick and claiming `items` unshared items (what a snapshot of it would copy).

use super::*;

#[derive(Clone, Debug)]
struct Ticker {
    period_ms: u64,
    lines: usize,
    items: usize,
}

#[derive(Clone, Debug, PartialEq, Hash)]
struct Tick;

impl Describe for Tick {
    fn message(&self) -> Message {
        Message::new(Key { id: "test.tick", en: "tick" })
    }
}

impl Salient for Tick {
    fn salience(&self) -> Salience {
        Salience::Routine
    }
}

#[derive(Clone, Debug)]
struct Nothing;

impl Watched for Nothing {}

impl World for Ticker {
    type Event = Nothing;
    type Command = ();
    type Fact = Tick;
    type Refusal = Tick;

    fn start(&mut self, ctx: &mut Ctx<Nothing, Tick>) {
        ctx.schedule(self.period_ms, Nothing);
    }

    fn handle(&mut self, _: Nothing, ctx: &mut Ctx<Nothing, Tick>) {
        ctx.schedule(self.period_ms, Nothing);
        for _ in 0..self.lines {
            ctx.record(Actor::Controller, Tick);
        }
    }

    fn check(&self, _: &(), _: &Ctx<Nothing, Tick>) -> Result<(), Tick> {
        Ok(())
    }

    fn apply(&mut self, _: &(), _: &mut Ctx<Nothing, Tick>) {}

    fn copied_items(&self) -> usize {
        self.items
    }
}

#[test]
fn a_wait_within_the_budget_ends_where_it_was_asked_to() {
    let mut sim = Sim::new(1, Ticker { period_ms: 10, lines: 0, items: 0 });
    assert_eq!(sim.advance_within(1_000, 100), Ok(()));
    assert_eq!((sim.now_ms(), sim.events_handled()), (1_000, 100));
}

#[test]
fn past_the_budget_a_wait_stops_between_two_instants_and_a_shorter_wait_gets_there_too() {
    let mut sim = Sim::new(1, Ticker { period_ms: 10, lines: 0, items: 0 });
    assert_eq!(sim.advance_within(1_000, 40), Err(400), "40 ticks handled: every event up to 400 ms, none after");
    assert_eq!(sim.events_handled(), 40);
    let mut again = Sim::new(1, Ticker { period_ms: 10, lines: 0, items: 0 });
    again.advance(400);
    assert_eq!((again.now_ms(), again.events_handled()), (sim.now_ms(), sim.events_handled()));
}

#[test]
fn a_model_that_never_lets_time_move_stops_at_the_instant_limit() {
    let mut sim = Sim::new(1, Ticker { period_ms: 0, lines: 0, items: 0 });
    assert_eq!(sim.advance_within(1_000, u64::MAX), Err(0));
    assert_eq!(sim.events_handled(), MAX_EVENTS_AT_ONE_INSTANT);
    let mut plain = Sim::new(1, Ticker { period_ms: 0, lines: 0, items: 0 });
    plain.advance(1_000);
    assert_eq!(plain.now_ms(), 0, "a plain wait leaves the clock at the stuck instant, not past its events");
}

#[test]
fn a_wait_stops_between_two_instants_once_the_log_holds_its_allowance_of_lines() {
    let mut sim = Sim::new(1, Ticker { period_ms: 10, lines: 3, items: 0 });
    let allowance = Allowance { events: u64::MAX, log_len: 30 };
    assert_eq!(sim.advance_within(1_000, allowance), Err(100), "ten ticks wrote 30 lines by 100 ms");
    assert_eq!((sim.log().len(), sim.events_handled()), (30, 10));
}

#[test]
fn snapshots_of_a_heavy_state_are_fewer_and_seeking_still_shows_every_state() {
    let items = MAX_SNAPSHOT_ITEMS / 3;
    let mut history = History::new(Sim::new(1, Ticker { period_ms: 10, lines: 1, items }));
    for _ in 0..600 {
        history.push(Input::Advance(10)).expect("a wait is never refused");
    }
    let kept = history.snapshot_positions();
    assert!(kept.len() <= 3, "the start and at most two states of a third of the budget: {kept:?}");
    assert_eq!(kept[0], 0, "the start is always kept");
    history.seek(250);
    assert_eq!((history.current().now_ms(), history.current().log().len()), (2_500, 250));
    let mut light = History::new(Sim::new(1, Ticker { period_ms: 10, lines: 1, items: 0 }));
    for _ in 0..600 {
        light.push(Input::Advance(10)).expect("a wait is never refused");
    }
    assert!(light.snapshot_positions().len() > kept.len(), "a light run keeps more");
}

#[test]
fn a_state_heavier_than_the_whole_snapshot_budget_is_never_copied() {
    let mut history = History::new(Sim::new(1, Ticker { period_ms: 10, lines: 0, items: MAX_SNAPSHOT_ITEMS + 1 }));
    for _ in 0..300 {
        history.push(Input::Advance(10)).expect("a wait is never refused");
    }
    assert_eq!(history.snapshot_positions(), vec![0]);
    history.seek(120);
    assert_eq!(history.current().now_ms(), 1_200, "seeking replays from the start");
}
