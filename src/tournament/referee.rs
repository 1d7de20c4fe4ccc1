//! The referee: it keeps its own copy of every game with comb's rules, asks the engine to move
//! for the side to move, checks every move, and ends the game by the rules, by adjudication
//! (repetition, maximum plies) or by an engine's failure (illegal move, crash, timeout,
//! protocol error: a loss for that engine).
//!
//! The referee plays an [`AnyGame`], the rules floor's game, and [`load_game`] is the one place
//! that turns the tournament's game type into a game.
//!
//! **How engines are driven.** By default, before every move the engine gets
//! `newgame <GameString>` with the whole game so far, then `bestmove depth N` or
//! `bestmove time hh:mm:ss.fff`. Loading the full position each time costs comb little
//! (replaying a few hundred plies) and is robust: an engine that mishandles `play`, or whose
//! state drifted, still sees exactly the referee's position. hive-hydra, the hivegame.com
//! bridge, drives engines the same way. Engines whose `newgame` is slow can follow the game with
//! `play` instead (`sync=play`, see [`crate::client::Sync`]).

use super::error::LoadError;
use crate::client::{shown, EngineError, EngineSlot, Position, Timeouts};
use crate::game::{Color, Outcome};
use crate::games::{AnyGame, GameOptions, UnknownGameType};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::time::{Duration, Instant, SystemTime};

/// The maximum-plies adjudication used when the command line gives none: a tournament's
/// choice, not the rules'.
pub fn default_max_plies(game: &AnyGame) -> usize {
    match game {
        AnyGame::Hive(_) => 300,
        // The 60-ply rule ends aimless games; this only bounds pathological ones.
        AnyGame::Intellector(_) => 600,
    }
}

/// The game type every tournament plays unless told otherwise.
pub const DEFAULT_GAME_TYPE: &str = "Base+MLP";

/// A new game of `game_type`, or the game `game_string` (which must be of that type), checked
/// move by move, set up with `options`.
pub fn load_game(game_type: &str, game_string: Option<&str>, options: GameOptions) -> Result<AnyGame, LoadError> {
    if let Some(text) = game_string {
        let found = text.split(';').next().unwrap_or_default().trim();
        if found != game_type {
            return Err(LoadError::WrongType { found: found.to_string(), wanted: game_type.to_string() });
        }
    }
    let empty =
        options.new_game(game_type).map_err(|_| LoadError::UnknownType(UnknownGameType(game_type.to_string())))?;
    match game_string {
        Some(text) => options.parse(text.trim()).map_err(LoadError::Rules),
        None => Ok(empty),
    }
}

/// A game's result; in JSON, its GameStateString (`WhiteWins`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

    /// The result a GameStateString names (`WhiteWins`, `BlackWins`, `Draw`).
    pub fn from_state(state: &str) -> Option<GameResult> {
        [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw].into_iter().find(|r| r.state() == state)
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

/// Every reason a game can end for, as [`Termination::reason`] names it.
pub const REASONS: [&str; 12] = [
    "surrounded",
    "both-surrounded",
    "fatum",
    "breakthrough",
    "no-moves",
    "repetition",
    "sixty-plies",
    "max-plies",
    "illegal-move",
    "crash",
    "timeout",
    "protocol-error",
];

impl Termination {
    /// The reason named `name` (as a game file writes it), if it is one.
    pub fn reason_named(name: &str) -> Option<&'static str> {
        REASONS.iter().copied().find(|&r| r == name)
    }

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
    /// How games are set up: the rules Intellector games are played under (engines are not
    /// told: give them `option.IntellectorRules=Classic` to match).
    pub game: GameOptions,
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
    Setup(LoadError),
}

/// The end by rules or adjudication, if the game is over.
fn adjudicate(game: &AnyGame, rules: &Rules) -> Option<(GameResult, Termination)> {
    if let Some((outcome, reason)) = game.end() {
        let result = match outcome {
            Outcome::Win(color) => GameResult::win_for(color),
            _ => GameResult::Draw,
        };
        return Some((result, Termination { reason: reason.name(), detail: reason.detail().to_string() }));
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
    let mut game = load_game(game_type, opening, rules.game).map_err(PlayError::Setup)?;
    let opening_plies = game.plies();
    let start = game.game_string();
    let mut slots = [white, black];
    for slot in slots.iter_mut() {
        if let Some(engine) = slot.running() {
            engine.new_game();
        }
    }
    let mut think = [Duration::ZERO; 2];
    let mut failure_log = String::new();
    // The side whose engine sent an illegal move: its process is thrown away once the
    // transcript is taken, as after every other fault.
    let mut illegal_mover = None;
    let (result, termination) = loop {
        if let Some(end) = adjudicate(&game, rules) {
            break end;
        }
        if stop.load(SeqCst) {
            return Err(PlayError::Aborted);
        }
        let side = game.to_move();
        let slot = &mut *slots[side.index()];
        let name = slot.config().name.clone();
        let loss = GameResult::win_for(side.opponent());
        let (current, history) = (game.game_string(), game.move_strings());
        let position = Position { start: &start, moves: &history[opening_plies..], current: &current };
        let started = Instant::now();
        let reply = slot.engine(&rules.timeouts).and_then(|engine| engine.best_move(&position, &rules.timeouts));
        think[side.index()] += started.elapsed();
        match reply {
            Ok(mv) => {
                // Record the canonical form rather than the engine's spelling (nokamute writes
                // self-references such as `wA1 wA1\`), so PGN readers and other engines get the
                // reference notation.
                if let Err(why) = game.play_canonical(&mv) {
                    // The engine's text is shown escaped and cut (`client::shown`).
                    let detail = format!("illegal move by {name}: `{}` ({})", shown(&mv), shown(&why.to_string()));
                    illegal_mover = Some(side);
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
    // One rule for every fault: the engine at fault starts afresh for its next game, since
    // whatever state led it astray may still be there.
    if let Some(side) = illegal_mover {
        slots[side.index()].discard();
    }
    Ok(PlayedGame {
        result,
        termination,
        moves: game.move_strings().to_vec(),
        opening_plies,
        game_string: game.game_string(),
        think,
        transcript,
        started,
        duration: clock.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_and_result_reads_back_from_its_name() {
        for end in crate::games::EndReason::all() {
            assert_eq!(Termination::reason_named(end.name()), Some(end.name()));
        }
        assert_eq!(Termination::reason_named("resigned"), None);
        for result in [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw] {
            assert_eq!(GameResult::from_state(result.state()), Some(result));
        }
    }

    fn rules(max_plies: usize, repetitions: usize) -> Rules {
        Rules { max_plies, repetitions, timeouts: Timeouts::default(), game: GameOptions::default() }
    }

    fn load_game(game_type: &str, game_string: Option<&str>) -> Result<AnyGame, LoadError> {
        super::load_game(game_type, game_string, GameOptions::default())
    }

    #[test]
    fn game_types_are_checked_in_one_place() {
        assert!(load_game("Base+MLP", None).is_ok());
        assert!(load_game("Base", Some("Base;InProgress;Black[1];wS1")).is_ok());
        let e = load_game("Base+MLP", Some("Base;InProgress;Black[1];wS1")).err().unwrap().to_string();
        assert!(e.contains("`Base`"), "{e}");
        assert!(load_game("Base+LM", None).err().unwrap().to_string().contains("unknown game type"));
        let intellector = load_game("Intellector", Some("Intellector;InProgress;Black[1];e2e3")).unwrap();
        assert_eq!(intellector.type_field(), "Intellector");
        assert_eq!(intellector.move_strings(), ["e2e3"]);
        assert!(load_game("Intellector", Some("Intellector;InProgress;Black[1];e2e5")).is_err());
        let e = load_game("Base", Some("Base;InProgress;White[2];wS1;bQ wS1-")).err().unwrap().to_string();
        assert!(e.contains("Unable to play"), "{e}");
    }

    #[test]
    fn moves_are_checked_and_recorded_canonically() {
        let mut game = load_game("Base", Some("Base;InProgress;Black[1];wS1")).unwrap();
        assert_eq!(game.to_move(), Color::Black);
        assert!(game.play_canonical("bQ wS1-").unwrap_err().to_string().contains("Queen Bee"));
        assert!(game.play_canonical("garbage").unwrap_err().to_string().contains("Unable to parse"));
        assert_eq!(game.play_canonical("BS1  WS1-").unwrap(), "bS1 wS1-");
        assert_eq!(game.plies(), 2);
        assert_eq!(game.game_string(), "Base;InProgress;White[2];wS1;bS1 wS1-");
        assert_eq!(game.move_strings(), ["wS1", "bS1 wS1-"]);
        assert_eq!(game.state_string(), "InProgress");
        assert!(game.end().is_none());
    }

    #[test]
    fn adjudication_by_surround_repetition_and_length() {
        // Black's queen surrounded, and both queens at once (positions/hive-moves.txt).
        let won = "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";
        let game = load_game("Base", Some(won)).unwrap();
        let (result, t) = adjudicate(&game, &rules(300, 3)).unwrap();
        assert_eq!((result, t.reason, t.detail.as_str()), (GameResult::WhiteWins, "surrounded", "queen surrounded"));
        let drawn = "Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bG1 wA1/;wQ -bQ;bA1 \\wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2";
        let game = load_game("Base", Some(drawn)).unwrap();
        let (result, t) = adjudicate(&game, &rules(300, 3)).unwrap();
        assert_eq!((result, t.reason), (GameResult::Draw, "both-surrounded"));
        // Queens stepping back and forth repeat the position.
        let mut game = load_game("Base", None).unwrap();
        for mv in ["wB1", "bB1 wB1-", "wQ -wB1", "bQ bB1-"] {
            game.play_canonical(mv).unwrap();
        }
        assert!(adjudicate(&game, &rules(300, 3)).is_none());
        for mv in ["wQ \\wB1", "bQ bB1/", "wQ -wB1", "bQ bB1-"] {
            game.play_canonical(mv).unwrap();
        }
        // The start of the shuffle has now occurred twice.
        assert_eq!(game.repetitions(), 1);
        assert!(adjudicate(&game, &rules(300, 3)).is_none());
        assert_eq!(adjudicate(&game, &rules(300, 2)).unwrap().1.reason, "repetition");
        for mv in ["wQ \\wB1", "bQ bB1/", "wQ -wB1", "bQ bB1-"] {
            game.play_canonical(mv).unwrap();
        }
        let (result, t) = adjudicate(&game, &rules(300, 3)).unwrap();
        assert_eq!((result, t.reason, t.detail.as_str()), (GameResult::Draw, "repetition", "threefold repetition"));
        assert!(adjudicate(&game, &rules(300, 0)).is_none());
        let (result, t) = adjudicate(&game, &rules(12, 0)).unwrap();
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
