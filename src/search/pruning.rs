//! Which nodes need no search and which moves an interior node may skip or search shallower:
//! static cutoffs, futility and late-move pruning of quiet moves, and late-move reductions.
//! Their thresholds are the game's [`Parameters`].

use super::is_mate_score;
use super::node::NodeType;
use super::parameters::Parameters;

/// Whether a node of kind `N` with `depth` left, its side in `danger` or not, is near enough
/// the leaves for its static score to prune its moves (see [`QuietPruning`]) or, where the
/// search uses `static_cutoffs`, to settle it (see [`static_cutoff`]): only then is the static
/// score worth computing.
#[inline]
pub(crate) fn uses_static_score<N: NodeType>(p: &Parameters, static_cutoffs: bool, danger: bool, depth: i32) -> bool {
    let deepest = if static_cutoffs { p.static_cut_max_depth.max(p.futility_max_depth) } else { p.futility_max_depth };
    !N::PV && !danger && depth <= deepest
}

/// A static cutoff ("reverse futility"): a shallow non-PV node whose static score stands at
/// least `static_cut_margin` per ply of depth left above beta is expected to fail high whatever
/// it plays, and is not searched. Not where a score about mate is at stake.
#[inline]
pub(crate) fn static_cutoff(p: &Parameters, depth: i32, beta: i32, static_score: i32) -> bool {
    depth <= p.static_cut_max_depth && !is_mate_score(beta) && static_score - p.static_cut_margin * depth >= beta
}

/// Whether a node may skip quiet moves after its first move.
pub(crate) struct QuietPruning {
    /// The static score is so far below alpha that no quiet move is expected to reach it.
    futile: bool,
    /// Quiet moves beyond this many are skipped.
    late_quiet_limit: usize,
}

impl QuietPruning {
    /// Shallow non-PV nodes far below alpha need not try every quiet move: futility pruning
    /// against the static score, and late-move pruning by count. A side in danger prunes
    /// nothing. `static_score` is asked only where futility pruning can apply, since
    /// evaluating costs time.
    #[inline]
    pub fn new<N: NodeType>(
        p: &Parameters,
        danger: bool,
        depth: i32,
        alpha: i32,
        static_score: impl FnOnce() -> i32,
    ) -> QuietPruning {
        let futile = !N::PV
            && !danger
            && depth <= p.futility_max_depth
            && !is_mate_score(alpha)
            && static_score() + p.futility_margin * depth <= alpha;
        let late_quiet_limit = if !N::PV && !danger && depth <= p.late_move_max_depth {
            p.late_move_base + p.late_move_factor * (depth * depth) as usize
        } else {
            usize::MAX
        };
        QuietPruning { futile, late_quiet_limit }
    }

    /// Whether the node skips the quiet move that is the `quiet_seen`-th after its first move.
    #[inline]
    pub fn skips(&self, quiet_seen: usize) -> bool {
        self.futile || quiet_seen > self.late_quiet_limit
    }
}

/// Log-shaped late-move-reduction table, by depth and move number.
pub(crate) struct Reductions {
    table: Vec<[i32; 64]>,
    min_depth: i32,
    min_number: usize,
    pv: i32,
}

impl Reductions {
    /// A table for depths up to `max_depth`.
    pub fn new(p: &Parameters, max_depth: usize) -> Reductions {
        let table = (0..=max_depth)
            .map(|d| {
                let mut row = [0; 64];
                for (i, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        *r = (p.reduction_base + (d as f64).ln() * (i as f64).ln() / p.reduction_divisor) as i32;
                    }
                }
                row
            })
            .collect();
        Reductions { table, min_depth: p.reduction_min_depth, min_number: p.reduction_min_number, pv: p.reduction_pv }
    }

    /// How many plies shallower a move is searched first, with `depth` left, as the
    /// `number`-th move tried (from 0), if `quiet`: late quiet moves are likely to fail low, so
    /// a reduced search suffices to show it. The first moves, tactical ones and shallow nodes
    /// are not reduced, PV nodes less, and at least one ply is always left.
    #[inline]
    pub fn get<N: NodeType>(&self, depth: i32, number: usize, quiet: bool) -> i32 {
        if depth < self.min_depth || !quiet || number < self.min_number {
            return 0;
        }
        let mut r = self.table[(depth as usize).min(self.table.len() - 1)][number.min(63)];
        if N::PV {
            r -= self.pv;
        }
        r.clamp(0, depth - 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::node::{NonPv, Pv};
    use crate::search::{MATE, MAX_PLY};

    const P: Parameters = Parameters::DEFAULT;

    /// The pruning of a node with `depth` left, alpha 0 and the static score `stand`.
    fn pruning<N: NodeType>(danger: bool, depth: i32, stand: i32) -> QuietPruning {
        QuietPruning::new::<N>(&P, danger, depth, 0, || stand)
    }

    #[test]
    fn futility_margin_is_120_per_ply_up_to_depth_2() {
        assert!(pruning::<NonPv>(false, 1, -120).skips(1));
        assert!(!pruning::<NonPv>(false, 1, -119).skips(1));
        assert!(pruning::<NonPv>(false, 2, -240).skips(1));
        assert!(!pruning::<NonPv>(false, 2, -239).skips(1));
        assert!(!pruning::<NonPv>(false, 3, -10_000).skips(1));
    }

    #[test]
    fn futility_pruning_spares_pv_nodes_danger_and_mate_windows() {
        assert!(!pruning::<Pv>(false, 1, -10_000).skips(1));
        assert!(!pruning::<NonPv>(true, 1, -10_000).skips(1));
        let mated = QuietPruning::new::<NonPv>(&P, false, 1, -(MATE - 10), || -MATE);
        assert!(!mated.skips(1));
    }

    #[test]
    fn static_score_is_asked_only_where_futility_can_apply() {
        let asked = std::cell::Cell::new(0);
        let stand = || {
            asked.set(asked.get() + 1);
            0
        };
        QuietPruning::new::<NonPv>(&P, false, 3, 0, stand);
        QuietPruning::new::<Pv>(&P, false, 1, 0, stand);
        QuietPruning::new::<NonPv>(&P, true, 1, 0, stand);
        assert_eq!(asked.get(), 0);
        QuietPruning::new::<NonPv>(&P, false, 2, 0, stand);
        assert_eq!(asked.get(), 1);
    }

    #[test]
    fn static_cutoff_needs_120_per_ply_above_beta_up_to_depth_3() {
        assert!(static_cutoff(&P, 1, 0, 120));
        assert!(!static_cutoff(&P, 1, 0, 119));
        assert!(static_cutoff(&P, 3, 100, 460));
        assert!(!static_cutoff(&P, 3, 100, 459));
        assert!(!static_cutoff(&P, 4, 0, 10_000));
    }

    #[test]
    fn static_cutoff_spares_mate_windows() {
        // A window about a mate is settled by search: the static score cannot prove a mate.
        assert!(!static_cutoff(&P, 1, MATE - 10, MATE));
        assert!(!static_cutoff(&P, 1, -(MATE - 10), 0));
    }

    #[test]
    fn static_score_is_computed_for_shallow_non_pv_nodes_out_of_danger() {
        assert!(uses_static_score::<NonPv>(&P, true, false, 1));
        assert!(uses_static_score::<NonPv>(&P, true, false, 3));
        assert!(!uses_static_score::<NonPv>(&P, true, false, 4));
        assert!(!uses_static_score::<Pv>(&P, true, false, 1));
        assert!(!uses_static_score::<NonPv>(&P, true, true, 1));
    }

    #[test]
    fn without_static_cutoffs_static_score_is_computed_only_where_futility_can_apply() {
        // A level's search: nothing uses the static score at depth 3.
        assert!(uses_static_score::<NonPv>(&P, false, false, 1));
        assert!(uses_static_score::<NonPv>(&P, false, false, 2));
        assert!(!uses_static_score::<NonPv>(&P, false, false, 3));
        assert!(!uses_static_score::<NonPv>(&P, false, true, 1));
    }

    #[test]
    fn late_move_pruning_keeps_4_plus_3_depth_squared_quiet_moves() {
        for (depth, kept) in [(1, 7), (2, 16), (3, 31)] {
            let p = pruning::<NonPv>(false, depth, 0);
            assert!(!p.skips(kept), "depth {depth}");
            assert!(p.skips(kept + 1), "depth {depth}");
        }
        assert!(!pruning::<NonPv>(false, 4, 0).skips(1000));
        assert!(!pruning::<Pv>(false, 1, 0).skips(1000));
        assert!(!pruning::<NonPv>(true, 1, 0).skips(1000));
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new(&P, MAX_PLY);
        // 0.5 + ln(depth) · ln(number) / 2.4, truncated, and at least one ply left.
        assert_eq!(r.get::<NonPv>(3, 3, true), 1);
        assert_eq!(r.get::<NonPv>(3, 63, true), 1);
        assert_eq!(r.get::<NonPv>(10, 20, true), 3);
        assert_eq!(r.get::<Pv>(10, 20, true), 2);
        assert_eq!(r.get::<NonPv>(100, 63, true), 8);
        assert_eq!(r.get::<NonPv>(100, 500, true), 8);
        assert_eq!(r.get::<NonPv>(500, 63, true), 8);
        assert_eq!(r.get::<Pv>(3, 3, true), 0);
    }

    #[test]
    fn first_moves_tactical_moves_and_shallow_nodes_are_not_reduced() {
        let r = Reductions::new(&P, MAX_PLY);
        assert_eq!(r.get::<NonPv>(10, 2, true), 0);
        assert_eq!(r.get::<NonPv>(10, 20, false), 0);
        assert_eq!(r.get::<NonPv>(2, 20, true), 0);
    }
}
