//! Evaluations written as weights × features, so that one tuner fits every weight of every game.
//!
//! A game's evaluation is a function that walks the position once and reports each feature it
//! finds to a [`Sink`]: "the side to move has 3 mobile ants" is `add(MOBILE + ANT, 3)`, the same
//! for the opponent with the count negated. Two sinks read that walk:
//! - [`Score`] multiplies by the weights as it goes (what the search calls, allocation-free);
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

/// Sums weights × features: the evaluation itself.
pub struct Score<'w> {
    weights: &'w [Weight],
    phase: i32,
    opening: i32,
    end: i32,
}

impl<'w> Score<'w> {
    /// A sum over `weights`, in the game's units.
    #[inline]
    pub fn new(weights: &'w [Weight]) -> Score<'w> {
        Score { weights, phase: PHASE_MAX, opening: 0, end: 0 }
    }

    /// The blended score.
    #[inline]
    pub fn total(&self) -> i32 {
        (self.opening * self.phase + self.end * (PHASE_MAX - self.phase)) / PHASE_MAX
    }
}

impl Sink for Score<'_> {
    #[inline(always)]
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        let [opening, end] = self.weights[feature];
        self.opening += opening * count;
        self.end += end * count;
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
        let mut score = Score::new(weights);
        score.phase(self.phase);
        for &(f, n) in &self.counts {
            score.add(f as usize, n as i32);
        }
        score.total()
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
/// are, the opponent's negated, so that one function can gather either side's features.
pub struct Signed<'a, S> {
    sink: &'a mut S,
    sign: i32,
}

impl<'a, S: Sink> Signed<'a, S> {
    /// The side to move's view of `sink` when `to_move`, else the opponent's.
    #[inline(always)]
    pub fn new(sink: &'a mut S, to_move: bool) -> Signed<'a, S> {
        Signed { sink, sign: if to_move { 1 } else { -1 } }
    }

    /// `count` occurrences of `feature` for this side.
    #[inline(always)]
    pub fn add(&mut self, feature: usize, count: i32) {
        self.sink.add(feature, self.sign * count);
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
