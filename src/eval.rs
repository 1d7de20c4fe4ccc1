//! Evaluations written as weights × features, so that one tuner fits every weight of every game.
//!
//! A game's evaluation is a function that walks the position once and reports each feature it
//! finds to a [`Sink`]: "the side to move has 3 mobile ants" is `add(MOBILE + ANT, 3)`, the same
//! for the opponent with the count negated. Two sinks read that walk:
//! - [`Score`] multiplies by the weights as it goes (what the search calls, allocation-free),
//!   with each feature's two weights [`Packed`] into one integer;
//! - [`Trace`] records the counts (what the tuner learns from).
//!
//! Every feature has two weights, one for the opening and one for the end game, blended by the
//! game's phase ([`PHASE_MAX`] at the start, 0 when every piece is on the board).

use crate::game::Game;

/// The phase of the opening; 0 is the end game.
pub const PHASE_MAX: i32 = 256;

/// One feature's weights: opening, end game.
pub type Weight = [i32; 2];

/// What an evaluation reports its features to.
pub trait Sink {
    /// The position's phase, from 0 (end game) to [`PHASE_MAX`] (opening); reported once.
    fn phase(&mut self, phase: i32);
    /// `count` occurrences of `feature` (negative for the opponent's).
    fn add(&mut self, feature: usize, count: i32);
}

/// One feature's two weights packed into one integer, so that the search adds both with one
/// multiply-add: the opening weight times 2³² plus the end-game weight. Sums of packed weights
/// are the packed sums (for sums within ±2³¹, which evaluations stay far inside), and
/// [`Packed::opening`] and [`Packed::end`] take them apart exactly.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Packed(i64);

impl Packed {
    /// Both weights.
    #[inline(always)]
    pub const fn new([opening, end]: Weight) -> Packed {
        Packed(((opening as i64) << 32) + end as i64)
    }

    /// The end-game part: the low half, read as signed.
    #[inline(always)]
    pub const fn end(self) -> i32 {
        self.0 as i32
    }

    /// The opening part: what is left once the end-game part is taken away.
    #[inline(always)]
    pub const fn opening(self) -> i32 {
        ((self.0 - self.end() as i64) >> 32) as i32
    }
}

/// `weights` packed, one for one (a table built once, at compile time).
pub const fn pack<const N: usize>(weights: &[Weight; N]) -> [Packed; N] {
    let mut packed = [Packed(0); N];
    let mut i = 0;
    while i < N {
        packed[i] = Packed::new(weights[i]);
        i += 1;
    }
    packed
}

/// The opening and end-game sums blended by `phase`.
#[inline(always)]
fn blend(opening: i32, end: i32, phase: i32) -> i32 {
    (opening * phase + end * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Sums weights × features: the evaluation itself. The weights come packed and as an array,
/// so that each feature costs one multiply-add and its index needs no run-time length.
pub struct Score<'w, const N: usize> {
    weights: &'w [Packed; N],
    phase: i32,
    sum: i64,
}

impl<'w, const N: usize> Score<'w, N> {
    /// A sum over `weights`, in the game's units.
    #[inline]
    pub fn new(weights: &'w [Packed; N]) -> Score<'w, N> {
        Score { weights, phase: PHASE_MAX, sum: 0 }
    }

    /// The blended score.
    #[inline]
    pub fn total(&self) -> i32 {
        let sum = Packed(self.sum);
        blend(sum.opening(), sum.end(), self.phase)
    }
}

impl<const N: usize> Sink for Score<'_, N> {
    #[inline(always)]
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.sum += self.weights[feature].0 * count as i64;
    }
}

/// The features of one position as counts, for the tuner.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// The phase, from 0 (end game) to [`PHASE_MAX`].
    pub phase: i32,
    /// (feature, count) pairs with non-zero counts, each feature once, in feature order.
    pub counts: Vec<(u16, i16)>,
}

impl Trace {
    /// Sorts the counts and merges repeated features (an evaluation may report one several
    /// times), dropping the zeros.
    pub fn finish(&mut self) {
        self.counts.sort_unstable_by_key(|&(f, _)| f);
        let mut merged: Vec<(u16, i16)> = Vec::with_capacity(self.counts.len());
        for &(f, n) in &self.counts {
            match merged.last_mut() {
                Some(last) if last.0 == f => last.1 += n,
                _ => merged.push((f, n)),
            }
        }
        merged.retain(|&(_, n)| n != 0);
        self.counts = merged;
    }

    /// Negates every count: the same features from the other side's point of view.
    pub fn negate(&mut self) {
        for c in &mut self.counts {
            c.1 = -c.1;
        }
    }

    /// The score these counts give under `weights`, as [`Score`] computes it.
    pub fn score(&self, weights: &[Weight]) -> i32 {
        let (mut opening, mut end) = (0, 0);
        for &(f, n) in &self.counts {
            let [o, e] = weights[f as usize];
            opening += o * n as i32;
            end += e * n as i32;
        }
        blend(opening, end, self.phase)
    }
}

impl Trace {
    /// The finished trace of what `terms` reports.
    pub fn of(terms: impl FnOnce(&mut Trace)) -> Trace {
        let mut trace = Trace::default();
        terms(&mut trace);
        trace.finish();
        trace
    }
}

/// A sink seen through one side of the board: the counts of the side to move go in as they
/// are (`SIGN` 1), the opponent's negated (`SIGN` -1), so that one function can gather either
/// side's features. The sign is a constant so that each side's copy of that function folds it
/// into its sums.
pub struct Signed<'a, S, const SIGN: i32> {
    sink: &'a mut S,
}

impl<'a, S: Sink, const SIGN: i32> Signed<'a, S, SIGN> {
    /// `sink` seen with this sign.
    #[inline(always)]
    pub fn new(sink: &'a mut S) -> Signed<'a, S, SIGN> {
        Signed { sink }
    }

    /// `count` occurrences of `feature` for this side.
    #[inline(always)]
    pub fn add(&mut self, feature: usize, count: i32) {
        self.sink.add(feature, SIGN * count);
    }
}

impl Sink for Trace {
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn add(&mut self, feature: usize, count: i32) {
        if count != 0 {
            self.counts.push((feature as u16, count as i16));
        }
    }
}

/// A game whose evaluation is weights × features, so that `comb tune` can fit it.
pub trait Tunable: Game {
    /// The name of every feature, in index order (what the weights file lists).
    const FEATURES: &'static [&'static str];

    /// The weights in use, one per feature.
    fn weights() -> &'static [Weight];

    /// What the weighted sum is divided by to give the evaluation (weights finer than the
    /// evaluation's unit).
    const SCALE: i32 = 1;

    /// The features of this position from the side to move's point of view; its static
    /// evaluation is `trace.score(Self::weights()) / Self::SCALE`.
    fn trace(&self) -> Trace;

    /// Where the engine reads the weights from, relative to the crate root (what the tuner
    /// rewrites).
    const WEIGHTS_FILE: &'static str;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_sums_come_apart_exactly() {
        // Signs mixed within and across features: each half of the sum is its own sum.
        let weights = pack(&[[-526, -276], [211, -50], [-3, 84], [0, 0]]);
        let mut score = Score::new(&weights);
        for (feature, count) in [(0, 3), (1, -7), (2, 5), (3, 9), (1, 2)] {
            score.add(feature, count);
        }
        let sum = Packed(score.sum);
        assert_eq!((sum.opening(), sum.end()), (-526 * 3 + 211 * -5 - 3 * 5, -276 * 3 - 50 * -5 + 84 * 5));
        // The blend rounds towards zero, as it did with the halves summed apart.
        score.phase(100);
        assert_eq!(score.total(), (sum.opening() * 100 + sum.end() * 156) / 256);
        assert_eq!(Packed::new([-1, -1]).opening(), -1);
        assert_eq!(Packed::new([5, i32::MIN]).opening(), 5);
    }
}
