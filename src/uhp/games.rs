//! The game a session is playing: one enum over the games comb knows, so that every command
//! dispatches once and then runs the monomorphised rules and search.

use crate::error::RulesError;
use crate::game::Game;
use crate::hive::{GameType, Hive, HiveGame};
use crate::intellector::{self, IntellectorGame, Rules};
use crate::search::{Engine, Limits, Report};
use std::sync::atomic::AtomicBool;

/// A game in progress.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Hive, any expansion set.
    Hive(HiveGame),
    /// Intellector, from the standard or a custom start.
    Intellector(IntellectorGame),
}

/// What a game needs to offer the protocol beyond the [`Game`] trait: its position and the
/// MoveStrings of its moves.
trait Notation {
    type Position: Game;
    fn position(&self) -> &Self::Position;
    fn format(position: &Self::Position, mv: <Self::Position as Game>::Move) -> String;
}

impl Notation for HiveGame {
    type Position = Hive;
    fn position(&self) -> &Hive {
        self.hive()
    }
    fn format(position: &Hive, mv: crate::hive::Move) -> String {
        position.move_string(mv)
    }
}

impl Notation for IntellectorGame {
    type Position = intellector::Position;
    fn position(&self) -> &intellector::Position {
        self.position()
    }
    fn format(position: &intellector::Position, mv: intellector::Move) -> String {
        position.move_string(mv)
    }
}

/// Whether a GameString or game type names Intellector (`Intellector`, `Intellector[<SIP>]`).
fn is_intellector(text: &str) -> bool {
    text.get(..intellector::record::GAME_TYPE.len())
        .is_some_and(|t| t.eq_ignore_ascii_case(intellector::record::GAME_TYPE))
}

/// Formats a principal variation move by move from `start`.
fn format_line<N: Notation>(start: &N::Position, line: &[<N::Position as Game>::Move]) -> Vec<String> {
    let mut position = start.clone();
    line.iter()
        .map(|&mv| {
            let s = N::format(&position, mv);
            position.make(mv);
            s
        })
        .collect()
}

/// A search result with its moves written as MoveStrings.
#[derive(Clone, Debug)]
pub struct FormattedResult {
    /// The best move.
    pub best: String,
    /// Its score (hundredths; mate scores are large).
    pub score: i32,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: std::time::Duration,
    /// The principal variation.
    pub pv: Vec<String>,
}

impl FormattedResult {
    /// One JSON object: `{"move":…,"score":…,"depth":…,"nodes":…,"time":…,"pv":[…]}`.
    pub fn to_json(&self) -> String {
        let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
        let pv: Vec<String> = self.pv.iter().map(|m| quote(m)).collect();
        format!(
            "{{\"move\":{},\"score\":{},\"depth\":{},\"nodes\":{},\"time\":{:.3},\"pv\":[{}]}}",
            quote(&self.best),
            self.score,
            self.depth,
            self.nodes,
            self.time.as_secs_f64(),
            pv.join(",")
        )
    }
}

fn search<N: Notation>(
    game: &N,
    engine: &mut Engine,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(String),
) -> Option<FormattedResult> {
    let root = game.position();
    let mut on_iteration = |r: &Report<<N::Position as Game>::Move>| {
        let pv = format_line::<N>(root, &r.pv);
        if let Some(first) = pv.first() {
            report(format!("{first};{};{:.2};{}", r.depth, r.score as f64 / 100.0, pv.join(";")));
        }
    };
    let r = engine.search(root, limits, stop, &mut on_iteration);
    let best = N::format(root, r.best?);
    Some(FormattedResult {
        best,
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        time: r.time,
        pv: format_line::<N>(root, &r.pv),
    })
}

impl AnyGame {
    /// A new game for a game type (`Base…` or `Intellector[…]`), if `text` is one.
    pub fn from_type(text: &str, rules: Rules) -> Option<AnyGame> {
        if is_intellector(text) {
            return IntellectorGame::from_game_type(text, rules).ok().map(AnyGame::Intellector);
        }
        GameType::parse(text).map(|t| AnyGame::Hive(HiveGame::new(t)))
    }

    /// Loads a GameString of either game (Intellector games under `rules`).
    pub fn parse(text: &str, rules: Rules) -> Result<AnyGame, RulesError> {
        if is_intellector(text) {
            IntellectorGame::parse(text, rules).map(AnyGame::Intellector)
        } else {
            HiveGame::parse(text).map(AnyGame::Hive)
        }
    }

    /// A game type or a GameString, whichever `text` is (for command-line positions).
    pub fn from_type_or_string(text: &str, rules: Rules) -> Result<AnyGame, RulesError> {
        match AnyGame::from_type(text, rules) {
            Some(g) => Ok(g),
            None => AnyGame::parse(text, rules),
        }
    }

    /// The current position as an Intellector position string (SIP v2), for Intellector games.
    pub fn sip(&self) -> Option<String> {
        match self {
            AnyGame::Hive(_) => None,
            AnyGame::Intellector(g) => Some(g.to_sip()),
        }
    }

    /// The GameString.
    pub fn game_string(&self) -> String {
        match self {
            AnyGame::Hive(g) => g.game_string(),
            AnyGame::Intellector(g) => g.game_string(),
        }
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        match self {
            AnyGame::Hive(g) => g.hive().outcome().is_over(),
            AnyGame::Intellector(g) => g.position().outcome().is_over(),
        }
    }

    /// Plies played.
    pub fn plies(&self) -> usize {
        match self {
            AnyGame::Hive(g) => g.moves().len(),
            AnyGame::Intellector(g) => g.moves().len(),
        }
    }

    /// Applies the repetition-draw option (Hive only: Intellector always has the rule).
    pub fn set_repetition_draw(&mut self, on: bool) {
        match self {
            AnyGame::Hive(g) => g.set_repetition_draw(on),
            AnyGame::Intellector(_) => {}
        }
    }

    /// Plays a MoveString.
    pub fn play(&mut self, text: &str) -> Result<(), RulesError> {
        match self {
            AnyGame::Hive(g) => g.play(text),
            AnyGame::Intellector(g) => g.play(text),
        }
    }

    /// The legal moves, `;`-joined.
    pub fn valid_moves(&mut self) -> String {
        match self {
            AnyGame::Hive(g) => g.valid_moves_string(),
            AnyGame::Intellector(g) => g.valid_moves_string(),
        }
    }

    /// Takes back `n` moves (at most the number played).
    pub fn undo(&mut self, n: usize) {
        match self {
            AnyGame::Hive(g) => g.undo(n),
            AnyGame::Intellector(g) => g.undo(n),
        }
    }

    /// Perft from the current position, or `None` if stopped.
    pub fn perft(&self, depth: usize, stop: &AtomicBool) -> Option<u64> {
        match self {
            AnyGame::Hive(g) => crate::perft::perft_interruptible(&mut g.hive().clone(), depth, stop),
            AnyGame::Intellector(g) => crate::perft::perft_interruptible(&mut g.position().clone(), depth, stop),
        }
    }

    /// Perft split over the threads of the current rayon pool.
    pub fn perft_parallel(&self, depth: usize) -> u64 {
        match self {
            AnyGame::Hive(g) => crate::perft::perft_parallel(g.hive(), depth),
            AnyGame::Intellector(g) => crate::perft::perft_parallel(g.position(), depth),
        }
    }

    /// Searches and returns the best move's MoveString, handing every finished iteration to
    /// `report` as a `move;depth;score;pv…` line.
    pub fn best_move(
        &self,
        engine: &mut Engine,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(String),
    ) -> Option<String> {
        self.search_with_report(engine, limits, stop, report).map(|r| r.best)
    }

    /// Searches and returns the whole result, moves written as MoveStrings. Panics if the game
    /// is over (callers check first).
    pub fn search(
        &self,
        engine: &mut Engine,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(String),
    ) -> FormattedResult {
        self.search_with_report(engine, limits, stop, report).expect("a game in progress has a legal move")
    }

    fn search_with_report(
        &self,
        engine: &mut Engine,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(String),
    ) -> Option<FormattedResult> {
        match self {
            AnyGame::Hive(g) => search(g, engine, limits, stop, report),
            AnyGame::Intellector(g) => search(g, engine, limits, stop, report),
        }
    }
}
