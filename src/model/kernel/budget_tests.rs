//! The kernel's work limits at their boundaries, on a toy world: a tick that reschedules
//! itself every `period_ms` (0 for a model that never lets time move).

use super::*;

#[derive(Clone, Debug)]
struct Ticker {
    period_ms: u64,
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
    }

    fn check(&self, _: &(), _: &Ctx<Nothing, Tick>) -> Result<(), Tick> {
        Ok(())
    }

    fn apply(&mut self, _: &(), _: &mut Ctx<Nothing, Tick>) {}
}

#[test]
fn a_wait_within_the_budget_ends_where_it_was_asked_to() {
    let mut sim = Sim::new(1, Ticker { period_ms: 10 });
    assert_eq!(sim.advance_within(1_000, 100), Ok(()));
    assert_eq!((sim.now_ms(), sim.events_handled()), (1_000, 100));
}

#[test]
fn past_the_budget_a_wait_stops_between_two_instants_and_a_shorter_wait_gets_there_too() {
    let mut sim = Sim::new(1, Ticker { period_ms: 10 });
    assert_eq!(sim.advance_within(1_000, 40), Err(400), "40 ticks handled: every event up to 400 ms, none after");
    assert_eq!(sim.events_handled(), 40);
    let mut again = Sim::new(1, Ticker { period_ms: 10 });
    again.advance(400);
    assert_eq!((again.now_ms(), again.events_handled()), (sim.now_ms(), sim.events_handled()));
}

#[test]
fn a_model_that_never_lets_time_move_stops_at_the_instant_limit() {
    let mut sim = Sim::new(1, Ticker { period_ms: 0 });
    assert_eq!(sim.advance_within(1_000, u64::MAX), Err(0));
    assert_eq!(sim.events_handled(), MAX_EVENTS_AT_ONE_INSTANT);
    let mut plain = Sim::new(1, Ticker { period_ms: 0 });
    plain.advance(1_000);
    assert_eq!(plain.now_ms(), 0, "a plain wait leaves the clock at the stuck instant, not past its events");
}
