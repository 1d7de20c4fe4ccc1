//! The games comb plays, as one enum over their records, and the one parser of game types and
//! GameStrings that the protocol, the command line and the tournament referee share.
//!
//! Adding a game is its folder (a type implementing [`Game`](crate::game::Game) and
//! [`Notation`], kept in a [`Record`](crate::record::Record)) plus a variant here: the variant, its arm in [`with_record!`], and its
//! game-type name in [`GameOptions::new_game`].

use crate::error::RulesError;
use crate::game::{Color, Outcome};
use crate::hive::record::HiveEnd;
use crate::hive::{GameType, HiveGame};
use crate::intellector::record::{IntellectorEnd, GAME_TYPE as INTELLECTOR};
use crate::intellector::{IntellectorGame, Rules};
use crate::nnue::Evaluation;
use crate::record::Notation;

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

/// How a game of any kind ended, by its rules: each game's own reasons, and the one place that
/// names them for the game records, reports and files (`surrounded`, `queen surrounded`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// A Hive game's end.
    Hive(HiveEnd),
    /// An Intellector game's end.
    Intellector(IntellectorEnd),
}

impl EndReason {
    /// Every end reason of every game.
    pub fn all() -> impl Iterator<Item = EndReason> {
        let hive = HiveEnd::ALL.into_iter().map(EndReason::Hive);
        hive.chain(IntellectorEnd::ALL.into_iter().map(EndReason::Intellector))
    }

    /// A short machine-readable name: `surrounded`, `both-surrounded`, `fatum`, `breakthrough`,
    /// `no-moves`, `repetition`, `sixty-plies`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Hive(HiveEnd::Surrounded) => "surrounded",
            EndReason::Hive(HiveEnd::BothSurrounded) => "both-surrounded",
            EndReason::Intellector(IntellectorEnd::Fatum) => "fatum",
            EndReason::Intellector(IntellectorEnd::Breakthrough) => "breakthrough",
            EndReason::Intellector(IntellectorEnd::NoMoves) => "no-moves",
            EndReason::Hive(HiveEnd::Repetition) | EndReason::Intellector(IntellectorEnd::Repetition) => "repetition",
            EndReason::Intellector(IntellectorEnd::SixtyPlies) => "sixty-plies",
        }
    }

    /// The reason in words (`queen surrounded`).
    pub fn detail(self) -> &'static str {
        match self {
            EndReason::Hive(HiveEnd::Surrounded) => "queen surrounded",
            EndReason::Hive(HiveEnd::BothSurrounded) => "both queens surrounded",
            EndReason::Intellector(IntellectorEnd::Fatum) => "Intellector captured",
            EndReason::Intellector(IntellectorEnd::Breakthrough) => "Intellector on the enemy base line",
            EndReason::Intellector(IntellectorEnd::NoMoves) => "no legal move",
            EndReason::Hive(HiveEnd::Repetition) | EndReason::Intellector(IntellectorEnd::Repetition) => {
                "threefold repetition"
            }
            EndReason::Intellector(IntellectorEnd::SixtyPlies) => "60 plies without a capture or Progressor move",
        }
    }
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

/// How games are set up beyond their type and moves: every game's options in one small value,
/// chosen once (by the UHP options, `--intellector-rules`, a tournament's settings) and handed
/// to whatever makes games. A GameString does not say them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GameOptions {
    /// The rule set of Intellector games (Modern unless asked).
    pub intellector_rules: Rules,
    /// Hive only: the third occurrence of a position draws (off, as in Mzinga). Intellector
    /// always has the rule.
    pub repetition_draw: bool,
    /// Hive only: the static evaluation the search reads (the network unless asked; the
    /// difficulty levels always read the hand-written one).
    pub hive_evaluation: Evaluation,
    /// Intellector only: the static evaluation the search reads (the hand-written one unless
    /// asked).
    pub intellector_evaluation: Evaluation,
}

impl Default for GameOptions {
    /// Modern Intellector rules, no repetition draw in Hive, and each game's strongest proven
    /// evaluation: Hive's network, which beat the hand-written evaluation; Intellector's
    /// hand-written one.
    fn default() -> GameOptions {
        GameOptions {
            intellector_rules: Rules::default(),
            repetition_draw: false,
            hive_evaluation: crate::hive::DEFAULT_EVALUATION,
            intellector_evaluation: crate::intellector::DEFAULT_EVALUATION,
        }
    }
}

impl GameOptions {
    /// A new game of a game type: `Base`, `Base+M`, …, `Base+MLP` (exactly as the reference
    /// spells them), `Intellector` or `Intellector[<SIP>]`.
    pub fn new_game(self, text: &str) -> Result<AnyGame, RulesError> {
        let game = if is_intellector(text) {
            IntellectorGame::from_game_type(text, self.intellector_rules).map(AnyGame::Intellector)?
        } else {
            let game_type = GameType::parse(text).ok_or_else(|| RulesError::UnparsableField(text.to_string()))?;
            AnyGame::Hive(HiveGame::new(game_type))
        };
        Ok(self.applied_to(game))
    }

    /// Loads a GameString of either game.
    pub fn parse(self, text: &str) -> Result<AnyGame, RulesError> {
        let game = if is_intellector(text) {
            IntellectorGame::parse(text, self.intellector_rules).map(AnyGame::Intellector)?
        } else {
            HiveGame::parse(text).map(AnyGame::Hive)?
        };
        Ok(self.applied_to(game))
    }

    /// A game type or a GameString, whichever `text` is (what `newgame` and command-line
    /// positions take). Anything that is not exactly a game type is read as a GameString, so
    /// text after a game type is an error rather than ignored.
    pub fn start(self, text: &str) -> Result<AnyGame, RulesError> {
        self.new_game(text).or_else(|_| self.parse(text))
    }

    /// `game` with the options that are switched after a game is made (Intellector's rules
    /// are fixed when it is made).
    fn applied_to(self, mut game: AnyGame) -> AnyGame {
        game.apply(self);
        game
    }
}

impl AnyGame {
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
        match self {
            AnyGame::Hive(g) => g.end().map(|(outcome, end)| (outcome, EndReason::Hive(end))),
            AnyGame::Intellector(g) => g.end().map(|(outcome, end)| (outcome, EndReason::Intellector(end))),
        }
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

    /// Applies the options that can change during a game: the repetition draw (Hive only:
    /// Intellector always has the rule) and the game's evaluation.
    pub fn apply(&mut self, options: GameOptions) {
        match self {
            AnyGame::Hive(g) => {
                g.set_repetition_draw(options.repetition_draw);
                g.set_evaluation(options.hive_evaluation);
            }
            AnyGame::Intellector(g) => g.set_evaluation(options.intellector_evaluation),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_end_reason_keeps_its_name_and_words() {
        // The names and words game files, reports and PGN comments have always used.
        let named: Vec<(&str, &str)> = EndReason::all().map(|r| (r.name(), r.detail())).collect();
        assert_eq!(
            named,
            [
                ("surrounded", "queen surrounded"),
                ("both-surrounded", "both queens surrounded"),
                ("repetition", "threefold repetition"),
                ("fatum", "Intellector captured"),
                ("breakthrough", "Intellector on the enemy base line"),
                ("no-moves", "no legal move"),
                ("repetition", "threefold repetition"),
                ("sixty-plies", "60 plies without a capture or Progressor move"),
            ]
        );
    }

    #[test]
    fn each_game_takes_its_own_evaluation() {
        let options = GameOptions {
            hive_evaluation: Evaluation::Classic,
            intellector_evaluation: Evaluation::Net,
            ..GameOptions::default()
        };
        let evaluations = |game: &AnyGame| match game {
            AnyGame::Hive(g) => g.hive().evaluation(),
            AnyGame::Intellector(g) => g.position().evaluation(),
        };
        let mut intellector = options.new_game("Intellector").unwrap();
        assert_eq!(evaluations(&intellector), Evaluation::Net);
        assert_eq!(evaluations(&options.parse("Intellector;InProgress;Black[1];e2e3").unwrap()), Evaluation::Net);
        assert_eq!(evaluations(&options.new_game("Base").unwrap()), Evaluation::Classic);
        intellector.apply(GameOptions { intellector_evaluation: Evaluation::Classic, ..options });
        assert_eq!(evaluations(&intellector), Evaluation::Classic);
        // By default both games play with their networks.
        let defaults = GameOptions::default();
        assert_eq!(evaluations(&defaults.new_game("Base").unwrap()), Evaluation::Net);
        assert_eq!(evaluations(&defaults.new_game("Intellector").unwrap()), Evaluation::Net);
    }

    #[test]
    fn a_finished_game_says_its_own_reason() {
        let end = |text: &str| GameOptions::default().parse(text).expect(text).end();
        assert_eq!(end("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"), None);
        let surrounded = r"Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bA1 bG2/;wQ /bG1";
        assert_eq!(end(surrounded), Some((Outcome::Win(Color::White), EndReason::Hive(HiveEnd::Surrounded))));
        let fatum = "Intellector;WhiteWins;Black[2];c1g7;b6b5;g7e7";
        assert_eq!(end(fatum), Some((Outcome::Win(Color::White), EndReason::Intellector(IntellectorEnd::Fatum))));
    }
}
