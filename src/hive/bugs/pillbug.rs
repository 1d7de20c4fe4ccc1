//! Pillbug: walks like the queen (one slide). Its special ability, throwing a neighbour over
//! itself, is generated in `movegen` because it moves other pieces.

use crate::hive::grid::Cell;
use crate::hive::piece::Piece;
use crate::hive::{Hive, Move};

impl Hive {
    /// The pillbug's own walk: one slide, exactly like the queen.
    pub(crate) fn pillbug_walk(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        self.queen_moves(piece, from, out)
    }
}
