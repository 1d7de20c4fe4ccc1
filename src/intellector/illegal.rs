//! Why an Intellector move is illegal, worded like the Hive reference engine's messages.

use crate::error::Illegal;
use std::fmt;

/// Why a parsed move is not legal.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The piece belongs to the player who is not to move.
    NotYourTurn,
    /// The piece cannot reach the destination.
    CantMoveThere,
    /// The origin hex is empty.
    NoPieceThere,
    /// A Progressor enters the enemy base line without naming its promotion.
    PromotionRequired,
    /// The move exists, but not with the `=X` transformation asked for.
    CantTransform,
    /// The text fits more than one legal move (notation without an origin).
    AmbiguousMove,
}

impl Illegal for IllegalMove {
    /// The message for this reason.
    fn message(self) -> &'static str {
        match self {
            IllegalMove::NotYourTurn => "It's not that player's turn.",
            IllegalMove::CantMoveThere => "You can't move that piece there.",
            IllegalMove::NoPieceThere => "There is no piece on that hex.",
            IllegalMove::PromotionRequired => {
                "A Progressor reaching the enemy base line must promote: add =X with the type it becomes."
            }
            IllegalMove::CantTransform => "That piece can't turn into that type with this move.",
            IllegalMove::AmbiguousMove => "More than one piece can make that move; give its origin hex.",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}
