//! Intellector, the hexagonal chess-like game of intellector.info, with its rules as the site
//! plays them ("Modern", the default) and the older "Classic" rules as an option.
//!
//! - [`geometry`]: the 59 hexes (in SIP scalar order) and every move table, built at compile
//!   time;
//! - [`piece`]: piece types and their letters;
//! - [`board`]: the position, make/unmake, hashing, game end;
//! - `movegen`: legal moves, one function per piece type;
//! - [`notation`], [`illegal`]: MoveStrings (our canonical form and intellector.info's
//!   notation) and the reasons a move is illegal;
//! - [`sip`]: SIP v1/v2 position strings;
//! - [`record`]: GameStrings and the game record the protocol uses;
//! - [`eval`]: the static evaluation the search uses; [`net`]: the learned one beside it
//!   (the `IntellectorEvaluation` option).
//!
//! ```
//! use comb::intellector::{IntellectorGame, Position, Rules};
//! use comb::perft::perft;
//!
//! let mut game = IntellectorGame::new(Rules::Modern);
//! game.play("e3").unwrap(); // intellector.info's notation…
//! game.play("g7c1").unwrap(); // …or ours, which the record keeps
//! assert_eq!(game.game_string(), "Intellector;InProgress;White[2];e2e3;g7c1");
//!
//! let mut start = Position::new(Rules::Modern);
//! assert_eq!(perft(&mut start, 3, &mut Vec::new()), 42078);
//! ```
//!
//! # The rules
//!
//! The reference is the public code of intellector.info (its author's client and servers, whose
//! move rules live in `src/net/shared/board/Rules.hx` of the `Gulvan0/Intellector` repository),
//! cross-checked against Anaconda, the site's bot, which has a move generator of its own. No
//! rules page exists; this section is the project's own record of what that code does.
//!
//! - **Board**: 59 flat-topped hexes in files a–i; files a, c, e, g, i have rows 1–7, files b,
//!   d, f, h rows 1–6 and sit half a hex higher. White (row 1) moves first. Base lines: a1 c1
//!   e1 g1 i1 for White, a7 c7 e7 g7 i7 for Black.
//! - **Start**: Intellector e1/e7, Dominators a1 i1/a7 i7, Aggressors c1 g1/c7 g7, Defensors d1
//!   f1/d6 f6, Liberators b1 h1/b6 h6, Progressors a2 c2 e2 g2 i2/a6 c6 e6 g6 i6 (14 a side).
//! - **Intellector**: one lateral step to an empty hex, never a capture; or a swap with an
//!   adjacent own Defensor (one move, written from the Intellector's hex).
//! - **Dominator**: slides any distance in the six lateral directions, capturing the first
//!   enemy piece it meets.
//! - **Aggressor**: slides any distance in the six radial (vertex) directions to the next
//!   same-colour hex each step; only pieces on its own line block it; captures the first enemy.
//! - **Defensor**: one lateral step, moving or capturing; and the swap above.
//! - **Liberator**: one lateral step to an empty hex (Modern rules only), or a jump of exactly
//!   two lateral steps in a line over anything, landing on an empty hex or capturing there.
//! - **Progressor**: one step to any of its three forward neighbours, moving or capturing; on
//!   the enemy base line it must promote (Modern: to Dominator, Aggressor, Defensor or
//!   Liberator, freely).
//! - **Aura**: a Dominator, Aggressor, Defensor or Liberator that starts next to its own
//!   Intellector and captures a piece of another type (not the Intellector) may take that type.
//! - **No check**: an Intellector may stand attacked; losing it loses the game.
//! - **Game end**: capturing the enemy Intellector (Fatum) or standing on the enemy base line
//!   with one's own (Breakthrough) wins; threefold repetition and 60 plies without a capture or
//!   Progressor move draw.
//!
//! **Perft conventions** (`positions/intellector-perft.txt`, whose counts Anaconda and an
//! independent generator agree on): a swap is one move, an aura capture and the plain capture
//! of the same piece are two, a promotion is four (one per type), and a position after Fatum or
//! Breakthrough is a leaf that is never expanded.
//!
//! # Rules decisions
//!
//! Where the reference leaves a choice, this module decides as follows:
//!
//! - **Game end** is checked after every ply, in this order: a side whose Intellector was
//!   captured (Fatum) or whose base line holds the enemy Intellector (Breakthrough, by step or
//!   swap) has lost; then threefold repetition and the 60-quiet-ply rule draw; then a side to
//!   move with **no legal move loses**. The site has no stalemate rule (a boxed-in player
//!   loses on time there), so a loss is the closest match; draws are checked before it because
//!   they are reached by the ply just played, while the missing move belongs to the next one.
//! - **Threefold repetition** keys on the arrangement and the side to move; the initial (or
//!   loaded) position counts as the first occurrence. Only the plies since the last capture or
//!   Progressor move are searched, as nothing before them can recur.
//! - **Sixty plies**: 60 consecutive plies without a capture (plain, aura or promoting) or a
//!   Progressor move draw. Swaps do not reset the count. A loaded position starts at 0.
//! - **Aura**: a Dominator, Aggressor, Defensor or Liberator that starts its move next to its
//!   own Intellector and captures a piece of another type (not the Intellector) may become
//!   that type; this includes becoming a Progressor (`=P`), which intellector.info's notation
//!   allows. It is a separate move, [`MoveKind::Aura`].
//! - **Classic rules** ([`Rules::Classic`]): the Liberator only jumps, and a Progressor may
//!   promote only into a type of its own colour captured earlier in the game (a set: promoting
//!   does not use a type up). With none captured it cannot step onto the enemy base line at
//!   all, not even to capture the Intellector there. For a position loaded from a SIP, a type
//!   counts as captured when its colour has fewer than the two it starts with.
//! - A position loaded with Black to move starts the turn count at `Black[1]`; turn numbers
//!   are always `1 + plies / 2`, counting plies from the loaded position.

pub mod board;
pub mod eval;
pub mod geometry;
pub mod illegal;
mod movegen;
pub mod net;
pub mod notation;
pub mod piece;
pub mod record;
pub mod sip;
pub mod weights;
pub mod zobrist;

pub use board::Position;
pub use geometry::{Hex, HEX_COUNT};
pub use illegal::IllegalMove;
pub use notation::MoveText;
pub use piece::{Kind, Piece};
pub use record::IntellectorGame;

use crate::nnue::Evaluation;

/// The evaluation Intellector games are played with unless asked (`GameOptions::default`):
/// the network, which beat the hand-written evaluation at equal time (+94.9 ± 40.3 Elo over
/// 300 games at 0.2 s a move).
pub const DEFAULT_EVALUATION: Evaluation = Evaluation::Net;

use crate::eval::{Trace, Tunable, Weight};
use crate::game::{Color, Game, LevelShape, Outcome};
use crate::search::Parameters;
use std::fmt;

/// The rule set of a game, chosen when it is created.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Rules {
    /// intellector.info's current rules: the Liberator also steps to an empty neighbour, and a
    /// Progressor may promote into any of Dominator, Aggressor, Defensor and Liberator.
    #[default]
    Modern,
    /// The older rules: the Liberator only jumps, and promotion is limited to the player's own
    /// captured types.
    Classic,
}

/// What a move does besides carrying a piece from one hex to another.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A step, slide or jump, capturing whatever enemy piece stands on the destination.
    Plain,
    /// The Intellector (on `from`) and an adjacent own Defensor (on `to`) change places.
    Swap,
    /// A Progressor reaches the enemy base line (capturing or not) and becomes this type.
    Promotion(Kind),
    /// An aura capture: the capturing piece becomes the captured piece's type.
    Aura(Kind),
}

/// An Intellector move. Whether it captures follows from the position.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The hex the moving piece starts on (the Intellector's hex for a swap).
    pub from: Hex,
    /// The destination (the Defensor's hex for a swap).
    pub to: Hex,
    /// Swap, promotion or transformation, if any.
    pub kind: MoveKind,
}

impl Move {
    /// The type the moving piece becomes (promotion or aura), if any.
    #[inline]
    pub fn becomes(self) -> Option<Kind> {
        match self.kind {
            MoveKind::Promotion(k) | MoveKind::Aura(k) => Some(k),
            MoveKind::Plain | MoveKind::Swap => None,
        }
    }
}

impl fmt::Display for Move {
    /// The canonical MoveString: origin and destination, then `=X` for a promotion or aura
    /// transformation (`f6g7=A`). A swap is written Intellector hex first (`e1d1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(k) = self.becomes() {
            write!(f, "={}", k.letter())?;
        }
        Ok(())
    }
}

/// Transformation slots per (from, to) pair in [`Game::move_index`]: none, or a type code 1..=5.
const INTO_SLOTS: usize = 6;

impl Game for Position {
    type Move = Move;
    const MOVE_INDEX_SIZE: usize = HEX_COUNT * HEX_COUNT * INTO_SLOTS;
    const QUIESCENCE: bool = true;
    // Each measured against comb's full strength at depth 1, 3 and 5: see the README's
    // calibration table.
    const LEVELS: [LevelShape; 3] = [
        LevelShape { depth: 2, lines: 8, temperature: 50.0, nodes: 100_000 },
        LevelShape { depth: 4, lines: 6, temperature: 40.0, nodes: 1_000_000 },
        LevelShape { depth: 5, lines: 4, temperature: 10.0, nodes: 2_000_000 },
    ];
    // The two games share their search constants so far: none has been tuned for one alone.
    const PARAMETERS: Parameters = Parameters::DEFAULT;

    #[inline]
    fn side_to_move(&self) -> Color {
        self.to_move
    }

    #[inline]
    fn ply(&self) -> usize {
        self.ply
    }

    #[inline]
    fn generate_moves(&mut self, moves: &mut Vec<Move>) {
        Position::generate_moves(self, moves)
    }

    #[inline]
    fn make(&mut self, mv: Move) {
        Position::make(self, mv)
    }

    #[inline]
    fn unmake(&mut self, mv: Move) {
        Position::unmake(self, mv)
    }

    #[inline]
    fn repeatable_history(&self, out: &mut Vec<u64>) {
        Position::repeatable_history(self, out)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        Position::outcome(self)
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

    /// Origin, destination and the type the piece becomes: a swap cannot share its hexes
    /// with a plain move, and one origin holds either a Progressor (promotions) or not
    /// (aura), so this identifies the move.
    #[inline]
    fn move_index(mv: Move) -> usize {
        let slot = mv.becomes().map_or(0, |k| k as usize);
        (mv.from.index() * HEX_COUNT + mv.to.index()) * INTO_SLOTS + slot
    }

    fn is_tactical(&self, mv: Move) -> bool {
        eval::is_tactical(self, mv)
    }

    /// The enemy Intellector breaks through next move, or the Intellector is attacked with no
    /// safe step away.
    fn in_danger(&self) -> bool {
        eval::in_danger(self)
    }
}

impl Tunable for Position {
    const FEATURES: &'static [&'static str] = &eval::FEATURES;
    const WEIGHTS_FILE: &'static str = "src/intellector/weights.rs";
    const SCALE: i32 = eval::SCALE;

    fn weights() -> &'static [Weight] {
        &weights::WEIGHTS
    }

    fn trace(&self) -> Trace {
        eval::trace(self)
    }
}
