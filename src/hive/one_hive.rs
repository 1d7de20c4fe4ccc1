//! The one-hive rule: which pieces may not leave their cell because the hive would fall apart
//! without them (the articulation points of the graph of occupied cells), and a plain
//! connectivity check for tests.

use super::grid::{neighbour, Cell, ORIGIN};
use super::piece::{Piece, PieceSet, PIECE_COUNT};
use super::Hive;

impl Hive {
    /// The pieces that stand alone on a cell whose removal would split the hive
    /// (articulation points of the graph of occupied cells). Pieces in stacks never break the
    /// hive by leaving (the stack stays), and covered pieces cannot move at all.
    pub(crate) fn pinned_pieces(&self) -> PieceSet {
        // Iterative Tarjan over occupied cells. Every occupied cell has exactly one top piece,
        // so discovery times are kept per top piece, in two small arrays on the stack that
        // start at zero: nothing in the position is written, and nothing needs clearing after.
        const SLOTS: usize = 32;
        const _: () = assert!(PIECE_COUNT < SLOTS, "a slot per piece and one for no parent");
        // The mask keeps every index in bounds without a check (ids are below PIECE_COUNT).
        let slot = |c: Cell| self.top[c].piece().0 as usize & (SLOTS - 1);
        const NO_PARENT: usize = SLOTS - 1;
        let root = match self.occupied_cells().next() {
            Some(c) => c,
            None => return PieceSet::EMPTY,
        };
        let mut disc = [0u8; SLOTS];
        let mut low = [0u8; SLOTS];
        let mut pinned = PieceSet::EMPTY;
        // (cell, its slot, its parent's slot, next direction); at most 28 cells deep.
        let mut stack: [(Cell, u8, u8, u8); PIECE_COUNT + 1] = [(ORIGIN, 0, 0, 0); PIECE_COUNT + 1];
        let mut sp = 0;
        let mut time: u8 = 1;
        let r = slot(root);
        disc[r] = time;
        low[r] = time;
        stack[sp] = (root, r as u8, NO_PARENT as u8, 0);
        sp += 1;
        let mut root_children = 0;
        while sp > 0 {
            let (v, vs, ps, d) = stack[sp - 1];
            let (vs, ps) = (vs as usize, ps as usize);
            // `d` walks the occupied neighbours only: the bits of the ring above it.
            let rest = self.ring(v) >> d;
            if rest != 0 {
                let d = d + rest.trailing_zeros() as u8;
                stack[sp - 1].3 = d + 1;
                let w = neighbour(v, d as usize);
                let ws = slot(w);
                if disc[ws] == 0 {
                    time += 1;
                    disc[ws] = time;
                    low[ws] = time;
                    stack[sp] = (w, ws as u8, vs as u8, 0);
                    sp += 1;
                } else if ws != ps {
                    low[vs] = low[vs].min(disc[ws]);
                }
            } else {
                sp -= 1;
                if ps != NO_PARENT {
                    low[ps] = low[ps].min(low[vs]);
                    if ps == r {
                        root_children += 1;
                    } else if low[vs] >= disc[ps] && self.height[stack[sp - 1].0] == 1 {
                        // The parent is the entry below on the stack.
                        pinned.insert(Piece(ps as u8));
                    }
                }
            }
        }
        if root_children >= 2 && self.height[root] == 1 {
            pinned.insert(Piece(r as u8));
        }
        pinned
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
