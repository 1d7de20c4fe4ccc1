//! Hive: the base game and the Mosquito, Ladybug and Pillbug expansions, with the rules exactly
//! as Mzinga (the UHP reference engine) implements them.
//!
//! - [`grid`]: cells and directions on a 32 × 32 torus;
//! - [`piece`]: pieces, bugs, game types;
//! - [`board`]: the position, make/unmake, hashing; `one_hive`: the pin search of the one-hive
//!   rule;
//! - [`movegen`] and `bugs/`: placement and one module per bug's movement;
//! - [`notation`], [`illegal`], [`validate`], [`record`]: MoveStrings, the reasons a move is
//!   illegal and how they are found, the game record and GameStrings;
//! - [`eval`]: the static evaluation the search uses.

pub mod board;
mod bugs;
pub mod eval;
pub mod grid;
pub mod illegal;
pub mod movegen;
pub mod notation;
mod one_hive;
pub mod piece;
pub mod record;
pub mod validate;
pub mod weights;
pub mod zobrist;

pub use board::Hive;
pub use grid::Cell;
pub use illegal::IllegalMove;
pub use notation::MoveText;
pub use piece::{Bug, GameType, Piece, PieceSet};
pub use record::HiveGame;

use crate::eval::{Trace, Tunable, Weight};
use crate::game::{Color, Game, LevelShape, Outcome};
use crate::search::Parameters;

/// A Hive move. It is identified by its piece and destination (the height it lands at follows
/// from the position); `from` is kept so that the move can be taken back.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
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

impl Move {
    /// The piece that moves, if any.
    pub fn piece(self) -> Option<Piece> {
        match self {
            Move::Place { piece, .. } | Move::Move { piece, .. } => Some(piece),
            Move::Pass => None,
        }
    }

    /// The destination cell, if any.
    pub fn to(self) -> Option<Cell> {
        match self {
            Move::Place { to, .. } | Move::Move { to, .. } => Some(to),
            Move::Pass => None,
        }
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

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    #[inline]
    fn move_code(mv: Move) -> u32 {
        Self::move_index(mv) as u32 + 1
    }

    #[inline]
    fn move_index(mv: Move) -> usize {
        match mv {
            Move::Place { piece, to } | Move::Move { piece, to, .. } => piece.0 as usize * grid::CELLS + to.index(),
            Move::Pass => PASS_INDEX,
        }
    }

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
