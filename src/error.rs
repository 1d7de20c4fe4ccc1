//! The rules layer's one error type: everything a move or position string can get wrong.
//!
//! Messages are the reference engine's exact texts (Mzinga for Hive), so the protocol layer can
//! print them unchanged; it alone decides which become `invalidmove` and which `err`.

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
    /// The origin hex is empty (Intellector).
    NoPieceThere,
    /// A Progressor enters the enemy base line without naming its promotion (Intellector).
    PromotionRequired,
    /// The move exists, but not with the `=X` transformation asked for (Intellector).
    CantTransform,
    /// The text fits more than one legal move (Intellector notation without an origin).
    AmbiguousMove,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
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
            IllegalMove::NoPieceThere => "There is no piece on that hex.",
            IllegalMove::PromotionRequired => {
                "A Progressor reaching the enemy base line must promote: add =X with the type it becomes."
            }
            IllegalMove::CantTransform => "That piece can't turn into that type with this move.",
            IllegalMove::AmbiguousMove => "More than one piece can make that move; give its origin hex.",
        })
    }
}

/// Everything the rules reject.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RulesError {
    /// A move string that cannot be read (the text as the user sent it).
    UnparsableMove(String),
    /// A move that was read but is not legal in this position.
    Illegal(IllegalMove),
    /// A move after the game has ended.
    GameOver,
    /// A GameString field that cannot be read (the field as given).
    UnparsableField(String),
    /// A GameString move that cannot be played (the field as given).
    UnplayableField(String),
    /// Any other malformed position or game type, with the complete message.
    InvalidPosition(String),
}

impl RulesError {
    /// True for errors about a move the user tried to play (the protocol's `invalidmove`).
    pub fn is_invalid_move(&self) -> bool {
        matches!(self, RulesError::UnparsableMove(_) | RulesError::Illegal(_))
    }
}

impl From<IllegalMove> for RulesError {
    fn from(e: IllegalMove) -> RulesError {
        RulesError::Illegal(e)
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnparsableMove(text) => write!(f, "Unable to parse move \"{text}\"."),
            RulesError::Illegal(e) => e.fmt(f),
            RulesError::GameOver => f.write_str("The game is over."),
            // The parameter suffix is part of the reference's text (a .NET ArgumentException).
            RulesError::UnparsableField(field) => {
                write!(f, "Unable to parse '{field}' in GameString. (Parameter 'gameStr')")
            }
            RulesError::UnplayableField(field) => {
                write!(f, "Unable to play '{field}' in GameString. (Parameter 'gameStr')")
            }
            RulesError::InvalidPosition(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for RulesError {}
