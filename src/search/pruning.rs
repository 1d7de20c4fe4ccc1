//! Which moves an interior node may skip or search shallower: futility and late-move pruning
//! of quiet moves, and late-move reductions.

use super::is_mate_score;

/// How far below alpha the static score must be, per ply of depth left, to skip quiet moves.
const FUTILITY_MARGIN: i32 = 120;

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
    pub fn new(
        pv_node: bool,
        danger: bool,
        depth: i32,
        alpha: i32,
        static_score: impl FnOnce() -> i32,
    ) -> QuietPruning {
        let futile = !pv_node
            && !danger
            && depth <= 2
            && !is_mate_score(alpha)
            && static_score() + FUTILITY_MARGIN * depth <= alpha;
        let late_quiet_limit =
            if !pv_node && !danger && depth <= 3 { 4 + 3 * (depth * depth) as usize } else { usize::MAX };
        QuietPruning { futile, late_quiet_limit }
    }

    /// Whether the node skips the quiet move that is the `quiet_seen`-th after its first move.
    #[inline]
    pub fn skips(&self, quiet_seen: usize) -> bool {
        self.futile || quiet_seen > self.late_quiet_limit
    }
}

/// Log-shaped late-move-reduction table, by depth and move number.
pub(crate) struct Reductions(Vec<[i32; 64]>);

impl Reductions {
    /// A table for depths up to `max_depth`.
    pub fn new(max_depth: usize) -> Reductions {
        let rows = (0..=max_depth)
            .map(|d| {
                let mut row = [0; 64];
                for (i, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.4) as i32;
                    }
                }
                row
            })
            .collect();
        Reductions(rows)
    }

    /// How many plies shallower a move is searched first, with `depth` left, as the
    /// `number`-th move tried (from 0), if `quiet`: late quiet moves are likely to fail low, so
    /// a reduced search suffices to show it. The first moves, tactical ones and shallow nodes
    /// are not reduced, PV nodes less, and at least one ply is always left.
    #[inline]
    pub fn get(&self, depth: i32, number: usize, quiet: bool, pv_node: bool) -> i32 {
        if depth < 3 || !quiet || number < 3 {
            return 0;
        }
        let mut r = self.0[(depth as usize).min(self.0.len() - 1)][number.min(63)];
        if pv_node {
            r -= 1;
        }
        r.clamp(0, depth - 2)
    }
}
