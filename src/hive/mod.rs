//! Hive: the base game and the Mosquito, Ladybug and Pillbug expansions, with the rules exactly
//! as Mzinga (the UHP reference engine) implements them.
//!
//! - [`grid`]: cells and directions on a 32 × 32 torus; [`cell_set`]: sets of cells as bits;
//! - [`piece`]: pieces, bugs, game types;
//! - [`board`]: the position, make/unmake, hashing; `one_hive`: the pin search of the one-hive
//!   rule;
//! - [`movegen`] and `bugs/`: placement and one module per bug's movement;
//! - [`notation`], [`illegal`], [`validate`], [`record`]: MoveStrings, the reasons a move is
//!   illegal and how they are found, the game record and GameStrings;
//! - [`eval`]: the static evaluation the search uses.

pub mod board;
mod bugs;
pub mod cell_set;
pub mod eval;
pub mod grid;
pub mod illegal;
pub mod movegen;
pub mod net;
pub mod notation;
mod one_hive;
pub mod piece;
pub mod record;
pub mod validate;
pub mod weights;
pub mod zobrist;

pub use board::Hive;

/// Which static evaluation a Hive position is scored by (the `Evaluation` option).
pub use crate::nnue::Evaluation;

/// The evaluation Hive games are played with unless asked (`GameOptions::default`): the
/// network, which beat the hand-written evaluation at equal time (SPRT, then +74 Elo over 400 games at 0.2 s a move).
pub const DEFAULT_EVALUATION: Evaluation = Evaluation::Net;
pub use grid::Cell;
pub use illegal::IllegalMove;
pub use notation::MoveText;
pub use piece::{Bug, GameType, Piece, PieceSet};
pub use record::HiveGame;

use crate::eval::{Trace, Tunable, Weight};
use crate::game::{Color, Game, LevelShape, Outcome};
use crate::search::Parameters;

/// A Hive move, packed into one `u32`: a placement, a movement or a pass.
///
/// A move is identified by its piece and destination (the height it lands at follows from the
/// position); `from` is kept so that the move can be taken back. Packed rather than an enum
/// because move generation writes tens of millions of them a second: a placement list is then
/// the cells of the placement set, each OR-ed with the piece, which the compiler turns into a
/// few vector instructions, and a move list takes two thirds of the memory. [`Move::view`]
/// unpacks one for a `match`.
///
/// Layout: bits 0–9 the destination cell, 10–19 the cell moved from, 20–24 the piece, 25–26
/// the kind (0 placement, 1 movement, 2 pass).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(u32);

/// A [`Move`] unpacked, for matching on what it does.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveView {
    /// A piece from hand onto an empty cell.
    Place {
        /// The piece placed.
        piece: Piece,
        /// Where it goes.
        to: Cell,
    },
    /// A piece in play moves (by itself, or thrown by a pillbug).
    Move {
        /// The piece moved.
        piece: Piece,
        /// Its cell before the move.
        from: Cell,
        /// Its cell after the move (on top of whatever is there).
        to: Cell,
    },
    /// No move: legal only when nothing else is.
    Pass,
}

const CELL_BITS: u32 = grid::CELLS.trailing_zeros();
const FROM_SHIFT: u32 = CELL_BITS;
const PIECE_SHIFT: u32 = 2 * CELL_BITS;
const KIND_SHIFT: u32 = PIECE_SHIFT + 5;
const CELL_MASK: u32 = (1 << CELL_BITS) - 1;
const KIND_MOVE: u32 = 1 << KIND_SHIFT;
const KIND_PASS: u32 = 2 << KIND_SHIFT;
const _: () = assert!(1 << CELL_BITS == grid::CELLS, "a cell index fills its bits exactly");
const _: () = assert!(piece::PIECE_COUNT <= 1 << (KIND_SHIFT - PIECE_SHIFT), "a piece id fits in 5 bits");

impl Move {
    /// The pass.
    pub const PASS: Move = Move(KIND_PASS);

    /// `piece` from hand onto `to`.
    #[inline(always)]
    pub fn place(piece: Piece, to: Cell) -> Move {
        Move(Move::placement_base(piece) | to.index() as u32)
    }

    /// The bits of every placement of `piece`, without the destination: a placement list ORs
    /// the cells into it.
    #[inline(always)]
    fn placement_base(piece: Piece) -> u32 {
        (piece.0 as u32) << PIECE_SHIFT
    }

    /// `piece`, now on `from`, moves to `to`.
    #[inline(always)]
    pub fn movement(piece: Piece, from: Cell, to: Cell) -> Move {
        Move(KIND_MOVE | ((piece.0 as u32) << PIECE_SHIFT) | ((from.index() as u32) << FROM_SHIFT) | to.index() as u32)
    }

    /// What the move does, for a `match`.
    #[inline(always)]
    pub fn view(self) -> MoveView {
        let piece = Piece(((self.0 >> PIECE_SHIFT) & 31) as u8);
        let to = Cell::from_index((self.0 & CELL_MASK) as u16);
        match self.0 >> KIND_SHIFT {
            0 => MoveView::Place { piece, to },
            1 => MoveView::Move { piece, from: Cell::from_index(((self.0 >> FROM_SHIFT) & CELL_MASK) as u16), to },
            _ => MoveView::Pass,
        }
    }

    /// Whether this is the pass.
    #[inline(always)]
    pub fn is_pass(self) -> bool {
        self == Move::PASS
    }

    /// The piece that moves, if any.
    #[inline]
    pub fn piece(self) -> Option<Piece> {
        (!self.is_pass()).then_some(Piece(((self.0 >> PIECE_SHIFT) & 31) as u8))
    }

    /// The destination cell, if any.
    #[inline]
    pub fn to(self) -> Option<Cell> {
        (!self.is_pass()).then_some(Cell::from_index((self.0 & CELL_MASK) as u16))
    }

    /// Index among [`Game::MOVE_INDEX_SIZE`] move slots: piece and destination (or the pass).
    #[inline(always)]
    fn index(self) -> usize {
        if self.is_pass() {
            PASS_INDEX
        } else {
            // Piece and destination are adjacent in the packing: one shift and one mask.
            (((self.0 >> CELL_BITS) & (31 << CELL_BITS)) | (self.0 & CELL_MASK)) as usize
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.view().fmt(f)
    }
}

const PASS_INDEX: usize = piece::PIECE_COUNT * grid::CELLS;

impl Game for Hive {
    type Move = Move;
    const MOVE_INDEX_SIZE: usize = PASS_INDEX + 1;
    // Each measured against nokamute at the depth hivegame.com gives its bot of that name
    // (2, 4, 7): see the README's calibration table.
    const LEVELS: [LevelShape; 3] = [
        LevelShape { depth: 2, lines: 8, temperature: 70.0, nodes: 100_000 },
        LevelShape { depth: 4, lines: 6, temperature: 40.0, nodes: 1_000_000 },
        // Depth 6 with temperature 20 lost its first three games to nokamute at depth 7.
        LevelShape { depth: 7, lines: 4, temperature: 15.0, nodes: 2_000_000 },
    ];
    // The two games share their search constants so far: none has been tuned for one alone.
    const PARAMETERS: Parameters = Parameters::DEFAULT;

    #[inline]
    fn side_to_move(&self) -> Color {
        self.to_move()
    }

    #[inline]
    fn ply(&self) -> usize {
        self.ply
    }

    #[inline]
    fn generate_moves(&mut self, moves: &mut Vec<Move>) {
        Hive::generate_moves(self, moves)
    }

    #[inline]
    fn make(&mut self, mv: Move) {
        Hive::make(self, mv)
    }

    #[inline]
    fn unmake(&mut self, mv: Move) {
        Hive::unmake(self, mv)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        Hive::outcome(self)
    }

    fn use_classic_evaluation(&mut self) {
        self.set_evaluation(Evaluation::Classic);
    }

    fn evaluate(&self) -> i32 {
        match self.evaluation {
            Evaluation::Classic => eval::evaluate(self),
            Evaluation::Net => net::evaluate(self),
        }
    }

    #[inline]
    fn move_code(mv: Move) -> u32 {
        Self::move_index(mv) as u32 + 1
    }

    #[inline]
    fn move_index(mv: Move) -> usize {
        mv.index()
    }

    #[inline(always)]
    fn is_tactical(&self, mv: Move) -> bool {
        eval::is_tactical(self, mv)
    }

    fn repeatable_history(&self, out: &mut Vec<u64>) {
        Hive::repeatable_history(self, out)
    }

    #[inline]
    fn in_danger(&self) -> bool {
        // Five neighbours: one more piece and the queen is surrounded.
        self.position(Piece::queen(self.to_move())).is_some_and(|q| self.ring(q).count_ones() >= 5)
    }
}

impl Tunable for Hive {
    const FEATURES: &'static [&'static str] = &eval::FEATURES;
    const WEIGHTS_FILE: &'static str = "src/hive/weights.rs";

    fn weights() -> &'static [Weight] {
        &weights::WEIGHTS
    }

    fn trace(&self) -> Trace {
        eval::trace(self)
    }
}

/// Calls `check` on every position of the move tree `depth` plies below `hive` (for tests that
/// compare incremental state with its definition) and returns how many there were.
#[cfg(test)]
pub(crate) fn check_tree(hive: &mut Hive, depth: usize, check: &mut impl FnMut(&mut Hive)) -> usize {
    check(hive);
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    hive.generate_moves(&mut moves);
    let mut n = 1;
    for mv in moves {
        hive.make(mv);
        n += check_tree(hive, depth - 1, check);
        hive.unmake(mv);
    }
    n
}
