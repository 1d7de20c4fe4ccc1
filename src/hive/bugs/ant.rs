//! Soldier Ant: any number of slides.

use crate::hive::grid::{neighbour, slide_mask, Cell};
use crate::hive::piece::Piece;
use crate::hive::{Hive, Move};

impl Hive {
    /// Every cell reachable by one or more slides (a flood fill with the ant lifted).
    pub(crate) fn ant_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        self.lift_temporarily(piece);
        self.scratch.new_visit_set();
        self.scratch.visit(from);
        let mut queue = std::mem::take(&mut self.scratch.queue);
        queue.clear();
        queue.push(from);
        while let Some(c) = queue.pop() {
            let mut mask = slide_mask(self.ring(c));
            while mask != 0 {
                let n = neighbour(c, mask.trailing_zeros() as usize);
                mask &= mask - 1;
                if self.scratch.visit(n) {
                    self.emit(piece, from, n, out);
                    queue.push(n);
                }
            }
        }
        self.scratch.queue = queue;
        self.restore(piece, from);
    }
}
