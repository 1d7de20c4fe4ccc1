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

/// Time left for answering: stops in time and predicts whether another iteration fits.
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

    /// True once a running iteration must stop.
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether an iteration expected to take `growth` times as long as the last one (which
    /// took `last`) can finish within the budget.
    pub fn next_iteration_fits(&self, last: Duration, growth: f64) -> bool {
        match self.budget {
            None => true,
            Some(b) => self.start.elapsed() + last.mul_f64(growth) <= b,
        }
    }
}
