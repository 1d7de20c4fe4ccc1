//! Soldier Ant: any number of slides.

use crate::hive::grid::{neighbour, opposite, Cell};
use crate::hive::piece::{Piece, PIECE_COUNT};
use crate::hive::{Hive, Move};

/// Room for every cell an ant can reach. It only ever reaches empty cells next
/// to the hive, and a group of `n` cells has at most `2n + 4` empty neighbours.
const REACH: usize = 64;
const _: () = assert!(2 * PIECE_COUNT + 4 < REACH, "every cell next to the hive fits");

impl Hive {
    /// Every cell reachable by one or more slides (a flood fill with the ant lifted).
    ///
    /// The destination set doubles as the set of cells reached (one set to test, not two), so
    /// it must be fresh: the ant runs first for its piece (and first among a mosquito's
    /// borrowed moves).
    ///
    /// The flood is breadth first: the cells found wait in a queue that is also the list of
    /// moves, in the order found. Around the hive the cells reachable from the start form a
    /// ring, and breadth first goes round it both ways at once: two independent walks whose
    /// loads the processor overlaps, where a depth-first walk is one chain of dependent loads.
    pub(crate) fn ant_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        debug_assert!(self.scratch.dests.is_empty(), "the ant's flood needs a fresh destination set");
        self.lift_temporarily(piece);
        // Each cell found, with the direction it was reached from (the way back, into the
        // reached set, is not tried), packed into one word: cell index, and the way back's bit
        // above it.
        let mut queue = [0u32; REACH];
        let (mut head, mut tail) = (0usize, 0usize);
        // Borrowed once, field by field: the loop then keeps the set's address in a register.
        let (rings, dests) = (&self.rings, &mut *self.scratch.dests);
        dests.insert(from);
        let (mut c, mut back) = (from, 0u8);
        loop {
            let mut mask = rings[c].slides(back);
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let n = neighbour(c, d);
                if dests.insert(n) {
                    // The counts stay below REACH (see above); the mask drops the bounds check.
                    queue[tail & (REACH - 1)] = n.index() as u32 | u32::from(1u8 << opposite(d)) << 16;
                    tail += 1;
                }
            }
            if head == tail {
                break;
            }
            let entry = queue[head & (REACH - 1)];
            head += 1;
            (c, back) = (Cell::from_index(entry as u16), (entry >> 16) as u8);
        }
        self.restore(piece, from);
        out.extend(queue[..tail].iter().map(|&e| Move::movement(piece, from, Cell::from_index(e as u16))));
    }
}
