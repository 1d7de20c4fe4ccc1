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
}

/// Kept in reserve for answering (printing, thread joins) after the search stops.
const MARGIN: Duration = Duration::from_millis(15);

impl Clock {
    pub fn new(limits: &Limits) -> Clock {
        let hard = limits.time.map(|t| t.saturating_sub(MARGIN).max(Duration::from_millis(1)));
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
