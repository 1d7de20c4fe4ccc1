//! The contract between the rules and everything built on them.
//!
//! Search, perft, bench and the tournament referee are generic over [`Game`], which both Hive
//! and Intellector implement. The trait covers only the hot path (move generation into a
//! caller-owned buffer, make/unmake, hash, outcome, evaluation); parsing and formatting of move
//! strings belong to each game's own notation module.

use crate::search::Parameters;
use std::fmt;

/// How a difficulty level below full strength plays one game: the depth of its search, the
/// root moves it scores exactly, and how loosely it draws its move among them (see
/// `search::level`). A ply of one game is not worth a ply of another, so each game declares its
/// own, measured against its own opponents (the README's calibration tables).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LevelShape {
    /// Deepest iteration.
    pub depth: u32,
    /// Root moves scored exactly, among which the move is drawn.
    pub lines: usize,
    /// Score (hundredths) given up for a move to become e ≈ 2.7 times less likely.
    pub temperature: f64,
    /// Nodes a move may cost at most: in a position too rich for the full depth the level
    /// answers from the last iteration it finished, as a person thinks less far in a
    /// complicated position rather than longer. A count, not a time, so that a seeded level
    /// plays the same moves on any machine.
    pub nodes: u64,
}

/// One of the two players. White moves first in both games.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl Color {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour that moves at the given ply (0-based count of plies played).
    #[inline]
    pub fn at_ply(ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// Whether a game has ended, and how.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The game goes on.
    InProgress,
    /// The given player has won.
    Win(Color),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// True once the game has ended.
    #[inline]
    pub fn is_over(self) -> bool {
        self != Outcome::InProgress
    }
}

/// A two-player, perfect-information game with make/unmake, as search and perft need it.
///
/// Conventions every implementation keeps:
/// - [`Game::generate_moves`] clears the buffer and fills it with every legal move, without
///   duplicates; it leaves the buffer empty exactly when the game is over (so perft counts a
///   finished position as a leaf only at the last depth and never expands it). A forced pass is
///   a real move, where the game has one. A side that cannot move at all has lost or drawn by
///   the rules, and [`Game::outcome`] already says so: a position whose outcome is
///   [`Outcome::InProgress`] always has a move. The search relies on this; it scores finished
///   games through `outcome` alone and never has to make sense of an empty move list.
/// - [`Game::make`] plays a move that `generate_moves` returned in this very position;
///   [`Game::unmake`] takes back the last move made, restoring the state and hash exactly.
/// - Nothing on this path allocates once the buffers have grown to their working size.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move: small and `Copy`.
    type Move: Copy + Eq + Send + Sync + fmt::Debug + 'static;

    /// Size of per-move tables (history, countermoves): every [`Game::move_index`] is below it.
    const MOVE_INDEX_SIZE: usize;

    /// Whether the search should resolve tactical moves (captures) at its leaves before
    /// trusting the static evaluation. Games whose tactical moves are rare and decisive
    /// (captures in Intellector) gain from it; Hive, with no captures, does not.
    const QUIESCENCE: bool = false;

    /// The shapes of the difficulty levels Easy, Medium and Hard in this game, weakest first.
    const LEVELS: [LevelShape; 3];

    /// The search's constants in this game: aspiration, pruning, reductions, time.
    const PARAMETERS: Parameters;

    /// The player to move.
    fn side_to_move(&self) -> Color;

    /// Plies played since the start of the game (or of the loaded position).
    fn ply(&self) -> usize;

    /// Fills `moves` with every legal move (see the trait conventions).
    ///
    /// It takes `&mut self` for Hive, whose generator lifts each moving piece off the board
    /// while it walks that piece's moves (the slide and one-hive rules must see the hive
    /// without it) and marks the cells it has reached in stamp tables kept in the position, so
    /// that it allocates and clears nothing. The position is the same on return.
    fn generate_moves(&mut self, moves: &mut Vec<Self::Move>);

    /// Plays a legal move.
    fn make(&mut self, mv: Self::Move);

    /// Takes back the last move made, which must be `mv`.
    fn unmake(&mut self, mv: Self::Move);

    /// The incremental 64-bit Zobrist hash of the position, side to move included.
    fn hash(&self) -> u64;

    /// Whether the game has ended in this position.
    fn outcome(&self) -> Outcome;

    /// Switches to the hand-written evaluation, whatever evaluation the position was set to.
    /// Two callers need it: a difficulty level's search, since the levels' depth and node caps
    /// were calibrated against other engines with it (a stronger evaluation at the same caps
    /// would make every level stronger than its table says); and perft, which never evaluates,
    /// since the hand-written evaluation keeps nothing move by move (a network's accumulators
    /// cost more than half of a count). Games without a network do nothing.
    fn use_classic_evaluation(&mut self) {}

    /// Static evaluation from the side to move's point of view, in centipawn-like units;
    /// positive is good for the side to move. Terminal positions are scored by the search.
    fn evaluate(&self) -> i32;

    /// A compact non-zero code that identifies `mv` among the moves of any position (what a
    /// transposition table stores). The search only ever compares codes with those of freshly
    /// generated moves, so a stale code can never make it play an illegal move.
    fn move_code(mv: Self::Move) -> u32;

    /// An index below [`Game::MOVE_INDEX_SIZE`] for history-style move tables (for example
    /// piece and destination).
    fn move_index(mv: Self::Move) -> usize;

    /// Appends to `out` the hashes of the earlier positions of the game that the current one
    /// could still repeat, oldest first (positions before an irreversible move can be left
    /// out). The search treats a return to any of them, or to a position earlier in its own
    /// line, as a draw, so that it neither repeats a won position nor misses a saving one.
    fn repeatable_history(&self, _out: &mut Vec<u64>) {}

    /// True when the side to move faces a threat to lose at once (a Hive queen with five
    /// neighbours, an attacked Intellector): the search looks one ply further instead of
    /// trusting a static score, and prunes nothing here.
    fn in_danger(&self) -> bool {
        false
    }

    /// True for moves that change the position sharply (captures, moves onto the enemy
    /// queen's ring, promotions): the search orders them early and does not reduce them.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }
}
