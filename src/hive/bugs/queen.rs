//! Queen Bee: one slide. (The pillbug walks the same way.)

use crate::hive::grid::{neighbour, Cell};
use crate::hive::piece::Piece;
use crate::hive::{Hive, Move};

impl Hive {
    /// One slide in any direction: to an empty cell with exactly one of the two flanking cells
    /// occupied.
    pub(crate) fn queen_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        // The ring of `from` describes its neighbours, which lifting the piece leaves as they
        // are: no need to lift it.
        let mut mask = self.slides(from);
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            self.emit(piece, from, neighbour(from, d), out);
        }
    }
}
