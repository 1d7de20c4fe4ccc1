//! Grasshopper: jumps in a straight line over one or more pieces.

use crate::hive::grid::{neighbour, Cell};
use crate::hive::piece::Piece;
use crate::hive::{Hive, Move};

impl Hive {
    /// In each direction with an occupied neighbour, the first empty cell beyond the line of
    /// pieces. Jumps ignore gates.
    pub(crate) fn grasshopper_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        for d in 0..6 {
            let mut to = neighbour(from, d);
            if !self.occupied(to) {
                continue;
            }
            while self.occupied(to) {
                to = neighbour(to, d);
            }
            self.emit(piece, from, to, out);
        }
    }
}
