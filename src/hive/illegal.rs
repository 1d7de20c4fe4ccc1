//! Why a Hive move is illegal, with Mzinga's exact messages.

use crate::error::Illegal;
use std::fmt;

/// Why a parsed move is not legal, in the order the reference engine checks the reasons.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The piece belongs to the player who is not to move.
    NotYourTurn,
    /// The piece's bug is not part of this game type.
    PieceNotEnabled,
    /// The destination is a piece still in hand.
    BackToHand,
    /// Queen on the player's first turn (tournament opening rule).
    QueenOnFirstTurn,
    /// A non-queen move on the fourth turn without the queen in play.
    QueenByFourthTurn,
    /// Moving a piece before the queen is in play.
    QueenNotInPlay,
    /// A same-type piece placed before the lower-numbered one.
    OutOfOrder,
    /// The destination already holds a piece at that height.
    Occupied,
    /// The piece is covered.
    Covered,
    /// Moving the piece would split the hive.
    BreaksHive,
    /// Any other illegal destination.
    CantMoveThere,
    /// A pass while other moves exist.
    PassWithMoves,
}

impl Illegal for IllegalMove {
    /// Mzinga's message for this reason.
    fn message(self) -> &'static str {
        match self {
            IllegalMove::NotYourTurn => "It's not that player's turn.",
            IllegalMove::PieceNotEnabled => "That piece is not enabled in this game.",
            IllegalMove::BackToHand => "You can't put a piece back into your hand.",
            IllegalMove::QueenOnFirstTurn => "You can't play your Queen Bee on your first turn.",
            IllegalMove::QueenByFourthTurn => "You must play your Queen Bee on or before your fourth turn.",
            IllegalMove::QueenNotInPlay => "You can't move a piece in play until you've played your Queen Bee.",
            IllegalMove::OutOfOrder => {
                "When there are multiple pieces of the same bug type, you must play the pieces in order."
            }
            IllegalMove::Occupied => "You can't move there because a piece already exists at that position.",
            IllegalMove::Covered => "You can't move that piece because it has another piece on top of it.",
            IllegalMove::BreaksHive => "You can't move that piece because it will break the hive.",
            IllegalMove::CantMoveThere => "You can't move that piece there.",
            IllegalMove::PassWithMoves => "You can't pass when you have valid moves.",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}
