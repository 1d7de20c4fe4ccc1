//! The games `comb analyze` reviews: one GameString, or a file (or standard input) of
//! GameStrings, of games in Hive PGN, or a tournament's JSONL record (`comb tournament
//! --jsonl`).
//!
//! A GameString file has one game a line; blank lines and `#` comments are skipped. PGN is told
//! apart as opening books are ([`is_pgn`]); a JSONL record by its first line, a JSON object
//! ([`is_jsonl`]). A line or game that does not load is a [`Problem`] that names its line, and
//! the others are still reviewed; a text that cannot be read at all is an [`InputError`].
//!
//! A game from a tournament's record knows the opening it was started from: a JSONL line's
//! `opening_plies`, or the plies of a PGN game's `Opening` tag (a GameString, as the tournament
//! writes it). Those plies are its [`Entry::book`].

use crate::error::RulesError;
use crate::games::{AnyGame, GameOptions};
use crate::pgn::{self, PgnError};
use crate::tournament::openings::is_pgn;
use std::fmt;
use std::path::{Path, PathBuf};

/// A game to review, with where it came from.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its number among the input's games (bad ones counted too), from 1.
    pub number: usize,
    /// The line it is on (where it starts, in PGN), from 1.
    pub line: usize,
    /// The `White` tag of a PGN game.
    pub white: Option<String>,
    /// The `Black` tag of a PGN game.
    pub black: Option<String>,
    /// The result a PGN game records (its `Result` tag or result token), which a resigned game
    /// has and its moves do not show; a tournament record's `result`.
    pub recorded_result: Option<String>,
    /// Plies of the opening the game was started from, which the players did not choose (0
    /// unless a tournament's record says).
    pub book: usize,
    /// The game, replayed and checked by the rules.
    pub game: AnyGame,
}

impl Entry {
    fn new(number: usize, line: usize, game: AnyGame) -> Entry {
        Entry { number, line, white: None, black: None, recorded_result: None, book: 0, game }
    }
}

/// A line or game of the input that does not load.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// Its line, from 1.
    pub line: usize,
    /// What is wrong, starting with `line N`.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The games of an input, and its lines that do not load.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// The games, in order.
    pub games: Vec<Entry>,
    /// The bad lines or games, in order.
    pub problems: Vec<Problem>,
}

/// Why there is nothing to review.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file cannot be read.
    #[error("{}: {error}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{}: not UTF-8 text", .path.display())]
    NotUtf8 {
        /// The file, or `-` for standard input.
        path: PathBuf,
    },
    /// The GameString given as the argument does not load.
    #[error("the GameString does not load: {0}")]
    GameString(RulesError),
    /// The PGN text's layout is broken (its games cannot be told apart).
    #[error(transparent)]
    Pgn(PgnError),
    /// The input holds no game.
    #[error("{}: no games", .path.display())]
    NoGames {
        /// The file, or `-` for standard input.
        path: PathBuf,
    },
}

/// What the argument names: a GameString if it holds a `;`, standard input for `-`, else a
/// file.
pub fn load(argument: &str, options: GameOptions) -> Result<Input, InputError> {
    if argument.contains(';') {
        let game = options.parse(argument.trim()).map_err(InputError::GameString)?;
        return Ok(Input { games: vec![Entry::new(1, 1, game)], problems: Vec::new() });
    }
    let path = PathBuf::from(argument);
    let bytes = if argument == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(|error| InputError::Read { path: path.clone(), error })?;
        bytes
    } else {
        std::fs::read(&path).map_err(|error| InputError::Read { path: path.clone(), error })?
    };
    let text = String::from_utf8(bytes).map_err(|_| InputError::NotUtf8 { path: path.clone() })?;
    let input = parse(&path, &text, options)?;
    if input.games.is_empty() && input.problems.is_empty() {
        return Err(InputError::NoGames { path });
    }
    Ok(input)
}

/// The games of `text`, the contents of `path`: a tournament's JSONL record, PGN or
/// GameStrings (see [`is_jsonl`], [`is_pgn`]).
pub fn parse(path: &Path, text: &str, options: GameOptions) -> Result<Input, InputError> {
    if is_jsonl(text) {
        Ok(parse_jsonl(text, options))
    } else if is_pgn(path, text) {
        parse_pgn(text, options)
    } else {
        Ok(parse_game_strings(text, options))
    }
}

/// Whether `text` is JSON lines: its first line that is not blank is an object (`{`), which no
/// GameString or PGN line is.
pub fn is_jsonl(text: &str) -> bool {
    text.lines()
        .map(|l| l.trim_start_matches('\u{feff}').trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with('{'))
}

/// What `comb analyze` reads of a tournament record's line (`comb tournament --jsonl`); the
/// other fields are skipped.
#[derive(serde::Deserialize)]
struct RecordedGame {
    white: String,
    black: String,
    result: String,
    opening_plies: usize,
    game_string: String,
}

/// A tournament's JSONL record, one game a line: the game is the line's `game_string`, with its
/// players, result and opening plies.
pub fn parse_jsonl(text: &str, options: GameOptions) -> Input {
    let mut input = Input::default();
    let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_start_matches('\u{feff}').trim()));
    for (number, (line, content)) in lines.filter(|(_, c)| !c.is_empty()).enumerate() {
        let problem = |why: String| Problem { line, message: format!("line {line}: {why}") };
        let recorded = match serde_json::from_str::<RecordedGame>(content) {
            Ok(recorded) => recorded,
            Err(e) => {
                input.problems.push(problem(crate::json::error_in_line(&e)));
                continue;
            }
        };
        match options.parse(&recorded.game_string) {
            Ok(game) => input.games.push(Entry {
                white: Some(recorded.white),
                black: Some(recorded.black),
                recorded_result: Some(recorded.result),
                book: recorded.opening_plies.min(game.plies()),
                ..Entry::new(number + 1, line, game)
            }),
            Err(e) => input.problems.push(problem(e.to_string())),
        }
    }
    input
}

/// One GameString a line; blank lines and `#` comments skipped.
pub fn parse_game_strings(text: &str, options: GameOptions) -> Input {
    let mut input = Input::default();
    let lines = text.lines().enumerate().map(|(i, raw)| (i + 1, raw.split('#').next().unwrap_or_default().trim()));
    for (number, (line, content)) in lines.filter(|(_, c)| !c.is_empty()).enumerate() {
        match options.start(content.trim_start_matches('\u{feff}')) {
            Ok(game) => input.games.push(Entry::new(number + 1, line, game)),
            Err(e) => input.problems.push(Problem { line, message: format!("line {line}: {e}") }),
        }
    }
    input
}

/// Games in Hive PGN: a game whose moves do not replay is a problem at the move's line.
pub fn parse_pgn(text: &str, options: GameOptions) -> Result<Input, InputError> {
    let mut input = Input::default();
    for g in pgn::parse_games(text).map_err(InputError::Pgn)? {
        match g.game(options) {
            Ok(game) => input.games.push(Entry {
                white: g.white().map(str::to_string),
                black: g.black().map(str::to_string),
                recorded_result: g.result().map(str::to_string),
                // comb's tournament writes the opening as a GameString; a tag that is none
                // (an opening's name) says nothing about plies.
                book: g.opening().and_then(|o| options.parse(o).ok()).map_or(0, |o| o.plies().min(game.plies())),
                ..Entry::new(g.number(), g.line(), game)
            }),
            Err(e) => input.problems.push(Problem { line: e.place().line, message: e.to_string() }),
        }
    }
    Ok(input)
}
