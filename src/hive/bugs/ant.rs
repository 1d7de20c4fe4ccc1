//! Soldier Ant: any number of slides.

use crate::hive::grid::{neighbour, slide_mask, Cell};
use crate::hive::piece::{Piece, PIECE_COUNT};
use crate::hive::{Hive, Move};

/// Room for every cell an ant can reach, plus its start. It only ever reaches empty cells next
/// to the hive, and a group of `n` cells has at most `2n + 4` empty neighbours.
const REACH: usize = 64;
const _: () = assert!(2 * PIECE_COUNT + 4 < REACH, "every cell next to the hive fits");

impl Hive {
    /// Every cell reachable by one or more slides (a flood fill with the ant lifted).
    ///
    /// The destination set doubles as the set of cells reached (one set to test, not two), so
    /// it must be fresh: the ant runs first for its piece (and first among a mosquito's
    /// borrowed moves). The work stack and the cells found are fixed arrays, with no capacity
    /// checks, and the moves are written in one go at the end.
    pub(crate) fn ant_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        debug_assert!(self.scratch.dests.is_empty(), "the ant's flood needs a fresh destination set");
        self.lift_temporarily(piece);
        let mut reached = [from; REACH];
        let mut count = 0;
        let mut stack = [from; REACH];
        let mut top = 1;
        // Borrowed once, field by field: the loop then keeps the set's address in a register.
        let (rings, dests) = (&self.rings, &mut *self.scratch.dests);
        dests.insert(from);
        while top > 0 {
            top -= 1;
            let c = stack[top];
            let mut mask = slide_mask(rings[c].occupied());
            while mask != 0 {
                let n = neighbour(c, mask.trailing_zeros() as usize);
                mask &= mask - 1;
                if dests.insert(n) {
                    // The counts stay below REACH (see above); the masks drop the bounds checks.
                    stack[top & (REACH - 1)] = n;
                    top += 1;
                    reached[count & (REACH - 1)] = n;
                    count += 1;
                }
            }
        }
        self.restore(piece, from);
        out.extend(reached[..count].iter().map(|&to| Move::movement(piece, from, to)));
    }
}
