//! Soldier Ant: any number of slides.

use crate::hive::grid::{neighbour, opposite, Cell, NO_CELL};
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
    ///
    /// The moves come in the order the cells are first reached by a depth-first flood that
    /// takes each cell's slides in direction order and goes on from the last cell it found
    /// (the search's node counts depend on that order).
    pub(crate) fn ant_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        debug_assert!(self.scratch.dests.is_empty(), "the ant's flood needs a fresh destination set");
        self.lift_temporarily(piece);
        let mut reached = [from; REACH];
        let mut count = 0;
        // Cells still to look at, each with the direction it was reached from, which leads
        // back into the reached set and so is not tried. Packed into one word (cell index, and
        // the way back's bit above it) so that setting the array up is a few vector stores:
        // as pairs it took two stores an entry, a tenth of the flood's instructions.
        let mut stack = [0u32; REACH];
        let mut top = 0;
        // Borrowed once, field by field: the loop then keeps the set's address in a register.
        let (rings, dests) = (&self.rings, &mut *self.scratch.dests);
        dests.insert(from);
        let (mut c, mut back) = (from, 0u8);
        loop {
            let mut mask = rings[c].slides(back);
            // The last cell found here is looked at next, straight from registers: it would be
            // the first off the stack.
            let mut next = (NO_CELL, 0u8);
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let n = neighbour(c, d);
                if dests.insert(n) {
                    if next.0 != NO_CELL {
                        // The counts stay below REACH (see above); the masks drop the bounds checks.
                        stack[top & (REACH - 1)] = next.0.index() as u32 | u32::from(next.1) << 16;
                        top += 1;
                    }
                    next = (n, 1 << opposite(d));
                    reached[count & (REACH - 1)] = n;
                    count += 1;
                }
            }
            if next.0 != NO_CELL {
                (c, back) = next;
            } else if top > 0 {
                top -= 1;
                let entry = stack[top & (REACH - 1)];
                (c, back) = (Cell::from_index(entry as u16), (entry >> 16) as u8);
            } else {
                break;
            }
        }
        self.restore(piece, from);
        out.extend(reached[..count].iter().map(|&to| Move::movement(piece, from, to)));
    }
}
