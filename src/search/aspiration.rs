//! The aspiration window of one iteration: where the root is searched first, around the last
//! iteration's score, and how the window moves when the score falls outside it.

use super::parameters::Parameters;
use super::{is_mate_score, INFINITY};

/// The window an iteration searches the root in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// The lower bound: a score at or below it failed low.
    pub alpha: i32,
    /// The upper bound: a score at or above it failed high.
    pub beta: i32,
    /// How far the side that fails next moves out.
    step: i32,
}

impl Window {
    /// The first window of iteration `depth`: `guess`, the last iteration's score, give or
    /// take the parameters' half-width. Shallow iterations, whose scores still swing, and mate
    /// scores get the full window.
    pub fn new(p: &Parameters, depth: i32, guess: i32) -> Window {
        let step = p.aspiration_window;
        if depth >= p.aspiration_min_depth && !is_mate_score(guess) {
            Window { alpha: guess - step, beta: guess + step, step }
        } else {
            Window { alpha: -INFINITY, beta: INFINITY, step }
        }
    }

    /// The window to search the root in again after it scored `score` in this one, or `None`
    /// when the score lies inside (it is exact). The side that failed moves out by the step,
    /// and the step grows; a step beyond the largest opens the window fully, the score being
    /// far from the guess. A failure low also brings the upper bound down to the middle of the
    /// failed window: the score is known to lie below it, and a wide window above a falling
    /// score makes the search again cost many times the first (a line refuted at this depth
    /// often falls by more than one step, and every window in between is searched in full).
    pub fn widen(self, p: &Parameters, score: i32) -> Option<Window> {
        let Window { mut alpha, mut beta, step } = self;
        if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (alpha - step).max(-INFINITY);
        } else if score >= beta {
            beta = (beta + step).min(INFINITY);
        } else {
            return None;
        }
        let step = step * p.aspiration_growth;
        if step > p.aspiration_max_step {
            return Some(Window { alpha: -INFINITY, beta: INFINITY, step });
        }
        Some(Window { alpha, beta, step })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    const P: Parameters = Parameters::DEFAULT;

    fn bounds(w: Window) -> (i32, i32) {
        (w.alpha, w.beta)
    }

    #[test]
    fn shallow_iterations_and_mate_scores_search_the_full_window() {
        let full = (-INFINITY, INFINITY);
        assert_eq!(bounds(Window::new(&P, P.aspiration_min_depth - 1, 100)), full);
        assert_eq!(bounds(Window::new(&P, 9, MATE - 5)), full);
        assert_eq!(bounds(Window::new(&P, 9, -(MATE - 5))), full);
        assert_eq!(bounds(Window::new(&P, P.aspiration_min_depth, 100)), (60, 140));
    }

    #[test]
    fn a_score_inside_the_window_is_exact() {
        let w = Window::new(&P, 6, 100);
        assert_eq!(w.widen(&P, 61), None);
        assert_eq!(w.widen(&P, 139), None);
    }

    #[test]
    fn a_falling_score_moves_both_bounds_down() {
        // Steps of 40, 120, 360 and 1080; the upper bound halves the failed window each time.
        let mut w = Window::new(&P, 6, 100);
        let mut seen = Vec::new();
        while let Some(wider) = w.widen(&P, w.alpha) {
            w = wider;
            seen.push(bounds(w));
            if w.alpha == -INFINITY {
                break;
            }
        }
        assert_eq!(seen, [(20, 100), (-100, 60), (-460, -20), (-INFINITY, INFINITY)]);
    }

    #[test]
    fn a_rising_score_moves_only_the_upper_bound() {
        let w = Window::new(&P, 6, 100);
        let w = w.widen(&P, 140).unwrap();
        assert_eq!(bounds(w), (60, 180));
        let w = w.widen(&P, 500).unwrap();
        assert_eq!(bounds(w), (60, 300));
        assert_eq!(w.widen(&P, 299), None);
    }

    #[test]
    fn a_score_that_falls_then_rises_is_found_between() {
        // Failed low, then high inside the lowered window: the upper bound moves out again.
        let w = Window::new(&P, 6, 100).widen(&P, 50).unwrap();
        assert_eq!(bounds(w), (20, 100));
        let w = w.widen(&P, 100).unwrap();
        assert_eq!(bounds(w), (20, 220));
        assert_eq!(w.widen(&P, 130), None);
    }
}
