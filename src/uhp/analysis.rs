//! Searching and counting a game of any type, with the results written in its notation: what
//! `bestmove` and `perft` (in the protocol and on the command line) share.

use crate::game::Game;
use crate::games::{format_line, AnyGame};
use crate::json::Fixed;
use crate::record::{Notation, Record};
use crate::search::{Limits, Report, RootLine, Searcher};
use crate::with_record;
use std::sync::atomic::AtomicBool;

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
    /// The best root moves' lines, best first (one unless multi-PV was asked for).
    pub lines: Vec<FormattedLine>,
}

/// One root move's line: its score and its principal variation, as MoveStrings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormattedLine {
    /// Score of the line (hundredths; mate scores are large).
    pub score: i32,
    /// The move and the best play after it.
    pub pv: Vec<String>,
}

impl FormattedLine {
    fn new<G: Notation>(root: &G, line: &RootLine<G::Move>) -> FormattedLine {
        FormattedLine { score: line.score, pv: format_line(root, &line.pv) }
    }

    /// The protocol's report of a line: `move;depth;score;pv1;pv2;…` (score in pieces, `0.00`).
    pub fn report(&self, depth: u32) -> Option<String> {
        let first = self.pv.first()?;
        Some(format!("{first};{depth};{:.2};{}", self.score as f64 / 100.0, self.pv.join(";")))
    }
}

/// `bestmove --json`'s object, fields in their written order.
#[derive(serde::Serialize)]
struct JsonResult<'a> {
    #[serde(rename = "move")]
    best: &'a str,
    score: i32,
    depth: u32,
    nodes: u64,
    time: Fixed<3>,
    pv: &'a [String],
    lines: Vec<JsonLine<'a>>,
}

/// One line of [`JsonResult`]: its first move (`null` for an empty line), score and moves.
#[derive(serde::Serialize)]
struct JsonLine<'a> {
    #[serde(rename = "move")]
    first: Option<&'a str>,
    score: i32,
    pv: &'a [String],
}

impl FormattedResult {
    /// One JSON object: `{"move":…,"score":…,"depth":…,"nodes":…,"time":…,"pv":[…],
    /// "lines":[{"move":…,"score":…,"pv":[…]},…]}`, the lines best first, the time in seconds
    /// with three decimals.
    pub fn to_json(&self) -> String {
        let lines = self
            .lines
            .iter()
            .map(|l| JsonLine { first: l.pv.first().map(String::as_str), score: l.score, pv: &l.pv })
            .collect();
        crate::json::line(&JsonResult {
            best: &self.best,
            score: self.score,
            depth: self.depth,
            nodes: self.nodes,
            time: Fixed(self.time.as_secs_f64()),
            pv: &self.pv,
            lines,
        })
    }
}

/// Searches the game's current position, handing every finished iteration to `report` as
/// `move;depth;score;pv…` lines, one per multi-PV line, best first. `None` when the game is
/// over (there is no move to find).
pub fn search(
    game: &AnyGame,
    engine: &mut Searcher,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(String),
) -> Option<FormattedResult> {
    with_record!(game, r => search_record(r, engine, limits, stop, report))
}

fn search_record<G: Notation>(
    record: &Record<G>,
    engine: &mut Searcher,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(String),
) -> Option<FormattedResult> {
    let root = record.position();
    let mut on_iteration = |r: &Report<G::Move>| {
        for line in &r.lines {
            if let Some(text) = FormattedLine::new(root, line).report(r.depth) {
                report(text);
            }
        }
    };
    let r = engine.search(root, limits, stop, &mut on_iteration);
    Some(FormattedResult {
        best: root.write_move(r.best?),
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        time: r.time,
        pv: format_line(root, &r.pv),
        lines: r.lines.iter().map(|l| FormattedLine::new(root, l)).collect(),
    })
}

/// Perft from the game's current position, or `None` if stopped.
pub fn perft(game: &AnyGame, depth: usize, stop: &AtomicBool) -> Option<u64> {
    with_record!(game, r => crate::perft::perft_interruptible(&mut counting_copy(r.position()), depth, stop))
}

/// Perft split over the threads of the current rayon pool.
pub fn perft_parallel(game: &AnyGame, depth: usize) -> u64 {
    with_record!(game, r => crate::perft::perft_parallel(&counting_copy(r.position()), depth))
}

/// A copy of `position` for counting moves: perft never evaluates, so it does not keep the
/// evaluation's move-by-move state (Hive's network accumulators cost more than half of a
/// count from the start position).
fn counting_copy<G: Game>(position: &G) -> G {
    let mut copy = position.clone();
    copy.use_classic_evaluation();
    copy
}

/// One line of perft output: `5: 5427108  0.021 s  258.4 M/s` (depth, leaves, time, speed).
pub fn perft_line(depth: usize, leaves: u64, seconds: f64) -> String {
    format!("{depth}: {leaves}  {seconds:.3} s  {:.1} M/s", leaves as f64 / seconds.max(1e-9) / 1e6)
}
