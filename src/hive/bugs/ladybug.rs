//! Ladybug: two steps on top of the hive, then one down.

use crate::hive::grid::{neighbour, Cell};
use crate::hive::piece::Piece;
use crate::hive::{Hive, Move};

impl Hive {
    /// Three beetle steps with the ladybug lifted off its start: up onto a stack, along the top
    /// to another stack, then down to an empty cell other than the start.
    pub(crate) fn ladybug_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        self.lift_temporarily(piece);
        for d1 in 0..6 {
            let c1 = neighbour(from, d1);
            let h1 = self.height(c1);
            if h1 == 0 || !self.climb_allowed(from, d1, 0) {
                continue;
            }
            for d2 in 0..6 {
                let c2 = neighbour(c1, d2);
                let h2 = self.height(c2);
                if h2 == 0 || !self.climb_allowed(c1, d2, h1) {
                    continue;
                }
                for d3 in 0..6 {
                    let c3 = neighbour(c2, d3);
                    if c3 != from && !self.occupied(c3) && self.climb_allowed(c2, d3, h2) {
                        self.emit(piece, from, c3, out);
                    }
                }
            }
        }
        self.restore(piece, from);
    }
}
