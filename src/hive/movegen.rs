//! Legal move generation: placements, every bug's movement and the pillbug's throw.
//!
//! Moves are generated piece by piece. Each piece gets a fresh destination set, so a
//! destination reached in several ways (a mosquito copying two bugs, a throw that equals a
//! walk, two throwers) is emitted once: a move is identified by (piece, destination).

use super::board::{Hive, Rings};
use super::grid::{neighbour, opposite, Cell, NO_CELL, ORIGIN};
use super::piece::{Bug, Piece, PieceSet, SAME_BUG_AS_PREVIOUS};
use super::Move;
use crate::game::Color;
use std::mem::MaybeUninit;

/// [`Rings::placement_conflicts`] of each colour, for a cell found in each direction `d` (so
/// with its own neighbour in the opposite direction): a table, not worked out on every call.
static PLACEMENT_CONFLICTS: [[u32; 6]; 2] = {
    let mut table = [[0; 6]; 2];
    let mut d = 0;
    while d < 6 {
        table[0][d] = Rings::placement_conflicts(0, opposite(d));
        table[1][d] = Rings::placement_conflicts(1, opposite(d));
        d += 1;
    }
    table
};

/// Throwers of one position: at most the pillbug and the mosquito of the side to move.
pub(crate) struct Throwers {
    cells: [Cell; 2],
    len: usize,
}

impl Throwers {
    fn cells(&self) -> &[Cell] {
        &self.cells[..self.len]
    }
}

/// What one thrower can do this ply: the pieces it can lift and the cells it can drop them
/// on. Both are fixed for the position, so they are worked out once, not per thrown piece.
#[derive(Copy, Clone)]
struct Throw {
    thrower: Cell,
    /// The neighbours it can lift onto itself.
    lifts: PieceSet,
    /// Bit `e` set when the empty neighbour in direction `e` can be dropped on.
    drops: u8,
}

impl Throw {
    const NONE: Throw = Throw { thrower: NO_CELL, lifts: PieceSet::EMPTY, drops: 0 };
}

/// Writes the placements of every piece of `pieces` on the `cells` cells held in `blocks`, each
/// piece's moves right after the previous piece's (see `generate_placements`).
#[inline(always)]
fn write_placements(blocks: impl AsRef<[[u32; 8]]>, pieces: PieceSet, cells: usize, room: &mut [MaybeUninit<Move>]) {
    let mut at = 0;
    for piece in pieces {
        let base = Move::placement_base(piece);
        for (i, block) in blocks.as_ref().iter().enumerate() {
            room[at + 8 * i..at + 8 * i + 8].copy_from_slice(&block.map(|to| MaybeUninit::new(Move(base | to))));
        }
        at += cells;
    }
}

impl Hive {
    /// Fills `out` with every legal move (see [`crate::game::Game::generate_moves`]).
    pub fn generate_moves(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome().is_over() {
            return;
        }
        let me = self.to_move();
        match self.ply {
            0 => self.first_placements(me, out, &[ORIGIN]),
            1 => {
                let around: [Cell; 6] = std::array::from_fn(|d| neighbour(ORIGIN, d));
                self.first_placements(me, out, &around)
            }
            _ => {
                self.generate_placements(me, out);
                if self.queen_in_play(me) {
                    self.generate_movements(me, out);
                }
            }
        }
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    /// Each player's first placement: any enabled non-queen bug (the tournament opening rule),
    /// on the given cells.
    fn first_placements(&self, me: Color, out: &mut Vec<Move>, cells: &[Cell]) {
        for bug in Bug::ALL {
            if bug == Bug::Queen || !self.game_type.has_bug(bug) {
                continue;
            }
            let piece = Piece::new(me, bug, 1).expect("every bug has a first piece");
            for &to in cells {
                out.push(Move::place(piece, to));
            }
        }
    }

    /// The next piece of every bug type still in hand (same-type pieces enter in number order).
    pub(crate) fn placeable_pieces(&self, me: Color) -> PieceSet {
        let hand = (self.enabled & PieceSet::of(me)) - self.in_play;
        let queen = Piece::queen(me);
        if self.turn_number() == 4 && hand.contains(queen) {
            return PieceSet::only(queen);
        }
        // The lowest piece in hand of each bug: one whose predecessor (the id below, shifted
        // up onto it) is not in hand too.
        let predecessor_in_hand = PieceSet::from_bits(hand.bits() << 1) & SAME_BUG_AS_PREVIOUS[me.index()];
        let first = hand - predecessor_in_hand;
        if self.turn_number() == 1 {
            first - PieceSet::only(queen)
        } else {
            first
        }
    }

    /// Placement cells after the first two plies: empty cells next to a stack topped by the
    /// mover's colour and next to none topped by the opponent's. Left in `scratch.placements`
    /// as move bits, eight to a block (see [`super::board::Placements`]).
    pub(crate) fn compute_placement_cells(&mut self, me: Color) {
        // A cell next to several own stacks is emitted once, from its first own neighbour: the
        // cell reached in direction `d` must have no enemy neighbour and no own one before the
        // way back, `opposite(d)`. One mask a direction, so each cell costs a load and a test.
        let conflicts = &PLACEMENT_CONFLICTS[me.index()];
        let own_tops = self.uncovered(me);
        let (rings, placements) = (&self.rings, &mut self.scratch.placements);
        placements.len = 0;
        for piece in own_tops {
            let c = self.pos[piece];
            let mut empty = !rings[c].occupied() & 63;
            while empty != 0 {
                let d = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                let n = neighbour(c, d);
                // Written either way, kept by counting it: whether a cell fits is a coin toss to
                // the processor, and a branch on it was mispredicted a third of the time.
                placements.push_if(n, !rings[n].any(conflicts[d]));
            }
        }
    }

    fn generate_placements(&mut self, me: Color, out: &mut Vec<Move>) {
        let pieces = self.placeable_pieces(me);
        if pieces.is_empty() {
            return;
        }
        self.compute_placement_cells(me);
        // Each piece's moves are whole blocks of cells OR-ed with the piece, eight moves in two
        // vector instructions, where writing them one at a time cost a dozen instructions a move.
        // A block's padding runs into the next piece's moves, which overwrite it, and past the
        // last piece's into room reserved for it; the length is set once at the end.
        let placements = &self.scratch.placements;
        let (cells, blocks) = (placements.len, placements.blocks());
        let total = pieces.len() * cells;
        out.reserve(total + 8);
        let room = &mut out.spare_capacity_mut()[..total + 8];
        // One or two blocks (up to sixteen cells, most positions) are copied into registers
        // first: read through the reference they were loaded again for every piece.
        match blocks {
            [b0] => write_placements([*b0], pieces, cells, room),
            [b0, b1] => write_placements([*b0, *b1], pieces, cells, room),
            _ => write_placements(blocks, pieces, cells, room),
        }
        // SAFETY: the loop wrote the first `total` slots past the length (each piece's `cells`
        // moves in turn), so they hold valid moves.
        unsafe { out.set_len(out.len() + total) };
    }

    /// Emits a move of `piece` from `from` to `to` unless this piece already has it.
    #[inline(always)]
    pub(crate) fn emit(&mut self, piece: Piece, from: Cell, to: Cell, out: &mut Vec<Move>) {
        if self.scratch.insert_dest(to) {
            out.push(Move::movement(piece, from, to));
        }
    }

    /// The pieces of `me` that may use the pillbug's power this ply: the pillbug, and a mosquito
    /// on the ground touching a pillbug; neither may be covered or have just been moved.
    pub(crate) fn throwers(&self, me: Color) -> Throwers {
        let mut t = Throwers { cells: [NO_CELL; 2], len: 0 };
        if !self.game_type.has_bug(Bug::Pillbug) {
            return t;
        }
        let pillbug = Piece::new(me, Bug::Pillbug, 1).expect("pillbug exists");
        if self.is_on_top(pillbug) && self.last_moved != pillbug {
            t.cells[t.len] = self.pos[pillbug];
            t.len += 1;
        }
        if self.game_type.has_bug(Bug::Mosquito) {
            let mosquito = Piece::new(me, Bug::Mosquito, 1).expect("mosquito exists");
            if self.is_on_top(mosquito) && self.level(mosquito) == 0 && self.last_moved != mosquito {
                let c = self.pos[mosquito];
                if (0..6).any(|d| self.top(neighbour(c, d)).is_some_and(|p| p.bug() == Bug::Pillbug)) {
                    t.cells[t.len] = c;
                    t.len += 1;
                }
            }
        }
        t
    }

    /// The lifts and drops of the thrower on `thrower`, worked out for all six directions at
    /// once from its ring. A lift takes a neighbour that stands alone, did not just move and
    /// does not split the hive; a drop is a beetle step down from the thrower to an empty
    /// neighbour. Either is blocked where both flanking stacks are two pieces high or more (a
    /// gate). The lifted piece's own cell flanks two drops, but with height 1 it can never close
    /// a gate, so the drops do not depend on which piece is thrown.
    fn throw_of(&self, thrower: Cell, pinned: PieceSet) -> Throw {
        let occupied = self.ring(thrower);
        // Bit d: the neighbour in direction d is a stack of two or more.
        let mut tall = 0u8;
        let mut ring = occupied;
        while ring != 0 {
            let d = ring.trailing_zeros() as usize;
            ring &= ring - 1;
            tall |= u8::from(self.height(neighbour(thrower, d)) >= 2) << d;
        }
        let before = ((tall << 1) | (tall >> 5)) & 63; // bit d: the stack at d-1 is tall
        let after = ((tall >> 1) | (tall << 5)) & 63; // bit d: the stack at d+1 is tall
        let open = !(before & after) & 63;
        let mut throw = Throw { thrower, lifts: PieceSet::EMPTY, drops: !occupied & open };
        let mut lifts = occupied & !tall & open;
        while lifts != 0 {
            let d = lifts.trailing_zeros() as usize;
            lifts &= lifts - 1;
            // A neighbour of height 1: its top is a piece.
            throw.lifts.insert(self.top[neighbour(thrower, d)].piece());
        }
        if let Some(last) = self.last_moved.get() {
            throw.lifts.remove(last);
        }
        throw.lifts -= pinned;
        throw
    }

    /// Throws of the piece on `from` by any of `throws`: up onto the thrower, then down to an
    /// empty cell next to it (never where it came from, which is occupied).
    fn emit_throws(&mut self, piece: Piece, from: Cell, throws: &[Throw], out: &mut Vec<Move>) {
        for throw in throws {
            if !throw.lifts.contains(piece) {
                continue;
            }
            let mut drops = throw.drops;
            while drops != 0 {
                let to = neighbour(throw.thrower, drops.trailing_zeros() as usize);
                drops &= drops - 1;
                self.emit(piece, from, to, out);
            }
        }
    }

    fn generate_movements(&mut self, me: Color, out: &mut Vec<Move>) {
        let throwers = self.throwers(me);
        // The pin search runs only for the pieces that could move: the mover's own and the
        // neighbours of its throwers.
        let mut candidates = self.uncovered(me);
        for &t in throwers.cells() {
            let mut ring = self.ring(t);
            while ring != 0 {
                candidates.insert(self.top[neighbour(t, ring.trailing_zeros() as usize)].piece());
                ring &= ring - 1;
            }
        }
        if let Some(last) = self.last_moved.get() {
            // It may not move and may not be thrown.
            candidates.remove(last);
        }
        let pinned = self.pinned_among(candidates);
        let mut throws = [Throw::NONE; 2];
        let mut targets = PieceSet::EMPTY;
        for (throw, &t) in throws.iter_mut().zip(throwers.cells()) {
            *throw = self.throw_of(t, pinned);
            targets |= throw.lifts;
        }
        let throws = &throws[..throwers.len];
        for piece in self.uncovered(me) {
            if self.last_moved == piece {
                continue;
            }
            let from = self.pos[piece];
            self.scratch.new_dest_set();
            if !pinned.contains(piece) {
                self.piece_moves(piece, from, out);
            }
            if targets.contains(piece) {
                self.emit_throws(piece, from, throws, out);
            }
        }
        // Enemy pieces move only by being thrown.
        for piece in targets & PieceSet::of(me.opponent()) {
            self.scratch.new_dest_set();
            let from = self.pos[piece];
            self.emit_throws(piece, from, throws, out);
        }
    }

    /// The moves of a piece that is free to move (on top, not pinned, not just moved).
    fn piece_moves(&mut self, piece: Piece, from: Cell, out: &mut Vec<Move>) {
        match piece.bug() {
            Bug::Queen => self.queen_moves(piece, from, out),
            Bug::Pillbug => self.pillbug_walk(piece, from, out),
            Bug::Spider => self.spider_moves(piece, from, out),
            Bug::Beetle => self.beetle_moves(piece, from, out),
            Bug::Grasshopper => self.grasshopper_moves(piece, from, out),
            Bug::Ant => self.ant_moves(piece, from, out),
            Bug::Mosquito => self.mosquito_moves(piece, from, out),
            Bug::Ladybug => self.ladybug_moves(piece, from, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::{check_tree, HiveGame, MoveView};

    /// The placements written block by block are exactly every placeable piece on every
    /// placement cell, piece after piece, whether the cells fill one block, two or more.
    #[test]
    fn every_placeable_piece_goes_on_every_placement_cell() {
        // The opening, and the 86-move middle game, where a side has more than sixteen cells.
        let positions = [
            ("Base+MLP", 3),
            ("Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\", 2),
        ];
        let mut by_blocks = [0usize; 3];
        let mut check = |hive: &mut Hive| {
            if hive.ply < 2 || hive.outcome().is_over() {
                return;
            }
            let me = hive.to_move();
            let pieces = hive.placeable_pieces(me);
            hive.compute_placement_cells(me);
            let p = &hive.scratch.placements;
            let cells: Vec<usize> = p.blocks.as_flattened()[..p.len].iter().map(|&c| c as usize).collect();
            let expected: Vec<(Piece, usize)> =
                pieces.iter().flat_map(|piece| cells.iter().map(move |&c| (piece, c))).collect();
            let mut moves = Vec::new();
            hive.generate_moves(&mut moves);
            let placed: Vec<(Piece, usize)> = moves
                .iter()
                .filter_map(|m| match m.view() {
                    MoveView::Place { piece, to } => Some((piece, to.index())),
                    _ => None,
                })
                .collect();
            assert_eq!(placed, expected, "{hive:?}");
            if !pieces.is_empty() && !cells.is_empty() {
                by_blocks[cells.len().div_ceil(8).min(3) - 1] += 1;
            }
        };
        for (position, depth) in positions {
            let game = HiveGame::parse(position).or_else(|_| HiveGame::parse(&format!("{position};;"))).unwrap();
            let mut hive = game.hive().clone();
            check_tree(&mut hive, depth, &mut check);
        }
        // Random games spread the hive out, where a side's placement cells fill three blocks.
        let mut rng = crate::zobrist::SplitMix64::new(41);
        let mut moves = Vec::new();
        for _ in 0..200 {
            let mut hive = HiveGame::parse("Base+MLP").unwrap().hive().clone();
            for _ in 0..80 {
                check(&mut hive);
                hive.generate_moves(&mut moves);
                if hive.outcome().is_over() {
                    break;
                }
                hive.make(moves[rng.below(moves.len())]);
            }
        }
        // Each way of writing them was taken.
        assert!(by_blocks.iter().all(|&n| n > 0), "positions by blocks of cells: {by_blocks:?}");
    }
}
