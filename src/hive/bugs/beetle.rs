//! Beetle: one step in any direction, on the ground or on top of the hive.

use crate::hive::grid::{anticlockwise, clockwise, neighbour, Cell};
use crate::hive::piece::Piece;
use crate::hive::{Hive, Move};

impl Hive {
    /// Whether a climbing step from `from` in direction `d` passes the beetle rule (BGG Hive
    /// FAQ, as Mzinga implements it): with `below` pieces under the mover at the start, the
    /// step is blocked iff both flanking stacks are taller than both the start height and the
    /// destination height; a ground-to-ground step with both flanks empty loses contact.
    /// The flanking cells must not hold the mover.
    #[inline(always)]
    pub(crate) fn climb_allowed(&self, from: Cell, d: usize, below: u8) -> bool {
        let dest = self.height(neighbour(from, d));
        let l = self.height(neighbour(from, anticlockwise(d)));
        let r = self.height(neighbour(from, clockwise(d)));
        if below == 0 && dest == 0 && l == 0 && r == 0 {
            return false;
        }
        l.min(r) <= below.max(dest)
    }

    /// One beetle step in each direction (climbing up, along the top, down, or on the ground).
    pub(crate) fn beetle_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        let below = self.level(piece);
        for d in 0..6 {
            if self.climb_allowed(from, d, below) {
                self.emit(piece, from, neighbour(from, d), out);
            }
        }
    }
}
