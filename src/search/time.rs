//! When to stop: fixed depth, a time budget, or until told.

use super::parameters::Parameters;
use std::time::{Duration, Instant};

/// What bounds a search. All `None` means "until stopped".
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Time to answer within.
    pub time: Option<Duration>,
    /// Node budget (checked between iterations and every few thousand nodes).
    pub nodes: Option<u64>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A search that must answer within `time`.
    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::default() }
    }

    /// True when nothing bounds the search except an outside stop.
    pub fn is_infinite(&self) -> bool {
        self.depth.is_none() && self.time.is_none() && self.nodes.is_none()
    }
}

/// Time left for answering: the start of the search and its limits.
pub(crate) struct Clock {
    start: Instant,
    /// When a running iteration must be abandoned.
    hard: Option<Duration>,
}

impl Clock {
    /// Starts the clock of a search within `limits`, keeping the reserve of the parameters `p`.
    pub fn new(limits: &Limits, p: &Parameters) -> Clock {
        let hard = limits.time.map(|t| t.saturating_sub(p.time_reserve).max(p.time_min));
        Clock { start: Instant::now(), hard }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// The main thread's time management over iterative deepening: it times every iteration,
/// decides whether the next one may start, and whether the running one must stop.
///
/// UHP has no clock: `bestmove time T` is this move's whole budget, and time not used is
/// strength thrown away. So the next iteration always starts while time is left, and the hard
/// limit stops it; the search then keeps the last finished iteration's move unless the
/// unfinished one has proved a better root move (its first move searched, or another that
/// failed high and was confirmed).
pub(crate) struct TimeManager<'a> {
    clock: &'a Clock,
    /// When the running iteration started, counted from the start of the search.
    started: Duration,
}

impl<'a> TimeManager<'a> {
    pub fn new(clock: &'a Clock) -> TimeManager<'a> {
        TimeManager { clock, started: Duration::ZERO }
    }

    /// An iteration starts now.
    pub fn start_iteration(&mut self) {
        self.started = self.clock.elapsed();
    }

    /// The running iteration has finished. Returns the time since the search started and how
    /// long the iteration took.
    pub fn finish_iteration(&mut self) -> (Duration, Duration) {
        let now = self.clock.elapsed();
        (now, now - self.started)
    }

    /// Whether the next iteration may start: while any time is left, since an unfinished
    /// iteration still improves the move (see the type's notes).
    pub fn next_iteration_may_start(&self) -> bool {
        !self.must_stop()
    }

    /// True once the running iteration must stop: the hard limit is reached.
    #[inline]
    pub fn must_stop(&self) -> bool {
        self.clock.hard.is_some_and(|h| self.clock.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Parameters = Parameters::DEFAULT;

    /// A clock of a search within `time` that started `ago`.
    fn clock(time: Option<Duration>, ago: Duration) -> Clock {
        let mut clock = Clock::new(&Limits { time, ..Limits::default() }, &P);
        clock.start = Instant::now().checked_sub(ago).unwrap();
        clock
    }

    #[test]
    fn hard_limit_keeps_15_ms_in_reserve_and_gives_at_least_1_ms() {
        let hard = |ms| Clock::new(&Limits::time(Duration::from_millis(ms)), &P).hard;
        assert_eq!(hard(1000), Some(Duration::from_millis(985)));
        assert_eq!(hard(16), Some(Duration::from_millis(1)));
        assert_eq!(hard(10), Some(Duration::from_millis(1)));
        assert_eq!(hard(0), Some(Duration::from_millis(1)));
        assert_eq!(Clock::new(&Limits::depth(5), &P).hard, None);
    }

    #[test]
    fn a_search_stops_at_the_hard_limit_and_not_before() {
        let spent = clock(Some(Duration::from_millis(100)), Duration::from_millis(90));
        let time = TimeManager::new(&spent);
        assert!(time.must_stop());
        assert!(!time.next_iteration_may_start());
        let fresh = clock(Some(Duration::from_secs(3600)), Duration::ZERO);
        let time = TimeManager::new(&fresh);
        assert!(!time.must_stop());
        assert!(time.next_iteration_may_start());
    }

    #[test]
    fn a_search_without_a_time_limit_never_stops_on_time() {
        let endless = clock(None, Duration::from_secs(3600));
        let time = TimeManager::new(&endless);
        assert!(!time.must_stop());
        assert!(time.next_iteration_may_start());
    }

    #[test]
    fn an_iteration_is_timed_from_its_start() {
        let running = clock(None, Duration::from_secs(10));
        let mut time = TimeManager::new(&running);
        time.start_iteration();
        let (elapsed, took) = time.finish_iteration();
        // What the search had spent before the iteration started is not the iteration's.
        assert!(elapsed - took >= Duration::from_secs(10));
    }
}
