//! Every number that shapes the search, in one place: the aspiration windows, the pruning and
//! reduction thresholds, the history's scale, the quiescence horizon and the time reserve.
//!
//! Each game carries its own set ([`Game::PARAMETERS`](crate::game::Game::PARAMETERS)), since a
//! margin in one game's score units or a reduction in its plies is not worth the same in
//! another. A change to any of them changes the search, and with it the bench checksum
//! (`positions/bench-total.txt`).

use std::time::Duration;

/// The search's tunable constants for one game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Parameters {
    /// Shallowest iteration searched in an aspiration window; shallower ones, whose scores
    /// still swing, use the full window.
    pub aspiration_min_depth: i32,
    /// Half-width of the first aspiration window around the previous iteration's score.
    pub aspiration_window: i32,
    /// After every failure the window's side that failed moves out by its step (a failure low
    /// also brings the upper bound to the failed window's middle), and the step is multiplied
    /// by this.
    pub aspiration_growth: i32,
    /// A step beyond this opens the window fully: the score is far from the guess.
    pub aspiration_max_step: i32,

    /// Deepest remaining depth at which futility pruning skips quiet moves.
    pub futility_max_depth: i32,
    /// How far below alpha the static score must be, per ply of depth left, to skip the quiet
    /// moves of a non-PV node.
    pub futility_margin: i32,

    /// Deepest remaining depth at which a non-PV node whose static score stands far enough
    /// above beta fails high without searching (a static cutoff, "reverse futility").
    pub static_cut_max_depth: i32,
    /// How far above beta the static score must stand, per ply of depth left, for a static
    /// cutoff.
    pub static_cut_margin: i32,

    /// Deepest remaining depth at which late-move pruning skips quiet moves beyond a count.
    pub late_move_max_depth: i32,
    /// Quiet moves a node at late-move-pruning depth tries at least (after its first move).
    pub late_move_base: usize,
    /// Quiet moves tried in addition, per square of the depth left.
    pub late_move_factor: usize,

    /// Shallowest remaining depth at which late moves are reduced.
    pub reduction_min_depth: i32,
    /// Moves tried before the first one a node may reduce (the first moves are the likely best).
    pub reduction_min_number: usize,
    /// Constant term of the reduction `base + ln(depth) · ln(number) / divisor`.
    pub reduction_base: f64,
    /// Divisor of the reduction's log term: larger reduces less.
    pub reduction_divisor: f64,
    /// Plies less that a PV node reduces, as its moves matter more.
    pub reduction_pv: i32,

    /// Longest run of tactical moves the quiescence search follows.
    pub quiescence_max_depth: usize,

    /// Bound of the history scores: updates shrink as a score nears it (gravity), which keeps
    /// recent cutoffs weighty.
    pub history_max: i32,
    /// Largest history bonus of one cutoff (the bonus is the depth left squared).
    pub history_bonus_max: i32,

    /// Whether a helper thread with no node to join searches the root on its own, one ply
    /// deeper than the main thread (see `Worker::help`). Its entries in the table then give
    /// the main thread deeper scores than its iteration's depth.
    pub helpers_search_alone: bool,
    /// Spins an idle helper waits for a node to join before it searches on its own: work
    /// usually comes within microseconds while the main thread's iteration is deep enough to
    /// share.
    pub helper_spins_before_search_alone: u32,

    /// Nodes between two looks at the clock, the node limit and the stop flags (a power of
    /// two makes the check a mask).
    pub check_interval: u64,
    /// Kept in reserve out of a search's time for answering (printing, joining threads)
    /// after it stops.
    pub time_reserve: Duration,
    /// Least time a search with a time limit is given, however short the limit.
    pub time_min: Duration,
}

impl Parameters {
    /// The values both games search with today.
    pub const DEFAULT: Parameters = Parameters {
        aspiration_min_depth: 4,
        aspiration_window: 40,
        aspiration_growth: 3,
        aspiration_max_step: 2000,
        futility_max_depth: 2,
        futility_margin: 120,
        static_cut_max_depth: 3,
        static_cut_margin: 120,
        late_move_max_depth: 3,
        late_move_base: 4,
        late_move_factor: 3,
        reduction_min_depth: 3,
        reduction_min_number: 3,
        reduction_base: 0.5,
        reduction_divisor: 2.4,
        reduction_pv: 1,
        quiescence_max_depth: 8,
        history_max: 16_384,
        history_bonus_max: 400,
        helpers_search_alone: true,
        helper_spins_before_search_alone: 200,
        check_interval: 1024,
        time_reserve: Duration::from_millis(15),
        time_min: Duration::from_millis(1),
    };
}
