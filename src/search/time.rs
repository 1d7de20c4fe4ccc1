//! When to stop: fixed depth, a time budget, or until told.

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
    /// The whole budget, to judge whether the next iteration can finish.
    budget: Option<Duration>,
}

/// Kept in reserve for answering (printing, thread joins) after the search stops.
const MARGIN: Duration = Duration::from_millis(15);

impl Clock {
    pub fn new(limits: &Limits) -> Clock {
        let hard = limits.time.map(|t| t.saturating_sub(MARGIN).max(Duration::from_millis(1)));
        Clock { start: Instant::now(), hard, budget: hard }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// The main thread's time management over iterative deepening: it times every iteration,
/// decides whether the next one may start, and whether the running one must stop.
pub(crate) struct TimeManager<'a> {
    clock: &'a Clock,
    /// When the running iteration started, counted from the start of the search.
    started: Duration,
    /// How long the last finished iteration took.
    last: Duration,
    /// How long the iteration before it took.
    before: Duration,
    /// How many times as long as the last iteration the next one is expected to take.
    growth: f64,
}

impl<'a> TimeManager<'a> {
    pub fn new(clock: &'a Clock) -> TimeManager<'a> {
        TimeManager { clock, started: Duration::ZERO, last: Duration::ZERO, before: Duration::ZERO, growth: 3.0 }
    }

    /// An iteration starts now.
    pub fn start_iteration(&mut self) {
        self.started = self.clock.elapsed();
    }

    /// The running iteration has finished: predicts the next one's cost from it. Returns the
    /// time since the search started and how long the iteration took.
    pub fn finish_iteration(&mut self) -> (Duration, Duration) {
        let now = self.clock.elapsed();
        let took = now - self.started;
        // Another iteration costs a few times the last one. Iteration times alternate (odd and
        // even depths differ), so the growth per iteration is the average over the last two
        // steps.
        self.growth = if self.before.as_micros() > 200 {
            (took.as_secs_f64() / self.before.as_secs_f64()).sqrt().clamp(1.5, 6.0)
        } else {
            3.0
        };
        self.before = self.last;
        self.last = took;
        (now, took)
    }

    /// Whether the next iteration may start: one that is not expected to finish within the
    /// budget is not begun.
    pub fn next_iteration_may_start(&self) -> bool {
        match self.clock.budget {
            None => true,
            Some(b) => self.clock.elapsed() + self.last.mul_f64(self.growth) <= b,
        }
    }

    /// True once the running iteration must stop: the hard limit is reached.
    #[inline]
    pub fn must_stop(&self) -> bool {
        self.clock.hard.is_some_and(|h| self.clock.elapsed() >= h)
    }
}
