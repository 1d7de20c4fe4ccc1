//! Spider: exactly three slides along distinct cells.

use crate::hive::grid::{neighbour, Cell};
use crate::hive::piece::Piece;
use crate::hive::{Hive, Move};

impl Hive {
    /// Three slides, never stepping back onto the previous cell or the start, so the path
    /// visits three new cells; destinations reached by several paths are emitted once.
    pub(crate) fn spider_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        self.lift_temporarily(piece);
        let mut m1 = self.slides(from);
        while m1 != 0 {
            let c1 = neighbour(from, m1.trailing_zeros() as usize);
            m1 &= m1 - 1;
            let mut m2 = self.slides(c1);
            while m2 != 0 {
                let c2 = neighbour(c1, m2.trailing_zeros() as usize);
                m2 &= m2 - 1;
                if c2 == from {
                    continue;
                }
                let mut m3 = self.slides(c2);
                while m3 != 0 {
                    let c3 = neighbour(c2, m3.trailing_zeros() as usize);
                    m3 &= m3 - 1;
                    if c3 != c1 && c3 != from {
                        self.emit(piece, from, c3, out);
                    }
                }
            }
        }
        self.restore(piece, from);
    }
}
