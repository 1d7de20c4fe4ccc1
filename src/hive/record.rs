//! Hive games as records: what Hive adds to [`Record`] (its MoveStrings and game ends) and the
//! Hive GameString's type field.

use super::notation::MoveText;
use super::piece::GameType;
use super::{Hive, Move};
use crate::error::RulesError;
use crate::game::{Color, Outcome};
use crate::record::{Notation, Record};

/// Why a Hive game ended, by its rules.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum HiveEnd {
    /// A queen is surrounded (its owner lost).
    Surrounded,
    /// Both queens are surrounded at once (a draw).
    BothSurrounded,
    /// The third occurrence of a position, with the repetition draw on (a draw).
    Repetition,
}

impl HiveEnd {
    /// Every end reason.
    pub const ALL: [HiveEnd; 3] = [HiveEnd::Surrounded, HiveEnd::BothSurrounded, HiveEnd::Repetition];
}

/// A Hive game in progress: the position, every move played and the MoveString it was played
/// with (as sent, the way Mzinga's GameString echoes it).
pub type HiveGame = Record<Hive>;

impl Notation for Hive {
    type Text = MoveText;

    fn read_move(text: &str) -> Option<MoveText> {
        MoveText::parse(text)
    }

    fn resolve(&self, text: &MoveText, legal: &[Move]) -> Result<Move, RulesError> {
        self.resolve_move(*text, legal)
    }

    fn write_move(&self, mv: Move) -> String {
        self.move_string(mv)
    }

    fn recorded_text(&self, text: &MoveText, _mv: Move) -> String {
        text.to_string()
    }

    type End = HiveEnd;

    fn end_reason(&self) -> Option<HiveEnd> {
        match self.outcome() {
            Outcome::InProgress => None,
            Outcome::Win(_) => Some(HiveEnd::Surrounded),
            Outcome::Draw if self.queen_surrounded(Color::White) => Some(HiveEnd::BothSurrounded),
            Outcome::Draw => Some(HiveEnd::Repetition),
        }
    }
}

impl Record<Hive> {
    /// A new game of the given type.
    pub fn new(game_type: GameType) -> HiveGame {
        Record::starting_at(Hive::new(game_type), game_type.to_string())
    }

    /// Loads a GameString `Type;State;Turn;move;move…` as Mzinga does: the game type must be
    /// valid, the state and turn fields are ignored (they are recomputed), and every move is
    /// replayed with full checking.
    pub fn parse(game_string: &str) -> Result<HiveGame, RulesError> {
        let mut fields = game_string.split(';');
        let type_field = fields.next().unwrap_or_default();
        let game_type =
            GameType::parse(type_field).ok_or_else(|| RulesError::UnparsableField(type_field.to_string()))?;
        HiveGame::new(game_type).replay(fields.skip(2))
    }

    /// The position.
    pub fn hive(&self) -> &Hive {
        self.position()
    }

    /// The position, mutably (for searching from it; it must be restored).
    pub fn hive_mut(&mut self) -> &mut Hive {
        self.position_mut()
    }

    /// Chooses the static evaluation the search reads.
    pub fn set_evaluation(&mut self, evaluation: super::Evaluation) {
        self.position_mut().set_evaluation(evaluation);
    }

    /// Turns the threefold-repetition draw on or off.
    pub fn set_repetition_draw(&mut self, on: bool) {
        self.position_mut().set_repetition_draw(on);
    }
}
