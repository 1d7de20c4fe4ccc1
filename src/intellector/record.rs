//! A game record: a position together with the moves and MoveStrings that led to it, read from
//! and written to GameStrings in the UHP dialect.
//!
//! ```text
//! Intellector;InProgress;Black[1];e2e3
//! Intellector[2!b…];NotStarted;Black[1]
//! ```
//! The type field is `Intellector`, or `Intellector[<SIP>]` for a custom start (written back as
//! SIP v2). The state and turn fields are recomputed on output and ignored on input; the turn
//! is `White[N]`/`Black[N]` for the side to move with `N = 1 + plies / 2`, plies counted from
//! the start position, whoever moves first there. The moves are replayed with full checking;
//! each may be in either notation, and the record keeps the canonical form (`f6g7=A`), so a
//! GameString we write reads back the same.

use super::board::Position;
use super::notation::MoveText;
use super::{Move, Rules};
use crate::error::RulesError;
use crate::game::Outcome;
use crate::record::{Notation, Record};

/// Why an Intellector game ended, by its rules.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum IntellectorEnd {
    /// An Intellector was captured (its owner lost).
    Fatum,
    /// An Intellector stands on the enemy base line (its owner won).
    Breakthrough,
    /// The side to move has no legal move (and loses).
    NoMoves,
    /// The third occurrence of a position (a draw).
    Repetition,
    /// 60 plies without a capture or Progressor move (a draw).
    SixtyPlies,
}

impl IntellectorEnd {
    /// Every end reason.
    pub const ALL: [IntellectorEnd; 5] = [
        IntellectorEnd::Fatum,
        IntellectorEnd::Breakthrough,
        IntellectorEnd::NoMoves,
        IntellectorEnd::Repetition,
        IntellectorEnd::SixtyPlies,
    ];
}

/// The game type's name in GameStrings.
pub const GAME_TYPE: &str = "Intellector";

/// An Intellector game in progress: the position, every move played and its canonical
/// MoveString, and the start (standard, or a custom SIP in the type field).
pub type IntellectorGame = Record<Position>;

impl Notation for Position {
    type Text = MoveText;

    fn read_move(text: &str) -> Option<MoveText> {
        MoveText::parse(text)
    }

    fn resolve(&self, text: &MoveText, legal: &[Move]) -> Result<Move, RulesError> {
        Position::resolve(self, text, legal)
    }

    fn write_move(&self, mv: Move) -> String {
        self.move_string(mv)
    }

    fn recorded_text(&self, _text: &MoveText, mv: Move) -> String {
        self.move_string(mv)
    }

    type End = IntellectorEnd;

    fn end_reason(&self) -> Option<IntellectorEnd> {
        match self.outcome() {
            Outcome::InProgress => None,
            Outcome::Win(winner) if self.intellector(winner.opponent()).is_none() => Some(IntellectorEnd::Fatum),
            Outcome::Win(winner) if self.breakthrough(winner) => Some(IntellectorEnd::Breakthrough),
            Outcome::Win(_) => Some(IntellectorEnd::NoMoves),
            Outcome::Draw if self.repetitions() >= 2 => Some(IntellectorEnd::Repetition),
            Outcome::Draw => Some(IntellectorEnd::SixtyPlies),
        }
    }
}

impl Record<Position> {
    /// A new game from the standard start position.
    pub fn new(rules: Rules) -> IntellectorGame {
        Record::starting_at(Position::new(rules), GAME_TYPE.to_string())
    }

    /// A new game from a custom start position given as SIP (v2 or v1); GameStrings write it
    /// back as SIP v2 in the type field.
    pub fn from_sip(sip: &str, rules: Rules) -> Result<IntellectorGame, RulesError> {
        let position = Position::from_sip(sip, rules)?;
        let type_field = format!("{GAME_TYPE}[{}]", position.to_sip());
        Ok(Record::starting_at(position, type_field))
    }

    /// Reads a game type field: `Intellector` or `Intellector[<SIP>]` (the name in any case).
    pub fn from_game_type(type_field: &str, rules: Rules) -> Result<IntellectorGame, RulesError> {
        let unparsable = || RulesError::UnparsableField(type_field.to_string());
        let name = type_field.get(..GAME_TYPE.len()).filter(|n| n.eq_ignore_ascii_case(GAME_TYPE));
        let rest = name.and(type_field.get(GAME_TYPE.len()..)).ok_or_else(unparsable)?;
        if rest.is_empty() {
            return Ok(IntellectorGame::new(rules));
        }
        let sip = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')).ok_or_else(unparsable)?;
        IntellectorGame::from_sip(sip, rules).map_err(|_| unparsable())
    }

    /// Loads a GameString `Type;State;Turn;move;move…`: the type must be valid, the state and
    /// turn fields are ignored (they are recomputed), and every move is replayed with full
    /// checking.
    pub fn parse(game_string: &str, rules: Rules) -> Result<IntellectorGame, RulesError> {
        let mut fields = game_string.split(';');
        IntellectorGame::from_game_type(fields.next().unwrap_or_default(), rules)?.replay(fields.skip(2))
    }

    /// Chooses the static evaluation the search reads.
    pub fn set_evaluation(&mut self, evaluation: crate::nnue::Evaluation) {
        self.position_mut().set_evaluation(evaluation);
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> Rules {
        self.position().rules()
    }

    /// The current position as SIP v2.
    pub fn to_sip(&self) -> String {
        self.position().to_sip()
    }

    /// The game type field: `Intellector`, or `Intellector[<SIP v2>]` for a custom start.
    pub fn game_type_string(&self) -> String {
        self.type_field().to_string()
    }

    /// A legal move of the current position in intellector.info's notation.
    pub fn site_move_string(&mut self, mv: Move) -> String {
        let legal = self.legal_moves();
        self.position().site_move_string(mv, &legal)
    }
}
