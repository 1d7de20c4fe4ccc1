//! The one-hive rule: which pieces may not leave their cell because the hive would fall apart
//! without them (the articulation points of the graph of occupied cells), and a plain
//! connectivity check for tests.

use super::grid::{neighbour, Cell, NO_CELL};
use super::piece::{Piece, PieceSet};
use super::Hive;

impl Hive {
    /// The pieces that stand alone on a cell whose removal would split the hive
    /// (articulation points of the graph of occupied cells). Pieces in stacks never break the
    /// hive by leaving (the stack stays), and covered pieces cannot move at all.
    pub(crate) fn pinned_pieces(&self) -> PieceSet {
        self.pinned_among(self.in_play)
    }

    /// The members of `candidates` that [`Hive::pinned_pieces`] holds: move generation asks
    /// only about the pieces that could move, which are about half of them.
    pub(crate) fn pinned_among(&self, candidates: PieceSet) -> PieceSet {
        let mut pinned = PieceSet::EMPTY;
        for piece in candidates {
            let cell = self.pos[piece];
            // Alone on its cell: on the ground and on top (a piece in hand has no cell).
            if cell == NO_CELL || self.height[cell] != 1 {
                continue;
            }
            // The neighbours in one run around the cell touch each other, so they stay
            // connected without the piece: only a piece with two runs or more can split the
            // hive, and the search below is for those alone.
            let ring = self.ring(cell);
            let run_starts = ring & !((ring << 1) | (ring >> 5));
            if run_starts.count_ones() >= 2 && self.splits_hive(piece) {
                pinned.insert(piece);
            }
        }
        pinned
    }

    /// Whether the hive falls apart without `piece`, a ground piece alone on its cell: a flood
    /// fill over the graph of stacks from one of its neighbours, which stops as soon as it has
    /// reached them all (every other stack reaches one of them without passing `piece`).
    #[inline]
    fn splits_hive(&self, piece: Piece) -> bool {
        let around = self.links[piece].bits();
        let first = around & around.wrapping_neg();
        let mut seen = first | PieceSet::only(piece).bits();
        let mut todo = first;
        while todo != 0 {
            let next = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let new = self.links[Piece(next as u8)].bits() & !seen;
            seen |= new;
            todo |= new;
            if seen & around == around {
                return false;
            }
        }
        true
    }

    /// Whether the hive is one connected group (for checks in tests).
    pub fn is_connected(&self) -> bool {
        let mut cells: Vec<Cell> = self.occupied_cells().collect();
        let Some(&start) = cells.first() else { return true };
        let mut seen = vec![start];
        let mut todo = vec![start];
        while let Some(c) = todo.pop() {
            for d in 0..6 {
                let n = neighbour(c, d);
                if self.occupied(n) && !seen.contains(&n) {
                    seen.push(n);
                    todo.push(n);
                }
            }
        }
        cells.retain(|c| !seen.contains(c));
        cells.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use crate::hive::grid::{neighbour, Cell};
    use crate::hive::{Hive, HiveGame, Piece, PieceSet};

    /// The pinned pieces by definition: each piece alone on its cell, taken off, leaves the
    /// hive in two.
    fn pinned_by_definition(hive: &mut Hive) -> PieceSet {
        let mut pinned = PieceSet::EMPTY;
        for piece in Piece::all() {
            let Some(cell) = hive.position(piece) else { continue };
            if hive.height(cell) != 1 {
                continue;
            }
            // Flood the occupied cells from a neighbour, as if the piece were gone.
            let others: Vec<Cell> = hive.occupied_cells().filter(|&c| c != cell).collect();
            let mut seen = vec![others[0]];
            let mut todo = vec![others[0]];
            while let Some(c) = todo.pop() {
                for n in (0..6).map(|d| neighbour(c, d)) {
                    if n != cell && hive.occupied(n) && !seen.contains(&n) {
                        seen.push(n);
                        todo.push(n);
                    }
                }
            }
            if seen.len() < others.len() {
                pinned.insert(piece);
            }
        }
        pinned
    }

    #[test]
    fn pin_search_agrees_with_the_definition() {
        // The 86-move middle game (rings of pieces, stacks, pillbugs) and a beetle-gate position.
        let positions = [
            "Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\",
            "Base+MLP;InProgress;White[5];wB1;bB1 -wB1;wQ wB1-;bQ /bB1;wB2 wQ-;bQ /wB1;wB2 wQ;bB1 bQ",
        ];
        for position in positions {
            let mut hive = HiveGame::parse(position).expect("test position parses").hive().clone();
            assert!(
                crate::hive::check_tree(&mut hive, 2, &mut |h| assert!(
                    h.pinned_pieces() == pinned_by_definition(h),
                    "{h:?}"
                )) > 1000
            );
        }
    }
}
