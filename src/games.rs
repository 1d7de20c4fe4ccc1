//! The games comb plays, as one enum over their records, and the one parser of game types and
//! GameStrings that the protocol, the command line and the tournament referee share.
//!
//! Adding a game is its folder (a type implementing [`Game`](crate::game::Game) and
//! [`Notation`], kept in a [`Record`](crate::record::Record)) plus a variant here: the variant, its arm in [`with_record!`], and its
//! game-type name in [`AnyGame::from_type`].

use crate::error::RulesError;
use crate::game::{Color, Outcome};
use crate::hive::{GameType, HiveGame};
use crate::intellector::record::GAME_TYPE as INTELLECTOR;
use crate::intellector::{IntellectorGame, Rules};
use crate::record::{EndReason, Notation};

/// A game in progress, of any game comb plays.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Hive, any expansion set.
    Hive(HiveGame),
    /// Intellector, from the standard or a custom start.
    Intellector(IntellectorGame),
}

/// Runs `$body` with `$record` bound to the game's [`Record`], whatever the game: the one
/// place that lists the games, so that code generic over [`Notation`] (search, perft) is
/// written once and monomorphised for each.
#[macro_export]
macro_rules! with_record {
    ($game:expr, $record:ident => $body:expr) => {
        match $game {
            $crate::games::AnyGame::Hive($record) => $body,
            $crate::games::AnyGame::Intellector($record) => $body,
        }
    };
}

/// Whether `text` (a game type or GameString) names Intellector (`Intellector`,
/// `Intellector[<SIP>]`, any case).
fn is_intellector(text: &str) -> bool {
    text.get(..INTELLECTOR.len()).is_some_and(|t| t.eq_ignore_ascii_case(INTELLECTOR))
}

/// Whether `text` is a game type comb plays: `Base`, `Base+M`, …, `Base+MLP` (exactly as the
/// reference spells them) or `Intellector`, with or without a start position (`Intellector[<SIP>]`,
/// checked when the game is made).
pub fn is_game_type(text: &str) -> bool {
    is_intellector(text) || GameType::parse(text).is_some()
}

/// A game type that names no game comb plays, in the words the command line uses (the
/// protocol keeps the reference's `Unable to parse '…' in GameString.`). The one message for it: the command line, the tournament and the PGN reader all say this.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game type `{0}` (Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP, Base+MLP or Intellector)")]
pub struct UnknownGameType(pub String);

impl AnyGame {
    /// A new game of a game type: `Base`, `Base+M`, …, `Base+MLP` (exactly as the reference
    /// spells them), `Intellector` or `Intellector[<SIP>]` (Intellector under `rules`).
    pub fn from_type(text: &str, rules: Rules) -> Result<AnyGame, RulesError> {
        if is_intellector(text) {
            return IntellectorGame::from_game_type(text, rules).map(AnyGame::Intellector);
        }
        GameType::parse(text)
            .map(|t| AnyGame::Hive(HiveGame::new(t)))
            .ok_or_else(|| RulesError::UnparsableField(text.to_string()))
    }

    /// Loads a GameString of either game (Intellector games under `rules`).
    pub fn parse(text: &str, rules: Rules) -> Result<AnyGame, RulesError> {
        if is_intellector(text) {
            IntellectorGame::parse(text, rules).map(AnyGame::Intellector)
        } else {
            HiveGame::parse(text).map(AnyGame::Hive)
        }
    }

    /// A game type or a GameString, whichever `text` is (what `newgame` and command-line
    /// positions take). Anything that is not exactly a game type is read as a GameString, so
    /// text after a game type is an error rather than ignored.
    pub fn from_type_or_string(text: &str, rules: Rules) -> Result<AnyGame, RulesError> {
        AnyGame::from_type(text, rules).or_else(|_| AnyGame::parse(text, rules))
    }

    /// The GameString's type field (`Base+MLP`, `Intellector[<SIP>]`).
    pub fn type_field(&self) -> &str {
        with_record!(self, r => r.type_field())
    }

    /// The current position as an Intellector position string (SIP v2), for Intellector games.
    pub fn sip(&self) -> Option<String> {
        match self {
            AnyGame::Intellector(g) => Some(g.to_sip()),
            _ => None,
        }
    }

    /// The GameString.
    pub fn game_string(&self) -> String {
        with_record!(self, r => r.game_string())
    }

    /// The GameStateString (`NotStarted`, `InProgress`, `Draw`, `WhiteWins`, `BlackWins`).
    pub fn state_string(&self) -> &'static str {
        with_record!(self, r => r.state_string())
    }

    /// Whether the game has ended, and how.
    pub fn outcome(&self) -> Outcome {
        with_record!(self, r => r.outcome())
    }

    /// How the game ended by its rules, if it has.
    pub fn end(&self) -> Option<(Outcome, EndReason)> {
        with_record!(self, r => r.end())
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome().is_over()
    }

    /// Plies played.
    pub fn plies(&self) -> usize {
        with_record!(self, r => r.moves().len())
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        with_record!(self, r => crate::game::Game::side_to_move(r.position()))
    }

    /// The MoveStrings of every ply so far.
    pub fn move_strings(&self) -> &[String] {
        with_record!(self, r => r.move_strings())
    }

    /// How often the current position (same side to move) occurred before in this game.
    pub fn repetitions(&self) -> usize {
        match self {
            AnyGame::Hive(g) => g.hive().repetitions(),
            AnyGame::Intellector(g) => g.position().repetitions() as usize,
        }
    }

    /// Applies the repetition-draw option (Hive only: Intellector always has the rule).
    pub fn set_repetition_draw(&mut self, on: bool) {
        if let AnyGame::Hive(g) = self {
            g.set_repetition_draw(on);
        }
    }

    /// Plays a MoveString, keeping it as the game's record does.
    pub fn play(&mut self, text: &str) -> Result<(), RulesError> {
        with_record!(self, r => r.play(text))
    }

    /// Plays a MoveString and records its canonical form, which it returns.
    pub fn play_canonical(&mut self, text: &str) -> Result<String, RulesError> {
        with_record!(self, r => r.play_canonical(text).map(str::to_string))
    }

    /// The legal moves, `;`-joined.
    pub fn valid_moves(&mut self) -> String {
        with_record!(self, r => r.valid_moves_string())
    }

    /// Takes back `n` moves (at most the number played).
    pub fn undo(&mut self, n: usize) {
        with_record!(self, r => r.undo(n))
    }
}

/// A record's moves written out from its start: what a search's principal variation becomes.
pub fn format_line<G: Notation>(start: &G, line: &[G::Move]) -> Vec<String> {
    let mut position = start.clone();
    line.iter()
        .map(|&mv| {
            let s = position.write_move(mv);
            position.make(mv);
            s
        })
        .collect()
}
