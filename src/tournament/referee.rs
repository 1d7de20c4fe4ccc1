//! The referee: it keeps its own copy of every game with comb's rules, asks the engine to move
//! for the side to move, checks every move, and ends the game by the rules, by adjudication
//! (repetition, maximum plies) or by an engine's failure (illegal move, crash, timeout,
//! protocol error: a loss for that engine).
//!
//! The referee knows games only through [`RefereeGame`], and [`load_game`] is the one place that
//! turns a game type into a game.
//!
//! **How engines are driven.** By default, before every move the engine gets
//! `newgame <GameString>` with the whole game so far, then `bestmove depth N` or
//! `bestmove time hh:mm:ss.fff`. Loading the full position each time costs comb little
//! (replaying a few hundred plies) and is robust: an engine that mishandles `play`, or whose
//! state drifted, still sees exactly the referee's position. hive-hydra, the hivegame.com
//! bridge, drives engines the same way. Engines whose `newgame` is slow can follow the game with
//! `play` instead (`sync=play`, see [`super::engine::Sync`]).

use super::engine::{EngineError, EngineSlot, Position, Timeouts};
use crate::game::{Color, Outcome};
use crate::hive::{GameType, HiveGame};
use crate::intellector::{IntellectorGame, Rules as IntellectorRules};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::time::{Duration, Instant, SystemTime};

/// How a game ended by its own rules.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEnd {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// A short machine-readable reason (`surrounded`, `both-surrounded`).
    pub reason: &'static str,
    /// The reason in words (`queen surrounded`).
    pub detail: String,
}

/// What the referee needs from a game's rules. Implemented for [`HiveGame`]; the Intellector
/// game implements it the same way.
pub trait RefereeGame: Send {
    /// The game type as GameStrings write it (`Base+MLP`, `Intellector`).
    fn game_type_name(&self) -> String;
    /// Plies played from the very start (opening moves included).
    fn plies(&self) -> usize;
    /// The player to move.
    fn to_move(&self) -> Color;
    /// Checks and plays a MoveString as an engine sent it. Returns the canonical MoveString that
    /// was recorded, or why the move is not legal here (the rules' message).
    fn try_play(&mut self, move_string: &str) -> Result<String, String>;
    /// The GameString of the game so far.
    fn to_game_string(&self) -> String;
    /// The game-state field of the GameString (`InProgress`, `WhiteWins`, …) by the rules alone.
    fn state(&self) -> String;
    /// The MoveStrings of every ply so far.
    fn history(&self) -> Vec<String>;
    /// Whether the rules have ended the game, including the game's own draw rules.
    fn end(&self) -> Option<GameEnd>;
    /// The position hash (same position and side to move ⇔ same hash, with high probability).
    fn position_hash(&self) -> u64;
    /// How often the current position (same side to move) occurred earlier in the game.
    fn repetitions(&self) -> usize;
    /// The maximum-plies adjudication used when the command line gives none.
    fn default_max_plies(&self) -> usize;
}

impl RefereeGame for HiveGame {
    fn game_type_name(&self) -> String {
        self.hive().game_type().to_string()
    }

    fn plies(&self) -> usize {
        self.moves().len()
    }

    fn to_move(&self) -> Color {
        self.hive().to_move()
    }

    fn try_play(&mut self, move_string: &str) -> Result<String, String> {
        // Record the canonical form rather than the engine's spelling (nokamute writes
        // self-references such as `wA1 wA1\`), so PGN readers and other engines get Mzinga's
        // notation.
        self.play_canonical(move_string).map(str::to_string).map_err(|e| e.to_string())
    }

    fn to_game_string(&self) -> String {
        self.game_string()
    }

    fn state(&self) -> String {
        self.state_string().to_string()
    }

    fn history(&self) -> Vec<String> {
        self.move_strings().to_vec()
    }

    fn end(&self) -> Option<GameEnd> {
        match self.hive().outcome() {
            Outcome::InProgress => None,
            outcome @ Outcome::Win(_) => {
                Some(GameEnd { outcome, reason: "surrounded", detail: "queen surrounded".to_string() })
            }
            Outcome::Draw => Some(GameEnd {
                outcome: Outcome::Draw,
                reason: "both-surrounded",
                detail: "both queens surrounded".to_string(),
            }),
        }
    }

    fn position_hash(&self) -> u64 {
        self.hive().hash()
    }

    fn repetitions(&self) -> usize {
        self.hive().repetitions()
    }

    fn default_max_plies(&self) -> usize {
        300
    }
}

impl RefereeGame for IntellectorGame {
    fn game_type_name(&self) -> String {
        self.game_type_string()
    }

    fn plies(&self) -> usize {
        self.moves().len()
    }

    fn to_move(&self) -> Color {
        self.position().to_move()
    }

    fn try_play(&mut self, move_string: &str) -> Result<String, String> {
        // The record keeps the canonical form whatever notation the engine used.
        self.play(move_string).map_err(|e| e.to_string())?;
        Ok(self.move_strings().last().expect("a move was just played").clone())
    }

    fn to_game_string(&self) -> String {
        self.game_string()
    }

    fn state(&self) -> String {
        self.state_string().to_string()
    }

    fn history(&self) -> Vec<String> {
        self.move_strings().to_vec()
    }

    fn end(&self) -> Option<GameEnd> {
        let position = self.position();
        let outcome = position.outcome();
        let (reason, detail) = match outcome {
            Outcome::InProgress => return None,
            Outcome::Win(winner) => {
                let loser = winner.opponent();
                if position.intellector(loser).is_none() {
                    ("fatum", "Intellector captured")
                } else if position.breakthrough(winner) {
                    ("breakthrough", "Intellector on the enemy base line")
                } else {
                    ("no-moves", "no legal move")
                }
            }
            Outcome::Draw if position.repetitions() >= 2 => ("repetition", "threefold repetition"),
            Outcome::Draw => ("sixty-plies", "60 plies without a capture or Progressor move"),
        };
        Some(GameEnd { outcome, reason, detail: detail.to_string() })
    }

    fn position_hash(&self) -> u64 {
        self.position().hash()
    }

    fn repetitions(&self) -> usize {
        self.position().repetitions() as usize
    }

    fn default_max_plies(&self) -> usize {
        // The 60-ply rule ends aimless games; this only bounds pathological ones.
        600
    }
}

/// The game type every tournament plays unless told otherwise.
pub const DEFAULT_GAME_TYPE: &str = "Base+MLP";

/// A new game of `game_type`, or the game `game_string` (which must be of that type), checked
/// move by move. This is the one place where game types are told apart.
pub fn load_game(game_type: &str, game_string: Option<&str>) -> Result<Box<dyn RefereeGame>, String> {
    if let Some(text) = game_string {
        let found = text.split(';').next().unwrap_or_default().trim();
        if found != game_type {
            return Err(format!("the GameString is of type `{found}`, the tournament plays `{game_type}`"));
        }
    }
    if game_type == "Intellector" {
        let game = match game_string {
            Some(text) => IntellectorGame::parse(text.trim(), IntellectorRules::Modern).map_err(|e| e.to_string())?,
            None => IntellectorGame::new(IntellectorRules::Modern),
        };
        return Ok(Box::new(game));
    }
    let Some(hive_type) = GameType::parse(game_type) else {
        return Err(format!(
            "unknown game type `{game_type}` (Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP, Base+MLP or Intellector)"
        ));
    };
    let game = match game_string {
        Some(text) => HiveGame::parse(text.trim()).map_err(|e| e.to_string())?,
        None => HiveGame::new(hive_type),
    };
    Ok(Box::new(game))
}

/// A game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Nobody won.
    Draw,
}

impl GameResult {
    /// The win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The GameStateString for it, as Mzinga's PGN `Result` tag writes it.
    pub fn state(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "WhiteWins",
            GameResult::BlackWins => "BlackWins",
            GameResult::Draw => "Draw",
        }
    }

    /// The chess-style score: `1-0`, `0-1`, `1/2-1/2`.
    pub fn score(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Points for the player of `color` (1, ½ or 0).
    pub fn points(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Termination {
    /// Machine-readable: `surrounded`, `both-surrounded`, `repetition`, `max-plies`,
    /// `illegal-move`, `crash`, `timeout`, `protocol-error` (or a game's own rule name).
    pub reason: &'static str,
    /// In words, naming the engine at fault where there is one.
    pub detail: String,
}

impl Termination {
    /// Whether an engine failed (the game's transcript is worth keeping).
    pub fn is_failure(&self) -> bool {
        matches!(self.reason, "illegal-move" | "crash" | "timeout" | "protocol-error")
    }

    fn from_error(engine: &str, error: &EngineError) -> Termination {
        let reason = match error {
            EngineError::Spawn(_) | EngineError::NoDirectory(_) | EngineError::Crash(_) => "crash",
            EngineError::Timeout(_) => "timeout",
            EngineError::Protocol(_) | EngineError::Aborted => "protocol-error",
        };
        Termination { reason, detail: format!("{engine} {error}") }
    }
}

/// Adjudication and waiting rules for every game.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// A draw once this many plies have been played (0: never).
    pub max_plies: usize,
    /// A draw when a position occurs for this many times with the same side to move (0: never).
    pub repetitions: usize,
    /// How long to wait for engines.
    pub timeouts: Timeouts,
}

/// A finished game as the referee saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// Every MoveString from the start, opening included.
    pub moves: Vec<String>,
    /// Plies in the opening.
    pub opening_plies: usize,
    /// The final GameString (its state field is the rules' view: an adjudicated game may still
    /// read `InProgress`).
    pub game_string: String,
    /// Time each colour spent on its moves (White, Black), protocol round trips included.
    pub think: [Duration; 2],
    /// What was said to and by both engines, when an engine failed.
    pub transcript: Option<String>,
    /// When the game started.
    pub started: SystemTime,
    /// How long it took.
    pub duration: Duration,
}

/// Why a game produced no result.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayError {
    /// The tournament is stopping.
    Aborted,
    /// The game could not be set up (a bad opening that slipped through).
    Setup(String),
}

/// The end by rules or adjudication, if the game is over.
fn adjudicate(game: &dyn RefereeGame, rules: &Rules) -> Option<(GameResult, Termination)> {
    if let Some(end) = game.end() {
        let result = match end.outcome {
            Outcome::Win(color) => GameResult::win_for(color),
            _ => GameResult::Draw,
        };
        return Some((result, Termination { reason: end.reason, detail: end.detail }));
    }
    if rules.repetitions > 0 && game.repetitions() + 1 >= rules.repetitions {
        let detail = match rules.repetitions {
            3 => "threefold repetition".to_string(),
            n => format!("{n}-fold repetition"),
        };
        return Some((GameResult::Draw, Termination { reason: "repetition", detail }));
    }
    if rules.max_plies > 0 && game.plies() >= rules.max_plies {
        let detail = format!("maximum of {} plies", rules.max_plies);
        return Some((GameResult::Draw, Termination { reason: "max-plies", detail }));
    }
    None
}

/// Plays one game of `game_type` from `opening` (a GameString, or the empty board) between the
/// engines in `white` and `black`. Returns early with [`PlayError::Aborted`] once `stop` is set.
pub fn play_game(
    game_type: &str,
    opening: Option<&str>,
    white: &mut EngineSlot,
    black: &mut EngineSlot,
    rules: &Rules,
    stop: &AtomicBool,
) -> Result<PlayedGame, PlayError> {
    let (started, clock) = (SystemTime::now(), Instant::now());
    let mut game = load_game(game_type, opening).map_err(PlayError::Setup)?;
    let opening_plies = game.plies();
    let start = game.to_game_string();
    let mut slots = [white, black];
    for slot in slots.iter_mut() {
        if let Some(engine) = slot.running() {
            engine.new_game();
        }
    }
    let mut think = [Duration::ZERO; 2];
    let mut failure_log = String::new();
    let (result, termination) = loop {
        if let Some(end) = adjudicate(game.as_ref(), rules) {
            break end;
        }
        if stop.load(SeqCst) {
            return Err(PlayError::Aborted);
        }
        let side = game.to_move();
        let slot = &mut *slots[side.index()];
        let name = slot.config().name.clone();
        let loss = GameResult::win_for(side.opponent());
        let (current, history) = (game.to_game_string(), game.history());
        let position = Position { start: &start, moves: &history[opening_plies..], current: &current };
        let started = Instant::now();
        let reply = slot.engine(&rules.timeouts).and_then(|engine| engine.best_move(&position, &rules.timeouts));
        think[side.index()] += started.elapsed();
        match reply {
            Ok(mv) => {
                if let Err(why) = game.try_play(&mv) {
                    let detail = format!("illegal move by {name}: `{mv}` ({why})");
                    break (loss, Termination { reason: "illegal-move", detail });
                }
            }
            Err(EngineError::Aborted) => return Err(PlayError::Aborted),
            Err(error) => {
                let termination = Termination::from_error(&name, &error);
                // Keep what the failed engine said before throwing the process away; the next
                // game starts a fresh one. An engine that failed while starting left no process.
                match slot.running() {
                    Some(engine) => failure_log.push_str(&format!("# {name} ({side})\n{}", engine.take_transcript())),
                    None => failure_log.push_str(&format!("# {name} ({side}): {error}\n")),
                }
                slot.discard();
                break (loss, termination);
            }
        }
    };
    let transcript = termination.is_failure().then(|| {
        let mut text = failure_log;
        for (slot, color) in slots.iter_mut().zip([Color::White, Color::Black]) {
            let name = slot.config().name.clone();
            if let Some(engine) = slot.running() {
                text.push_str(&format!("# {name} ({color})\n{}", engine.take_transcript()));
            }
        }
        text
    });
    Ok(PlayedGame {
        result,
        termination,
        moves: game.history(),
        opening_plies,
        game_string: game.to_game_string(),
        think,
        transcript,
        started,
        duration: clock.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(max_plies: usize, repetitions: usize) -> Rules {
        Rules { max_plies, repetitions, timeouts: Timeouts::default() }
    }

    #[test]
    fn game_types_are_checked_in_one_place() {
        assert!(load_game("Base+MLP", None).is_ok());
        assert!(load_game("Base", Some("Base;InProgress;Black[1];wS1")).is_ok());
        let e = load_game("Base+MLP", Some("Base;InProgress;Black[1];wS1")).err().unwrap();
        assert!(e.contains("`Base`"), "{e}");
        assert!(load_game("Base+LM", None).err().unwrap().contains("unknown game type"));
        let intellector = load_game("Intellector", Some("Intellector;InProgress;Black[1];e2e3")).unwrap();
        assert_eq!(intellector.game_type_name(), "Intellector");
        assert_eq!(intellector.history(), ["e2e3"]);
        assert!(load_game("Intellector", Some("Intellector;InProgress;Black[1];e2e5")).is_err());
        let e = load_game("Base", Some("Base;InProgress;White[2];wS1;bQ wS1-")).err().unwrap();
        assert!(e.contains("Unable to play"), "{e}");
    }

    #[test]
    fn moves_are_checked_and_recorded_canonically() {
        let mut game = load_game("Base", Some("Base;InProgress;Black[1];wS1")).unwrap();
        assert_eq!(game.to_move(), Color::Black);
        assert!(game.try_play("bQ wS1-").unwrap_err().contains("Queen Bee"));
        assert!(game.try_play("garbage").unwrap_err().contains("Unable to parse"));
        assert_eq!(game.try_play("BS1  WS1-").unwrap(), "bS1 wS1-");
        assert_eq!(game.plies(), 2);
        assert_eq!(game.to_game_string(), "Base;InProgress;White[2];wS1;bS1 wS1-");
        assert_eq!(game.history(), ["wS1", "bS1 wS1-"]);
        assert_eq!(game.state(), "InProgress");
        assert!(game.end().is_none());
    }

    #[test]
    fn adjudication_by_surround_repetition_and_length() {
        // Black's queen surrounded, and both queens at once (positions/hive-moves.txt).
        let won = "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";
        let game = load_game("Base", Some(won)).unwrap();
        let (result, t) = adjudicate(game.as_ref(), &rules(300, 3)).unwrap();
        assert_eq!((result, t.reason, t.detail.as_str()), (GameResult::WhiteWins, "surrounded", "queen surrounded"));
        let drawn = "Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bG1 wA1/;wQ -bQ;bA1 \\wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2";
        let game = load_game("Base", Some(drawn)).unwrap();
        let (result, t) = adjudicate(game.as_ref(), &rules(300, 3)).unwrap();
        assert_eq!((result, t.reason), (GameResult::Draw, "both-surrounded"));
        // Queens stepping back and forth repeat the position.
        let mut game = load_game("Base", None).unwrap();
        for mv in ["wB1", "bB1 wB1-", "wQ -wB1", "bQ bB1-"] {
            game.try_play(mv).unwrap();
        }
        assert!(adjudicate(game.as_ref(), &rules(300, 3)).is_none());
        for mv in ["wQ \\wB1", "bQ bB1/", "wQ -wB1", "bQ bB1-"] {
            game.try_play(mv).unwrap();
        }
        // The start of the shuffle has now occurred twice.
        assert_eq!(game.repetitions(), 1);
        assert!(adjudicate(game.as_ref(), &rules(300, 3)).is_none());
        assert_eq!(adjudicate(game.as_ref(), &rules(300, 2)).unwrap().1.reason, "repetition");
        for mv in ["wQ \\wB1", "bQ bB1/", "wQ -wB1", "bQ bB1-"] {
            game.try_play(mv).unwrap();
        }
        let (result, t) = adjudicate(game.as_ref(), &rules(300, 3)).unwrap();
        assert_eq!((result, t.reason, t.detail.as_str()), (GameResult::Draw, "repetition", "threefold repetition"));
        assert!(adjudicate(game.as_ref(), &rules(300, 0)).is_none());
        let (result, t) = adjudicate(game.as_ref(), &rules(12, 0)).unwrap();
        assert_eq!((result, t.reason), (GameResult::Draw, "max-plies"));
    }

    #[test]
    fn results_score_both_colours() {
        assert_eq!(GameResult::WhiteWins.points(Color::White), 1.0);
        assert_eq!(GameResult::WhiteWins.points(Color::Black), 0.0);
        assert_eq!(GameResult::Draw.points(Color::Black), 0.5);
        assert_eq!(GameResult::win_for(Color::Black).score(), "0-1");
        assert_eq!(GameResult::Draw.state(), "Draw");
    }
}
