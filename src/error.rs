//! The rules layer's error type: everything a move or position string can get wrong.
//!
//! Messages are the reference engine's exact texts (Mzinga for Hive), so the protocol layer can
//! print them unchanged; it alone decides which become `invalidmove` and which `err`.

use std::fmt;

/// Why a parsed move is not legal. Each game owns its reasons (`hive::IllegalMove`,
/// `intellector::IllegalMove`, with the reference engine's messages); the rules error keeps the
/// reason's message, so that one error type serves every game without naming any.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct IllegalReason(&'static str);

impl IllegalReason {
    /// A reason with the given message.
    pub const fn new(message: &'static str) -> IllegalReason {
        IllegalReason(message)
    }

    /// The message, as the reference engine words it.
    pub fn message(self) -> &'static str {
        self.0
    }
}

/// A game's own type of illegal-move reasons: each reason has the reference's message, and
/// becomes a [`RulesError`] through it.
pub trait Illegal: Copy {
    /// The message, as the reference engine words it.
    fn message(self) -> &'static str;
}

impl<R: Illegal> From<R> for RulesError {
    fn from(reason: R) -> RulesError {
        RulesError::Illegal(IllegalReason::new(reason.message()))
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Everything the rules reject.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RulesError {
    /// A move string that cannot be read (the text as the user sent it).
    #[error("Unable to parse move \"{0}\".")]
    UnparsableMove(String),
    /// A move that was read but is not legal in this position.
    #[error("{0}")]
    Illegal(IllegalReason),
    /// A move after the game has ended.
    #[error("The game is over.")]
    GameOver,
    /// A GameString field that cannot be read (the field as given). The parameter suffix is
    /// part of the reference's text (a .NET ArgumentException).
    #[error("Unable to parse '{0}' in GameString. (Parameter 'gameStr')")]
    UnparsableField(String),
    /// A GameString move that cannot be played (the field as given).
    #[error("Unable to play '{0}' in GameString. (Parameter 'gameStr')")]
    UnplayableField(String),
    /// Any other malformed position or game type, with the complete message.
    #[error("{0}")]
    InvalidPosition(String),
}

impl RulesError {
    /// True for errors about a move the user tried to play (the protocol's `invalidmove`).
    pub fn is_invalid_move(&self) -> bool {
        matches!(self, RulesError::UnparsableMove(_) | RulesError::Illegal(_))
    }
}
